"""Shipboard combat as a rule family: everything this app brings to the house, in one object."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import EndPhaseStep, Family, Panel

from . import effects
from .bindings import BINDINGS, DECOMPRESSION, FUEL_LEAK, breach_inputs, leak_inputs
from .forms import CompartmentForm
from .models import Compartment
from .selectors import (
    PANEL,
    PLAYER_TEMPLATE,
    compartments,
    leaking_fuel_lines,
    open_breaches,
    player_panel_context,
)

FAMILY = Family(
    name="shipboard",
    title="Shipboard combat",
    procedure_titles={"shipboard": "Shipboard combat"},
    group="shipboard",
    menu_rank=50,
    panels=(Panel("compartments", PANEL, compartments, order=60),),
    kinds=(
        Kind(
            "compartments",
            Compartment,
            CompartmentForm,
            "compartment",
            "Compartments",
            PANEL,
            deleted_with="its surfaces",
        ),
    ),
    effects=effects.RULES,
    bindings=tuple(BINDINGS),
    end_phase=(
        EndPhaseStep(DECOMPRESSION, open_breaches, inputs=breach_inputs),
        EndPhaseStep(FUEL_LEAK, leaking_fuel_lines, inputs=leak_inputs),
    ),
    player_panels=(Panel("shared_compartments", PLAYER_TEMPLATE, player_panel_context, order=60),),
)
