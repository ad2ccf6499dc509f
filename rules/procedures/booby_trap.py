"""Booby traps (Seed A, section 1 of the catalogue: IR107)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_A, Resolution, procedure, set_effect
from rules.schema import ChartType
from rules.tables import booby_trap as tables

from ._common import lookup_band

_CHART = ChartType()


def _column(speed: int) -> str:
    """The weapon-space year column of a speed [A12]."""
    return lookup_band(tables.COLUMN_BY_SPEED, speed)


def _speed_from_year(year: int) -> int:
    return lookup_band(tables.SPEED_BY_YEAR, year)


# --- GM weapon charts (IR107.32) -----------------------------------------------------------


def _check_chart_rules(chart: Mapping[int, Any], field: str) -> None:
    """IR107.32 and [A15] on a chart already in its frozen shape (int keys 2..12, records)."""
    for roll in range(2, 13):
        name = chart[roll].weapon.strip().lower()
        if not name:
            raise InputError(field, f"entry {roll}: the weapon needs a name")
        for word, what in tables.FORBIDDEN_WEAPON_WORDS:
            if word in name:
                raise InputError(
                    field,
                    f"entry {roll} ({chart[roll].weapon}): {what} cannot be booby-trap weapons (IR107.32)",
                )
    if not any(chart[roll].spaces == 1 for roll in range(2, 13)):
        raise InputError(
            field,
            "needs at least one 1-space weapon, or a last free space could never be filled",
        )
    for roll in range(2, 7):
        lighter, heavier = chart[roll], chart[roll + 1]
        if heavier.weight > lighter.weight:
            raise InputError(
                field,
                f"entry {roll + 1} ({heavier.weapon}, weight {heavier.weight:g}) is heavier than entry "
                f"{roll} ({lighter.weapon}, weight {lighter.weight:g}): from 2 to 7 weapons must get "
                "lighter or stay the same (IR107.32)",
            )
    for roll in range(7, 12):
        lighter, heavier = chart[roll], chart[roll + 1]
        if heavier.weight < lighter.weight:
            raise InputError(
                field,
                f"entry {roll + 1} ({heavier.weapon}, weight {heavier.weight:g}) is lighter than entry "
                f"{roll} ({lighter.weapon}, weight {lighter.weight:g}): from 7 to 12 weapons must get "
                "heavier or stay the same (IR107.32)",
            )


def validate_chart(chart: dict, field: str) -> None:
    """Check a GM-kept weapon chart (the contract's ``chart`` JSON shape: keys "2".."12",
    each ``{"weapon", "spaces" >= 1, "weight" = spaces}``) against IR107.32: weight never
    rises from 2 to 7 nor falls from 7 to 12, no Maulers or SFGs, and at least one
    1-space entry [A15]. Raises ``InputError(field, ...)``; returns None when it is valid."""
    if chart is None:
        raise InputError(field, "a weapon chart is required")
    if isinstance(chart, Mapping):
        chart = {str(k): v for k, v in chart.items()}
    _check_chart_rules(_CHART.freeze(_CHART.validate(chart, field)), field)


_TORPEDO_CHART = _CHART.freeze(_CHART.validate(tables.TORPEDO_CHART, "TORPEDO_CHART"))
_check_chart_rules(_TORPEDO_CHART, "TORPEDO_CHART")


# Keys that count a fill's rolls or spaces: they read only the spaces each roll's entry
# needs, not which weapon it is (exact odds of them walk one roll per size of entry).
FILL_COUNT_KEYS = ("rolls_used", "rejected_rolls", "spaces_used")


def _fill(
    dice,
    chart: Mapping[int, Any],
    spaces: int,
    label: str,
    max_rolls: int | None,
    cap_field: str,
    feeds=None,
):
    """IR107.332 / 2nd IR107.342: roll 2D6 until an entry fits the spaces left, until full.

    ``max_rolls`` is the caller's own cap on the fill rolls (``booby_trap.fill_weapons``);
    ``None`` rolls on until the spaces are full, however long that takes (C.9): a valid
    chart has a 1-space entry, so every remainder can be filled.

    Returns (weapons, rolls used, rolls discarded). Each slot's rolls, discarded ones
    included, are recorded as ``<label>[i]`` (i = 0-based slot)."""
    weapons: list[str] = []
    left = spaces
    start = len(dice.rolls)
    message = f"more than {max_rolls} fill rolls would be needed to fill {spaces} spaces"
    while left > 0:
        budget = None if max_rolls is None else max_rolls - (len(dice.rolls) - start)
        if budget is not None and budget <= 0:
            if dice.counts_odds:  # odds ignore the cap of what the loop produces (C.6)
                budget = None
            else:
                raise InputError(cap_field, message)

        def fits(total: int, left: int = left) -> bool:
            return chart[total].spaces <= left

        def takes(total: int) -> int:  # what the counts of rolls read of a roll: the spaces it needs
            return chart[total].spaces

        try:
            total = dice.total_until(
                f"{label}[{len(weapons)}]",
                2,
                6,
                fits,
                max_rolls=budget,
                feeds=feeds,
                odds_cap=tables.FILL_ROLLS_ODDS_CAP,
                reads=dict.fromkeys(FILL_COUNT_KEYS, takes),
            )
        except InputError:
            raise InputError(cap_field, message) from None
        entry = chart[total]
        weapons.append(entry.weapon)
        left -= entry.spaces
    used = len(dice.rolls) - start
    return weapons, used, used - len(weapons)


# --- Odds of the weapons a fill gives -------------------------------------------------------
#
# Given the spaces left, each fill roll is drawn from the entries that fit (a roll that does
# not fit is rolled again, C.6), so the weapons are counted spaces-left by spaces-left: at
# most 6 spaces, hence at most 6 weapons. A GM chart of eleven different 1-space weapons can
# still give 11**6 lists; past ``FILL_COUNTED_VALUES`` the odds are a labelled estimate
# sampled from the same per-roll odds.
FILL_COUNTED_VALUES = 15_000  # some 20 ms to list (the printed torpedo chart: 5 spaces, 12,546 lists)


def _fitting(chart: Mapping[int, Any], left: int) -> dict[int, int]:
    """The 2D6 totals whose entry fits ``left`` spaces, with their ways out of 36."""
    ways = distributions.dice_sum_ways(2, 6)
    return {total: ways[total] for total in range(2, 13) if chart[total].spaces <= left}


def _fill_odds(chart: Mapping[int, Any], spaces: int, limit: int = FILL_COUNTED_VALUES):
    """The weapons a fill of ``spaces`` gives (tuples, in the order added): a
    Distribution, or None past ``limit`` lists."""
    if _fill_lists(chart, spaces) > limit:
        return None
    by_left: dict[int, distributions.Distribution] = {0: ({(): 1}, 1)}
    for left in range(1, spaces + 1):
        fits = _fitting(chart, left)
        den = sum(fits.values())
        branches = []
        for total, n in fits.items():
            entry = chart[total]
            rest, rest_den = by_left[left - entry.spaces]
            branches.append((n, den, ({(entry.weapon, *seq): m for seq, m in rest.items()}, rest_den)))
        dist = distributions.mix(branches, limit)
        if dist is None:
            return None
        by_left[left] = dist
    return by_left[spaces]


def _fill_lists(chart: Mapping[int, Any], spaces: int) -> int:
    """How many lists of weapons a fill may give, at most (counted, not listed)."""
    lists = [1]
    for left in range(1, spaces + 1):
        entries = {(chart[total].weapon, chart[total].spaces) for total in _fitting(chart, left)}
        lists.append(sum(lists[left - size] for _, size in entries))
    return lists[spaces]


class _FillSampler:
    """Draws a fill's weapons as the procedure rolls them: per spaces left, a roll among
    the entries that fit."""

    def __init__(self, chart: Mapping[int, Any]) -> None:
        self.chart = chart
        self.pickers = {left: distributions.Picker((_fitting(chart, left), 0)) for left in range(1, 7)}

    def __call__(self, rng, spaces: int) -> tuple[str, ...]:
        weapons = []
        left = spaces
        while left > 0:
            entry = self.chart[self.pickers[min(left, 6)](rng)[0]]
            weapons.append(entry.weapon)
            left -= entry.spaces
        return tuple(weapons)


def _fill_weapons_odds(inp):
    chart = _chart_for(inp.chart, inp.weapon_type, "chart")
    exact = _fill_odds(chart, inp.spaces)
    if exact is not None:
        return exact
    fill = _FillSampler(chart)
    return distributions.sample(lambda rng: fill(rng, inp.spaces), inp.spaces, "fill weapons")


def _chart_for(chart: Mapping[int, Any] | None, weapon_type: str, field: str) -> Mapping[int, Any]:
    if chart is None:
        if weapon_type == "torp":
            return _TORPEDO_CHART
        raise InputError(
            field,
            f"the rulebook prints no {tables.WEAPON_TYPE_NAMES[weapon_type]} chart: the GM must enter one",
        )
    _check_chart_rules(chart, field)
    return chart


def _adjust(dice, speed: int, feeds=None) -> tuple[int, int, int, bool]:
    """IR107.212: (adjusted speed, 2D6 roll, signed change, clamped). ``feeds``: the
    result keys the rolls can change (None: any)."""
    adjust_roll = dice.total("adjust", 2, feeds=feeds)
    n = tables.SPEED_ADJUST_DICE[adjust_roll]
    change = 0
    if n:
        rolled = dice.total("change", abs(n), feeds=feeds)
        change = rolled if n > 0 else -rolled
    raw = speed + change
    adjusted = min(max(raw, tables.MIN_SPEED), tables.MAX_SPEED)
    return adjusted, adjust_roll, change, adjusted != raw


def _dice_text(n: int) -> str:
    return "no change" if n == 0 else f"{'+' if n > 0 else '−'}{abs(n)}D6"


# --- 1.1 -------------------------------------------------------------------------------------


@procedure(
    """
procedure: booby_trap.speed_by_year
inputs:
  year: int                                  # campaign year on the seed's scale, any integer [A51]
dice: none
result:
  speed: int                                 # headline; 1..32
  year_band: str                             # "<70", "70-74", ..., "215-219", "220+"
  column: str enum {80|100|120|140|160|180|200|220+}   # weapon-space column for this speed [A12]
effects:
  - {"target": "booby_trap", "field": "speed", "op": "set", "value": "<speed>"}
  - {"target": "booby_trap", "field": "year_band", "op": "set", "value": "<year_band>"}
errors: none
""",
    title="Booby trap: speed by year",
    reference=f"{SEED_A}, IR107.211 Speed",
    example={"year": 150},
)
def speed_by_year(inp, dice) -> Resolution:
    speed = _speed_from_year(inp.year)
    band = tables.YEAR_BAND[speed]
    column = _column(speed)
    effects = [
        set_effect("booby_trap", "speed", speed),
        set_effect("booby_trap", "year_band", band),
    ]
    summary = (
        f"Created in year {inp.year} (band {band}): speed {speed}, weapon-space column {column}; "
        "the speed never changes afterwards."
    )
    return Resolution({"speed": speed, "year_band": band, "column": column}, summary, effects)


# --- 1.2 -------------------------------------------------------------------------------------


@procedure(
    """
procedure: booby_trap.scenario_speed_adjust
inputs:
  speed: int                                 # 1..32, from booby_trap.speed_by_year
dice:
  - adjust: 2D6
  - change: nD6  [n = |table[adjust]| > 0; no roll when adjust is 6..8]
result:
  speed: int                                 # headline; adjusted and clamped to 1..32
  adjust_roll: int                           # 2..12
  change: int                                # signed sum of the nD6 (−4D6..+4D6), 0 when no change
  clamped: bool                              # the unclamped value was outside 1..32
  year_band: str                             # band of the adjusted speed
  column: str enum {80|100|120|140|160|180|200|220+}   # column of the adjusted speed [A12]
effects:
  - {"target": "booby_trap", "field": "speed", "op": "set", "value": "<speed>"}
  - {"target": "booby_trap", "field": "year_band", "op": "set", "value": "<year_band>"}
errors:
  - InputError(speed): speed outside 1..32
""",
    title="Booby trap: scenario speed adjustment",
    reference=f"{SEED_A}, IR107.212",
    bounds={"speed": (tables.MIN_SPEED, tables.MAX_SPEED)},
    example={"speed": 18},
)
def scenario_speed_adjust(inp, dice) -> Resolution:
    speed, adjust_roll, change, clamped = _adjust(dice, inp.speed)
    band = tables.YEAR_BAND[speed]
    column = _column(speed)
    effects = [
        set_effect("booby_trap", "speed", speed),
        set_effect("booby_trap", "year_band", band),
    ]
    n = tables.SPEED_ADJUST_DICE[adjust_roll]
    how = _dice_text(n) if n == 0 else f"{_dice_text(n)} = {change:+d}"
    summary = (
        f"Scenario roll {adjust_roll}: {how}; speed {inp.speed} -> {speed}"
        + (f" (held within 1..32; unclamped {inp.speed + change})" if clamped else "")
        + f", band {band}, weapon-space column {column}."
    )
    result = {
        "speed": speed,
        "adjust_roll": adjust_roll,
        "change": change,
        "clamped": clamped,
        "year_band": band,
        "column": column,
    }
    return Resolution(result, summary, effects)


# --- 1.3 -------------------------------------------------------------------------------------


def _spaces(dice, speed: int, feeds=None) -> tuple[dict[str, int], dict[str, int], str]:
    """IR107.31: (spaces per type, 2D6 per type, column), rolled torpedo, drone, phaser.
    ``feeds`` names, per type, the result keys its roll can change (default: its own key)."""
    column = _column(speed)
    index = tables.COLUMNS.index(column)
    feeds = feeds or {t: (t,) for t in tables.WEAPON_TYPES}

    def reads(total: int) -> int:  # every key reads the spaces a roll gives, not the roll
        return tables.SPACES[total][index]

    rolls = {
        t: dice.total(t, 2, feeds=feeds[t], reads=dict.fromkeys(feeds[t], reads)) for t in tables.WEAPON_TYPES
    }
    return {t: tables.SPACES[rolls[t]][index] for t in tables.WEAPON_TYPES}, rolls, column


@procedure(
    """
procedure: booby_trap.weapon_spaces
inputs:
  speed: int                                 # 1..32 (after any scenario adjustment)
dice:
  - torp: 2D6
  - drone: 2D6
  - phaser: 2D6
result:
  torp: int                                  # headline; torpedo-hit spaces 1..6
  drone: int                                 # drone-hit spaces
  phaser: int                                # phaser-hit spaces
  column: str enum {80|100|120|140|160|180|200|220+}
  year_band: str
effects:
  - {"target": "booby_trap", "field": "spaces", "op": "set", "value": {"torp": "<torp>", "drone": "<drone>", "phaser": "<phaser>"}}
errors:
  - InputError(speed): speed outside 1..32
""",
    title="Booby trap: weapon spaces",
    reference=f"{SEED_A}, IR107.31 Weapons",
    bounds={"speed": (tables.MIN_SPEED, tables.MAX_SPEED)},
    example={"speed": 18},
)
def weapon_spaces(inp, dice) -> Resolution:
    spaces, rolls, column = _spaces(dice, inp.speed)
    band = tables.YEAR_BAND[inp.speed]
    effects = [set_effect("booby_trap", "spaces", dict(spaces))]
    summary = (
        f"Speed {inp.speed} (built {band}, column {column}): "
        + ", ".join(
            f"{tables.WEAPON_TYPE_NAMES[t]} {spaces[t]} space{'s' if spaces[t] != 1 else ''} "
            f"(roll {rolls[t]})"
            for t in tables.WEAPON_TYPES
        )
        + "."
    )
    result = {
        "torp": spaces["torp"],
        "drone": spaces["drone"],
        "phaser": spaces["phaser"],
        "column": column,
        "year_band": band,
    }
    return Resolution(result, summary, effects)


# --- 1.4 -------------------------------------------------------------------------------------


@procedure(
    """
procedure: booby_trap.fill_weapons
inputs:
  spaces: int                                # ≥ 0 spaces to fill
  weapon_type: str enum {torp|drone|phaser} = "torp"
  chart: chart|null = null                   # null → printed torpedo chart (IR107.332); drone and phaser have no default [A11]
  max_rolls: int = 1000                      # loop cap [A15]
dice:
  - fill[i]: 2D6  [repeated while spaces remain; a roll whose entry needs more spaces than remain is discarded and rolled again]
result:
  weapons: list[str]                         # headline; weapon names in the order added, duplicates allowed
  rolls_used: int                            # all fill rolls, including discarded ones
  rejected_rolls: int                        # discarded rolls
  spaces_used: int                           # == spaces
effects:
  - {"target": "booby_trap", "field": "weapons.<weapon_type>", "op": "set", "value": "<weapons>"}
errors:
  - InputError(chart): chart null for drone/phaser; chart not a valid `chart` (all keys "2".."12", spaces ≥ 1); no entry with spaces 1 [A15]; weight (or spaces) goes up anywhere from 2→7 or down anywhere from 7→12 (IR107.32); a weapon name containing "mauler" or "sfg" (case-insensitive)
  - InputError(max_rolls): more than max_rolls fill rolls would be needed
notes:
  - "spaces = 0" → no dice, weapons [].
""",
    title="Booby trap: fill weapon spaces",
    reference=f"{SEED_A}, IR107.32, IR107.332, 2nd IR107.342, phaser (missing)",
    bounds={"spaces": (0, tables.MAX_SPACES), "max_rolls": (1, tables.MAX_FILL_ROLLS)},
    loop_counts={"rolls_used": "max_rolls", "rejected_rolls": "max_rolls"},
    example={"spaces": 2, "weapon_type": "torp"},
    exact_odds={"weapons": _fill_weapons_odds},
)
def fill_weapons(inp, dice) -> Resolution:
    chart = _chart_for(inp.chart, inp.weapon_type, "chart")
    weapons, used, rejected = _fill(dice, chart, inp.spaces, "fill", inp.max_rolls, "max_rolls")
    name = tables.WEAPON_TYPE_NAMES[inp.weapon_type]
    effects = [set_effect("booby_trap", f"weapons.{inp.weapon_type}", list(weapons))]
    if inp.spaces == 0:
        summary = f"No {name} spaces: no {name} weapons."
    else:
        summary = (
            f"{name.capitalize()} weapons for {inp.spaces} space{'s' if inp.spaces != 1 else ''}: "
            f"{', '.join(weapons)} ({used} roll{'s' if used != 1 else ''}, {rejected} discarded "
            "for not fitting)."
        )
    result = {"weapons": weapons, "rolls_used": used, "rejected_rolls": rejected, "spaces_used": inp.spaces}
    return Resolution(result, summary, effects)


# --- 1.5 -------------------------------------------------------------------------------------


def _final_speed_odds(inp) -> distributions.Distribution:
    """The speed after the scenario roll (IR107.212): its 2D6, then the nD6 it calls for,
    summed by convolution, clamped to 1..32; the year's speed alone in a campaign."""
    base = _speed_from_year(inp.year)
    if inp.mode != "scenario":
        return {base: 1}, 1
    most = max(abs(n) for n in tables.SPEED_ADJUST_DICE.values())
    adjust_ways = distributions.dice_sum_ways(2, 6)
    speeds: dict[int, int] = {}
    for adjust, n in tables.SPEED_ADJUST_DICE.items():
        changes, den = distributions.dice_sum(abs(n))
        for change, ways in changes.items():
            speed = min(max(base + (change if n > 0 else -change), tables.MIN_SPEED), tables.MAX_SPEED)
            speeds[speed] = speeds.get(speed, 0) + adjust_ways[adjust] * ways * 6**most // den
    return speeds, 36 * 6**most


def _generate_spaces_odds(inp):
    """The three spaces rolls are independent given the speed: their joint odds per speed,
    weighted by the odds of that speed."""
    speeds, speed_den = _final_speed_odds(inp)
    roll_ways = distributions.dice_sum_ways(2, 6)
    joint: dict[tuple, int] = {}
    for speed, speed_ways in speeds.items():
        index = tables.COLUMNS.index(_column(speed))
        one: dict[int, int] = {}
        for total in range(2, 13):
            one[tables.SPACES[total][index]] = one.get(tables.SPACES[total][index], 0) + roll_ways[total]
        for torp, a in one.items():
            for drone, b in one.items():
                for phaser, c in one.items():
                    value = (("drone", drone), ("phaser", phaser), ("torp", torp))
                    joint[value] = joint.get(value, 0) + speed_ways * a * b * c
    return joint, speed_den * 36**3


def _generate_charts(inp) -> dict[str, Mapping[int, Any] | None]:
    """The chart each weapon type is filled from; None for a type that is not filled."""
    if not inp.fill_weapons:
        return dict.fromkeys(tables.WEAPON_TYPES)
    return {
        "torp": _chart_for(inp.torp_chart, "torp", "torp_chart"),
        "drone": None if inp.drone_chart is None else _chart_for(inp.drone_chart, "drone", "drone_chart"),
        "phaser": None
        if inp.phaser_chart is None
        else _chart_for(inp.phaser_chart, "phaser", "phaser_chart"),
    }


def _spaces_odds(speed: int) -> dict[int, int]:
    """One type's spaces at this speed, with their ways out of 36 (IR107.31)."""
    index = tables.COLUMNS.index(_column(speed))
    ways = distributions.dice_sum_ways(2, 6)
    one: dict[int, int] = {}
    for total in range(2, 13):
        one[tables.SPACES[total][index]] = one.get(tables.SPACES[total][index], 0) + ways[total]
    return one


def _generate_weapons_odds(inp):
    """The weapons of every type: per final speed, each type's spaces roll then its fill,
    the three types independent; weighted by the odds of each speed. Counted while the
    lists can be listed (``FILL_COUNTED_VALUES``), else a labelled estimate sampled from
    the same odds."""
    charts = _generate_charts(inp)
    speeds, speed_den = _final_speed_odds(inp)
    by_speed = {speed: _spaces_odds(speed) for speed in speeds}
    sizes = {
        t: [_fill_lists(chart, n) for n in range(tables.MAX_SPACES + 1)]
        for t, chart in charts.items()
        if chart
    }

    def lists(t: str, one: dict[int, int]) -> int:  # a type not filled is always None
        return sum(sizes[t][n] for n in one) if t in sizes else 1

    most = sum(math.prod(lists(t, one) for t in tables.WEAPON_TYPES) for one in by_speed.values())
    if most <= FILL_COUNTED_VALUES:
        fills = {
            t: {
                n: ({None: 1}, 1) if chart is None else _fill_odds(chart, n)
                for n in range(tables.MAX_SPACES + 1)
            }
            for t, chart in charts.items()
        }
        branches = []
        for speed, ways in speeds.items():
            one = by_speed[speed]
            per_type = [
                distributions.mix([(n, 36, fills[t][spaces]) for spaces, n in one.items()])
                for t in tables.WEAPON_TYPES
            ]
            joint, den = distributions.independent(per_type)
            named = {
                tuple(sorted(zip(tables.WEAPON_TYPES, value, strict=True))): n for value, n in joint.items()
            }
            branches.append((ways, speed_den, (named, den)))
        return distributions.mix(branches)
    speed_pick = distributions.Picker((speeds, speed_den))
    spaces_pick = {speed: distributions.Picker((one, 36)) for speed, one in by_speed.items()}
    fill = {t: None if chart is None else _FillSampler(chart) for t, chart in charts.items()}

    def draw(rng) -> tuple:
        speed = speed_pick(rng)[0]
        spaces = spaces_pick[speed](rng, 3)
        return tuple(
            sorted(
                (t, None if fill[t] is None else fill[t](rng, n))
                for t, n in zip(tables.WEAPON_TYPES, spaces, strict=True)
            )
        )

    return distributions.sample(draw, 30, "generate weapons")  # 3 fills of up to 6 rolls, 2 rolls before


@procedure(
    """
procedure: booby_trap.generate
inputs:
  year: int
  mode: str enum {campaign|scenario} = "campaign"
  torp_chart: chart|null = null              # null → printed torpedo chart
  drone_chart: chart|null = null             # null → drone weapons are not filled (GM-data) [A11]
  phaser_chart: chart|null = null            # null → phaser weapons are not filled (GM-data) [A11]
  fill_weapons: bool = true                  # false → stop after the spaces are rolled
dice:
  - adjust: 2D6  [mode == "scenario"]
  - change: nD6  [mode == "scenario" and n > 0; as booby_trap.scenario_speed_adjust]
  - torp: 2D6
  - drone: 2D6
  - phaser: 2D6
  - torp_fill[i]: 2D6  [fill_weapons; as booby_trap.fill_weapons]
  - drone_fill[i]: 2D6  [fill_weapons and drone_chart != null]
  - phaser_fill[i]: 2D6  [fill_weapons and phaser_chart != null]
result:
  speed: int                                 # headline; final speed (adjusted in scenarios)
  base_speed: int                            # speed from the year
  year_band: str                             # band of the final speed
  column: str enum {80|100|120|140|160|180|200|220+}   # from the final speed [A12]
  spaces: object{torp: int, drone: int, phaser: int}
  weapons: object{torp: list[str]|null, drone: list[str]|null, phaser: list[str]|null}   # null = not filled
effects:
  - {"target": "booby_trap", "field": "speed", "op": "set", "value": "<speed>"}
  - {"target": "booby_trap", "field": "year_band", "op": "set", "value": "<year_band>"}
  - {"target": "booby_trap", "field": "spaces", "op": "set", "value": "<spaces>"}
  - {"target": "booby_trap", "field": "weapons", "op": "set", "value": "<weapons>"}
  - {"target": "booby_trap", "field": "drone_racks_loaded", "op": "set", "value": "full"}
errors:
  - InputError(torp_chart|drone_chart|phaser_chart): as booby_trap.fill_weapons
notes:
  - Every weapon fires at its most favourable loading at maximum rate each turn (IR107.331/.341); that is play guidance, not computed here.
""",
    title="Booby trap: generate a new booby trap",
    reference=f"{SEED_A}, IR107.211 Speed; IR107.212; IR107.31 Weapons; IR107.32; IR107.332; 2nd IR107.342",
    example={"year": 150, "mode": "campaign", "fill_weapons": False},
    exact_odds={"spaces": _generate_spaces_odds, "weapons": _generate_weapons_odds},
)
def generate(inp, dice) -> Resolution:
    charts = {
        "torp": _chart_for(inp.torp_chart, "torp", "torp_chart"),
        "drone": None if inp.drone_chart is None else _chart_for(inp.drone_chart, "drone", "drone_chart"),
        "phaser": None
        if inp.phaser_chart is None
        else _chart_for(inp.phaser_chart, "phaser", "phaser_chart"),
    }
    base_speed = _speed_from_year(inp.year)
    speed = base_speed
    scenario = ""
    if inp.mode == "scenario":
        # The speed from the year is settled before these dice.
        adjusted = ("speed", "year_band", "column", "spaces", "weapons")
        speed, adjust_roll, change, clamped = _adjust(dice, base_speed, feeds=adjusted)
        n = tables.SPEED_ADJUST_DICE[adjust_roll]
        how = _dice_text(n) if n == 0 else f"{_dice_text(n)} = {change:+d}"
        scenario = f"; scenario roll {adjust_roll}: {how}, speed {base_speed} -> {speed}" + (
            " (held within 1..32)" if clamped else ""
        )
    band = tables.YEAR_BAND[speed]
    # A type's spaces roll changes the weapons only when that type is filled.
    filled = {t: inp.fill_weapons and charts[t] is not None for t in tables.WEAPON_TYPES}
    feeds = {t: ("spaces", "weapons") if filled[t] else ("spaces",) for t in tables.WEAPON_TYPES}
    spaces, _rolls, column = _spaces(dice, speed, feeds=feeds)
    weapons: dict[str, list[str] | None] = dict.fromkeys(tables.WEAPON_TYPES)
    if inp.fill_weapons:
        for t in tables.WEAPON_TYPES:
            if charts[t] is not None:
                weapons[t] = _fill(
                    dice,
                    charts[t],
                    spaces[t],
                    f"{t}_fill",
                    None,
                    f"{t}_chart",
                    feeds=("weapons",),
                )[0]
    effects = [
        set_effect("booby_trap", "speed", speed),
        set_effect("booby_trap", "year_band", band),
        set_effect("booby_trap", "spaces", dict(spaces)),
        set_effect("booby_trap", "weapons", {t: None if w is None else list(w) for t, w in weapons.items()}),
        set_effect("booby_trap", "drone_racks_loaded", "full"),
    ]
    result = {
        "speed": speed,
        "base_speed": base_speed,
        "year_band": band,
        "column": column,
        "spaces": spaces,
        "weapons": weapons,
    }
    return Resolution(result, _generate_summary(inp, result, scenario), effects)


def _generate_summary(inp, r: dict, scenario: str) -> str:
    parts = [f"New booby trap, year {inp.year} ({inp.mode}): speed {r['base_speed']}{scenario}"]
    parts.append(f"band {r['year_band']}, column {r['column']}")
    for t in tables.WEAPON_TYPES:
        name = tables.WEAPON_TYPE_NAMES[t]
        n = r["spaces"][t]
        line = f"{name} {n} space{'s' if n != 1 else ''}"
        if r["weapons"][t] is not None:
            line += f": {', '.join(r['weapons'][t])}"
        elif inp.fill_weapons:
            line += " (no chart: the GM fills these)"
        parts.append(line)
    return "; ".join(parts) + "; drone racks start full."


# --- 1.6 -------------------------------------------------------------------------------------

# IR107.222 tie-breaks after range [A13]: highest size class (smallest unit), then lowest
# movement cost, then lowest speed; each key is minimised.
_TIE_BREAKS = (
    ("size_class", lambda u: -u.size_class),
    ("move_cost", lambda u: u.move_cost),
    ("speed", lambda u: u.speed),
)


@procedure(
    """
procedure: booby_trap.pursuit_target
inputs:
  units: list[object{id: str, range_hexes: int, size_class: int, move_cost: rational, speed: int}] = []   # detected units only
dice:
  - tie: 1dN  [N ≥ 2 units still tied after range, size class, move cost and speed; the value k picks the k-th tied unit in input order]
result:
  target_id: str|null                        # headline; null = no unit detected → straight course (IR107.223)
  candidate_ids: list[str]                   # units at the minimum range, input order
  decided_by: str enum {none|range|size_class|move_cost|speed|random}
effects:
  - {"target": "booby_trap", "field": "target", "op": "set", "value": "<target_id>"}
  - {"target": "booby_trap", "field": "course", "op": "set", "value": "pursuit"}   [target_id != null; "straight" otherwise]
errors:
  - InputError(units): duplicate ids, negative range, size_class outside 1..7, move_cost not a positive rational
notes:
  - Tie order [A13]: minimum range, then HIGHEST size_class (smallest unit), then lowest move_cost, then lowest speed, then the `tie` die.
""",
    title="Booby trap: pursuit target",
    reference=f"{SEED_A}, IR107.22",
    example={
        "units": [
            {"id": "Frigate", "range_hexes": 8, "size_class": 4, "move_cost": "1/2", "speed": 20},
            {"id": "Fighter A", "range_hexes": 5, "size_class": 6, "move_cost": "1/3", "speed": 15},
            {"id": "Fighter B", "range_hexes": 5, "size_class": 6, "move_cost": "1/3", "speed": 15},
        ]
    },
)
def pursuit_target(inp, dice) -> Resolution:
    seen = set()
    for u in inp.units:
        if u.id in seen:
            raise InputError("units", f"the id “{u.id}” is used twice")
        seen.add(u.id)
        if u.range_hexes < 0:
            raise InputError("units", f"{u.id}: range {u.range_hexes} hexes cannot be negative")
        if not 1 <= u.size_class <= 7:
            raise InputError("units", f"{u.id}: size class must be from 1 to 7")
        if u.move_cost <= 0:
            raise InputError("units", f"{u.id}: movement cost must be more than 0")
        if u.speed < 0:
            raise InputError("units", f"{u.id}: speed cannot be negative")
    if not inp.units:
        effects = [
            set_effect("booby_trap", "target", None),
            set_effect("booby_trap", "course", "straight"),
        ]
        summary = "No unit detected: target -> none, course -> straight on the last heading (IR107.223)."
        return Resolution({"target_id": None, "candidate_ids": [], "decided_by": "none"}, summary, effects)
    nearest = min(u.range_hexes for u in inp.units)
    candidates = [u for u in inp.units if u.range_hexes == nearest]
    remaining, decided_by = candidates, "range"
    if len(remaining) > 1:
        for name, key in _TIE_BREAKS:
            best = min(key(u) for u in remaining)
            remaining = [u for u in remaining if key(u) == best]
            if len(remaining) == 1:
                decided_by = name
                break
        else:
            remaining = [remaining[dice.pick("tie", len(remaining))]]
            decided_by = "random"
    target = remaining[0]
    effects = [
        set_effect("booby_trap", "target", target.id),
        set_effect("booby_trap", "course", "pursuit"),
    ]
    why = {
        "range": "the nearest unit",
        "size_class": "the smallest of the nearest units (highest size class)",
        "move_cost": "the lowest movement cost among the nearest, smallest units",
        "speed": "the slowest of the nearest, smallest, cheapest-moving units",
        "random": "a random pick among units tied on range, size class, movement cost and speed",
    }[decided_by]
    summary = (
        f"The booby trap pursues {target.id} at {nearest} hexes ({why}): target -> {target.id}, "
        "course -> pursuit (SFB C1.322)."
    )
    result = {"target_id": target.id, "candidate_ids": [u.id for u in candidates], "decided_by": decided_by}
    return Resolution(result, summary, effects)


# --- 1.7 -------------------------------------------------------------------------------------


@procedure(
    """
procedure: booby_trap.terrain_pursuit
inputs:
  terrain: list[object{id: str, type: str enum {warp_point|gravity_portal|wormhole|space_rift|other_inter_sector}, range_hexes: int}] = []
  current_turn: int
  terrain_cooldown_until: int|null = null    # last turn of the 500-turn lockout (passage turn + 500); null = none
  unit_target: bool = false                  # the trap currently pursues a detected unit
  priority: str enum {units|terrain} = "units"   # [A14]
  passes_through: bool = false               # the trap passes through inter-sector terrain on current_turn
dice: none
result:
  pursue_terrain: bool                       # headline
  terrain_id: str|null                       # the terrain pursued (nearest detected; ties → input order), else null
  detected_ids: list[str]                    # terrain within 300 hexes (automatic detection), input order
  locked_out: bool                           # current_turn ≤ terrain_cooldown_until
  cooldown_until: int|null                   # after this turn (current_turn + 500 when passes_through)
effects:
  - {"target": "booby_trap", "field": "terrain_cooldown_until", "op": "set", "value": "<cooldown_until>"}   [passes_through]
  - {"target": "booby_trap", "field": "target", "op": "set", "value": "<terrain_id>"}   [pursue_terrain]
errors: none
notes:
  - pursue_terrain = detected_ids non-empty and not locked_out and not (unit_target and priority == "units").
""",
    title="Booby trap: pursue inter-sector terrain",
    reference=f"{SEED_A}, IR107.23",
    bounds={"current_turn": (0, None), "terrain_cooldown_until": (0, None)},  # C.9: no negative times
    example={
        "terrain": [
            {"id": "Warp point 1", "type": "warp_point", "range_hexes": 250},
            {"id": "Rift", "type": "space_rift", "range_hexes": 420},
        ],
        "current_turn": 1200,
    },
)
def terrain_pursuit(inp, dice) -> Resolution:
    seen = set()
    for t in inp.terrain:
        if t.id in seen:
            raise InputError("terrain", f"the id “{t.id}” is used twice")
        seen.add(t.id)
        if t.range_hexes < 0:
            raise InputError("terrain", f"{t.id}: range {t.range_hexes} hexes cannot be negative")
    detected = [t for t in inp.terrain if t.range_hexes <= tables.TERRAIN_DETECTION_HEXES]
    locked_out = inp.terrain_cooldown_until is not None and inp.current_turn <= inp.terrain_cooldown_until
    units_first = inp.unit_target and inp.priority == "units"
    pursue = bool(detected) and not locked_out and not units_first
    terrain_id = None
    if pursue:
        nearest = min(t.range_hexes for t in detected)
        terrain_id = next(t.id for t in detected if t.range_hexes == nearest)
    cooldown = inp.terrain_cooldown_until
    if inp.passes_through:
        cooldown = inp.current_turn + tables.TERRAIN_LOCKOUT_TURNS
    effects = []
    if inp.passes_through:
        effects.append(set_effect("booby_trap", "terrain_cooldown_until", cooldown))
    if pursue:
        effects.append(set_effect("booby_trap", "target", terrain_id))
    result = {
        "pursue_terrain": pursue,
        "terrain_id": terrain_id,
        "detected_ids": [t.id for t in detected],
        "locked_out": locked_out,
        "cooldown_until": cooldown,
    }
    return Resolution(result, _terrain_summary(inp, result), effects)


def _terrain_summary(inp, r: dict) -> str:
    if r["pursue_terrain"]:
        line = f"Turn {inp.current_turn}: the booby trap pursues {r['terrain_id']}"
    elif not r["detected_ids"]:
        line = f"Turn {inp.current_turn}: no inter-sector terrain within 300 hexes; no terrain pursuit"
    elif r["locked_out"]:
        line = (
            f"Turn {inp.current_turn}: terrain detected but the trap passed through such terrain "
            f"recently and ignores it until after turn {inp.terrain_cooldown_until}"
        )
    else:
        line = (
            f"Turn {inp.current_turn}: terrain detected, but the trap keeps pursuing its unit (units first)"
        )
    if inp.passes_through:
        line += (
            f"; it passes through this turn: terrain lockout {inp.terrain_cooldown_until} -> "
            f"{r['cooldown_until']} (eligible again from turn {r['cooldown_until'] + 1})"
        )
    return line + "."


# --- 1.8 -------------------------------------------------------------------------------------


@procedure(
    """
procedure: booby_trap.turn_upkeep
inputs:
  drone_racks: list[object{capacity: int, loaded: int}] = []
  turns: int = 1                             # End Phases elapsed
dice: none
result:
  loaded: list[int]                          # headline; per rack, min(capacity, loaded + turns)
effects:
  - {"target": "booby_trap", "field": "drone_racks[<i>].loaded", "op": "set", "value": "<loaded[i]>"}
errors:
  - InputError(drone_racks): loaded < 0 or loaded > capacity
  - InputError(turns): turns < 0
notes:
  - Speed stays at maximum, no HET/braking/EM, no orbit or landing; reloadable torpedo/drone weapons reload automatically (rules text only).
""",
    title="Booby trap: turn upkeep (drone reloads)",
    reference=f"{SEED_A}, IR107.213/.214/.216/.217/.331/.341/first .342",
    bounds={"turns": (0, None)},
    example={"drone_racks": [{"capacity": 4, "loaded": 1}, {"capacity": 6, "loaded": 6}], "turns": 2},
)
def turn_upkeep(inp, dice) -> Resolution:
    for i, rack in enumerate(inp.drone_racks, start=1):
        if rack.loaded < 0:
            raise InputError("drone_racks", f"rack {i}: loaded {rack.loaded} cannot be negative")
        if rack.loaded > rack.capacity:
            raise InputError(
                "drone_racks", f"rack {i}: loaded {rack.loaded} is more than its capacity {rack.capacity}"
            )
    gain = tables.DRONE_RELOAD_PER_TURN * inp.turns
    loaded = [min(rack.capacity, rack.loaded + gain) for rack in inp.drone_racks]
    effects = [set_effect("booby_trap", f"drone_racks[{i}].loaded", value) for i, value in enumerate(loaded)]
    if inp.drone_racks:
        racks = "; ".join(
            f"rack {i}: {rack.loaded} -> {value} of {rack.capacity}"
            for i, (rack, value) in enumerate(zip(inp.drone_racks, loaded, strict=True), start=1)
        )
    else:
        racks = "no drone racks"
    summary = (
        f"{inp.turns} turn{'s' if inp.turns != 1 else ''} of upkeep: {racks}. Speed stays at maximum; "
        "reloadable weapons reload automatically."
    )
    return Resolution({"loaded": loaded}, summary, effects)
