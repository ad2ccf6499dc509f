"""Ground units in BattleSpace and boarding actions."""

from __future__ import annotations

from referee.fleet import sheet_reads as sheets
from referee.fleet.models import Ship, Unit

from .. import wording
from ..families import Family
from . import (
    FROM_THE_RECORD,
    FROM_THE_SHEET,
    Binding,
    BindingList,
    Context,
    Missing,
    NextStep,
    Precondition,
    Role,
    Sourced,
    subject,
)

BINDINGS = BindingList()

BOARDERS = ("battlemech", "battle_armor")
UNIT_KIND = {"battlemech": "mech", "battle_armor": "battle_armor"}
BOARDABLE = ("dropship", "warship", "jumpship")
ONLY_BOARDERS = "Only BattleMechs and battle armour board ships: the campaign has none yet."
ONLY_BOARDABLE = "Only DropShips, WarShips and JumpShips are boarded: the campaign has none yet."


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
            Role("unit", Unit, "Boarding unit", targets=("unit",), kinds=BOARDERS, when_none=ONLY_BOARDERS),
            Role("target", Ship, "Target ship", kinds=BOARDABLE, when_none=ONLY_BOARDABLE),
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
    """Where the unit landed; its damage per arc and its melee weapons named from its
    sheet, left for the GM where the sheet does not give the figures."""
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"location": unit.landed_location} if unit.landed_location else {}
    arcs = Missing(
        f"Its short-range damage in this arc: the BattleSpace fire factors of {unit.name}'s weapons "
        "here (Convert to BattleSpace gives them)."
    )
    values.update(nose_s=arcs, lw_s=arcs, rw_s=arcs)
    melee = sheets.melee_weapons_on(unit.sheet)
    if melee:
        named = wording.prose(m["name"] for m in melee)
        values["melee_damage"] = Missing(
            f"The sheet's melee weapons: {named}. Type the BattleTech damage of each."
        )
    elif not unit.sheet:
        values["melee_damage"] = Missing(NO_SHEET.format(unit=unit.name, what="melee weapons"))
    return values


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
    """Armour, jump MP, heat sinks and weapons from the unit's sheet (its record's own
    figures where it has none). Fire factor and heat per weapon are the conversion
    tables', not the sheet's: their cells are left for the GM."""
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    source = FROM_THE_SHEET if unit.sheet else FROM_THE_RECORD
    values = {
        "unit_kind": Sourced(UNIT_KIND.get(unit.kind), FROM_THE_RECORD),
        "jump_mp": Sourced(unit.jump_mp, source),
    }
    armour = "armor_factor_per_trooper" if unit.kind == "battle_armor" else "armor_factor"
    values[armour] = Sourced(unit.armor_factor, source)
    sinks = sheets.heat_sinks_on(unit.sheet)
    if unit.kind == "battlemech":
        values["heat_sinks"] = (
            Sourced(sinks["count"], FROM_THE_SHEET)
            if sinks
            else Missing(NO_SHEET.format(unit=unit.name, what="heat sinks"))
        )
    weapons = sheets.conversion_weapons(unit.sheet)
    if weapons:
        values["weapons"] = Sourced(weapons, FROM_THE_SHEET)
    elif not unit.sheet:
        values["weapons"] = Missing(NO_SHEET.format(unit=unit.name, what="weapons"))
    return values


NO_SHEET = (
    "{unit} has no record sheet to give its {what}: import its unit file (Import unit files) "
    "or give it a sheet, or type them here."
)


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
