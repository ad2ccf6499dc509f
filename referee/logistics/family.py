"""Cargo, low-tech 'Mechs and special vehicles as a rule family: everything this app
brings to the house, in one object."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import EndPhaseStep, Family, Panel

from . import bindings, effects
from .bindings import BINDINGS, FOOD, ICE_EXPLOSION, food_days
from .forms import ShipStoresForm, UnitRefitForm
from .models import ShipStores, UnitRefit
from .selectors import (
    PANEL,
    PLAYER_TEMPLATE,
    player_panel_context,
    recruits_context,
    refits_context,
    ships_due_to_eat,
    supplies_context,
    unchecked_engine_hits,
)

FAMILY = Family(
    name="logistics",
    title="Logistics",
    procedure_titles={
        "cargo": "Cargo and supplies",
        "lowtech": "Low-tech 'Mechs",
        "vehicle": "Special vehicles",
    },
    group="logistics",
    menu_rank=60,
    panels=(
        Panel(
            "supplies",
            f"{PANEL}#supplies-panel",
            supplies_context,
            order=40,
            records=lambda c: len(c["stores"]),
        ),
        Panel("refits", f"{PANEL}#refits-panel", refits_context, order=41),
        Panel("recruits", f"{PANEL}#recruits-panel", recruits_context, order=42),
    ),
    kinds=(
        Kind("supplies", ShipStores, ShipStoresForm, "ship's stores", "Supplies", f"{PANEL}#supplies-panel"),
        Kind(
            "refits",
            UnitRefit,
            UnitRefitForm,
            "unit refit",
            "Low-tech 'Mechs and special vehicles",
            f"{PANEL}#refits-panel",
        ),
    ),
    effects=(*effects.RULES, *bindings.RULES),
    bindings=tuple(BINDINGS),
    end_phase=(
        EndPhaseStep(FOOD, ships_due_to_eat, inputs=food_days),
        EndPhaseStep(ICE_EXPLOSION, unchecked_engine_hits),
    ),
    # The whole days the clock has passed are eaten when it moves, not only at an End Phase.
    clock_steps=(EndPhaseStep(FOOD, ships_due_to_eat, inputs=food_days),),
    player_panels=(Panel("shared_stores", PLAYER_TEMPLATE, player_panel_context, order=40),),
)
