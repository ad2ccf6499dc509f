"""Cargo, low-tech 'Mechs and special vehicles at the table.

The procedures are about a Ship or a Unit; what the rules change beyond the fleet's
fields (food and fuel stocks, engine explosions, conversions) is kept in the ship's
stores and the unit's refit, created on first use. Every change goes through the
recorder, so it is logged and undoable like any other.

End Phase: ships eat the whole days elapsed since their food was last counted, and
every engine hit an ICE unit has taken but not yet checked gets its explosion roll."""

from __future__ import annotations

import math
from datetime import timedelta

from referee.fleet import sheet_reads as sheets
from referee.fleet.models import EngineType, Ship, Unit, UnitKind
from referee.play.bindings import (
    FROM_THE_RECORD,
    FROM_THE_SHEET,
    Binding,
    BindingList,
    Context,
    Missing,
    Role,
    Sourced,
)
from referee.play.families import EffectRule
from referee.play.services import PlayError

from .models import ShipStores, UnitRefit

BINDINGS = BindingList()


def _round_t(x: float) -> float:
    """Tons kept to a gram's precision, so float sums do not print as 72.49999999."""
    return round(x, 6)


def stores_for(ship: Ship) -> ShipStores:
    """The ship's stores, locked, created empty the first time a rule needs them.

    Kept on the ship's instance, so every rule of one resolution changes the same record
    (a resolution loads its ship afresh)."""
    if not hasattr(ship, "_locked_stores"):
        ship._locked_stores, _ = ShipStores.objects.select_for_update().get_or_create(
            ship=ship,
            # Station-keeping is counted from now on, as the stores form counts it.
            defaults={
                "campaign_id": ship.campaign_id,
                "name": ship.name,
                "fuel_accounted_to": ship.campaign.clock,
            },
        )
    return ship._locked_stores


def refit_for(unit: Unit) -> UnitRefit:
    """The unit's refit record, locked, created the first time a rule needs it; kept on the
    unit's instance like :func:`stores_for`."""
    if not hasattr(unit, "_locked_refit"):
        unit._locked_refit, _ = UnitRefit.objects.select_for_update().get_or_create(
            unit=unit, defaults={"campaign_id": unit.campaign_id, "name": unit.name}
        )
    return unit._locked_refit


def _existing(model, **lookup):
    return model.objects.filter(**lookup).first()


def _secret_ship(ctx: Context) -> bool:
    ship = ctx.objects.get("ship")
    return ship is not None and not ship.shared


SHIP = Role("ship", Ship, "Ship", targets=("ship",))


# -- Food ---------------------------------------------------------------------------


def _days_since_counted(ctx: Context, stores: ShipStores | None) -> float | None:
    if stores is None or stores.food_accounted_to is None:
        return None
    return (ctx.clock - stores.food_accounted_to).total_seconds() / 86400


def _food_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    values = {"crew": ship.crew, "passengers": ship.passengers}
    stores = _existing(ShipStores, ship=ship)
    if stores is not None:
        values["mode"] = stores.food_mode
        elapsed = _days_since_counted(ctx, stores)
        if elapsed is not None and elapsed > 0:
            values["days"] = round(elapsed, 3)
    return values


def _food_eaten(obj, effect, ctx):
    """The meals come out of the ship's food stock, and are counted up to a later time."""
    stores = stores_for(ctx.objects["ship"])
    eaten = ctx.outcome.result["tons_total"]
    start = stores.food_accounted_to or ctx.clock
    return [
        (stores, "food_t", _round_t(max(0.0, stores.food_t - eaten))),
        (stores, "food_accounted_to", start + timedelta(days=ctx.outcome.inputs["days"])),
    ]


FOOD = BINDINGS.add(
    Binding(
        "cargo.food",
        roles=(SHIP,),
        label="Food for the voyage",
        prefill=_food_prefill,
        secret=_secret_ship,
    )
)


def food_days(ship: Ship, campaign) -> dict:
    """The End Phase counts the whole days elapsed since the food was last counted."""
    return {"days": math.floor((campaign.clock - ship.stores.food_accounted_to).total_seconds() / 86400)}


# -- Spare parts, fuel cells, station-keeping ------------------------------------------


def _stores_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    values = {"mass_t": ship.mass_t or None}
    stores = _existing(ShipStores, ship=ship)
    if stores is not None:
        values["tankage_t"] = stores.fuel_cell_bay_t
        values["burn_day_fuel_t"] = stores.burn_day_fuel_t
    return values


def _stores_applied(obj, effect, ctx):
    """Cargo cells take their capacity; station-keeping burns the cargo-cell fuel first."""
    stores = stores_for(ctx.objects["ship"])
    inputs, result = ctx.outcome.inputs, ctx.outcome.result
    changes = [
        (stores, "fuel_cell_bay_t", inputs["tankage_t"]),
        (stores, "cargo_fuel_capacity_t", _round_t(result["extra_fuel_t"])),
    ]
    if result["spare_parts_t"] is not None:
        changes.append((stores, "spare_parts_need_t", _round_t(result["spare_parts_t"])))
        changes.append((stores, "spare_parts_long_trip_t", _round_t(result["spare_parts_long_trip_t"])))
    if inputs.get("burn_day_fuel_t") is not None:
        changes.append((stores, "burn_day_fuel_t", inputs["burn_day_fuel_t"]))
    burn = result["station_keeping_fuel_t"] or 0
    if burn:
        left = stores.fuel_left_after(burn)
        changes.append((stores, "cargo_fuel_t", _round_t(left.cargo_fuel_t)))
        changes.append((stores, "fuel_t", _round_t(left.fuel_t)))
    if stores.auto_fuel and (burn or stores.fuel_accounted_to is None):
        # The days burnt here are not burnt again when the clock moves.
        start = stores.fuel_accounted_to or ctx.clock
        days = (inputs.get("station_keeping_days") or 0) if burn else 0
        changes.append((stores, "fuel_accounted_to", start + timedelta(days=days)))
    return changes


BINDINGS.add(
    Binding(
        "cargo.stores",
        roles=(SHIP,),
        label="Spare parts and fuel",
        prefill=_stores_prefill,
        secret=_secret_ship,
    )
)


# -- Low-tech 'Mechs -------------------------------------------------------------------


class IceUnitRole(Role):
    """Any unit can be chosen; the unit's menu offers the check only when it runs on an ICE."""

    def accepts(self, obj) -> bool:
        return super().accepts(obj) and obj.engine_type == EngineType.ICE


class UtilityMechRole(Role):
    """Any 'Mech can be chosen; its menu offers the table only when its refit says utility 'Mech."""

    def accepts(self, obj) -> bool:
        if not super().accepts(obj):
            return False
        known = obj.__dict__.get(UTILITY_MECH)
        if known is not None:
            return known
        return UnitRefit.objects.filter(unit_id=obj.pk, utility=True).exists()

    def prepare(self, objects) -> None:
        """One query for a page of units instead of one per 'Mech."""
        units = [obj for obj in objects if Role.accepts(self, obj)]
        if units:
            utility = set(
                UnitRefit.objects.filter(unit__in=units, utility=True).values_list("unit_id", flat=True)
            )
            for unit in units:
                unit.__dict__[UTILITY_MECH] = unit.pk in utility


UTILITY_MECH = "_is_utility_mech"  # set by UtilityMechRole.prepare on the units it read


class FusionMechRole(Role):
    """The ICE design step is offered on 'Mechs that do not run on an ICE yet."""

    def accepts(self, obj) -> bool:
        return super().accepts(obj) and obj.engine_type != EngineType.ICE


MECH = (UnitKind.BATTLEMECH.value,)


def sheet_engine(unit: Unit) -> dict:
    """What the 'Mech's sheet says of its engine and tech base; the fusion engine's weight
    is the engine table's, which the sheet does not carry: it is named for the GM to look up."""
    engine = sheets.engine_on(unit.sheet)
    if engine is None:
        return {
            "fusion_engine_weight_t": Missing(
                f"{unit.name} has no record sheet to give its engine rating: import its unit file, "
                "or type the weight of its fusion engine from the engine table."
            )
        }
    values = {
        "xl": Sourced("xl" in engine["type"].lower(), FROM_THE_SHEET),
        "fusion_engine_weight_t": Missing(
            f"The sheet gives a {engine['rating']} {engine['type'].removesuffix(' Engine')} engine: "
            "type its weight from the engine table."
        ),
    }
    if tech := sheets.tech_base_of(unit.sheet):
        values["tech_base"] = Sourced(tech, FROM_THE_SHEET)
    return values


def _ice_engine_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"tonnage": Sourced(unit.tonnage, FROM_THE_SHEET if unit.sheet else FROM_THE_RECORD)}
    values.update(sheet_engine(unit))
    refit = _existing(UnitRefit, unit=unit)
    if refit is not None:
        values.update(
            fusion_engine_weight_t=refit.fusion_engine_weight_t,
            energy_weapon_tons=refit.energy_weapon_tons,
            is_utility=refit.utility,
            tech_base=refit.tech_base,
            cargo_bay_tons=refit.cargo_bay_t,
        )
    return values


def _ice_engine_fitted(ctx: Context, outcome, recorder) -> None:
    refit = refit_for(ctx.objects["unit"])
    inputs, result = outcome.inputs, outcome.result
    recorder.set(refit, "utility", inputs["is_utility"])
    recorder.set(refit, "tech_base", inputs["tech_base"])
    recorder.set(refit, "fusion_engine_weight_t", inputs["fusion_engine_weight_t"])
    recorder.set(refit, "energy_weapon_tons", inputs["energy_weapon_tons"])
    recorder.set(refit, "cargo_bay_t", inputs["cargo_bay_tons"])
    recorder.set(refit, "ice_weight_t", _round_t(result["ice_weight_t"]))
    recorder.set(refit, "power_amps_t", _round_t(result["power_amps_t"]))
    recorder.set(refit, "internal_structure_t", result["internal_structure_t"])


BINDINGS.add(
    Binding(
        "lowtech.ice_engine",
        roles=(FusionMechRole("unit", Unit, "'Mech", targets=("unit",), kinds=MECH),),
        label="Fit an ICE engine",
        prefill=_ice_engine_prefill,
        after=_ice_engine_fitted,
    )
)


def _next_engine_hit(unit: Unit, refit: UnitRefit | None) -> int:
    """The first hit not yet checked; with every hit checked, the hit being taken now."""
    checked = refit.engine_hits_checked if refit is not None else 0
    if unit.engine_hits > checked:
        return checked + 1
    return min(3, unit.engine_hits + 1)


def _ice_explosion_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    return {"engine_hit_number": _next_engine_hit(unit, _existing(UnitRefit, unit=unit))}


def _ice_explosion_after(ctx: Context, outcome, recorder) -> None:
    """The hit counts against the unit's engine, checked or not."""
    unit = ctx.objects["unit"]
    refit = refit_for(unit)
    hit = outcome.inputs["engine_hit_number"]
    recorder.set(unit, "engine_hits", max(unit.engine_hits, hit))
    recorder.set(refit, "engine_hits_checked", max(refit.engine_hits_checked, hit))


def _refit_flag(attr: str):
    """An engine that explodes, or a third hit, ends the unit: its refit keeps the fact."""

    def rule(obj, effect, ctx):
        if effect["value"] is not True:
            return []
        changes = [(refit_for(obj), attr, True)]
        if attr == "destroyed" and obj.sheet and not obj.sheet.get("destroyed"):
            changes.append(("sheet", {**obj.sheet, "destroyed": True}))  # the record sheet says so too
        return changes

    return rule


ICE_EXPLOSION = BINDINGS.add(
    Binding(
        "lowtech.ice_explosion",
        roles=(IceUnitRole("unit", Unit, "Unit with an ICE", targets=("unit",)),),
        label="ICE explosion check",
        prefill=_ice_explosion_prefill,
        after=_ice_explosion_after,
    )
)


def _utility_critical_after(ctx: Context, outcome, recorder) -> None:
    refit = refit_for(ctx.objects["unit"])
    if outcome.result["crits"]:
        recorder.set(refit, "critical_hits", refit.critical_hits + outcome.result["crits"])


def _blown_off(obj, effect, ctx):
    refit = refit_for(obj)
    return [(refit, "locations_blown_off", refit.locations_blown_off + 1)] if effect["value"] is True else []


BINDINGS.add(
    Binding(
        "lowtech.utility_critical",
        roles=(UtilityMechRole("unit", Unit, "Utility 'Mech", targets=("unit",), kinds=MECH),),
        label="Utility 'Mech critical hits",
        after=_utility_critical_after,
    )
)


# -- Special vehicles ------------------------------------------------------------------

VEHICLE = (UnitKind.VEHICLE.value,)


def _amphibious_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"tonnage": Sourced(unit.tonnage, FROM_THE_SHEET if unit.sheet else FROM_THE_RECORD)}
    values.update(sheet_engine(unit))
    refit = _existing(UnitRefit, unit=unit)
    if refit is not None:
        values["motive_damage"] = refit.motive_damaged
        if refit.motive:
            values["motive"] = refit.motive
    return values


def _amphibious_fitted(ctx: Context, outcome, recorder) -> None:
    """The equipment is fitted (its tons and cost kept); motive damage disables it, a repaired
    motive system brings it back."""
    refit = refit_for(ctx.objects["unit"])
    result = outcome.result
    recorder.set(refit, "motive", outcome.inputs["motive"])
    recorder.set(refit, "motive_damaged", outcome.inputs["motive_damage"])
    recorder.set(refit, "amphibious", True)
    recorder.set(refit, "amphibious_equipment_t", _round_t(result["equipment_t"]))
    recorder.set(refit, "amphibious_cost_cbills", float(result["cost_cbills"]))
    if not result["amphibious_disabled"]:
        recorder.set(refit, "amphibious_disabled", False)  # repaired: the engine names no effect


def _amphibious_disabled(obj, effect, ctx):
    return [(refit_for(obj), "amphibious_disabled", True)] if effect["value"] is True else []


BINDINGS.add(
    Binding(
        "vehicle.amphibious",
        roles=(Role("unit", Unit, "Vehicle", targets=("unit",), kinds=VEHICLE),),
        label="Amphibious conversion",
        prefill=_amphibious_prefill,
        after=_amphibious_fitted,
    )
)


def _dune_buggy_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"tonnage": unit.tonnage or None}
    refit = _existing(UnitRefit, unit=unit)
    if refit is not None and refit.cruise_mp is not None:
        values["cruise_mp"] = refit.cruise_mp
    return values


def _dune_buggy_converted(obj, effect, ctx):
    """The vehicle is a dune buggy from now on, with the parts bill and the workshop time:
    it is back in service when the conversion days have passed."""
    refit = refit_for(obj)
    if refit.dune_buggy:
        raise PlayError(f"{obj.name} is already a dune buggy; a second conversion changes nothing.")
    result = ctx.outcome.result
    changes = [(refit, "dune_buggy", True)]
    if result["days"] is not None:
        changes += [
            (refit, "dune_buggy_cost_cbills", float(result["parts_cost_cbills"])),
            (refit, "dune_buggy_days", result["days"]),
            (refit, "dune_buggy_work_hours", result["work_hours"]),
            (refit, "dune_buggy_techs", ctx.outcome.inputs["techs"]),
            (refit, "conversion_ready_at", ctx.clock + timedelta(days=result["days"])),
        ]
    return changes


def _new_cruise_mp(obj, effect, ctx):
    return [(refit_for(obj), "cruise_mp", effect["value"])] if effect["value"] is not None else []


BINDINGS.add(
    Binding(
        "vehicle.dune_buggy",
        roles=(Role("unit", Unit, "Vehicle", targets=("unit",), kinds=VEHICLE),),
        label="Dune buggy conversion",
        prefill=_dune_buggy_prefill,
    )
)

UNIT_PROCEDURES = (
    "lowtech.ice_engine",
    "lowtech.ice_explosion",
    "lowtech.utility_critical",
    "vehicle.amphibious",
    "vehicle.dune_buggy",
)
SHIP_PROCEDURES = ("cargo.food", "cargo.stores")

# The effects of these procedures land on the ship's stores and the unit's refit.
RULES = (
    EffectRule("campaign", "food_stock_t", _food_eaten, procedure="cargo.food"),
    EffectRule("ship", "cargo_fuel_capacity_t", _stores_applied, procedure="cargo.stores"),
    EffectRule("unit", "destroyed", _refit_flag("destroyed"), procedure="lowtech.ice_explosion"),
    EffectRule("unit", "engine_exploded", _refit_flag("engine_exploded"), procedure="lowtech.ice_explosion"),
    EffectRule("unit", "location_blown_off", _blown_off, procedure="lowtech.utility_critical"),
    EffectRule("unit", "amphibious_disabled", _amphibious_disabled, procedure="vehicle.amphibious"),
    EffectRule("unit", "dune_buggy", _dune_buggy_converted, procedure="vehicle.dune_buggy"),
    EffectRule("unit", "cruise_mp", _new_cruise_mp, procedure="vehicle.dune_buggy"),
)
