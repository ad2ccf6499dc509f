"""Reads of the battle pages: each battlefield with the units on it and the terrain kept by name."""

from __future__ import annotations

from django.db.models import Prefetch

from referee.terrain.models import Battlefield, UnitPlacement

from . import board as boards
from .models import MegaMekBoard

PANEL = "battles/panel.html#battles-panel"
PLAYER_TEMPLATE = "battles/player_panel.html#unit-lists"


def battlefields_for(campaign) -> list[Battlefield]:
    """The campaign's battlefields, each with ``forces`` (the units on its map) and ``kept``
    (the MegaMek terrain it keeps by name, hex by hex)."""
    placements = UnitPlacement.objects.select_related("unit").order_by("unit__name")
    fields = list(
        Battlefield.objects.in_campaign(campaign)
        .select_related("megamek_board")
        .prefetch_related(Prefetch("placements", queryset=placements, to_attr="placed"))
        .order_by("name")
    )
    for field in fields:
        field.forces = [p.unit for p in field.placed]
        try:
            extra = field.megamek_board
        except MegaMekBoard.DoesNotExist:
            extra = None
        kept = extra.kept if extra else {}
        field.kept = [
            (label, ", ".join(boards.megamek_name(t) for t in tokens))
            for label, tokens in sorted(kept.items())
        ]
    return fields


def panel_context(campaign) -> dict:
    """The dashboard panel only leads to the battle page: it reads nothing (the dashboard's
    query budget stays the same), and counts no records of its own."""
    return {}


def player_panel_context(campaign) -> dict:
    return {"campaign_code": campaign.code}
