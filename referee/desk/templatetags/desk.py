"""The GM's desk at the top of the dashboard: ``{% gm_desk campaign %}``."""

from __future__ import annotations

from django import template

from ..selectors import TEMPLATE, desk_context

register = template.Library()


@register.inclusion_tag(TEMPLATE, takes_context=True)
def gm_desk(context, campaign) -> dict:
    return {"campaign": campaign, "desk": desk_context(campaign), "csrf_token": context.get("csrf_token")}
