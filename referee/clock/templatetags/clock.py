"""A ship's drive as its status says it: charged, charging (done when), or uncharged."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from ..selectors import ship_lines

register = template.Library()


@register.simple_tag(takes_context=True)
def under_way(context, ship, role: str = "gm") -> list[str]:
    """``ship``'s status lines; the campaign's events are read once per page render."""
    cache = context.render_context.setdefault("clock_lines", {})
    key = (ship.campaign_id, role)
    if key not in cache:
        cache[key] = ship_lines(ship.campaign_id, role)
    return cache[key].get(ship.id, [])


@register.simple_tag(takes_context=True)
def drive_state(context, ship, role: str = "gm") -> str:
    lines = [line for line in under_way(context, ship, role) if line.startswith("charging")]
    if lines:
        return format_html('<span class="warn" data-testid="drive-{}">{}</span>', ship.code, lines[0])
    if ship.drive_charged:
        return format_html('<span class="ok" data-testid="drive-{}">charged</span>', ship.code)
    return format_html('<span class="muted" data-testid="drive-{}">uncharged</span>', ship.code)
