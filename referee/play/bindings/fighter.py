"""Fighter squadrons: overburn at every End Phase."""

from __future__ import annotations

from django.db.models import Q

from referee.fleet.models import Ship

from ..families import EndPhaseStep, Family
from . import Binding, BindingList, Context, Role

BINDINGS = BindingList()

SQUADRON = Role("ship", Ship, "Fighter squadron", targets=("fighter",), kinds=("fighter_squadron",))


def _overburn_prefill(ctx: Context) -> dict:
    squadron = ctx.objects.get("ship")
    if squadron is None:
        return {}
    return {
        "heat_sinks": squadron.heat_sinks,
        "heat_generated_this_turn": squadron.heat,
        "prev_overburn": squadron.overburn,
        "shutdown": squadron.shutdown,
        "fighters": max(1, squadron.fighters),
    }


def _heat_spent(ctx: Context, outcome, recorder) -> None:
    """The turn's heat has been counted into overburn."""
    recorder.set(ctx.objects["ship"], "heat", 0)


OVERBURN = BINDINGS.add(
    Binding(
        "fighter.overburn",
        roles=(SQUADRON,),
        label="Overburn (End Phase)",
        prefill=_overburn_prefill,
        after=_heat_spent,
    )
)


def _squadrons_with_heat(campaign):
    """Every squadron with heat or overburn recorded makes its End Phase overburn step."""
    return SQUADRON.choices(campaign).filter(Q(heat__gt=0) | Q(overburn__gt=0)).order_by("name")


FAMILY = Family(
    name="fighter",
    title="Fighters",
    procedure_titles={"fighter": "Fighters"},
    menu_first={"fighter.overburn": 15},
    menu_rank=15,
    bindings=tuple(BINDINGS),
    end_phase=(EndPhaseStep(OVERBURN, _squadrons_with_heat),),
)
