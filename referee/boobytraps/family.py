"""Booby traps as a rule family: everything this app brings to the house, in one object."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import EndPhaseStep, Family, Panel

from . import effects
from .bindings import BINDINGS, UPKEEP
from .forms import BoobyTrapForm
from .models import BoobyTrap
from .selectors import PANEL_TEMPLATE, PLAYER_TEMPLATE, panel_context, player_panel_context, traps_to_reload

FAMILY = Family(
    name="boobytraps",
    title="Booby traps",
    procedure_titles={"booby_trap": "Booby traps"},
    group="traps",
    menu_first={"booby_trap.generate": 70, "booby_trap.pursuit_target": 71},
    panels=(Panel("boobytraps", PANEL_TEMPLATE, panel_context, order=20),),
    kinds=(Kind("boobytraps", BoobyTrap, BoobyTrapForm, "booby trap", "Booby traps", PANEL_TEMPLATE),),
    effects=effects.RULES,
    bindings=tuple(BINDINGS),
    end_phase=(EndPhaseStep(UPKEEP, traps_to_reload),),
    player_panels=(Panel("shared_traps", PLAYER_TEMPLATE, player_panel_context, order=20),),
)
