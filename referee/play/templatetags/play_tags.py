"""Showing logged values the way a GM reads them."""

from django import template
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def show(value) -> str:
    """true/false as yes/no, ISO times as 'YYYY-MM-DD HH:MM:SS', nothing as an em dash."""
    if value is None or value == "":
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and "T" in value:
        moment = parse_datetime(value)
        if moment is not None:
            return moment.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, str):
        return value.replace("_", " ")
    return str(value)
