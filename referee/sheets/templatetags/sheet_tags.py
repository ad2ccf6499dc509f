"""A change of record sheet as a GM reads it in the log: what moved, not the whole sheet."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join

from referee.sheets import document

register = template.Library()


@register.simple_tag
def sheet_changes(before, after) -> str:
    lines = document.changes(before or {}, after or {})
    if not lines:
        return "unchanged"
    return format_html(
        '<span class="sheet-changes">{}</span>', format_html_join("; ", "{}", ((line,) for line in lines))
    )
