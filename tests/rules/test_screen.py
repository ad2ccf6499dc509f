"""Screen launchers: screen.detonate and screen.end_phase (catalogue 12.3-12.4)."""

from fractions import Fraction

import pytest
from dyce import H

import rules

SCREEN_ON = {"target": "hex", "field": "screen", "op": "set", "value": True}


def _units(*sizes):
    return [{"id": f"F{n}", "fighters": size} for n, size in enumerate(sizes, 1)]


# ---------------------------------------------------------------------------
# screen.detonate


@pytest.mark.parametrize(
    ("dice", "per_fighter"),
    [([1, 1], 0), ([4, 4], 0), ([4, 5], 1), ([5, 6], 1), ([6, 5], 1), ([6, 6], 2)],
)
def test_detonate_fighter_damage_bands(dice, per_fighter):
    out = rules.resolve(
        "screen.detonate", {"range_hexes": 3, "fighter_units": _units(4)}, dice=dice
    ).to_dict()
    roll = sum(dice)
    assert out["result"] == {
        "total_damage": 4 * per_fighter,
        "units": [{"id": "F1", "roll": roll, "per_fighter": per_fighter, "total": 4 * per_fighter}],
        "large_ship_damage": 0,
    }
    expected = [SCREEN_ON]
    if per_fighter:
        expected.append(
            {"target": "fighter", "field": "damage_per_fighter", "op": "add", "value": per_fighter}
        )
    assert out["effects"] == expected


def test_detonate_rolls_each_unit_in_input_order():
    units = [{"id": "Alpha", "fighters": 6}, {"id": "Beta", "fighters": 2}, {"id": "Gamma", "fighters": 3}]
    out = rules.resolve(
        "screen.detonate", {"range_hexes": 6, "fighter_units": units}, dice=[6, 6, 3, 4, 5, 4]
    ).to_dict()
    assert [r["label"] for r in out["rolls"]] == ["damage_Alpha", "damage_Beta", "damage_Gamma"]
    assert out["result"]["units"] == [
        {"id": "Alpha", "roll": 12, "per_fighter": 2, "total": 12},
        {"id": "Beta", "roll": 7, "per_fighter": 0, "total": 0},
        {"id": "Gamma", "roll": 9, "per_fighter": 1, "total": 3},
    ]
    assert out["result"]["total_damage"] == 15
    assert out["effects"] == [
        SCREEN_ON,
        {"target": "fighter", "field": "damage_per_fighter", "op": "add", "value": 2},
        {"target": "fighter", "field": "damage_per_fighter", "op": "add", "value": 1},
    ]


def test_detonate_never_damages_large_ships_and_needs_no_to_hit_roll():
    out = rules.resolve("screen.detonate", {"range_hexes": 0, "large_ships": 3}, dice=[]).to_dict()
    assert out["result"] == {"total_damage": 0, "units": [], "large_ship_damage": 0}
    assert out["rolls"] == []
    assert out["effects"] == [SCREEN_ON]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"range_hexes": 7}, "range_hexes"),
        ({"range_hexes": -1}, "range_hexes"),
        ({}, "range_hexes"),
        ({"range_hexes": 2, "in_arc": False}, "in_arc"),
        ({"range_hexes": 2, "large_ships": -1}, "large_ships"),
        ({"range_hexes": 2, "fighter_units": [{"id": "A"}]}, "fighter_units"),
        ({"range_hexes": 2, "fighter_units": [{"id": "A", "fighters": 0}]}, "fighter_units"),
        ({"range_hexes": 2, "fighter_units": [{"id": "", "fighters": 2}]}, "fighter_units"),
        ({"range_hexes": 2, "fighter_units": _units(2) + _units(3)}, "fighter_units"),
        ({"range_hexes": 2, "fighter_units": [{"id": "A", "fighters": 2, "velocity": 3}]}, "fighter_units"),
    ],
)
def test_detonate_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("screen.detonate", inputs, dice=[6, 6])
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[6], [6, 6, 6], [6, 6, 1], [6, 7, 1, 1]])
def test_detonate_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("screen.detonate", {"range_hexes": 1, "fighter_units": _units(2, 2)}, dice=dice)


def test_detonate_odds_match_a_hand_convolution():
    proc = rules.get("screen.detonate")
    dist = rules.odds("screen.detonate", proc.example)  # units of 6 and 4 fighters
    band = {0: Fraction(26, 36), 1: Fraction(9, 36), 2: Fraction(1, 36)}
    expected = {}
    for a, pa in band.items():
        for b, pb in band.items():
            expected[6 * a + 4 * b] = expected.get(6 * a + 4 * b, 0) + pa * pb
    assert dist == expected
    assert sum(dist.values()) == 1


# ---------------------------------------------------------------------------
# screen.end_phase


@pytest.mark.parametrize(
    ("dice", "removed"), [([1, 1], False), ([3, 3], False), ([3, 4], True), ([6, 6], True)]
)
def test_end_phase_removed_on_7_or_more(dice, removed):
    out = rules.resolve("screen.end_phase", {}, dice=dice).to_dict()
    assert out["result"] == {"removed": removed, "roll": sum(dice)}
    assert out["effects"] == (
        [{"target": "hex", "field": "screen", "op": "set", "value": False}] if removed else []
    )


def test_end_phase_rolls_on_the_laying_turn_by_default():
    assert rules.resolve("screen.end_phase", {"laid_this_turn": True}, dice=[4, 4]).result["removed"] is True


def test_end_phase_gm_option_skips_the_laying_turn():
    inputs = {"laid_this_turn": True, "roll_on_laying_turn": False}
    out = rules.resolve("screen.end_phase", inputs, dice=[]).to_dict()
    assert out["result"] == {"removed": False, "roll": None}
    assert out["effects"] == []
    with pytest.raises(rules.DiceError):
        rules.resolve("screen.end_phase", inputs, dice=[4, 4])
    # The option only matters on the turn the screen was laid.
    assert rules.resolve("screen.end_phase", {"roll_on_laying_turn": False}, dice=[4, 4]).result["roll"] == 8


@pytest.mark.parametrize("dice", [[], [4], [4, 4, 4], [4, 9]])
def test_end_phase_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("screen.end_phase", {}, dice=dice)


def test_end_phase_invalid_inputs():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("screen.end_phase", {"laid_this_turn": "yes"}, dice=[4, 4])
    assert e.value.field == "laid_this_turn"
    with pytest.raises(rules.InputError) as e:
        rules.resolve("screen.end_phase", {"screens": 2}, dice=[4, 4])
    assert e.value.field == "screens"


def test_end_phase_odds_match_dyce():
    dist = rules.odds("screen.end_phase", rules.get("screen.end_phase").example)
    h = (2 @ H(6)).ge(7)
    assert (
        dist
        == {k: Fraction(v, h.total) for k, v in h.items()}
        == {True: Fraction(7, 12), False: Fraction(5, 12)}
    )
    assert rules.odds("screen.end_phase", {"laid_this_turn": True, "roll_on_laying_turn": False}) == {
        False: 1
    }
