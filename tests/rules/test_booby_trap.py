"""Booby traps (Seed A, IR107; catalogue section 1)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from dyce import H

import rules
from rules.procedures.booby_trap import validate_chart
from rules.tables.booby_trap import TORPEDO_CHART

# 2D6 totals -> number of the 36 ways to roll them (an independent count for hand odds).
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}

# The seed's torpedo-hit chart (IR107.332), transcribed here independently of the tables module.
PRINTED_TORPEDO = {
    2: ("Plasma-R (FA)", 2),
    3: ("TR-H (FA)", 2),
    4: ("Plasma-G (FA)", 2),
    5: ("Plasma-F (FA)", 1),
    6: ("Disruptor (FA)", 1),
    7: ("Fusion (FA)", 1),
    8: ("Particle Cannon (FA)", 1),
    9: ("Photon (FA)", 1),
    10: ("TR-L (FA)", 1),
    11: ("Plasma-S (FA)", 2),
    12: ("WARG (FA)", 2),
}

# The seed's IR107.31 table, as printed (rows 2..12, columns 80..220+).
PRINTED_SPACES = """
2  3 3 4 4 5 5 6 6
3  2 3 3 4 4 5 5 6
4  2 2 3 3 4 4 5 5
5  1 2 2 3 3 4 4 5
6  1 1 2 2 3 3 4 4
7  1 1 1 2 2 3 3 4
8  1 1 2 2 3 3 4 4
9  1 2 2 3 3 4 4 5
10 2 2 3 3 4 4 5 5
11 2 3 3 4 4 5 5 6
12 3 3 4 4 5 5 6 6
"""
COLUMNS = ("80", "100", "120", "140", "160", "180", "200", "220+")
# A speed in each column [A12]: 1-7 -> 80, 8-11 -> 100, ..., 28-31 -> 200, 32 -> 220+.
SPEED_IN_COLUMN = {"80": 5, "100": 9, "120": 13, "140": 17, "160": 21, "180": 25, "200": 29, "220+": 32}


def dice_for(total: int) -> list[int]:
    """Two dice showing ``total``."""
    return [max(1, total - 6), min(6, total - 1)]


def resolve(pid: str, inputs: dict, dice: list[int] | None = None) -> rules.Outcome:
    return rules.resolve(f"booby_trap.{pid}", inputs, dice=dice)


def input_error(pid: str, inputs: dict, dice: list[int] | None = None) -> rules.InputError:
    with pytest.raises(rules.InputError) as caught:
        resolve(pid, inputs, dice)
    return caught.value


def chart(entries: dict[int, tuple]) -> dict:
    """A chart in the contract's JSON shape from {roll: (weapon, spaces[, weight])}."""
    out = {}
    for roll, entry in entries.items():
        out[str(roll)] = {"weapon": entry[0], "spaces": entry[1]}
        if len(entry) > 2:
            out[str(roll)]["weight"] = entry[2]
    return out


def printed_with(**changes) -> dict[int, tuple]:
    """The printed torpedo chart with some entries replaced: printed_with(e7=("X", 1))."""
    entries = dict(PRINTED_TORPEDO)
    for key, value in changes.items():
        entries[int(key[1:])] = value
    return entries


DRONE_CHART = chart(
    {
        2: ("Drone rack G", 3),
        3: ("Drone rack E", 2),
        4: ("Drone rack C", 2),
        5: ("ADD-12", 1),
        6: ("Drone rack A", 1),
        7: ("Drone rack A", 1),
        8: ("Drone rack A", 1),
        9: ("Drone rack B", 1),
        10: ("ADD-6", 1),
        11: ("Drone rack F", 2),
        12: ("Drone rack H", 3),
    }
)
PHASER_CHART = chart({roll: (f"Phaser-{'1' if 5 <= roll <= 9 else 'G'}", 1) for roll in range(2, 13)})


# --- 1.1 booby_trap.speed_by_year ------------------------------------------------------------

PRINTED_YEARS = [
    ("<70", 1),
    ("70-74", 2),
    ("75-79", 3),
    ("80-84", 4),
    ("85-89", 5),
    ("90-94", 6),
    ("95-99", 7),
    ("100-104", 8),
    ("105-109", 9),
    ("110-114", 10),
    ("115-119", 11),
    ("120-124", 12),
    ("125-129", 13),
    ("130-134", 14),
    ("135-139", 15),
    ("140-144", 16),
    ("145-149", 17),
    ("150-154", 18),
    ("155-159", 19),
    ("160-164", 20),
    ("165-169", 21),
    ("170-174", 22),
    ("175-179", 23),
    ("180-184", 24),
    ("185-189", 25),
    ("190-194", 26),
    ("195-199", 27),
    ("200-204", 28),
    ("205-209", 29),
    ("210-214", 30),
    ("215-219", 31),
    ("220+", 32),
]


@pytest.mark.parametrize(("band", "speed"), PRINTED_YEARS)
def test_speed_by_year_first_and_last_year_of_every_printed_band(band, speed):
    if band == "<70":
        years = (69, -500)
    elif band == "220+":
        years = (220, 5000)
    else:
        first, last = (int(y) for y in band.split("-"))
        years = (first, last)
    for year in years:
        assert resolve("speed_by_year", {"year": year}, []).result["speed"] == speed
        assert resolve("speed_by_year", {"year": year}).result["year_band"] == band


def test_speed_by_year_matches_the_catalogue_formula_over_a_wide_range():
    for year in range(-20, 300):
        expected = 1 if year < 70 else 32 if year >= 220 else (year - 70) // 5 + 2
        assert resolve("speed_by_year", {"year": year}).result["speed"] == expected


@pytest.mark.parametrize(
    ("year", "column"),
    [
        (60, "80"),  # speed 1: years below 80 use column 80 [A12]
        (99, "80"),  # speed 7
        (100, "100"),  # speed 8
        (119, "100"),  # speed 11
        (120, "120"),
        (139, "120"),
        (140, "140"),
        (159, "140"),
        (160, "160"),
        (179, "160"),
        (180, "180"),
        (199, "180"),
        (200, "200"),
        (219, "200"),
        (220, "220+"),
    ],
)
def test_speed_by_year_column_is_the_largest_header_at_or_below_the_band_start(year, column):
    assert resolve("speed_by_year", {"year": year}).result["column"] == column


def test_speed_by_year_full_result_and_effects():
    outcome = resolve("speed_by_year", {"year": 152}, [])
    assert outcome.result == {"speed": 18, "year_band": "150-154", "column": "140"}
    assert outcome.rolls == ()
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "speed", "op": "set", "value": 18},
        {"target": "booby_trap", "field": "year_band", "op": "set", "value": "150-154"},
    ]
    json.dumps(outcome.to_dict())


@pytest.mark.parametrize("year", ["150", True, None, 150.5])
def test_speed_by_year_refuses_a_year_that_is_not_a_whole_number(year):
    assert input_error("speed_by_year", {"year": year}).field == "year"


def test_speed_by_year_requires_the_year_and_refuses_unknown_inputs():
    assert input_error("speed_by_year", {}).field == "year"
    assert input_error("speed_by_year", {"year": 150, "speed": 3}).field == "speed"


def test_speed_by_year_accepts_an_integral_float():
    assert resolve("speed_by_year", {"year": 150.0}).inputs == {"year": 150}


def test_speed_by_year_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        resolve("speed_by_year", {"year": 150}, [3])


def test_speed_by_year_odds_are_certain():
    assert rules.odds("booby_trap.speed_by_year", {"year": 150}) == {18: 1}
    assert rules.odds("booby_trap.speed_by_year", {"year": 150}, key="column") == {"140": 1}


# --- 1.2 booby_trap.scenario_speed_adjust ----------------------------------------------------


@pytest.mark.parametrize(
    ("adjust", "change_dice", "change"),
    [
        (2, [1, 2, 3, 4], -10),
        (3, [1, 2, 3], -6),
        (4, [2, 5], -7),
        (5, [4], -4),
        (6, [], 0),
        (7, [], 0),
        (8, [], 0),
        (9, [4], 4),
        (10, [2, 5], 7),
        (11, [1, 2, 3], 6),
        (12, [1, 2, 3, 4], 10),
    ],
)
def test_scenario_adjust_every_row_of_the_table(adjust, change_dice, change):
    outcome = resolve("scenario_speed_adjust", {"speed": 16}, dice_for(adjust) + change_dice)
    assert outcome.result["adjust_roll"] == adjust
    assert outcome.result["change"] == change
    assert outcome.result["speed"] == 16 + change
    assert outcome.result["clamped"] is False
    assert [r.label for r in outcome.rolls] == ["adjust"] + (["change"] if change_dice else [])
    if change_dice:
        assert outcome.rolls[1].sides == 6 and len(outcome.rolls[1].values) == len(change_dice)


def test_scenario_adjust_no_change_rows_roll_no_further_dice():
    for total in (6, 7, 8):
        with pytest.raises(rules.DiceError):
            resolve("scenario_speed_adjust", {"speed": 16}, [*dice_for(total), 3])


def test_scenario_adjust_clamps_at_1():
    at_one = resolve("scenario_speed_adjust", {"speed": 5}, [*dice_for(5), 4]).result
    assert (at_one["speed"], at_one["change"], at_one["clamped"]) == (1, -4, False)
    below = resolve("scenario_speed_adjust", {"speed": 5}, [*dice_for(5), 5]).result
    assert (below["speed"], below["change"], below["clamped"]) == (1, -5, True)
    far_below = resolve("scenario_speed_adjust", {"speed": 3}, [1, 1, 6, 6, 6, 6]).result
    assert (far_below["speed"], far_below["change"], far_below["clamped"]) == (1, -24, True)


def test_scenario_adjust_clamps_at_32():
    at_top = resolve("scenario_speed_adjust", {"speed": 31}, [*dice_for(9), 1]).result
    assert (at_top["speed"], at_top["clamped"]) == (32, False)
    above = resolve("scenario_speed_adjust", {"speed": 31}, [*dice_for(9), 2]).result
    assert (above["speed"], above["change"], above["clamped"]) == (32, 2, True)


def test_scenario_adjust_band_and_column_follow_the_adjusted_speed():
    # Speed 7 is column 80; +1 moves it to speed 8, band 100-104, column 100 [A12].
    result = resolve("scenario_speed_adjust", {"speed": 7}, [*dice_for(9), 1]).result
    assert result == {
        "speed": 8,
        "adjust_roll": 9,
        "change": 1,
        "clamped": False,
        "year_band": "100-104",
        "column": "100",
    }


def test_scenario_adjust_effects():
    outcome = resolve("scenario_speed_adjust", {"speed": 18}, [*dice_for(10), 3, 4])
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "speed", "op": "set", "value": 25},
        {"target": "booby_trap", "field": "year_band", "op": "set", "value": "185-189"},
    ]


@pytest.mark.parametrize("speed", [0, 33, -1, None, "18"])
def test_scenario_adjust_refuses_a_speed_outside_1_to_32(speed):
    assert input_error("scenario_speed_adjust", {"speed": speed}, [3, 4]).field == "speed"


def test_scenario_adjust_accepts_the_speed_limits():
    assert resolve("scenario_speed_adjust", {"speed": 1}, [3, 4]).result["speed"] == 1
    assert resolve("scenario_speed_adjust", {"speed": 32}, [3, 4]).result["speed"] == 32


@pytest.mark.parametrize(
    "dice",
    [
        [6],  # adjust needs two dice
        [6, 6, 1, 2, 3],  # +4D6 needs four
        [3, 4, 1],  # left over after "no change"
        [0, 4],  # out of range
        [7, 1],
        [3, True],  # a bool is not a die
    ],
)
def test_scenario_adjust_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        resolve("scenario_speed_adjust", {"speed": 18}, dice)


def test_scenario_adjust_odds_match_dyce():
    got = rules.odds("booby_trap.scenario_speed_adjust", {"speed": 18})
    assert sum(got.values()) == 1
    expected: dict[int, Fraction] = {}
    table = {2: -4, 3: -3, 4: -2, 5: -1, 6: 0, 7: 0, 8: 0, 9: 1, 10: 2, 11: 3, 12: 4}
    two_d6 = 2 @ H(6)
    for adjust, ways in two_d6.items():
        p_adjust = Fraction(ways, two_d6.total)
        n = table[adjust]
        if n == 0:
            expected[18] = expected.get(18, 0) + p_adjust
            continue
        change = abs(n) @ H(6)
        for rolled, ways_change in change.items():
            speed = min(32, max(1, 18 + (rolled if n > 0 else -rolled)))
            expected[speed] = expected.get(speed, 0) + p_adjust * Fraction(ways_change, change.total)
    assert got == expected


def test_scenario_adjust_odds_of_clamping_at_speed_1():
    # Speed 1: any reduction clamps; P(adjust 2..5) = 10/36.
    assert rules.odds("booby_trap.scenario_speed_adjust", {"speed": 1}, key="clamped") == {
        True: Fraction(10, 36),
        False: Fraction(26, 36),
    }


# --- 1.3 booby_trap.weapon_spaces ------------------------------------------------------------


def printed_spaces() -> dict[tuple[int, str], int]:
    out = {}
    for line in PRINTED_SPACES.strip().splitlines():
        roll, *values = (int(x) for x in line.split())
        for column, value in zip(COLUMNS, values, strict=True):
            out[roll, column] = value
    return out


@pytest.mark.parametrize("column", COLUMNS)
def test_weapon_spaces_every_roll_of_every_column_matches_the_print(column):
    speed = SPEED_IN_COLUMN[column]
    for (roll, col), spaces in printed_spaces().items():
        if col != column:
            continue
        result = resolve("weapon_spaces", {"speed": speed}, dice_for(roll) * 3).result
        assert (result["torp"], result["drone"], result["phaser"]) == (spaces, spaces, spaces)
        assert result["column"] == column


def test_weapon_spaces_keeps_the_printed_dip_at_row_7_column_120():
    def torp(roll):
        return resolve("weapon_spaces", {"speed": 12}, [*dice_for(roll), 3, 4, 3, 4]).result["torp"]

    assert (torp(6), torp(7), torp(8)) == (2, 1, 2)


@pytest.mark.parametrize(
    ("speed", "column"),
    [
        (1, "80"),
        (7, "80"),
        (8, "100"),
        (11, "100"),
        (12, "120"),
        (15, "120"),
        (16, "140"),
        (19, "140"),
        (20, "160"),
        (23, "160"),
        (24, "180"),
        (27, "180"),
        (28, "200"),
        (31, "200"),
        (32, "220+"),
    ],
)
def test_weapon_spaces_column_boundaries(speed, column):
    assert resolve("weapon_spaces", {"speed": speed}, [3, 4] * 3).result["column"] == column


def test_weapon_spaces_rolls_torpedo_then_drone_then_phaser():
    outcome = resolve("weapon_spaces", {"speed": 32}, [1, 1, 3, 4, 6, 6])
    assert outcome.result == {"torp": 6, "drone": 4, "phaser": 6, "column": "220+", "year_band": "220+"}
    assert [r.label for r in outcome.rolls] == ["torp", "drone", "phaser"]
    assert list(outcome.effects) == [
        {
            "target": "booby_trap",
            "field": "spaces",
            "op": "set",
            "value": {"torp": 6, "drone": 4, "phaser": 6},
        }
    ]


def test_weapon_spaces_year_band_is_worked_back_from_speed():
    assert resolve("weapon_spaces", {"speed": 1}, [3, 4] * 3).result["year_band"] == "<70"
    assert resolve("weapon_spaces", {"speed": 18}, [3, 4] * 3).result["year_band"] == "150-154"


@pytest.mark.parametrize("speed", [0, 33, None])
def test_weapon_spaces_refuses_a_speed_outside_1_to_32(speed):
    # Bad input wins over bad dice: inputs are checked first.
    assert input_error("weapon_spaces", {"speed": speed}, [9]).field == "speed"


@pytest.mark.parametrize("dice", [[3, 4, 3, 4], [3, 4, 3, 4, 3, 4, 1], [3, 4, 3, 4, 3, 7], []])
def test_weapon_spaces_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        resolve("weapon_spaces", {"speed": 18}, dice)


def test_weapon_spaces_server_dice_roll_three_groups_of_two():
    outcome = resolve("weapon_spaces", {"speed": 18})
    assert [(r.label, len(r.values), r.sides) for r in outcome.rolls] == [
        ("torp", 2, 6),
        ("drone", 2, 6),
        ("phaser", 2, 6),
    ]


def test_weapon_spaces_odds_by_hand():
    # Column 80: 1 space on 5-9 (24 ways), 2 on 3, 4, 10, 11 (10 ways), 3 on 2 and 12 (2 ways).
    assert rules.odds("booby_trap.weapon_spaces", {"speed": 5}) == {
        1: Fraction(24, 36),
        2: Fraction(10, 36),
        3: Fraction(2, 36),
    }
    # Column 120 (speed 12): 1 only on a 7 (the printed dip).
    odds = rules.odds("booby_trap.weapon_spaces", {"speed": 12}, key="phaser")
    assert odds == {1: Fraction(6, 36), 2: Fraction(18, 36), 3: Fraction(10, 36), 4: Fraction(2, 36)}


# --- 1.4 booby_trap.fill_weapons -------------------------------------------------------------


@pytest.mark.parametrize("roll", range(2, 13))
def test_fill_weapons_printed_torpedo_chart_entry(roll):
    weapon, spaces = PRINTED_TORPEDO[roll]
    result = resolve("fill_weapons", {"spaces": spaces}, dice_for(roll)).result
    assert result == {"weapons": [weapon], "rolls_used": 1, "rejected_rolls": 0, "spaces_used": spaces}


def test_fill_weapons_discards_a_roll_needing_more_spaces_than_remain():
    outcome = resolve("fill_weapons", {"spaces": 1}, [1, 1, 3, 4])
    assert outcome.result == {
        "weapons": ["Fusion (FA)"],
        "rolls_used": 2,
        "rejected_rolls": 1,
        "spaces_used": 1,
    }
    assert [r.label for r in outcome.rolls] == ["fill[0]", "fill[0]"]


def test_fill_weapons_a_weapon_that_exactly_fills_the_rest_fits():
    outcome = resolve("fill_weapons", {"spaces": 3}, [3, 4, 6, 6])
    assert outcome.result["weapons"] == ["Fusion (FA)", "WARG (FA)"]
    assert outcome.result["rejected_rolls"] == 0


def test_fill_weapons_sequence_with_rejections():
    # 4 spaces: 7 Fusion (3 left), 12 WARG (1 left), 11 Plasma-S rejected, 2 Plasma-R rejected,
    # 5 Plasma-F (full).
    outcome = resolve("fill_weapons", {"spaces": 4}, [3, 4, 6, 6, 5, 6, 1, 1, 2, 3])
    assert outcome.result == {
        "weapons": ["Fusion (FA)", "WARG (FA)", "Plasma-F (FA)"],
        "rolls_used": 5,
        "rejected_rolls": 2,
        "spaces_used": 4,
    }
    assert [r.label for r in outcome.rolls] == ["fill[0]", "fill[1]", "fill[2]", "fill[2]", "fill[2]"]
    assert list(outcome.effects) == [
        {
            "target": "booby_trap",
            "field": "weapons.torp",
            "op": "set",
            "value": ["Fusion (FA)", "WARG (FA)", "Plasma-F (FA)"],
        }
    ]


def test_fill_weapons_zero_spaces_rolls_nothing():
    outcome = resolve("fill_weapons", {"spaces": 0}, [])
    assert outcome.result == {"weapons": [], "rolls_used": 0, "rejected_rolls": 0, "spaces_used": 0}
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "weapons.torp", "op": "set", "value": []}
    ]
    with pytest.raises(rules.DiceError):
        resolve("fill_weapons", {"spaces": 0}, [3, 4])


@pytest.mark.parametrize("weapon_type", ["drone", "phaser"])
def test_fill_weapons_drone_and_phaser_need_a_gm_chart(weapon_type):
    assert input_error("fill_weapons", {"spaces": 2, "weapon_type": weapon_type}, [3, 4]).field == "chart"


def test_fill_weapons_gm_chart_replaces_the_printed_one():
    outcome = resolve("fill_weapons", {"spaces": 3, "weapon_type": "drone", "chart": DRONE_CHART}, [6, 6])
    assert outcome.result["weapons"] == ["Drone rack H"]
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "weapons.drone", "op": "set", "value": ["Drone rack H"]}
    ]
    phaser = resolve(
        "fill_weapons", {"spaces": 2, "weapon_type": "phaser", "chart": PHASER_CHART}, [1, 1, 3, 4]
    )
    assert phaser.result["weapons"] == ["Phaser-G", "Phaser-1"]


def test_fill_weapons_custom_torpedo_chart():
    custom = chart(printed_with(e7=("Hellbore (FA)", 1)))
    result = resolve("fill_weapons", {"spaces": 1, "chart": custom}, [3, 4]).result
    assert result["weapons"] == ["Hellbore (FA)"]


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        ({r: (w, 2) for r, (w, _s) in PRINTED_TORPEDO.items()}, "no 1-space entry"),
        (printed_with(e4=("Plasma-G (FA)", 2), e3=("TR-H (FA)", 1)), "rises from 3 to 4"),
        (printed_with(e7=("Fusion (FA)", 2)), "rises from 6 to 7"),
        (printed_with(e8=("Particle Cannon (FA)", 1, 0.5)), "falls from 7 to 8"),
        (printed_with(e12=("WARG (FA)", 1)), "falls from 11 to 12"),
        (printed_with(e2=("Mauler (FA)", 2)), "Mauler"),
        (printed_with(e12=("heavy MAULER", 2)), "Mauler, upper case"),
        (printed_with(e11=("SFG", 2)), "SFG"),
        (printed_with(e11=("sfg-2", 2)), "SFG, lower case"),
        (printed_with(e11=("Stasis Field Generator", 2)), "SFG spelt out"),
        (printed_with(e9=("  ", 1)), "empty weapon name"),
    ],
)
def test_fill_weapons_refuses_charts_that_break_ir107_32(entries, why):
    error = input_error("fill_weapons", {"spaces": 1, "chart": chart(entries)}, [3, 4])
    assert error.field == "chart", why
    with pytest.raises(rules.InputError) as caught:
        validate_chart(chart(entries), "drone_chart")
    assert caught.value.field == "drone_chart"


def test_fill_weapons_equal_weights_are_allowed_both_sides_of_7():
    flat = chart(dict.fromkeys(range(2, 13), ("Phaser-1", 1)))
    assert resolve("fill_weapons", {"spaces": 1, "chart": flat}, [1, 1]).result["weapons"] == ["Phaser-1"]


def test_fill_weapons_gm_weight_decides_the_order_not_spaces():
    # Spaces go 1 then 2 from 5 to 6 (would rise), but the GM's weights fall: allowed.
    by_weight = chart(
        printed_with(e5=("Plasma-F (FA)", 1, 2), e6=("Disruptor (FA)", 2, 1.5), e7=("Fusion (FA)", 1, 1))
    )
    result = resolve("fill_weapons", {"spaces": 2, "chart": by_weight}, dice_for(6)).result
    assert result["weapons"] == ["Disruptor (FA)"]
    # Same spaces, weights that rise from 5 to 6: refused.
    rising = chart(printed_with(e5=("Plasma-F (FA)", 1, 1), e6=("Disruptor (FA)", 1, 1.5)))
    assert input_error("fill_weapons", {"spaces": 1, "chart": rising}, [3, 4]).field == "chart"


@pytest.mark.parametrize(
    "bad",
    [
        {k: v for k, v in chart(PRINTED_TORPEDO).items() if k != "7"},  # missing key
        {**chart(PRINTED_TORPEDO), "13": {"weapon": "X", "spaces": 1}},  # extra key
        {**chart(PRINTED_TORPEDO), "7": {"weapon": "Fusion (FA)", "spaces": 0}},  # spaces < 1
        {**chart(PRINTED_TORPEDO), "7": {"weapon": "Fusion (FA)", "spaces": 1, "arc": "FA"}},
        {**chart(PRINTED_TORPEDO), "7": {"spaces": 1}},
        [1, 2, 3],
    ],
)
def test_fill_weapons_refuses_a_malformed_chart(bad):
    assert input_error("fill_weapons", {"spaces": 1, "chart": bad}, [3, 4]).field == "chart"


def test_fill_weapons_max_rolls_cap():
    # Exactly max_rolls rolls is allowed.
    result = resolve("fill_weapons", {"spaces": 1, "max_rolls": 2}, [1, 1, 3, 4]).result
    assert result["rolls_used"] == 2
    # One more would be needed: refused, naming max_rolls.
    assert input_error("fill_weapons", {"spaces": 1, "max_rolls": 2}, [1, 1, 6, 6, 3, 4]).field == "max_rolls"
    # The cap counts every slot's rolls: a second weapon needs a second roll.
    assert input_error("fill_weapons", {"spaces": 2, "max_rolls": 1}, [3, 4, 3, 4]).field == "max_rolls"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"spaces": -1}, "spaces"),
        ({"spaces": 1, "max_rolls": 0}, "max_rolls"),
        ({"spaces": 1, "weapon_type": "fighter"}, "weapon_type"),
        ({"spaces": 1.5}, "spaces"),
        ({}, "spaces"),
    ],
)
def test_fill_weapons_bad_inputs(inputs, field):
    assert input_error("fill_weapons", inputs, [3, 4]).field == field


@pytest.mark.parametrize("dice", [[3, 4], [3], [3, 4, 3, 4, 1], [3, 9, 3, 4]])
def test_fill_weapons_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        resolve("fill_weapons", {"spaces": 2}, dice)


def test_fill_weapons_odds_one_space_by_hand():
    # Only 1-space entries (5..10) can fill the last space: 4, 5, 6, 5, 4, 3 ways of 27.
    assert rules.odds("booby_trap.fill_weapons", {"spaces": 1}) == {
        ("Plasma-F (FA)",): Fraction(4, 27),
        ("Disruptor (FA)",): Fraction(5, 27),
        ("Fusion (FA)",): Fraction(6, 27),
        ("Particle Cannon (FA)",): Fraction(5, 27),
        ("Photon (FA)",): Fraction(4, 27),
        ("TR-L (FA)",): Fraction(3, 27),
    }


def test_fill_weapons_odds_two_spaces_by_hand():
    expected: dict[tuple, Fraction] = {}
    one_space = [r for r, (_w, s) in PRINTED_TORPEDO.items() if s == 1]
    for first, (weapon, spaces) in PRINTED_TORPEDO.items():
        p_first = Fraction(WAYS[first], 36)
        if spaces == 2:
            expected[(weapon,)] = expected.get((weapon,), 0) + p_first
            continue
        fitting = sum(WAYS[r] for r in one_space)
        for second in one_space:
            key = (weapon, PRINTED_TORPEDO[second][0])
            expected[key] = expected.get(key, 0) + p_first * Fraction(WAYS[second], fitting)
    got = rules.odds("booby_trap.fill_weapons", {"spaces": 2})
    assert got == expected
    assert sum(got.values()) == 1


def test_fill_weapons_monte_carlo_agrees_with_the_discard_rule():
    # With 1 space left, 27 of 36 rolls fit: the mean number of fill rolls for one space is 36/27.
    runs = 4000
    rolls = sum(
        resolve("fill_weapons", {"spaces": 1}, rules.SeededDice(seed)).result["rolls_used"]
        for seed in range(runs)
    )
    assert abs(rolls / runs - 36 / 27) < 0.05


# --- validate_chart and the printed chart as data ----------------------------------------------


def test_torpedo_chart_data_is_the_printed_chart_in_contract_shape():
    printed = {
        str(roll): {"weapon": weapon, "spaces": spaces, "weight": spaces}
        for roll, (weapon, spaces) in PRINTED_TORPEDO.items()
    }
    assert printed == TORPEDO_CHART
    json.dumps(TORPEDO_CHART)


def test_validate_chart_accepts_the_printed_chart_json_round_trip_and_int_keys():
    assert validate_chart(TORPEDO_CHART, "chart") is None
    assert validate_chart(json.loads(json.dumps(TORPEDO_CHART)), "chart") is None
    assert validate_chart({int(k): v for k, v in TORPEDO_CHART.items()}, "chart") is None
    assert validate_chart(DRONE_CHART, "drone_chart") is None


def test_validate_chart_names_the_given_field():
    with pytest.raises(rules.InputError) as caught:
        validate_chart(None, "phaser_chart")
    assert caught.value.field == "phaser_chart"
    with pytest.raises(rules.InputError) as caught:
        validate_chart({"2": {"weapon": "X", "spaces": 1}}, "torp_chart")
    assert caught.value.field == "torp_chart"


def test_the_printed_chart_is_the_same_as_passing_it_explicitly():
    dice = [1, 1, 3, 4, 5, 6, 2, 3]
    default = resolve("fill_weapons", {"spaces": 4}, dice).result
    explicit = resolve("fill_weapons", {"spaces": 4, "chart": TORPEDO_CHART}, dice).result
    assert default == explicit


# --- 1.5 booby_trap.generate -----------------------------------------------------------------


def test_generate_campaign_without_fill_rolls_only_the_spaces():
    outcome = resolve("generate", {"year": 150, "fill_weapons": False}, [1, 1, 3, 4, 6, 6])
    assert outcome.result == {
        "speed": 18,
        "base_speed": 18,
        "year_band": "150-154",
        "column": "140",
        "spaces": {"torp": 4, "drone": 2, "phaser": 4},
        "weapons": {"torp": None, "drone": None, "phaser": None},
    }
    assert [r.label for r in outcome.rolls] == ["torp", "drone", "phaser"]
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "speed", "op": "set", "value": 18},
        {"target": "booby_trap", "field": "year_band", "op": "set", "value": "150-154"},
        {
            "target": "booby_trap",
            "field": "spaces",
            "op": "set",
            "value": {"torp": 4, "drone": 2, "phaser": 4},
        },
        {
            "target": "booby_trap",
            "field": "weapons",
            "op": "set",
            "value": {"torp": None, "drone": None, "phaser": None},
        },
        {"target": "booby_trap", "field": "drone_racks_loaded", "op": "set", "value": "full"},
    ]


def test_generate_campaign_fills_torpedoes_from_the_printed_chart_only():
    # Speed 5 (year 85): column 80. Torp roll 2 -> 3 spaces; drone 7 -> 1; phaser 7 -> 1.
    # Fill: WARG (2), Plasma-R discarded, Fusion (1).
    dice = [1, 1, 3, 4, 3, 4, 6, 6, 1, 1, 3, 4]
    outcome = resolve("generate", {"year": 85}, dice)
    assert outcome.result["spaces"] == {"torp": 3, "drone": 1, "phaser": 1}
    assert outcome.result["weapons"] == {"torp": ["WARG (FA)", "Fusion (FA)"], "drone": None, "phaser": None}
    assert [r.label for r in outcome.rolls][3:] == ["torp_fill[0]", "torp_fill[1]", "torp_fill[1]"]


def test_generate_fills_drone_and_phaser_when_the_gm_gives_charts():
    # Column 80: torp 7 -> 1 space, drone 2 -> 3 spaces, phaser 7 -> 1 space.
    # Drone: 7 rack A (2 left), 12 rack H (3) discarded, 3 rack E (2) -> full.
    dice = [3, 4, 1, 1, 3, 4, 3, 4, 3, 4, 6, 6, 1, 2, 1, 1]
    outcome = resolve(
        "generate",
        {"year": 85, "drone_chart": DRONE_CHART, "phaser_chart": PHASER_CHART},
        dice,
    )
    assert outcome.result["spaces"] == {"torp": 1, "drone": 3, "phaser": 1}
    assert outcome.result["weapons"] == {
        "torp": ["Fusion (FA)"],
        "drone": ["Drone rack A", "Drone rack E"],
        "phaser": ["Phaser-G"],
    }
    assert [r.label for r in outcome.rolls][3:] == [
        "torp_fill[0]",
        "drone_fill[0]",
        "drone_fill[1]",
        "drone_fill[1]",
        "phaser_fill[0]",
    ]
    assert outcome.effects[3]["value"] == outcome.result["weapons"]


def test_generate_without_fill_ignores_the_charts_dice():
    outcome = resolve(
        "generate",
        {"year": 85, "fill_weapons": False, "drone_chart": DRONE_CHART, "phaser_chart": PHASER_CHART},
        [3, 4] * 3,
    )
    assert outcome.result["weapons"] == {"torp": None, "drone": None, "phaser": None}


def test_generate_scenario_adjusts_speed_before_rolling_spaces():
    # Year 150 -> 18; scenario 12: +4D6 = 4 -> 22 (band 170-174, column 160).
    dice = [6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    outcome = resolve("generate", {"year": 150, "mode": "scenario", "fill_weapons": False}, dice)
    assert outcome.result["speed"] == 22
    assert outcome.result["base_speed"] == 18
    assert outcome.result["year_band"] == "170-174"
    assert outcome.result["column"] == "160"
    assert outcome.result["spaces"] == {"torp": 5, "drone": 5, "phaser": 5}
    assert [r.label for r in outcome.rolls] == ["adjust", "change", "torp", "drone", "phaser"]
    assert outcome.effects[0]["value"] == 22


def test_generate_scenario_no_change_rolls_no_change_dice():
    outcome = resolve("generate", {"year": 150, "mode": "scenario", "fill_weapons": False}, [3, 4] * 4)
    assert outcome.result["speed"] == outcome.result["base_speed"] == 18
    assert [r.label for r in outcome.rolls] == ["adjust", "torp", "drone", "phaser"]


def test_generate_scenario_clamps_like_the_adjustment():
    outcome = resolve(
        "generate", {"year": 60, "mode": "scenario", "fill_weapons": False}, [1, 1, 6, 6, 6, 6] + [3, 4] * 3
    )
    assert (outcome.result["speed"], outcome.result["base_speed"], outcome.result["year_band"]) == (
        1,
        1,
        "<70",
    )


def test_generate_charts_are_validated_before_any_dice():
    bad = chart(printed_with(e2=("Mauler (FA)", 2)))
    for field in ("torp_chart", "drone_chart", "phaser_chart"):
        assert input_error("generate", {"year": 150, field: bad}, []).field == field
    # Even when nothing is filled.
    assert input_error("generate", {"year": 150, "fill_weapons": False, "drone_chart": bad}, []).field == (
        "drone_chart"
    )


def test_generate_fills_however_many_rolls_it_takes():
    # Only entry 7 fits a single space; rolls of 2 never do. generate has no cap of its own:
    # it rolls on until the space is filled (C.9), here after 1,500 discarded rolls.
    sparse = chart(
        {r: ("Fusion (FA)" if r == 7 else "Plasma-R (FA)", 1 if r == 7 else 2) for r in range(2, 13)}
    )
    ok = resolve("generate", {"year": 60, "torp_chart": sparse}, [3, 4] * 3 + [1, 1] * 1500 + [3, 4])
    assert ok.result["weapons"]["torp"] == ["Fusion (FA)"]
    with pytest.raises(rules.DiceError):  # still rolling when the dice given run out
        resolve("generate", {"year": 60, "torp_chart": sparse}, [3, 4] * 3 + [1, 1] * 1500)


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "year"),
        ({"year": 150, "mode": "battle"}, "mode"),
        ({"year": 150, "fill_weapons": "yes"}, "fill_weapons"),
        ({"year": 150, "torp_chart": {"2": {}}}, "torp_chart"),
    ],
)
def test_generate_bad_inputs(inputs, field):
    assert input_error("generate", inputs, []).field == field


@pytest.mark.parametrize("dice", [[3, 4, 3, 4], [3, 4] * 2 + [3, 9], [3, 4] * 3 + [1]])
def test_generate_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        resolve("generate", {"year": 150, "fill_weapons": False}, dice)


def test_generate_odds_for_the_example():
    example = rules.get("booby_trap.generate").example
    assert rules.odds("booby_trap.generate", example) == {18: 1}
    spaces = rules.odds("booby_trap.generate", {"year": 150, "fill_weapons": False}, key="spaces")
    assert sum(spaces.values()) == 1
    # P(torp 2, drone 2, phaser 2) in column 140: rolls 6, 7, 8 (16 ways) each.
    assert spaces[(("drone", 2), ("phaser", 2), ("torp", 2))] == Fraction(16, 36) ** 3


# --- 1.6 booby_trap.pursuit_target -----------------------------------------------------------


def unit(uid, range_hexes=5, size_class=4, move_cost="1/2", speed=20):
    return {
        "id": uid,
        "range_hexes": range_hexes,
        "size_class": size_class,
        "move_cost": move_cost,
        "speed": speed,
    }


def test_pursuit_no_unit_keeps_a_straight_course():
    outcome = resolve("pursuit_target", {}, [])
    assert outcome.result == {"target_id": None, "candidate_ids": [], "decided_by": "none"}
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "target", "op": "set", "value": None},
        {"target": "booby_trap", "field": "course", "op": "set", "value": "straight"},
    ]


def test_pursuit_nearest_unit_wins_whatever_its_size():
    outcome = resolve("pursuit_target", {"units": [unit("Fighter", 9, 6), unit("Base", 8, 1)]}, [])
    assert outcome.result == {"target_id": "Base", "candidate_ids": ["Base"], "decided_by": "range"}
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "target", "op": "set", "value": "Base"},
        {"target": "booby_trap", "field": "course", "op": "set", "value": "pursuit"},
    ]


def test_pursuit_tie_on_range_goes_to_the_highest_size_class():
    units = [unit("Frigate", 5, 4), unit("Fighter", 5, 6), unit("Cruiser", 5, 3), unit("Far", 6, 7)]
    result = resolve("pursuit_target", {"units": units}, []).result
    assert result == {
        "target_id": "Fighter",
        "candidate_ids": ["Frigate", "Fighter", "Cruiser"],
        "decided_by": "size_class",
    }


def test_pursuit_tie_on_size_class_goes_to_the_lowest_move_cost():
    units = [unit("A", move_cost="1/2"), unit("B", move_cost="1/3"), unit("C", move_cost=1)]
    assert resolve("pursuit_target", {"units": units}, []).result["target_id"] == "B"
    assert resolve("pursuit_target", {"units": units}, []).result["decided_by"] == "move_cost"


def test_pursuit_tie_on_move_cost_goes_to_the_slowest():
    # 0.5 and "1/2" are the same cost, so speed decides.
    units = [unit("A", move_cost=0.5, speed=12), unit("B", move_cost="1/2", speed=11)]
    result = resolve("pursuit_target", {"units": units}, []).result
    assert (result["target_id"], result["decided_by"]) == ("B", "speed")


def test_pursuit_full_tie_is_a_random_pick_among_the_still_tied_units():
    units = [unit("A"), unit("B", size_class=3), unit("C"), unit("D")]
    outcome = resolve("pursuit_target", {"units": units}, [2])
    assert outcome.result == {"target_id": "C", "candidate_ids": ["A", "B", "C", "D"], "decided_by": "random"}
    assert outcome.rolls[0].label == "tie" and outcome.rolls[0].sides == 3
    assert resolve("pursuit_target", {"units": units}, [3]).result["target_id"] == "D"
    assert resolve("pursuit_target", {"units": units}, [1]).result["target_id"] == "A"
    with pytest.raises(rules.DiceError):
        resolve("pursuit_target", {"units": units}, [4])


def test_pursuit_tie_die_only_when_needed():
    with pytest.raises(rules.DiceError):
        resolve("pursuit_target", {"units": [unit("A"), unit("B")]}, [])
    with pytest.raises(rules.DiceError):
        resolve("pursuit_target", {"units": [unit("A"), unit("B", speed=3)]}, [1])


def test_pursuit_range_zero_is_allowed():
    assert resolve("pursuit_target", {"units": [unit("A", 0), unit("B", 1)]}, []).result["target_id"] == "A"


@pytest.mark.parametrize(
    "units",
    [
        [unit("A"), unit("A", 7)],
        [unit("A", -1)],
        [unit("A", size_class=0)],
        [unit("A", size_class=8)],
        [unit("A", move_cost=0)],
        [unit("A", move_cost="-1/3")],
        [unit("A", move_cost="1/0")],
        [unit("A", speed=-1)],
        [{"id": "A", "range_hexes": 3}],
        [{**unit("A"), "heading": 2}],
    ],
)
def test_pursuit_bad_units(units):
    assert input_error("pursuit_target", {"units": units}, [1]).field == "units"


def test_pursuit_size_class_limits_are_allowed():
    units = [unit("Base", size_class=1), unit("Drone", size_class=7)]
    assert resolve("pursuit_target", {"units": units}, []).result["target_id"] == "Drone"


def test_pursuit_odds():
    example = rules.get("booby_trap.pursuit_target").example
    assert rules.odds("booby_trap.pursuit_target", example) == {
        "Fighter A": Fraction(1, 2),
        "Fighter B": Fraction(1, 2),
    }
    three = {"units": [unit("A"), unit("B"), unit("C")]}
    assert rules.odds("booby_trap.pursuit_target", three) == {k: Fraction(1, 3) for k in "ABC"}
    assert rules.odds("booby_trap.pursuit_target", {}) == {None: 1}


# --- 1.7 booby_trap.terrain_pursuit ----------------------------------------------------------


def terrain(tid, range_hexes, kind="warp_point"):
    return {"id": tid, "type": kind, "range_hexes": range_hexes}


def test_terrain_detected_at_300_hexes_not_301():
    result = resolve(
        "terrain_pursuit", {"terrain": [terrain("Far", 301), terrain("Edge", 300)], "current_turn": 10}, []
    )
    assert result.result == {
        "pursue_terrain": True,
        "terrain_id": "Edge",
        "detected_ids": ["Edge"],
        "locked_out": False,
        "cooldown_until": None,
    }
    assert list(result.effects) == [{"target": "booby_trap", "field": "target", "op": "set", "value": "Edge"}]
    none = resolve("terrain_pursuit", {"terrain": [terrain("Far", 301)], "current_turn": 10}).result
    assert (none["pursue_terrain"], none["terrain_id"], none["detected_ids"]) == (False, None, [])


def test_terrain_nearest_detected_ties_to_input_order():
    items = [
        terrain("Rift", 200, "space_rift"),
        terrain("Hole", 100, "wormhole"),
        terrain("Portal", 100, "gravity_portal"),
    ]
    result = resolve("terrain_pursuit", {"terrain": items, "current_turn": 1}).result
    assert result["terrain_id"] == "Hole"
    assert result["detected_ids"] == ["Rift", "Hole", "Portal"]


def test_terrain_lockout_covers_the_500_turns_after_passage():
    # Passed through on turn 1000: cooldown_until 1500; locked on 1500, free from 1501.
    passage = resolve(
        "terrain_pursuit", {"terrain": [terrain("WP", 0)], "current_turn": 1000, "passes_through": True}
    )
    assert passage.result["cooldown_until"] == 1500
    assert list(passage.effects) == [
        {"target": "booby_trap", "field": "terrain_cooldown_until", "op": "set", "value": 1500},
        {"target": "booby_trap", "field": "target", "op": "set", "value": "WP"},
    ]
    base = {"terrain": [terrain("WP2", 50, "other_inter_sector")], "terrain_cooldown_until": 1500}
    locked = resolve("terrain_pursuit", {**base, "current_turn": 1500})
    assert (locked.result["locked_out"], locked.result["pursue_terrain"], locked.result["terrain_id"]) == (
        True,
        False,
        None,
    )
    assert list(locked.effects) == []
    assert locked.result["cooldown_until"] == 1500
    free = resolve("terrain_pursuit", {**base, "current_turn": 1501}).result
    assert (free["locked_out"], free["pursue_terrain"], free["terrain_id"]) == (False, True, "WP2")


def test_terrain_units_come_first_by_default_and_terrain_first_on_the_gm_toggle():
    base = {"terrain": [terrain("WP", 10)], "current_turn": 5, "unit_target": True}
    units_first = resolve("terrain_pursuit", base).result
    assert (units_first["pursue_terrain"], units_first["terrain_id"]) == (False, None)
    terrain_first = resolve("terrain_pursuit", {**base, "priority": "terrain"}).result
    assert (terrain_first["pursue_terrain"], terrain_first["terrain_id"]) == (True, "WP")
    no_unit = resolve("terrain_pursuit", {**base, "unit_target": False}).result
    assert no_unit["pursue_terrain"] is True


def test_terrain_passing_through_while_locked_restarts_the_lockout():
    outcome = resolve(
        "terrain_pursuit",
        {"terrain": [], "current_turn": 1200, "terrain_cooldown_until": 1500, "passes_through": True},
    )
    assert outcome.result["cooldown_until"] == 1700
    assert outcome.result["locked_out"] is True
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "terrain_cooldown_until", "op": "set", "value": 1700}
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"terrain": []}, "current_turn"),
        ({"terrain": [terrain("A", 5, "nebula")], "current_turn": 1}, "terrain"),
        ({"terrain": [terrain("A", 5), terrain("A", 6)], "current_turn": 1}, "terrain"),
        ({"terrain": [terrain("A", -5)], "current_turn": 1}, "terrain"),
        ({"current_turn": 1, "priority": "ships"}, "priority"),
        ({"current_turn": 1, "terrain_cooldown_until": "soon"}, "terrain_cooldown_until"),
    ],
)
def test_terrain_bad_inputs(inputs, field):
    assert input_error("terrain_pursuit", inputs).field == field


def test_terrain_rolls_no_dice_and_odds_are_certain():
    with pytest.raises(rules.DiceError):
        resolve("terrain_pursuit", {"current_turn": 1}, [4])
    example = rules.get("booby_trap.terrain_pursuit").example
    assert rules.odds("booby_trap.terrain_pursuit", example) == {True: 1}


# --- 1.8 booby_trap.turn_upkeep --------------------------------------------------------------


def test_upkeep_each_rack_regains_one_space_per_turn_up_to_capacity():
    racks = [{"capacity": 4, "loaded": 1}, {"capacity": 4, "loaded": 3}, {"capacity": 4, "loaded": 4}]
    outcome = resolve("turn_upkeep", {"drone_racks": racks}, [])
    assert outcome.result == {"loaded": [2, 4, 4]}
    assert list(outcome.effects) == [
        {"target": "booby_trap", "field": "drone_racks[0].loaded", "op": "set", "value": 2},
        {"target": "booby_trap", "field": "drone_racks[1].loaded", "op": "set", "value": 4},
        {"target": "booby_trap", "field": "drone_racks[2].loaded", "op": "set", "value": 4},
    ]


@pytest.mark.parametrize(("turns", "loaded"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 4), (50, 4)])
def test_upkeep_several_turns(turns, loaded):
    result = resolve("turn_upkeep", {"drone_racks": [{"capacity": 4, "loaded": 1}], "turns": turns}).result
    assert result == {"loaded": [loaded]}


def test_upkeep_without_racks_changes_nothing():
    outcome = resolve("turn_upkeep", {})
    assert outcome.result == {"loaded": []}
    assert list(outcome.effects) == []


def test_upkeep_empty_and_zero_capacity_racks_are_valid():
    result = resolve(
        "turn_upkeep", {"drone_racks": [{"capacity": 0, "loaded": 0}, {"capacity": 2, "loaded": 0}]}
    )
    assert result.result == {"loaded": [0, 1]}


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"drone_racks": [{"capacity": 4, "loaded": -1}]}, "drone_racks"),
        ({"drone_racks": [{"capacity": 4, "loaded": 5}]}, "drone_racks"),
        ({"drone_racks": [{"capacity": 4, "loaded": 1}, {"capacity": -1, "loaded": 0}]}, "drone_racks"),
        ({"drone_racks": [{"capacity": 4}]}, "drone_racks"),
        ({"turns": -1}, "turns"),
        ({"turns": 1.5}, "turns"),
    ],
)
def test_upkeep_bad_inputs(inputs, field):
    assert input_error("turn_upkeep", inputs).field == field


def test_upkeep_rolls_no_dice_and_odds_are_certain():
    with pytest.raises(rules.DiceError):
        resolve("turn_upkeep", {}, [1])
    example = rules.get("booby_trap.turn_upkeep").example
    assert rules.odds("booby_trap.turn_upkeep", example) == {(3, 6): 1}


# --- every procedure of the family -------------------------------------------------------------

IDS = [pid for pid in rules.PROCEDURE_IDS if pid.startswith("booby_trap.")]


def test_the_family_registers_all_eight_procedures_in_catalogue_order():
    assert IDS == [
        "booby_trap.speed_by_year",
        "booby_trap.scenario_speed_adjust",
        "booby_trap.weapon_spaces",
        "booby_trap.fill_weapons",
        "booby_trap.generate",
        "booby_trap.pursuit_target",
        "booby_trap.terrain_pursuit",
        "booby_trap.turn_upkeep",
    ]


@pytest.mark.parametrize("pid", IDS)
def test_example_resolves_and_its_odds_sum_to_exactly_one(pid):
    proc = rules.get(pid)
    assert proc.reference.startswith("000_07cf8a2f0c4164e5.txt, IR107")
    outcome = rules.resolve(pid, proc.example, dice=rules.SeededDice(7))
    json.dumps(outcome.to_dict())
    replay = rules.resolve(pid, proc.example, dice=[v for r in outcome.rolls for v in r.values])
    assert replay.to_dict() == outcome.to_dict()
    odds = rules.odds(pid, proc.example)
    assert all(isinstance(p, Fraction) for p in odds.values())
    assert sum(odds.values()) == 1


def test_every_dice_path_of_weapon_spaces_is_one_of_the_printed_values():
    table = printed_spaces()
    for a, b in itertools.product(range(1, 7), repeat=2):
        result = resolve("weapon_spaces", {"speed": 29}, [a, b, 3, 4, 3, 4]).result
        assert result["torp"] == table[a + b, "200"]
