"""Ground units in BattleSpace and boarding actions."""

from __future__ import annotations

from referee.fleet.models import Ship, Unit

from ..families import Family
from . import Binding, BindingList, Context, NextStep, Precondition, Role, subject

BINDINGS = BindingList()

BOARDERS = ("battlemech", "battle_armor")
UNIT_KIND = {"battlemech": "mech", "battle_armor": "battle_armor"}
BOARDABLE = ("dropship", "warship", "jumpship")


def _landing_prefill(ctx: Context) -> dict:
    unit, ship = ctx.objects.get("unit"), ctx.objects.get("target")
    values = {}
    if unit is not None:
        values["unit_kind"] = UNIT_KIND.get(unit.kind)
        values["piloting"] = unit.piloting if unit.kind == "battlemech" else None
    if ship is not None:
        values["target_kind"] = ship.kind
    return values


def _landing_after(ctx: Context, outcome, recorder) -> None:
    """A unit that lands is aboard the target ship."""
    if outcome.result["landed"]:
        recorder.set(ctx.objects["unit"], "landed_on", ctx.objects["target"])
        hexside = outcome.inputs.get("entry_hexside")
        if hexside:
            recorder.set(ctx.objects["unit"], "landed_location", hexside)


BINDINGS.add(
    Binding(
        "boarding.landing",
        roles=(
            Role("unit", Unit, "Boarding unit", targets=("unit",), kinds=BOARDERS),
            Role("target", Ship, "Target ship", kinds=BOARDABLE),
        ),
        label="Board a ship",
        prefill=_landing_prefill,
        after=_landing_after,
        next_step=lambda entry, campaign: (
            NextStep(
                "Attack the ship it landed on",
                "boarding.landed_attack",
                {"unit": subject(entry, "unit"), "target": subject(entry, "target")},
            )
            if entry.result.get("landed")
            else None
        ),
    )
)


def _landed_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    return {"location": unit.landed_location} if unit and unit.landed_location else {}


BINDINGS.add(
    Binding(
        "boarding.landed_attack",
        roles=(
            Role("unit", Unit, "Landed unit", targets=("unit",), kinds=BOARDERS),
            Role("target", Ship, "Ship under attack", targets=("ship",), kinds=BOARDABLE),
        ),
        label="Attack the ship it landed on",
        prefill=_landed_prefill,
        fill_roles=lambda ctx: (
            {"target": ctx.objects["unit"].landed_on}
            if "unit" in ctx.objects and ctx.objects["unit"].landed_on_id
            else {}
        ),
        preconditions=(
            Precondition(
                "The unit has landed on the ship it attacks",
                "9.4 Boarding Actions (landed units): only a unit that landed (9.3) attacks the ship from its hull",
                lambda ctx, inputs: ctx.objects["unit"].landed_on_id == ctx.objects["target"].pk,
                reads=("unit", "target"),
            ),
        ),
    )
)


def _convert_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"unit_kind": UNIT_KIND.get(unit.kind), "jump_mp": unit.jump_mp}
    if unit.kind == "battle_armor":
        values["armor_factor_per_trooper"] = unit.armor_factor
    else:
        values["armor_factor"] = unit.armor_factor
    return values


BINDINGS.add(
    Binding(
        "groundspace.convert",
        roles=(Role("unit", Unit, "Unit", targets=("unit",), kinds=BOARDERS),),
        label="Convert to BattleSpace",
        prefill=_convert_prefill,
    )
)


def _thrust_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    return {
        "unit_kind": UNIT_KIND.get(unit.kind),
        "fuel": unit.fuel_points,
        "piloting": unit.piloting if unit.kind == "battlemech" else None,
        "has_jump_jets": unit.jump_mp > 0,
    }


BINDINGS.add(
    Binding(
        "groundspace.thrust",
        roles=(Role("unit", Unit, "Unit in space", targets=("unit",), kinds=BOARDERS),),
        label="Thrust in space",
        prefill=_thrust_prefill,
    )
)


def _damage_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    return {"unit_kind": UNIT_KIND.get(unit.kind)} if unit else {}


BINDINGS.add(
    Binding(
        "boarding.bs_to_bt_damage",
        roles=(Role("unit", Unit, "Damaged unit", targets=("unit",), kinds=BOARDERS),),
        label="BattleSpace damage to BattleTech",
        prefill=_damage_prefill,
    )
)


FAMILY = Family(
    name="boarding",
    title="Boarding actions",
    procedure_titles={"groundspace": "Ground units in space", "boarding": "Boarding actions"},
    menu_first={"boarding.landing": 50},
    menu_rank=30,
    bindings=tuple(BINDINGS),
)
