"""drive.charge (Seed B, catalogue 10.7)."""

import json
from fractions import Fraction

import pytest

import rules

CHARGE = "drive.charge"


def result(inputs, dice):
    return rules.resolve(CHARGE, inputs, dice=dice).to_dict()["result"]


def reactor(hours, **extra):
    return {"method": "reactor", "target_hours": hours, **extra}


def ship(field, value):
    return {"target": "ship", "field": field, "op": "set", "value": value}


# ---------------------------------------------------------------- W21: printed anchors


@pytest.mark.parametrize(("hours", "pct"), [(150, 0.0), (100, 16.0), (75, 27.0), (24, 50.0)])
def test_w21_printed_anchors(hours, pct):
    assert result(reactor(hours), None)["failure_chance_pct"] == pct


def test_w21_under_16_hours_is_certain_severe_damage():
    r = result(reactor(15), [])
    assert r == {
        "failed": True,
        "failure_chance_pct": 100.0,
        "roll": None,
        "automatic_damage": True,
        "charged": False,
        "charged_from_reactor": False,
    }


# ---------------------------------------------------------------- failure chance


@pytest.mark.parametrize(
    ("hours", "pct"),
    [
        (125, 8.0),  # halfway 150 -> 100
        (87.5, 21.5),  # halfway 100 -> 75
        (49.5, 38.5),  # halfway 75 -> 24
        (20, 75.0),  # halfway 24 -> 16
        (90, 20.4),
        (149, 0.32),
    ],
)
def test_linear_between_anchors(hours, pct):
    assert result(reactor(hours), None)["failure_chance_pct"] == pytest.approx(pct, abs=1e-9)


@pytest.mark.parametrize("hours", [150, 150.5, 400])
def test_base_time_or_slower_has_no_risk_and_rolls_nothing(hours):
    outcome = rules.resolve(CHARGE, reactor(hours), dice=[])
    assert (outcome.result["failure_chance_pct"], outcome.result["failed"], outcome.result["roll"]) == (
        0.0,
        False,
        None,
    )
    assert outcome.rolls == ()


def test_sixteen_hours_fails_for_certain_but_is_not_automatic_damage():
    r = result(reactor(16), [])
    assert (r["failure_chance_pct"], r["failed"], r["automatic_damage"], r["roll"]) == (
        100.0,
        True,
        False,
        None,
    )


def test_just_under_sixteen_hours_is_automatic_damage():
    r = result(reactor(15.99), [])
    assert (r["failed"], r["automatic_damage"]) == (True, True)


@pytest.mark.parametrize(
    ("hours", "pct"),
    [
        (150, 0.0),
        (149.9, 16.0),
        (120, 16.0),
        (100, 16.0),
        (80, 27.0),
        (75, 27.0),
        (30, 50.0),
        (24, 50.0),
        (20, 100.0),
    ],
)
def test_step_mode_uses_the_next_faster_anchor(hours, pct):
    assert result(reactor(hours, mode="step"), None)["failure_chance_pct"] == pct


# ---------------------------------------------------------------- the d100


@pytest.mark.parametrize(("roll", "failed"), [(1, True), (16, True), (17, False), (100, False)])
def test_d100_fails_at_or_under_the_chance(roll, failed):
    outcome = rules.resolve(CHARGE, reactor(100), dice=[roll])
    r = outcome.result
    assert (r["roll"], r["failed"], r["charged"], r["charged_from_reactor"]) == (
        roll,
        failed,
        not failed,
        not failed,
    )
    assert r["automatic_damage"] is False
    assert [(x.label, x.sides) for x in outcome.rolls] == [("failure", 100)]


@pytest.mark.parametrize(("roll", "failed"), [(20, True), (21, False)])
def test_d100_against_a_fractional_chance(roll, failed):
    assert result(reactor(90), [roll])["failed"] is failed  # 20.4 %


# ---------------------------------------------------------------- sail charging


def test_sail_charging_has_no_risk():
    outcome = rules.resolve(CHARGE, {"method": "sail"}, dice=[])
    assert outcome.result == {
        "failed": False,
        "failure_chance_pct": 0.0,
        "roll": None,
        "automatic_damage": False,
        "charged": True,
        "charged_from_reactor": False,
    }
    assert list(outcome.effects) == [ship("drive_charged", True), ship("charged_from_reactor", False)]


def test_sail_hours_are_informational_even_when_short():
    assert result({"method": "sail", "target_hours": 10}, [])["failure_chance_pct"] == 0.0


# ---------------------------------------------------------------- effects and options


def test_reactor_charge_of_the_drive_sets_both_flags():
    outcome = rules.resolve(CHARGE, reactor(100), dice=[50])
    assert list(outcome.effects) == [ship("drive_charged", True), ship("charged_from_reactor", True)]


def test_battery_charge_sets_the_battery_flag():
    outcome = rules.resolve(CHARGE, reactor(200, system="lf_battery"), dice=[])
    assert list(outcome.effects) == [ship("lf_battery_charged", True), ship("charged_from_reactor", True)]


def test_failed_charge_changes_nothing():
    assert list(rules.resolve(CHARGE, reactor(100), dice=[3]).effects) == []
    assert list(rules.resolve(CHARGE, reactor(10), dice=[]).effects) == []


def test_simultaneous_charging_is_a_gm_slow_down_and_does_not_change_the_odds():
    plain = rules.resolve(CHARGE, reactor(60), dice=[40])
    both = rules.resolve(CHARGE, reactor(60, simultaneous=True), dice=[40])
    assert plain.result == both.result
    assert "GM" in both.summary and "GM" not in plain.summary


def test_summary_and_json():
    outcome = rules.resolve(CHARGE, reactor(100), dice=[12])
    assert "16%" in outcome.summary and "FAILED" in outcome.summary
    json.dumps(outcome.to_dict())


# ---------------------------------------------------------------- invalid inputs and dice


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"method": "reactor"}, "target_hours"),
        ({"method": "reactor", "target_hours": None}, "target_hours"),
        (reactor(0), "target_hours"),
        (reactor(-5), "target_hours"),
        ({"method": "sail", "target_hours": 0}, "target_hours"),
        ({}, "method"),
        ({"method": "solar"}, "method"),
        (reactor(50, system="battery"), "system"),
        (reactor(50, mode="curve"), "mode"),
        (reactor("50"), "target_hours"),
        (reactor(50, simultaneous=1), "simultaneous"),
        (reactor(50, charge_hours=3), "charge_hours"),
    ],
)
def test_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(CHARGE, inputs, dice=[])
    assert err.value.field == field


@pytest.mark.parametrize(
    ("inputs", "dice"),
    [
        (reactor(100), []),
        (reactor(100), [0]),
        (reactor(100), [101]),
        (reactor(100), [5, 5]),
        (reactor(10), [5]),
        ({"method": "sail"}, [5]),
    ],
)
def test_bad_dice(inputs, dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(CHARGE, inputs, dice=dice)


# ---------------------------------------------------------------- odds


def test_odds_of_the_example_match_the_printed_chance():
    assert rules.odds(CHARGE, rules.get(CHARGE).example) == {
        True: Fraction(16, 100),
        False: Fraction(84, 100),
    }


@pytest.mark.parametrize(
    ("inputs", "p_fail"),
    [
        (reactor(90), Fraction(20, 100)),
        (reactor(24), Fraction(1, 2)),
        (reactor(12), 1),
        (reactor(150), 0),
        ({"method": "sail"}, 0),
    ],
)
def test_odds_match_a_hand_calculation(inputs, p_fail):
    dist = rules.odds(CHARGE, inputs)
    assert sum(dist.values()) == 1
    assert dist.get(True, 0) == p_fail


def test_odds_match_a_monte_carlo_run():
    n = 4000
    fails = sum(
        rules.resolve(CHARGE, reactor(75), dice=rules.SeededDice(s)).result["failed"] for s in range(n)
    )
    assert abs(fails / n - 0.27) < 0.03
