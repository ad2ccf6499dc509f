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

from django.db.models import F, Q

from referee.fleet.models import EngineType, Ship, Unit, UnitKind
from referee.play import services
from referee.play.bindings import Binding, Context, Role, bind
from referee.play.end_phase import end_phase_hook
from referee.play.services import PlayError

from .models import ShipStores, UnitRefit


def _round_t(x: float) -> float:
    """Tons kept to a gram's precision, so float sums do not print as 72.49999999."""
    return round(x, 6)


def stores_for(ship: Ship) -> ShipStores:
    """The ship's stores, locked, created empty the first time a rule needs them."""
    stores, _ = ShipStores.objects.select_for_update().get_or_create(
        ship=ship, defaults={"campaign_id": ship.campaign_id, "name": ship.name}
    )
    return stores


def refit_for(unit: Unit) -> UnitRefit:
    """The unit's refit record, locked, created the first time a rule needs it."""
    refit, _ = UnitRefit.objects.select_for_update().get_or_create(
        unit=unit, defaults={"campaign_id": unit.campaign_id, "name": unit.name}
    )
    return refit


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


def _food_eaten(ctx: Context, outcome, recorder) -> None:
    """The meals come out of the ship's food stock, and are counted up to a later time."""
    stores = stores_for(ctx.objects["ship"])
    eaten = outcome.result["tons_total"]
    recorder.set(stores, "food_t", _round_t(max(0.0, stores.food_t - eaten)))
    start = stores.food_accounted_to or ctx.clock
    recorder.set(stores, "food_accounted_to", start + timedelta(days=outcome.inputs["days"]))


FOOD = bind(
    Binding(
        "cargo.food",
        roles=(SHIP,),
        label="Food for the voyage",
        prefill=_food_prefill,
        after=_food_eaten,
        handled=("food_stock_t",),
        secret=_secret_ship,
    )
)


@end_phase_hook
def ships_eat(*, campaign, actor):
    """Each ship whose food is counted automatically eats the whole days elapsed since."""
    entries = []
    due = (
        ShipStores.objects.in_campaign(campaign)
        .filter(auto_food=True, food_accounted_to__lte=campaign.clock - timedelta(days=1))
        .filter(Q(ship__crew__gt=0) | Q(ship__passengers__gt=0))
        .select_related("ship")
        .order_by("ship__name", "pk")
    )
    for stores in due:
        ship = stores.ship
        ctx = Context(campaign=campaign, objects={"ship": ship})
        days = math.floor((campaign.clock - stores.food_accounted_to).total_seconds() / 86400)
        inputs = {**FOOD.initial(ctx), "days": days}
        entries.append(
            services.procedure_resolve(
                campaign=campaign,
                procedure_id="cargo.food",
                inputs=inputs,
                dice=None,
                actor=actor,
                subjects={"ship": ship.code},
            )
        )
    return entries


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


def _stores_applied(ctx: Context, outcome, recorder) -> None:
    """Cargo cells take their capacity; station-keeping burns the cargo-cell fuel first."""
    stores = stores_for(ctx.objects["ship"])
    result = outcome.result
    recorder.set(stores, "fuel_cell_bay_t", outcome.inputs["tankage_t"])
    recorder.set(stores, "cargo_fuel_capacity_t", _round_t(result["extra_fuel_t"]))
    if result["spare_parts_t"] is not None:
        recorder.set(stores, "spare_parts_need_t", _round_t(result["spare_parts_t"]))
        recorder.set(stores, "spare_parts_long_trip_t", _round_t(result["spare_parts_long_trip_t"]))
    if outcome.inputs.get("burn_day_fuel_t") is not None:
        recorder.set(stores, "burn_day_fuel_t", outcome.inputs["burn_day_fuel_t"])
    burn = result["station_keeping_fuel_t"] or 0
    if burn:
        from_cells = min(stores.cargo_fuel_t, burn)
        recorder.set(stores, "cargo_fuel_t", _round_t(stores.cargo_fuel_t - from_cells))
        recorder.set(stores, "fuel_t", _round_t(max(0.0, stores.fuel_t - (burn - from_cells))))


bind(
    Binding(
        "cargo.stores",
        roles=(SHIP,),
        label="Spare parts and fuel",
        prefill=_stores_prefill,
        after=_stores_applied,
        handled=("cargo_fuel_capacity_t",),
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
        return super().accepts(obj) and UnitRefit.objects.filter(unit_id=obj.pk, utility=True).exists()


class FusionMechRole(Role):
    """The ICE design step is offered on 'Mechs that do not run on an ICE yet."""

    def accepts(self, obj) -> bool:
        return super().accepts(obj) and obj.engine_type != EngineType.ICE


MECH = (UnitKind.BATTLEMECH.value,)


def _ice_engine_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"tonnage": unit.tonnage}
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


bind(
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
    """The hit counts against the unit's engine; an explosion or a third hit ends it."""
    unit = ctx.objects["unit"]
    refit = refit_for(unit)
    hit = outcome.inputs["engine_hit_number"]
    recorder.set(unit, "engine_hits", max(unit.engine_hits, hit))
    recorder.set(refit, "engine_hits_checked", max(refit.engine_hits_checked, hit))
    if outcome.result["destroyed_for_play"]:
        recorder.set(refit, "destroyed", True)
    if outcome.result["exploded"]:
        recorder.set(refit, "engine_exploded", True)


ICE_EXPLOSION = bind(
    Binding(
        "lowtech.ice_explosion",
        roles=(IceUnitRole("unit", Unit, "Unit with an ICE", targets=("unit",)),),
        label="ICE explosion check",
        prefill=_ice_explosion_prefill,
        after=_ice_explosion_after,
        handled=("destroyed", "engine_exploded"),
    )
)


@end_phase_hook
def ice_engines_checked(*, campaign, actor):
    """Every engine hit an ICE unit took and nobody has rolled for gets its explosion check,
    in order, until one destroys the unit."""
    unchecked = (
        Unit.objects.in_campaign(campaign)
        .filter(engine_type=EngineType.ICE, engine_hits__gt=0)
        .filter(
            Q(refit__isnull=True) | Q(refit__destroyed=False, engine_hits__gt=F("refit__engine_hits_checked"))
        )
        .order_by("name", "pk")
    )
    entries = []
    for unit in unchecked:
        while True:
            unit.refresh_from_db()
            refit = _existing(UnitRefit, unit=unit)
            checked = refit.engine_hits_checked if refit is not None else 0
            if (refit is not None and refit.destroyed) or unit.engine_hits <= checked:
                break
            entries.append(
                services.procedure_resolve(
                    campaign=campaign,
                    procedure_id="lowtech.ice_explosion",
                    inputs={"engine_hit_number": checked + 1},
                    dice=None,
                    actor=actor,
                    subjects={"unit": unit.code},
                )
            )
    return entries


def _utility_critical_after(ctx: Context, outcome, recorder) -> None:
    refit = refit_for(ctx.objects["unit"])
    if outcome.result["crits"]:
        recorder.set(refit, "critical_hits", refit.critical_hits + outcome.result["crits"])
    if outcome.result["blown_off"]:
        recorder.set(refit, "locations_blown_off", refit.locations_blown_off + 1)


bind(
    Binding(
        "lowtech.utility_critical",
        roles=(UtilityMechRole("unit", Unit, "Utility 'Mech", targets=("unit",), kinds=MECH),),
        label="Utility 'Mech critical hits",
        after=_utility_critical_after,
        handled=("location_blown_off",),
    )
)


# -- Special vehicles ------------------------------------------------------------------

VEHICLE = (UnitKind.VEHICLE.value,)


def _amphibious_prefill(ctx: Context) -> dict:
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    values = {"tonnage": unit.tonnage}
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
    recorder.set(refit, "amphibious_disabled", result["amphibious_disabled"])


bind(
    Binding(
        "vehicle.amphibious",
        roles=(Role("unit", Unit, "Vehicle", targets=("unit",), kinds=VEHICLE),),
        label="Amphibious conversion",
        prefill=_amphibious_prefill,
        after=_amphibious_fitted,
        handled=("amphibious_disabled",),
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


def _dune_buggy_converted(ctx: Context, outcome, recorder) -> None:
    """The vehicle is a dune buggy from now on, with its new MP, the parts bill and the
    workshop time: it is back in service when the conversion days have passed."""
    unit = ctx.objects["unit"]
    refit = refit_for(unit)
    if refit.dune_buggy:
        raise PlayError(f"{unit.name} is already a dune buggy; a second conversion changes nothing.")
    result = outcome.result
    recorder.set(refit, "dune_buggy", True)
    if result["cruise_mp"] is not None:
        recorder.set(refit, "cruise_mp", result["cruise_mp"])
    if result["days"] is not None:
        recorder.set(refit, "dune_buggy_cost_cbills", float(result["parts_cost_cbills"]))
        recorder.set(refit, "dune_buggy_days", result["days"])
        recorder.set(refit, "dune_buggy_work_hours", result["work_hours"])
        recorder.set(refit, "dune_buggy_techs", outcome.inputs["techs"])
        recorder.set(refit, "conversion_ready_at", ctx.clock + timedelta(days=result["days"]))


bind(
    Binding(
        "vehicle.dune_buggy",
        roles=(Role("unit", Unit, "Vehicle", targets=("unit",), kinds=VEHICLE),),
        label="Dune buggy conversion",
        prefill=_dune_buggy_prefill,
        after=_dune_buggy_converted,
        handled=("dune_buggy", "cruise_mp"),
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
