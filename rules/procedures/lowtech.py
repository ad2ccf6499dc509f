"""Low-tech 'Mechs: ICE engines and utility 'Mechs (Seed B, section 5 of the catalogue)."""

from __future__ import annotations

import math
from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import lowtech as tables

from ._common import lookup_band


def _exact(x: float) -> Fraction:
    """A number as the decimal the GM typed (0.1 -> 1/10), so tonnage sums stay exact."""
    return Fraction(str(x))


def _t(x: float) -> str:
    return f"{x:,.10g}"


@procedure(
    """
procedure: lowtech.ice_engine
inputs:
  fusion_engine_weight_t: float              # BTC:RoW fusion engine of the same rating
  tonnage: int
  energy_weapon_tons: float = 0
  is_utility: bool = false
  tech_base: str enum {inner_sphere|clan} = "inner_sphere"
  xl: bool = false
  cargo_bay_tons: float = 0
dice: none
result:
  ice_weight_t: float                        # headline; 2 × fusion weight
  power_amps_t: float                        # energy tons / 10 rounded up to 0.1 t (tenths arithmetic) [A47]
  internal_structure_t: float|null           # utility: 0.20 × tonnage; null for BattleMechs (standard table)
  jump_mp: int                               # always 0
  free_heat_sinks: int                       # always 0
  lift_hoist_capacity_t: float               # tonnage / 2 (if a lift hoist is fitted)
effects:
  - {"target": "unit", "field": "engine_type", "op": "set", "value": "ICE"}
  - {"target": "unit", "field": "jump_mp", "op": "set", "value": 0}
errors:
  - InputError(tech_base): clan
  - InputError(xl): true (no XL ICE)
  - InputError(cargo_bay_tons): > 0 without is_utility
""",
    title="Low-tech 'Mech: internal combustion engine",
    reference=f"{SEED_B}, Determine Engine Rating; Allocate Tonnage for Internal Structure; "
    "Determine Jump Capability; Add Extra Heat Sinks; Add Weapons, Ammunition and Other Equipment",
    bounds={
        "fusion_engine_weight_t": (0, None),
        "tonnage": (1, None),
        "energy_weapon_tons": (0, None),
        "cargo_bay_tons": (0, None),
    },
    units={
        "fusion_engine_weight_t": "t",
        "tonnage": "t",
        "energy_weapon_tons": "t",
        "cargo_bay_tons": "t",
    },
    example={"fusion_engine_weight_t": 8.5, "tonnage": 50, "energy_weapon_tons": 11, "is_utility": True},
)
def ice_engine(inp, dice) -> Resolution:
    if inp.tech_base == "clan":
        raise InputError("tech_base", "Clan technology never puts an internal combustion engine in a 'Mech")
    if inp.xl:
        raise InputError("xl", "internal combustion engines come in no XL version")
    if inp.cargo_bay_tons > 0 and not inp.is_utility:
        raise InputError(
            "cargo_bay_tons", "only utility 'Mechs may mount cargo bays; an ICE BattleMech may not"
        )
    # Amplifiers in whole tenths of a ton, rounded up [A47].
    amp_steps = math.ceil(
        _exact(inp.energy_weapon_tons) * tables.POWER_AMP_T_PER_ENERGY_T / tables.POWER_AMP_STEP_T
    )
    result = {
        "ice_weight_t": float(_exact(inp.fusion_engine_weight_t) * tables.ICE_WEIGHT_FACTOR),
        "power_amps_t": float(amp_steps * tables.POWER_AMP_STEP_T),
        "internal_structure_t": (
            float(inp.tonnage * tables.UTILITY_STRUCTURE_SHARE) if inp.is_utility else None
        ),
        "jump_mp": 0,
        "free_heat_sinks": 0,
        "lift_hoist_capacity_t": float(inp.tonnage * tables.LIFT_HOIST_SHARE),
    }
    effects = [set_effect("unit", "engine_type", "ICE"), set_effect("unit", "jump_mp", 0)]
    return Resolution(result, _ice_engine_summary(result, inp), effects)


def _ice_engine_summary(r: dict, inp) -> str:
    parts = [
        f"ICE engine {_t(r['ice_weight_t'])} t (fusion {_t(inp.fusion_engine_weight_t)} t x 2)",
        f"power amplifiers {_t(r['power_amps_t'])} t",
    ]
    if r["internal_structure_t"] is None:
        parts.append("internal structure from the standard table")
    else:
        parts.append(f"utility internal structure {_t(r['internal_structure_t'])} t")
    parts.append("no jump jets, no free heat sinks")
    if inp.cargo_bay_tons > 0:
        parts.append(f"cargo bays {_t(inp.cargo_bay_tons)} t (1 critical slot per ton)")
    parts.append(f"a lift hoist would lift {_t(r['lift_hoist_capacity_t'])} t")
    return "; ".join(parts) + "."


@procedure(
    """
procedure: lowtech.ice_explosion
inputs:
  engine_hit_number: int                     # 1..3, the hit taken this phase
dice:
  - check: 2D6
result:
  exploded: bool                             # headline; total ≥ 10
  total: int                                 # 2D6 + 0/3/6
  destroyed_for_play: bool                   # exploded, or third hit
effects:
  - {"target": "unit", "field": "destroyed", "op": "set", "value": true}   [destroyed_for_play]
  - {"target": "unit", "field": "engine_exploded", "op": "set", "value": true}   [exploded]
errors:
  - InputError(engine_hit_number): outside 1..3
""",
    title="Low-tech 'Mech: ICE engine explosion check",
    reference=f"{SEED_B}, Determine Engine Rating (ICE engine hits)",
    bounds={"engine_hit_number": (1, 3)},
    example={"engine_hit_number": 2},
)
def ice_explosion(inp, dice) -> Resolution:
    modifier = tables.ENGINE_HIT_MODIFIER[inp.engine_hit_number]
    roll = dice.total("check", 2)
    total = roll + modifier
    exploded = total >= tables.EXPLODES_AT
    destroyed = exploded or inp.engine_hit_number >= tables.DESTROYED_FOR_PLAY_AT_HIT
    effects = []
    if destroyed:
        effects.append(set_effect("unit", "destroyed", True))
    if exploded:
        effects.append(set_effect("unit", "engine_exploded", True))
    line = f"Engine hit {inp.engine_hit_number}: explosion check {roll}{modifier:+d} = {total}"
    if exploded:
        summary = f"{line}: the engine explodes; the 'Mech is destroyed completely."
    elif destroyed:
        summary = f"{line}: no explosion, but the third engine hit destroys the 'Mech for play."
    else:
        summary = f"{line}: no explosion; the 'Mech fights on (no extra heat from ICE hits)."
    return Resolution(
        {"exploded": exploded, "total": total, "destroyed_for_play": destroyed}, summary, effects
    )


@procedure(
    """
procedure: lowtech.utility_critical
inputs:
  location_kind: str enum {head_limb|torso}
dice:
  - check: 2D6
result:
  crits: int                                 # headline; 0, 1, 2, 3 or 4
  blown_off: bool                            # head/limb on 12 (incl. modified 13) or 14
  total: int                                 # 2D6 + 2
  table_row: int                             # total, with 13 read as 12 [A38]
effects:
  - {"target": "unit", "field": "location_blown_off", "op": "set", "value": true}   [blown_off]
errors: none
notes:
  - 2-7 none; 8-9 1; 10-11 2; 12/13 head-limb blown off (crits 0) or torso 3; 14 head-limb blown off or torso 4.
""",
    title="Utility 'Mech: determining critical hits",
    reference=f"{SEED_B}, Complete Critical Hit Table",
    example={"location_kind": "torso"},
)
def utility_critical(inp, dice) -> Resolution:
    roll = dice.total("check", 2)
    total = roll + tables.UTILITY_CRIT_MODIFIER
    row = tables.UTILITY_ROW_REMAP.get(total, total)
    crits, blown_off = lookup_band(tables.UTILITY_CRIT_BANDS, row)[inp.location_kind]
    effects = [set_effect("unit", "location_blown_off", True)] if blown_off else []
    where = tables.LOCATION_KIND_TEXT[inp.location_kind]
    line = f"Critical check {roll}+{tables.UTILITY_CRIT_MODIFIER} = {total}"
    if row != total:
        line += f" (read as {row})"
    if blown_off:
        outcome = f"the {where} is blown off"
    elif crits == 0:
        outcome = f"no critical hit to the {where}"
    else:
        outcome = f"{crits} critical hit{'s' if crits > 1 else ''} to the {where}"
    result = {"crits": crits, "blown_off": blown_off, "total": total, "table_row": row}
    return Resolution(result, f"{line}: {outcome}.", effects)
