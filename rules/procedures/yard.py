"""Mobile yards (Seed B, New Equipment; catalogue 12.5)."""

from __future__ import annotations

from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure
from rules.tables import equipment as tables


def _exact(tons: float) -> Fraction:
    """The tonnage as the decimal the GM typed (no binary float error in the 10% test)."""
    return Fraction(repr(tons))


def _t(tons: float) -> str:
    return f"{tons:,.1f}".removesuffix(".0") + " t"


@procedure(
    """
procedure: yard.capacity_and_damage
inputs:
  ship_kind: str enum {warship|dropship|jumpship}
  ship_mass_t: float|null = null
  yard_mass_t: float|null = null
  pressurized: bool = true
  vessel_capacity_t: float|null = null       # largest vessel the yard takes
  tp_spent: int = 0
  vessel_in_yard: bool = false
  bay_boxes_total: int|null = null           # Cargo Bays 1-2 boxes
  bay_boxes_crossed: int = 0
dice: none
result:
  max_yard_mass_t: float|null                # headline; 0.10 × ship_mass_t
  thrust_boxes: int                          # tp_spent when a vessel is in the yard, else 0
  damage_fraction: float|null                # bay_boxes_crossed / bay_boxes_total
  destroyed: bool                            # damage_fraction == 1
effects:
  - {"target": "ship", "field": "cargo_bays.yard.crossed", "op": "add", "value": "<thrust_boxes>"}   [thrust_boxes > 0]
errors:
  - InputError(ship_kind): not warship
  - InputError(yard_mass_t): more than 10% of ship_mass_t
  - InputError(vessel_capacity_t): pressurized and > 100000 t [A53]
  - InputError(bay_boxes_crossed): more than bay_boxes_total
""",
    title="Mobile yard: capacity and damage",
    reference=f"{SEED_B}, Mobile Yards",
    bounds={
        "ship_mass_t": (0, None),
        "yard_mass_t": (0, None),
        "vessel_capacity_t": (0, None),
        "tp_spent": (0, None),
        "bay_boxes_total": (1, None),
        "bay_boxes_crossed": (0, None),
    },
    units={"ship_mass_t": "t", "yard_mass_t": "t", "vessel_capacity_t": "t", "tp_spent": "TP"},
    example={
        "ship_kind": "warship",
        "ship_mass_t": 1_200_000,
        "yard_mass_t": 110_000,
        "vessel_capacity_t": 100_000,
        "tp_spent": 2,
        "vessel_in_yard": True,
        "bay_boxes_total": 20,
        "bay_boxes_crossed": 5,
    },
)
def capacity_and_damage(inp, dice) -> Resolution:
    if inp.ship_kind not in tables.YARD_SHIP_KINDS:
        raise InputError(
            "ship_kind", "mobile yards fit only in WarShips, not in DropShips or standard JumpShips"
        )
    max_yard = None
    if inp.ship_mass_t is not None:
        limit = _exact(inp.ship_mass_t) / tables.YARD_MAX_FRACTION_DENOMINATOR
        max_yard = float(limit)
        if inp.yard_mass_t is not None and _exact(inp.yard_mass_t) > limit:
            raise InputError(
                "yard_mass_t",
                f"a yard may take at most 10% of the ship's mass ({_t(max_yard)} of {_t(inp.ship_mass_t)})",
            )
    capacity = inp.vessel_capacity_t
    if inp.pressurized and capacity is not None and capacity > tables.YARD_PRESSURIZED_MAX_VESSEL_T:
        raise InputError(
            "vessel_capacity_t",
            f"a pressurized yard takes vessels of at most {_t(tables.YARD_PRESSURIZED_MAX_VESSEL_T)}",
        )
    fraction = None
    if inp.bay_boxes_total is not None:
        if inp.bay_boxes_crossed > inp.bay_boxes_total:
            raise InputError(
                "bay_boxes_crossed", f"the yard's cargo bays have only {inp.bay_boxes_total} boxes"
            )
        fraction = inp.bay_boxes_crossed / inp.bay_boxes_total
    thrust_boxes = inp.tp_spent if inp.vessel_in_yard else 0
    destroyed = inp.bay_boxes_total is not None and inp.bay_boxes_crossed == inp.bay_boxes_total
    result = {
        "max_yard_mass_t": max_yard,
        "thrust_boxes": thrust_boxes,
        "damage_fraction": fraction,
        "destroyed": destroyed,
    }
    effects = [add_effect("ship", "cargo_bays.yard.crossed", thrust_boxes)] if thrust_boxes > 0 else []
    parts = [
        f"Yard limit {_t(max_yard)} (10% of the ship's mass)"
        if max_yard is not None
        else "Yard limit: enter the ship's mass (10% of it)"
    ]
    if fraction is None:
        parts.append("bay damage: enter the boxes of Cargo Bays 1-2")
    elif destroyed:
        parts.append("every bay box crossed off: the yard and its contents are destroyed")
    else:
        parts.append(f"{fraction:.0%} of the yard and its contents damaged")
    if thrust_boxes:
        crossed = inp.bay_boxes_crossed
        parts.append(
            f"{thrust_boxes} TP with a vessel in the yard: cross off {thrust_boxes} box"
            f"{'es' if thrust_boxes != 1 else ''} ({crossed} -> {crossed + thrust_boxes})"
        )
    return Resolution(result, "; ".join(parts) + ".", effects)
