"""Registrations of this app with the dashboard, the forms and the effect rules."""

from __future__ import annotations

from referee.campaigns.panels import Panel, register_panel
from referee.fleet.forms import Kind, register_kind
from referee.play.effects import register_rule
from referee.play.selectors import with_actions

from . import catalog
from .forms import BattlefieldForm, HexForm, TerrainRowForm
from .models import SLUG, Battlefield, Hex, TerrainRow
from .modifiers import read_hex, row_values, rows_for

PANEL = "terrain/panel.html"

register_kind(
    Kind(
        "battlefields",
        Battlefield,
        BattlefieldForm,
        "battlefield",
        "Battlefields",
        f"{PANEL}#battlefields-panel",
    )
)
register_kind(Kind("hexes", Hex, HexForm, "hex", "Hexes", f"{PANEL}#hexes-panel"))
register_kind(
    Kind(
        "terrain-rows",
        TerrainRow,
        TerrainRowForm,
        "terrain row",
        "Terrain rows",
        f"{PANEL}#terrain-rows-panel",
    )
)


def panel_context(campaign) -> dict:
    rows = rows_for(campaign)
    hexes = with_actions(campaign, Hex.objects.in_campaign(campaign))
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
    battlefields = with_actions(
        campaign, Battlefield.objects.in_campaign(campaign).select_related("star_system")
    )
    for field in battlefields:
        field.weather_names = [catalog.terrain_name(w) for w in field.weather]
    return {
        "battlefields": battlefields,
        "hexes": hexes,
        "rows": sorted(rows.values(), key=lambda r: (r.kind, r.name)),
        "to_fill": to_fill,
        "seed_keys": list(catalog.SEED_ROWS),
    }


register_panel(Panel("terrain", f"{PANEL}#terrain-panel", panel_context, order=30))


def _hex_terrain(obj, effect, clock):
    """terrain.clearing and a volcanic geyser change what the hex is."""
    value = effect["value"]
    if isinstance(obj, Hex) and isinstance(value, str) and SLUG.fullmatch(value):
        return [("terrain", value)]
    return []


def _eruption(obj, effect, clock):
    value = effect["value"]
    if isinstance(obj, Hex) and obj.geyser and type(value) is int and value >= 0:
        return [("erupting_turns_left", value)]
    return []


register_rule("hex", "terrain", _hex_terrain)
register_rule("hex", "geyser.erupting_turns_left", _eruption)
