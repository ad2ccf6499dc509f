"""G-forces: gforce.threshold and gforce.tactical (catalogue section 11)."""

from fractions import Fraction

import pytest
from dyce import H

import rules


def _result(pid, inputs, dice=None):
    return rules.resolve(pid, inputs, dice=[] if dice is None else dice).to_dict()["result"]


# ---------------------------------------------------------------------------
# gforce.threshold


def test_w22a_12_tp_is_6_g_and_no_blackout_without_a_g_suit():
    r = _result("gforce.threshold", {"thrust_points_this_turn": 12})
    assert r["g"] == 6.0
    assert r["blackout"] is False
    assert r["primary_g"] == 6.0


def test_w22b_23_tp_blacks_out_a_pilot_in_a_g_suit():
    r = _result(
        "gforce.threshold", {"thrust_points_this_turn": 23, "g_suit": True, "role": "aerospace_pilot"}
    )
    assert r == {
        "blackout": True,
        "g": 11.5,
        "primary_g": 11.0,
        "secondary_g": 6.0,
        "penalty": 0,
        "streak": 1,
    }


@pytest.mark.parametrize(
    ("tp", "g_suit", "extended", "blackout"),
    [
        (12, False, False, False),
        (13, False, False, True),
        (22, True, False, False),
        (23, True, False, True),
        (12, True, True, False),
        (13, True, True, True),
        (13, False, True, True),  # extended exposure changes nothing without a suit
    ],
)
def test_threshold_primary_blackout_is_strictly_above(tp, g_suit, extended, blackout):
    inputs = {"thrust_points_this_turn": tp, "g_suit": g_suit, "extended_exposure": extended}
    assert _result("gforce.threshold", inputs)["blackout"] is blackout


@pytest.mark.parametrize(
    ("role", "tp", "penalty"),
    [
        ("crew", 6, 0),
        ("crew", 7, 1),
        ("passenger", 6, 0),
        ("passenger", 7, 1),
        ("aerospace_pilot", 12, 0),
        ("aerospace_pilot", 13, 1),
    ],
)
def test_threshold_secondary_by_role(role, tp, penalty):
    r = _result("gforce.threshold", {"thrust_points_this_turn": tp, "role": role, "g_suit": True})
    assert r["penalty"] == penalty
    assert r["streak"] == penalty
    assert r["secondary_g"] == (6.0 if role == "aerospace_pilot" else 3.0)


def test_threshold_penalty_grows_with_consecutive_turns():
    out = rules.resolve(
        "gforce.threshold",
        {"thrust_points_this_turn": 10, "consecutive_turns_over_secondary": 2},
        dice=[],
    ).to_dict()
    assert out["result"]["penalty"] == 3
    assert out["result"]["streak"] == 3
    assert out["effects"] == [{"target": "character", "field": "g_streak", "op": "set", "value": 3}]


def test_threshold_under_secondary_resets_the_streak():
    out = rules.resolve(
        "gforce.threshold", {"thrust_points_this_turn": 4, "consecutive_turns_over_secondary": 5}, dice=[]
    ).to_dict()
    assert out["result"]["penalty"] == 0
    assert out["result"]["streak"] == 0
    assert out["effects"] == [{"target": "character", "field": "g_streak", "op": "set", "value": 0}]


def test_threshold_blackout_effects_and_no_penalty():
    out = rules.resolve(
        "gforce.threshold", {"thrust_points_this_turn": 14, "consecutive_turns_over_secondary": 1}, dice=[]
    ).to_dict()
    assert out["result"]["blackout"] is True
    assert out["result"]["penalty"] == 0
    assert out["result"]["streak"] == 2
    assert out["effects"] == [
        {"target": "character", "field": "unconscious_until", "op": "set", "value": "end_phase_of_next_turn"},
        {"target": "character", "field": "g_streak", "op": "set", "value": 2},
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "thrust_points_this_turn"),
        ({"thrust_points_this_turn": -1}, "thrust_points_this_turn"),
        ({"thrust_points_this_turn": 4.5}, "thrust_points_this_turn"),
        (
            {"thrust_points_this_turn": 4, "consecutive_turns_over_secondary": -1},
            "consecutive_turns_over_secondary",
        ),
        ({"thrust_points_this_turn": 4, "role": "marine"}, "role"),
        ({"thrust_points_this_turn": 4, "g_suit": 1}, "g_suit"),
    ],
)
def test_threshold_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("gforce.threshold", inputs, dice=[])
    assert e.value.field == field


def test_threshold_rolls_no_dice():
    assert rules.resolve("gforce.threshold", {"thrust_points_this_turn": 4}, dice=None).rolls == ()
    with pytest.raises(rules.DiceError):
        rules.resolve("gforce.threshold", {"thrust_points_this_turn": 4}, dice=[3])


def test_threshold_odds_are_certain():
    proc = rules.get("gforce.threshold")
    assert rules.odds("gforce.threshold", proc.example) == {False: 1}
    assert rules.odds("gforce.threshold", proc.example, key="penalty") == {2: 1}


# ---------------------------------------------------------------------------
# gforce.tactical


def test_tactical_failed_ref_takes_1d6_per_thrust_point():
    out = rules.resolve(
        "gforce.tactical", {"mode": "mechwarrior", "thrust_points": 3}, dice=[2, 5, 6]
    ).to_dict()
    assert out["result"] == {"bruise_damage": 13, "adjusted_roll": None, "column_shift_left": 0}
    assert out["rolls"] == [{"label": "bruise", "sides": 6, "values": [2, 5, 6], "total": 13}]
    assert out["effects"] == [{"target": "character", "field": "bruise_damage", "op": "add", "value": 13}]


def test_tactical_passed_ref_rolls_nothing():
    out = rules.resolve(
        "gforce.tactical", {"mode": "mechwarrior", "thrust_points": 3, "ref_failed": False}, dice=[]
    ).to_dict()
    assert out["result"]["bruise_damage"] == 0
    assert out["effects"] == []
    with pytest.raises(rules.DiceError):
        rules.resolve(
            "gforce.tactical", {"mode": "mechwarrior", "thrust_points": 3, "ref_failed": False}, dice=[1]
        )


def test_tactical_zero_thrust_rolls_nothing():
    assert _result("gforce.tactical", {"mode": "mechwarrior"})["bruise_damage"] == 0


@pytest.mark.parametrize(("roll", "adjusted"), [(12, 10), (5, 3), (4, 2), (3, 2), (2, 2)])
def test_tactical_boarding_subtracts_2_with_a_floor_of_2(roll, adjusted):
    out = rules.resolve("gforce.tactical", {"mode": "boarding", "boarding_roll": roll}, dice=[]).to_dict()
    assert out["result"] == {"bruise_damage": 0, "adjusted_roll": adjusted, "column_shift_left": 2}
    assert out["effects"] == []


def test_tactical_boarding_ignores_thrust_and_rolls_no_dice():
    inputs = {"mode": "boarding", "boarding_roll": 8, "thrust_points": 4}
    assert _result("gforce.tactical", inputs)["bruise_damage"] == 0
    with pytest.raises(rules.DiceError):
        rules.resolve("gforce.tactical", inputs, dice=[1, 1, 1, 1])


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"mode": "boarding"}, "boarding_roll"),
        ({"mode": "space"}, "mode"),
        ({}, "mode"),
        ({"mode": "mechwarrior", "thrust_points": -2}, "thrust_points"),
        ({"mode": "boarding", "boarding_roll": "7"}, "boarding_roll"),
    ],
)
def test_tactical_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("gforce.tactical", inputs, dice=[])
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[1, 2], [1, 2, 3, 4], [1, 2, 7], [0, 1, 1]])
def test_tactical_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("gforce.tactical", {"mode": "mechwarrior", "thrust_points": 3}, dice=dice)


def test_tactical_odds_match_dyce():
    proc = rules.get("gforce.tactical")
    dist = rules.odds("gforce.tactical", proc.example)
    h = 3 @ H(6)
    assert dist == {k: Fraction(v, h.total) for k, v in h.items()}
    assert sum(dist.values()) == 1


def test_tactical_odds_boarding_are_certain():
    assert rules.odds("gforce.tactical", {"mode": "boarding", "boarding_roll": 3}, key="adjusted_roll") == {
        2: 1
    }
