"""Reads of terrain: the dashboard panel (battlefields, hexes, the GM's terrain rows)."""

from __future__ import annotations

from . import catalog
from .models import Battlefield, Hex
from .modifiers import read_hex, row_values, rows_for

PANEL = "terrain/panel.html"


def panel_context(campaign) -> dict:
    rows = rows_for(campaign)
    hexes = list(Hex.objects.in_campaign(campaign))  # each row's Roll… menu is read when it opens
    for hex_ in hexes:
        hex_.reading = read_hex(hex_, rows)
        hex_.terrain_name = catalog.terrain_name(hex_.terrain, rows)
        hex_.condition_names = [catalog.terrain_name(c, rows) for c in hex_.conditions]
    to_fill = []
    for key, seed in catalog.SEED_ROWS.items():
        _values, gap = row_values(key, seed.kind, rows)
        if gap is not None:
            to_fill.append(gap)
    to_fill += [
        gap
        for row in rows.values()
        if row.key not in catalog.SEED_ROWS and (gap := row_values(row.key, row.kind, rows)[1]) is not None
    ]
    battlefields = list(Battlefield.objects.in_campaign(campaign).select_related("star_system"))
    for field in battlefields:
        field.weather_names = [catalog.terrain_name(w) for w in field.weather]
    return {
        "battlefields": battlefields,
        "hexes": hexes,
        "rows": sorted(rows.values(), key=lambda r: (r.kind, r.name)),
        "to_fill": to_fill,
        "seed_keys": list(catalog.SEED_ROWS),
    }


def geysers_in_play(campaign):
    """Every geyser on a battlefield in play: dormant ones roll to erupt, erupting ones
    count down; volcanic ones leave Liquid Magma behind."""
    geysers = Hex.objects.in_campaign(campaign).filter(geyser=True, battlefield__active=True)
    return geysers.order_by("battlefield__name", "name")


PLAYER_TEMPLATE = "terrain/player_panel.html#shared-battlefields"


def player_panel_context(campaign) -> list[Battlefield]:
    """The battlefields the GM shared, each with its revealed hexes (``revealed``)."""
    from django.db.models import Prefetch

    revealed = Hex.objects.visible_to("player").order_by("name", "id")
    fields = Battlefield.objects.in_campaign(campaign).visible_to("player").select_related("star_system")
    battlefields = list(fields.prefetch_related(Prefetch("hexes", queryset=revealed, to_attr="revealed")))
    for battlefield in battlefields:
        # Names from the seed's words, not the GM's own rows (those are the GM's rulings).
        battlefield.weather_names = [
            catalog.terrain_name(k) for k in battlefield.weather or () if isinstance(k, str)
        ]
        for hex_ in battlefield.revealed:
            hex_.battlefield = battlefield
            hex_.terrain_label = catalog.terrain_name(hex_.terrain)
            hex_.condition_names = [
                catalog.terrain_name(k) for k in hex_.conditions or () if isinstance(k, str)
            ]
            hex_.weather_names = [catalog.terrain_name(k) for k in hex_.weather or () if isinstance(k, str)]
    return battlefields
