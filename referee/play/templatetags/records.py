"""``{% record_url "campaigns:object-edit" campaign slug obj %}``: a record's URL for the rows
of a long list, without reversing the URL for every row.

A record's URLs differ only in the campaign, the kind and the record's code, so each name is
reversed once per campaign and kind with a stand-in code and the row's code is put in its
place (the cache holds URL shapes, nothing of any campaign's state)."""

from __future__ import annotations

from functools import lru_cache
from uuid import UUID

from django import template
from django.urls import reverse

from referee.play import families

register = template.Library()

_STAND_IN = UUID(int=0)


@lru_cache(maxsize=4096)
def _shape(name: str, campaign_code: str, slug: str) -> tuple[str, str]:
    url = reverse(name, args=[campaign_code, slug, _STAND_IN])
    before, _, after = url.rpartition(str(_STAND_IN))
    return before, after


@register.simple_tag
def record_url(name: str, campaign, slug: str, obj) -> str:
    before, after = _shape(name, str(campaign.code), slug)
    return f"{before}{obj.code}{after}"


@register.filter
def has_menu(obj) -> bool:
    """Whether the record's row offers a Roll… menu (``families.has_menu``)."""
    return families.has_menu(obj)
