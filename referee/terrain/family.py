"""Terrain, weather, heat and fire as a rule family: everything this app brings to the house."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import EndPhaseStep, Family, Panel
from referee.play.models import Visibility

from . import effects
from .bindings import BINDINGS, GEYSER_BINDING
from .forms import BattlefieldForm, HexForm, TerrainRowForm
from .models import Battlefield, Hex, TerrainRow
from .selectors import PANEL, PLAYER_TEMPLATE, geysers_in_play, panel_context, player_panel_context

FAMILY = Family(
    name="terrain",
    title="Terrain and weather",
    procedure_titles={"terrain": "Terrain", "weather": "Weather", "heat": "Heat", "fire": "Fire"},
    panels=(
        Panel(
            "terrain",
            f"{PANEL}#terrain-panel",
            panel_context,
            order=30,
            records=lambda c: len(c["battlefields"]) + len(c["hexes"]) + len(c["rows"]),
        ),
    ),
    group="ground",
    menu_first={"heat.expanded": 40, "terrain.careful_movement": 41},
    menu_rank=40,
    kinds=(
        Kind(
            "battlefields",
            Battlefield,
            BattlefieldForm,
            "battlefield",
            "Battlefields",
            f"{PANEL}#battlefields-panel",
            deleted_with="its hexes",
        ),
        Kind("hexes", Hex, HexForm, "hex", "Hexes", f"{PANEL}#hexes-panel"),
        Kind(
            "terrain-rows",
            TerrainRow,
            TerrainRowForm,
            "terrain row",
            "Terrain rows",
            f"{PANEL}#terrain-rows-panel",
        ),
    ),
    effects=effects.RULES,
    bindings=tuple(BINDINGS),
    # The eruption's length is the GM's secret: GM-only until revealed.
    end_phase=(EndPhaseStep(GEYSER_BINDING, geysers_in_play, visibility=Visibility.GM),),
    player_panels=(Panel("shared_battlefields", PLAYER_TEMPLATE, player_panel_context, order=30),),
)
