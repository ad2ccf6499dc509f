"""Battles played in MegaMek: the bridge between a campaign table and MegaMek's own files."""

from __future__ import annotations

from referee.play.families import Family, Panel

from .selectors import PANEL, PLAYER_TEMPLATE, panel_context, player_panel_context

FAMILY = Family(
    name="battles",
    title="Battles in MegaMek",
    group="ground",
    panels=(Panel("battles", PANEL, panel_context, order=35, records=lambda c: 0),),
    player_panels=(Panel("unit_lists", PLAYER_TEMPLATE, player_panel_context, order=90),),
)
