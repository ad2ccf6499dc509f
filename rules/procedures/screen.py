"""Screen launchers (Seed B, New Equipment; catalogue 12.3-12.4)."""

from __future__ import annotations

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import equipment as tables

from ._common import lookup_band, success


def _per_fighter(total: int) -> int:
    return lookup_band(tables.SCREEN_FIGHTER_DAMAGE, total)


SCREEN_READS = {"total_damage": _per_fighter}


def _total_damage_odds(inp):
    """The total is a sum over the units, each its own 2D6: the units with as many fighters
    share one distribution (a power of one unit's band), and those sums are convolved."""
    ways = distributions.dice_sum_ways(2, 6)
    band: dict[int, int] = {}
    for total in range(2, 13):
        band[_per_fighter(total)] = band.get(_per_fighter(total), 0) + ways[total]
    one_unit = (band, 36)
    by_size: dict[int, int] = {}
    for unit in inp.fighter_units:
        by_size[unit.fighters] = by_size.get(unit.fighters, 0) + 1
    dist: distributions.Distribution | None = ({0: 1}, 1)
    for fighters, units in by_size.items():
        same = distributions.power(one_unit, units)
        dist = None if same is None else distributions.convolve(dist, distributions.scale(same, fighters))
        if dist is None:
            return None
    return dist


def _unit_row(unit, roll: int) -> dict:
    per_fighter = lookup_band(tables.SCREEN_FIGHTER_DAMAGE, roll)
    return {"id": unit.id, "roll": roll, "per_fighter": per_fighter, "total": per_fighter * unit.fighters}


# Lists of unit rows counted exactly, at most: each unit's own 2D6 multiplies them by 11
# (three units: 1,331). Past this the odds are a labelled estimate sampled from the same dice.
UNITS_COUNTED_VALUES = 5_000


def _units_odds(inp):
    """Each unit's row from its own 2D6, independently."""
    ways = distributions.dice_sum_ways(2, 6)
    totals = {roll: ways[roll] for roll in range(2, 13)}
    # Per unit, its row for each total as odds keys are (items sorted by name).
    rows = [
        {roll: tuple(sorted(_unit_row(unit, roll).items())) for roll in totals} for unit in inp.fighter_units
    ]

    def value(rolls) -> tuple:
        return tuple(by_roll[roll] for by_roll, roll in zip(rows, rolls, strict=True))

    exact = distributions.independent([(totals, 36)] * len(rows), UNITS_COUNTED_VALUES)
    if exact is not None:
        return {value(rolls): n for rolls, n in exact[0].items()}, exact[1]
    roll = distributions.Picker((totals, 36))
    return distributions.sample(lambda rng: value(roll(rng, len(rows))), 2 * len(rows), "screen units")


@procedure(
    """
procedure: screen.detonate
inputs:
  range_hexes: int                           # 0..6 in the launcher's arc
  in_arc: bool = true
  fighter_units: list[object{id: str, fighters: int}] = []
  large_ships: int = 0                       # DropShips and larger in the hex (never damaged)
dice:
  - damage_<id>: 2D6  [each fighter unit, input order]
result:
  total_damage: int                          # headline; Σ per_fighter × fighters
  units: list[object{id: str, roll: int, per_fighter: int, total: int}]   # 2-8 → 0, 9-11 → 1, 12 → 2 per fighter
  large_ship_damage: int                     # always 0
effects:
  - {"target": "hex", "field": "screen", "op": "set", "value": true}
  - {"target": "fighter", "field": "damage_per_fighter", "op": "add", "value": "<per_fighter>"}   [per unit, > 0]
errors:
  - InputError(range_hexes): outside 0..6
  - InputError(in_arc): false
notes:
  - One canister per launcher per turn. The screen blocks LOS; units inside fire out at +2 and can be targeted (at +2) only if they fired.
""",
    title="Screen launcher: detonate a canister",
    reference=f"{SEED_B}, Screen Launchers",
    bounds={"range_hexes": (0, tables.SCREEN_MAX_RANGE), "large_ships": (0, None)},
    units={"range_hexes": "hexes"},
    example={
        "range_hexes": 4,
        "fighter_units": [{"id": "Blue 1", "fighters": 6}, {"id": "Blue 2", "fighters": 4}],
        "large_ships": 1,
    },
    exact_odds={"total_damage": _total_damage_odds, "units": _units_odds},
)
def detonate(inp, dice) -> Resolution:
    if not inp.in_arc:
        raise InputError("in_arc", "a screen launcher can only target a hex in the arc it is mounted in")
    seen = set()
    for unit in inp.fighter_units:
        if not unit.id:
            raise InputError("fighter_units", "every fighter unit needs an id")
        if unit.id in seen:
            raise InputError("fighter_units", f"fighter unit “{unit.id}” is listed twice")
        if unit.fighters < 1:
            raise InputError("fighter_units", f"fighter unit “{unit.id}” must have at least 1 fighter")
        seen.add(unit.id)
    units = []
    effects = [set_effect("hex", "screen", True)]
    for unit in inp.fighter_units:
        # The total reads only each unit's band; the large-ship damage is always 0.
        roll = dice.total(f"damage_{unit.id}", 2, feeds=("total_damage", "units"), reads=SCREEN_READS)
        units.append(_unit_row(unit, roll))
        if units[-1]["per_fighter"] > 0:
            effects.append(add_effect("fighter", "damage_per_fighter", units[-1]["per_fighter"]))
    total = sum(u["total"] for u in units)
    result = {"total_damage": total, "units": units, "large_ship_damage": 0}
    parts = [f"Screen laid {inp.range_hexes} hexes out; it blocks LOS through the hex"]
    for u in units:
        if u["per_fighter"]:
            parts.append(
                f"{u['id']} rolls {u['roll']}: {u['per_fighter']} to each fighter ({u['total']} in all)"
            )
        else:
            parts.append(f"{u['id']} rolls {u['roll']}: no damage")
    if inp.large_ships:
        parts.append("DropShips and larger are not damaged")
    return Resolution(result, "; ".join(parts) + ".", effects)


@procedure(
    """
procedure: screen.end_phase
inputs:
  laid_this_turn: bool = false
  roll_on_laying_turn: bool = true           # [A34]
dice:
  - removal: 2D6  [not (laid_this_turn and not roll_on_laying_turn)]
result:
  removed: bool                              # headline; roll ≥ 7
  roll: int|null
effects:
  - {"target": "hex", "field": "screen", "op": "set", "value": false}   [removed]
errors: none
""",
    title="Screen launcher: End Phase dissipation",
    reference=f"{SEED_B}, Screen Launchers (dissipation)",
    example={},
)
def end_phase(inp, dice) -> Resolution:
    if inp.laid_this_turn and not inp.roll_on_laying_turn:
        result = {"removed": False, "roll": None}
        return Resolution(result, "Screen laid this turn: no dissipation roll until the next End Phase.", [])
    roll = dice.total("removal", 2)
    removed = success(roll, tables.SCREEN_REMOVED_AT)
    result = {"removed": removed, "roll": roll}
    effects = [set_effect("hex", "screen", False)] if removed else []
    verdict = "the screen dissipates, remove the marker" if removed else "the screen stays"
    return Resolution(
        result, f"Screen roll {roll} (removed on {tables.SCREEN_REMOVED_AT}+): {verdict}.", effects
    )
