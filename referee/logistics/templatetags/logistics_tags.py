"""Numbers as a quartermaster writes them: 127.5 t, not 127.50 t or 127.49999999 t."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def tons(value) -> str:
    """At most four decimals, no trailing zeros, thousands grouped."""
    if value is None or value == "":
        return "—"
    try:
        number = round(float(value), 4)
    except (TypeError, ValueError):
        return str(value)
    text = f"{number:,.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
