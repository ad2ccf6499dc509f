"""Fighter squadrons: overburn at every End Phase."""

from __future__ import annotations

from django.db.models import Q

from referee.fleet.models import Ship

from ..end_phase import end_phase_hook
from ..services import procedure_resolve
from . import Binding, Context, Role, bind

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


OVERBURN = bind(
    Binding(
        "fighter.overburn",
        roles=(SQUADRON,),
        label="Overburn (End Phase)",
        prefill=_overburn_prefill,
        after=_heat_spent,
    )
)


@end_phase_hook
def squadrons_overburn(*, campaign, actor):
    """Every squadron with heat or overburn recorded makes its End Phase overburn step."""
    entries = []
    squadrons = SQUADRON.choices(campaign).filter(Q(heat__gt=0) | Q(overburn__gt=0)).order_by("name")
    for squadron in squadrons:
        ctx = Context(campaign=campaign, objects={"ship": squadron})
        entries.append(
            procedure_resolve(
                campaign=campaign,
                procedure_id="fighter.overburn",
                inputs=OVERBURN.initial(ctx),
                dice=None,
                actor=actor,
                subjects={"ship": squadron.code},
            )
        )
    return entries
