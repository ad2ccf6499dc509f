"""Special vehicles (catalogue section 6): vehicle.amphibious, vehicle.dune_buggy."""

import json
from fractions import Fraction

import pytest

import rules


def amphibious(**inputs):
    return rules.resolve("vehicle.amphibious", inputs, dice=[])


def buggy(**inputs):
    return rules.resolve("vehicle.dune_buggy", inputs, dice=[])


# --- vehicle.amphibious -------------------------------------------------------------------


def test_amphibious_equipment_is_a_tenth_of_tonnage_at_10000_cbills_a_ton():
    outcome = amphibious(tonnage=35, motive="tracked")
    assert outcome.result == {
        "equipment_t": 3.5,
        "cost_cbills": 35000,
        "combat_value": 35,
        "water_mp_per_hex": 2,
        "amphibious_disabled": False,
    }
    assert outcome.effects == ()


def test_amphibious_wheeled_vehicles_may_take_it_too():
    result = amphibious(tonnage=12.5, motive="wheeled").result
    assert result["equipment_t"] == 1.25
    assert result["cost_cbills"] == 12500
    assert result["combat_value"] == 12.5


def test_amphibious_tonnage_stays_exact_in_decimals():
    # 3 * 0.1 in floats is 0.30000000000000004
    result = amphibious(tonnage=3, motive="wheeled").result
    assert result["equipment_t"] == 0.3
    assert result["cost_cbills"] == 3000


def test_amphibious_cost_keeps_fractions_of_a_cbill():
    assert amphibious(tonnage=0.00015, motive="tracked").result["cost_cbills"] == pytest.approx(0.15)


def test_amphibious_motive_damage_disables_the_water_crossing():
    outcome = amphibious(tonnage=35, motive="tracked", motive_damage=True)
    assert outcome.result["amphibious_disabled"] is True
    assert outcome.result["water_mp_per_hex"] is None
    assert outcome.result["equipment_t"] == 3.5
    assert outcome.effects == (
        {"target": "unit", "field": "amphibious_disabled", "op": "set", "value": True},
    )


@pytest.mark.parametrize("motive", ["hover", "vtol", "naval"])
def test_amphibious_refuses_motives_other_than_tracked_or_wheeled(motive):
    with pytest.raises(rules.InputError) as err:
        amphibious(tonnage=35, motive=motive)
    assert err.value.field == "motive"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"motive": "tracked"}, "tonnage"),
        ({"tonnage": 35}, "motive"),
        ({"tonnage": -1, "motive": "tracked"}, "tonnage"),
        ({"tonnage": 35, "motive": "legged"}, "motive"),
        ({"tonnage": 35, "motive": "tracked", "motive_damage": 1}, "motive_damage"),
    ],
)
def test_amphibious_refuses_missing_or_bad_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve("vehicle.amphibious", inputs, dice=[])
    assert err.value.field == field


def test_amphibious_refusal_comes_before_the_dice_are_checked():
    with pytest.raises(rules.InputError):
        rules.resolve("vehicle.amphibious", {"tonnage": 35, "motive": "hover"}, dice=[3])


def test_amphibious_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("vehicle.amphibious", {"tonnage": 35, "motive": "tracked"}, dice=[3])
    assert rules.resolve("vehicle.amphibious", {"tonnage": 35, "motive": "tracked"}).rolls == ()


def test_amphibious_odds_are_certain_for_the_example():
    example = rules.get("vehicle.amphibious").example
    assert rules.odds("vehicle.amphibious", example) == {3.5: Fraction(1)}
    assert rules.odds("vehicle.amphibious", example, key="water_mp_per_hex") == {2: Fraction(1)}


# --- vehicle.dune_buggy -------------------------------------------------------------------


def test_dune_buggy_full_conversion():
    outcome = buggy(tonnage=40, cruise_mp=5, techs=2)
    assert outcome.result == {
        "cruise_mp": 4,
        "flank_mp": 6,
        "parts_cost_cbills": 16000,
        "days": 2.0,
        "work_hours": 32.0,
        "sand_mp_per_hex": 1,
    }
    assert outcome.effects == (
        {"target": "unit", "field": "dune_buggy", "op": "set", "value": True},
        {"target": "unit", "field": "cruise_mp", "op": "set", "value": 4},
    )


@pytest.mark.parametrize(
    ("cruise", "new_cruise", "flank"),
    [
        (6, 5, 8),  # ceil(7.5)
        (5, 4, 6),
        (4, 3, 5),  # ceil(4.5)
        (2, 1, 2),  # ceil(1.5)
        (1, 0, 0),  # [A46] no minimum: it can no longer move
        (0, 0, 0),
    ],
)
def test_dune_buggy_loses_one_cruise_mp_and_flank_is_half_again_rounded_up(cruise, new_cruise, flank):
    result = buggy(cruise_mp=cruise).result
    assert (result["cruise_mp"], result["flank_mp"]) == (new_cruise, flank)


@pytest.mark.parametrize(
    ("tonnage", "techs", "days"),
    [
        (5, 1, 1.0),  # 0.5 day, raised to the 1-day minimum
        (10, 1, 1.0),  # exactly one day
        (15, 1, 1.5),  # fractional days are kept [A46]
        (30, 4, 1.0),  # 0.75 day with four techs: minimum again
        (60, 4, 1.5),
        (80, 1, 8.0),
    ],
)
def test_dune_buggy_takes_tonnage_over_10_over_techs_days_at_least_one(tonnage, techs, days):
    result = buggy(tonnage=tonnage, techs=techs).result
    assert result["days"] == days
    assert result["work_hours"] == 16 * days


def test_dune_buggy_parts_cost_is_tonnage_squared_times_10():
    assert buggy(tonnage=40).result["parts_cost_cbills"] == 16000
    assert buggy(tonnage=12.5).result["parts_cost_cbills"] == 1562.5
    assert buggy(tonnage=0.1).result["parts_cost_cbills"] == 0.1


def test_dune_buggy_with_only_tonnage_leaves_the_mp_unknown():
    outcome = buggy(tonnage=40)
    assert outcome.result["cruise_mp"] is None
    assert outcome.result["flank_mp"] is None
    assert outcome.result["sand_mp_per_hex"] == 1
    assert outcome.effects == ({"target": "unit", "field": "dune_buggy", "op": "set", "value": True},)


def test_dune_buggy_with_only_cruise_leaves_cost_and_time_unknown():
    outcome = buggy(cruise_mp=5)
    assert outcome.result["parts_cost_cbills"] is None
    assert outcome.result["days"] is None
    assert outcome.result["work_hours"] is None
    assert outcome.effects[-1] == {"target": "unit", "field": "cruise_mp", "op": "set", "value": 4}


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "tonnage"),
        ({"techs": 2}, "tonnage"),
        ({"tonnage": 40, "techs": 0}, "techs"),
        ({"tonnage": 40, "techs": -3}, "techs"),
        ({"tonnage": -5}, "tonnage"),
        ({"cruise_mp": -1}, "cruise_mp"),
        ({"cruise_mp": 4.5}, "cruise_mp"),
        ({"tonnage": 40, "motive": "wheeled"}, "motive"),
    ],
)
def test_dune_buggy_refuses_missing_or_bad_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve("vehicle.dune_buggy", inputs, dice=[])
    assert err.value.field == field


def test_dune_buggy_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("vehicle.dune_buggy", {"tonnage": 40}, dice=[1, 2])
    outcome = rules.resolve("vehicle.dune_buggy", {"tonnage": 40, "cruise_mp": 5})
    assert outcome.rolls == ()
    assert json.loads(json.dumps(outcome.to_dict()))["result"]["cruise_mp"] == 4


def test_dune_buggy_odds_are_certain_for_the_example():
    example = rules.get("vehicle.dune_buggy").example
    assert rules.odds("vehicle.dune_buggy", example) == {4: Fraction(1)}
    assert rules.odds("vehicle.dune_buggy", {"tonnage": 40}) == {None: Fraction(1)}
