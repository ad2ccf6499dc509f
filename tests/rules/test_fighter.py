"""fighter.overburn (Seed B, catalogue 10.2)."""

import json
from fractions import Fraction

import pytest

import rules

OB = "fighter.overburn"


def result(inputs, dice):
    return rules.resolve(OB, inputs, dice=dice).to_dict()["result"]


def fighter(field, op, value):
    return {"target": "fighter", "field": field, "op": op, "value": value}


def at(overburn, **extra):
    """Inputs whose new overburn is exactly ``overburn`` (carried heat, no new heat, no sinks)."""
    return {"heat_sinks": 0, "heat_generated_this_turn": 0, "prev_overburn": overburn, **extra}


# ---------------------------------------------------------------- W14: the Lightning


def test_w14_end_phase_1_overburn_14_gives_plus_3_and_a_check():
    outcome = rules.resolve(OB, {"heat_sinks": 12, "heat_generated_this_turn": 26}, dice=[1])
    r = outcome.result
    assert (r["overburn"], r["modifier"], r["check_roll"]) == (14, 3, 1)
    assert (r["shutdown"], r["fighter_destroyed"], r["heat_discarded"]) == (False, False, 0)
    assert [roll.label for roll in outcome.rolls] == ["shutdown_check"]


def test_w14_end_phase_2_sinks_bring_it_to_2_for_plus_1():
    r = result({"heat_sinks": 12, "heat_generated_this_turn": 0, "prev_overburn": 14}, [])
    assert (r["overburn"], r["modifier"], r["check_roll"]) == (2, 1, None)


def test_w14_end_phase_3_overburn_0_no_effect():
    r = result({"heat_sinks": 12, "heat_generated_this_turn": 0, "prev_overburn": 2}, [])
    assert (r["overburn"], r["modifier"], r["shutdown"]) == (0, 0, False)


# ---------------------------------------------------------------- the formula


def test_spare_sink_capacity_is_not_carried_forward():
    r = result({"heat_sinks": 20, "heat_generated_this_turn": 5, "prev_overburn": 3}, [])
    assert (r["overburn"], r["heat_discarded"]) == (0, 0)


def test_carried_overburn_adds_to_new_heat():
    assert result({"heat_sinks": 10, "heat_generated_this_turn": 12, "prev_overburn": 3}, [])["overburn"] == 5


@pytest.mark.parametrize(("heat", "overburn", "discarded"), [(25, 15, 0), (26, 15, 1), (40, 15, 15)])
def test_overburn_is_capped_at_15_and_the_excess_heat_thrown_away(heat, overburn, discarded):
    r = result({"heat_sinks": 10, "heat_generated_this_turn": heat}, [1])
    assert (r["overburn"], r["heat_discarded"]) == (overburn, discarded)


def test_strict_mode_refuses_heat_beyond_15():
    with pytest.raises(rules.InputError) as err:
        rules.resolve(OB, {"heat_sinks": 10, "heat_generated_this_turn": 26, "strict": True}, dice=[1])
    assert err.value.field == "heat_generated_this_turn"


def test_strict_mode_allows_exactly_15():
    r = result({"heat_sinks": 10, "heat_generated_this_turn": 20, "prev_overburn": 5, "strict": True}, [1])
    assert (r["overburn"], r["heat_discarded"]) == (15, 0)


# ---------------------------------------------------------------- Overburn Effects Table


@pytest.mark.parametrize(
    ("overburn", "modifier"),
    [(0, 0), (1, 0), (2, 1), (4, 1), (5, 2), (7, 2), (8, 2), (10, 2), (11, 3), (13, 3), (14, 3), (15, 3)],
)
def test_modifier_bands_both_sides(overburn, modifier):
    dice = [1] if overburn >= 8 else []
    r = result(at(overburn), dice)
    assert (r["overburn"], r["modifier"]) == (overburn, modifier)


def test_no_shutdown_check_below_8():
    assert result(at(7), [])["check_roll"] is None
    with pytest.raises(rules.DiceError):
        rules.resolve(OB, at(7), dice=[6])


def test_shutdown_check_from_8():
    assert result(at(8), [3])["check_roll"] == 3
    with pytest.raises(rules.DiceError):
        rules.resolve(OB, at(8), dice=[])


@pytest.mark.parametrize(
    ("overburn", "roll", "shutdown", "destroyed"),
    [
        (8, 5, False, False),
        (8, 6, True, False),
        (10, 5, False, False),
        (10, 6, True, False),
        (11, 4, False, False),
        (11, 5, True, False),
        (13, 4, False, False),
        (13, 6, True, False),
        (14, 3, False, False),
        (14, 4, True, False),
        (14, 5, True, False),
        (14, 6, True, True),
        (15, 3, False, False),
        (15, 4, True, False),
        (15, 6, True, True),
    ],
)
def test_shutdown_check_results(overburn, roll, shutdown, destroyed):
    r = result(at(overburn, fighters=3), [roll])
    assert (r["check_roll"], r["shutdown"], r["fighter_destroyed"]) == (roll, shutdown, destroyed)


def test_a_shut_down_unit_stays_shut_down_while_overburn_is_above_0():
    r = result(at(3, shutdown=True), [])
    assert r["shutdown"] is True
    r = result(at(9, shutdown=True), [1])  # the check is still made; a low roll does not restart it
    assert (r["check_roll"], r["shutdown"]) == (1, True)


def test_a_shut_down_unit_still_risks_losing_a_fighter_at_14_15():
    r = result(at(14, shutdown=True, fighters=2), [6])
    assert (r["shutdown"], r["fighter_destroyed"]) == (True, True)


def test_shutdown_ends_when_overburn_reaches_0():
    r = result({"heat_sinks": 12, "heat_generated_this_turn": 0, "prev_overburn": 9, "shutdown": True}, [])
    assert (r["overburn"], r["shutdown"]) == (0, False)


def test_last_fighter_destroyed():
    r = result(at(15, fighters=1), [6])
    assert (r["fighter_destroyed"], r["shutdown"]) == (True, True)


# ---------------------------------------------------------------- effects


def test_effects_without_a_check():
    outcome = rules.resolve(OB, {"heat_sinks": 12, "heat_generated_this_turn": 16}, dice=[])
    assert list(outcome.effects) == [fighter("overburn", "set", 4), fighter("shutdown", "set", False)]


def test_effects_on_shutdown():
    outcome = rules.resolve(OB, at(12), dice=[5])
    assert list(outcome.effects) == [fighter("overburn", "set", 12), fighter("shutdown", "set", True)]


def test_effects_when_a_fighter_is_destroyed():
    outcome = rules.resolve(OB, at(14, fighters=4), dice=[6])
    assert list(outcome.effects) == [
        fighter("overburn", "set", 14),
        fighter("shutdown", "set", True),
        fighter("armor_rows", "add", -1),
    ]


def test_summary_and_json():
    outcome = rules.resolve(OB, {"heat_sinks": 12, "heat_generated_this_turn": 26, "fighters": 3}, dice=[6])
    assert "0 -> 14" in outcome.summary and "DESTROYED" in outcome.summary
    json.dumps(outcome.to_dict())


# ---------------------------------------------------------------- invalid inputs and dice


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"heat_generated_this_turn": 3}, "heat_sinks"),
        ({"heat_sinks": 3}, "heat_generated_this_turn"),
        ({"heat_sinks": -1, "heat_generated_this_turn": 3}, "heat_sinks"),
        ({"heat_sinks": 3, "heat_generated_this_turn": -1}, "heat_generated_this_turn"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 2.5}, "heat_generated_this_turn"),
        ({"heat_sinks": True, "heat_generated_this_turn": 3}, "heat_sinks"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 3, "prev_overburn": 16}, "prev_overburn"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 3, "prev_overburn": -1}, "prev_overburn"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 3, "fighters": 0}, "fighters"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 3, "shutdown": 0}, "shutdown"),
        ({"heat_sinks": 3, "heat_generated_this_turn": 3, "heat": 1}, "heat"),
    ],
)
def test_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(OB, inputs, dice=[])
    assert err.value.field == field


@pytest.mark.parametrize("dice", [[], [1, 1], [7], [0], [True]])
def test_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(OB, {"heat_sinks": 12, "heat_generated_this_turn": 26}, dice=dice)


# ---------------------------------------------------------------- odds


def test_odds_of_the_example_sum_to_one():
    example = rules.get(OB).example
    dist = rules.odds(OB, example)
    assert dist == {14: 1}
    assert sum(rules.odds(OB, example, key="check_roll").values()) == 1


@pytest.mark.parametrize(
    ("overburn", "p_shutdown", "p_destroyed"),
    [(5, 0, 0), (9, Fraction(1, 6), 0), (12, Fraction(2, 6), 0), (15, Fraction(3, 6), Fraction(1, 6))],
)
def test_shutdown_odds_match_a_hand_calculation(overburn, p_shutdown, p_destroyed):
    shutdown = rules.odds(OB, at(overburn), key="shutdown")
    destroyed = rules.odds(OB, at(overburn), key="fighter_destroyed")
    assert shutdown.get(True, 0) == p_shutdown and sum(shutdown.values()) == 1
    assert destroyed.get(True, 0) == p_destroyed and sum(destroyed.values()) == 1


def test_shutdown_odds_match_a_monte_carlo_run():
    n, shut = 6000, 0
    for seed in range(n):
        shut += rules.resolve(OB, at(11), dice=rules.SeededDice(seed)).result["shutdown"]
    assert abs(shut / n - float(rules.odds(OB, at(11), key="shutdown")[True])) < 0.03
