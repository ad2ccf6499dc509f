"""Special vehicles: amphibious vehicles and dune buggies (Seed B, section 6 of the catalogue)."""

from __future__ import annotations

import math
from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import vehicle as tables


def _exact(x: float) -> Fraction:
    """A number as the decimal the GM typed (0.1 -> 1/10), so tonnage sums stay exact."""
    return Fraction(str(x))


def _number(x: Fraction) -> int | float:
    """Whole values as int (C-bills are counted in whole numbers), others as float."""
    return int(x) if x.denominator == 1 else float(x)


def _t(x: float) -> str:
    return f"{x:,.10g}"


@procedure(
    """
procedure: vehicle.amphibious
inputs:
  tonnage: float
  motive: str enum {tracked|wheeled|hover|vtol|naval}
  motive_damage: bool = false                # any track/axle/wheel damage
dice: none
result:
  equipment_t: float                         # headline; 0.10 × tonnage
  cost_cbills: float                         # 10000 × equipment_t
  combat_value: float                        # = tonnage
  water_mp_per_hex: int|null                 # 2; null when disabled
  amphibious_disabled: bool
effects:
  - {"target": "unit", "field": "amphibious_disabled", "op": "set", "value": true}   [amphibious_disabled]
errors:
  - InputError(motive): not tracked or wheeled
notes:
  - Hull breach anywhere but the turret sinks the vehicle; a location with no armour left is flooded (not the turret).
""",
    title="Special vehicle: amphibious drive equipment",
    reference=f"{SEED_B}, Amphibious Vehicles",
    bounds={"tonnage": (0, None)},
    units={"tonnage": "t"},
    example={"tonnage": 35, "motive": "tracked"},
)
def amphibious(inp, dice) -> Resolution:
    if inp.motive not in tables.AMPHIBIOUS_MOTIVES:
        raise InputError(
            "motive", f"only tracked or wheeled vehicles can be fitted for amphibious use, not {inp.motive}"
        )
    equipment = _exact(inp.tonnage) * tables.AMPHIBIOUS_EQUIPMENT_SHARE
    disabled = inp.motive_damage
    result = {
        "equipment_t": float(equipment),
        "cost_cbills": _number(equipment * tables.AMPHIBIOUS_CBILLS_PER_T),
        "combat_value": inp.tonnage,
        "water_mp_per_hex": None if disabled else tables.AMPHIBIOUS_WATER_MP_PER_HEX,
        "amphibious_disabled": disabled,
    }
    effects = [set_effect("unit", "amphibious_disabled", True)] if disabled else []
    line = (
        f"Amphibious equipment {_t(result['equipment_t'])} t, {result['cost_cbills']:,} C-bills, "
        f"Combat Value {_t(inp.tonnage)}"
    )
    if disabled:
        summary = f"{line}; motive damage has disabled it: the vehicle cannot enter open water."
    else:
        summary = (
            f"{line}; open water (Level 0 too) costs {tables.AMPHIBIOUS_WATER_MP_PER_HEX} MP per hex; "
            "a hull breach anywhere but the turret sinks it."
        )
    return Resolution(result, summary, effects)


@procedure(
    """
procedure: vehicle.dune_buggy
inputs:
  tonnage: float|null = null
  cruise_mp: int|null = null
  techs: int = 1
dice: none
result:
  cruise_mp: int|null                        # headline; max(0, cruise − 1)
  flank_mp: int|null                         # ceil(1.5 × new cruise)
  parts_cost_cbills: float|null              # 10 × tonnage²
  days: float|null                           # max(1, tonnage/10/techs)
  work_hours: float|null                     # 16 × days
  sand_mp_per_hex: int                       # 1
effects:
  - {"target": "unit", "field": "dune_buggy", "op": "set", "value": true}
  - {"target": "unit", "field": "cruise_mp", "op": "set", "value": "<cruise_mp>"}   [cruise_mp given]
errors:
  - InputError(tonnage): neither tonnage nor cruise_mp given
  - InputError(techs): < 1
""",
    title="Special vehicle: dune buggy conversion",
    reference=f"{SEED_B}, Dune Buggies",
    bounds={"tonnage": (0, None), "cruise_mp": (0, None), "techs": (1, None)},
    units={"tonnage": "t", "cruise_mp": "MP"},
    example={"tonnage": 40, "cruise_mp": 5, "techs": 2},
)
def dune_buggy(inp, dice) -> Resolution:
    if inp.tonnage is None and inp.cruise_mp is None:
        raise InputError("tonnage", "give the vehicle's tonnage, its Cruising MP, or both")
    cruise = flank = cost = days = hours = None
    if inp.cruise_mp is not None:
        # [A46] no minimum: Cruise 1 becomes 0 and the buggy cannot move.
        cruise = max(0, inp.cruise_mp - tables.DUNE_BUGGY_CRUISE_LOSS)
        flank = math.ceil(cruise * tables.FLANK_FACTOR)
    if inp.tonnage is not None:
        tonnage = _exact(inp.tonnage)
        cost = _number(tables.DUNE_BUGGY_PARTS_CBILLS_PER_T2 * tonnage**2)
        exact_days = max(
            Fraction(tables.DUNE_BUGGY_MIN_DAYS), tonnage / tables.DUNE_BUGGY_TONS_PER_TECH_DAY / inp.techs
        )
        days = float(exact_days)
        hours = float(exact_days * tables.WORK_HOURS_PER_DAY)
    result = {
        "cruise_mp": cruise,
        "flank_mp": flank,
        "parts_cost_cbills": cost,
        "days": days,
        "work_hours": hours,
        "sand_mp_per_hex": tables.DUNE_BUGGY_SAND_MP_PER_HEX,
    }
    effects = [set_effect("unit", "dune_buggy", True)]
    if cruise is not None:
        effects.append(set_effect("unit", "cruise_mp", cruise))
    return Resolution(result, _dune_buggy_summary(result, inp), effects)


def _dune_buggy_summary(r: dict, inp) -> str:
    parts = [f"Dune buggy: sand costs {r['sand_mp_per_hex']} MP per hex"]
    if r["cruise_mp"] is None:
        parts.append("Cruising MP drops by 1 (give it to see the new Flank MP)")
    else:
        old_flank = math.ceil(inp.cruise_mp * tables.FLANK_FACTOR)
        parts.append(
            f"Cruise/Flank MP {inp.cruise_mp}/{old_flank} -> {r['cruise_mp']}/{r['flank_mp']}"
            + (" (it can no longer move)" if r["cruise_mp"] == 0 else "")
        )
    if r["days"] is None:
        parts.append("give the tonnage for the parts cost and conversion time")
    else:
        techs = f"{inp.techs} tech{'s' if inp.techs > 1 else ''}"
        parts.append(
            f"parts {r['parts_cost_cbills']:,} C-bills plus a Deluxe Tool Kit and a Mechanic Repair Kit; "
            f"{_t(r['days'])} days ({_t(r['work_hours'])} work-hours) with {techs}"
        )
    return "; ".join(parts) + "."
