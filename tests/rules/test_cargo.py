"""Cargo and supplies (catalogue section 4): cargo.food, cargo.stores."""

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import rules

VECTORS = json.loads((Path(__file__).parent / "data" / "public_examples.json").read_text())


def vectors(procedure_id):
    return [pytest.param(v, id=v["id"]) for v in VECTORS if v["procedure"] == procedure_id]


def food(**inputs):
    return rules.resolve("cargo.food", inputs, dice=[])


def stores(**inputs):
    return rules.resolve("cargo.stores", inputs, dice=[])


# --- cargo.food ---------------------------------------------------------------------------


@pytest.mark.parametrize("vector", vectors("cargo.food"))
def test_food_reproduces_the_seeds_worked_examples(vector):
    result = rules.resolve(vector["procedure"], vector["inputs"], dice=vector["dice"]).result
    for key, expected in vector["expect"].items():
        assert result[key] == pytest.approx(expected, abs=1e-9), key


def test_food_mckenna_is_4_25_tons_a_day_and_127_5_for_30_days_w9():
    outcome = food(crew=578, passengers=296, days=30, mode="sourcebook")
    assert outcome.result == {
        "tons_per_day": 4.25,
        "tons_total": 127.5,
        "people": 874,
        "exact_tons_per_day": 4.37,
    }
    assert outcome.effects == ({"target": "campaign", "field": "food_stock_t", "op": "add", "value": -127.5},)


def test_food_union_rounds_0_21_up_to_a_quarter_ton_w10():
    result = food(crew=14, passengers=28, days=30).result
    assert result["tons_per_day"] == 0.25
    assert result["tons_total"] == 7.5
    assert result["exact_tons_per_day"] == 0.21


@pytest.mark.parametrize(
    ("people", "tons_per_day"),
    [
        (74, 0.25),  # 0.37 t: below the 0.375 midpoint rounds down
        (75, 0.5),  # 0.375 t: exactly half-way rounds up
        (124, 0.5),  # 0.62 t
        (125, 0.75),  # 0.625 t: half-way rounds up
        (100, 0.5),  # 0.5 t: already on a quarter
    ],
)
def test_food_sourcebook_rounds_to_the_nearest_quarter_ton_ties_up(people, tons_per_day):
    assert food(crew=people).result["tons_per_day"] == tons_per_day


@pytest.mark.parametrize("people", [1, 24, 25])
def test_food_sourcebook_never_gives_less_than_a_quarter_ton_to_people_aboard(people):
    assert food(passengers=people).result["tons_per_day"] == 0.25


def test_food_for_nobody_is_zero_and_the_stock_change_is_not_negative_zero():
    outcome = food(crew=0, passengers=0, days=30)
    assert outcome.result == {"tons_per_day": 0.0, "tons_total": 0.0, "people": 0, "exact_tons_per_day": 0.0}
    value = outcome.effects[0]["value"]
    assert value == 0 and math.copysign(1, value) == 1


def test_food_exact_mode_is_people_over_200_without_rounding():
    result = food(crew=578, passengers=296, days=30, mode="exact").result
    assert result["tons_per_day"] == 4.37
    assert result["tons_total"] == 131.1
    assert food(crew=24, mode="exact").result["tons_per_day"] == 0.12


def test_food_total_is_exact_for_fractional_days():
    # 0.25 t x 0.1 day: plain float arithmetic would leave a rounding tail
    assert food(crew=10, days=0.1).result["tons_total"] == 0.025
    assert food(crew=30, days=0.3, mode="exact").result["tons_total"] == 0.045


def test_food_defaults_are_one_day_sourcebook_and_nobody_aboard():
    outcome = food()
    assert outcome.inputs == {"crew": 0, "passengers": 0, "days": 1, "mode": "sourcebook"}
    assert food(crew=200).result["tons_total"] == 1.0


def test_food_effect_takes_the_total_off_the_campaign_stock():
    outcome = food(crew=100, passengers=100, days=3)
    assert outcome.effects == ({"target": "campaign", "field": "food_stock_t", "op": "add", "value": -3.0},)


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"crew": -1}, "crew"),
        ({"passengers": -5}, "passengers"),
        ({"days": -0.5}, "days"),
        ({"mode": "nearest"}, "mode"),
        ({"crew": 1.5}, "crew"),
        ({"crew": True}, "crew"),
        ({"days": "30"}, "days"),
        ({"cooks": 2}, "cooks"),
    ],
)
def test_food_refuses_bad_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve("cargo.food", inputs, dice=[])
    assert err.value.field == field


def test_food_checks_inputs_before_dice():
    with pytest.raises(rules.InputError):
        rules.resolve("cargo.food", {"crew": -1}, dice=[4])


@pytest.mark.parametrize("dice", [[1], [3, 4]])
def test_food_rolls_no_dice_so_any_die_is_left_over(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("cargo.food", {"crew": 10}, dice=dice)


def test_food_rolls_itself_nothing_and_survives_json():
    outcome = rules.resolve("cargo.food", {"crew": 578, "passengers": 296, "days": 30})
    assert outcome.rolls == ()
    assert json.loads(json.dumps(outcome.to_dict()))["result"]["tons_total"] == 127.5


def test_food_odds_are_certain_for_the_example():
    example = rules.get("cargo.food").example
    assert rules.odds("cargo.food", example) == {4.25: Fraction(1)}
    assert rules.odds("cargo.food", example, key="tons_total") == {127.5: Fraction(1)}


def test_food_form_metadata_carries_the_bounds_and_the_ambiguity_note():
    described = {i["name"]: i for i in rules.get("cargo.food").describe()["inputs"]}
    assert described["crew"]["min"] == 0
    assert described["mode"]["choices"] == ["sourcebook", "exact"]
    assert "[A6]" in described["mode"]["help"]


# --- cargo.stores -------------------------------------------------------------------------


@pytest.mark.parametrize("vector", vectors("cargo.stores"))
def test_stores_reproduces_the_seeds_worked_examples(vector):
    result = rules.resolve(vector["procedure"], vector["inputs"], dice=vector["dice"]).result
    for key, expected in vector["expect"].items():
        assert result[key] == pytest.approx(expected, abs=1e-9), key


def test_stores_one_ton_of_fuel_cells_holds_0_9_tons_w24():
    outcome = stores(tankage_t=1)
    assert outcome.result["extra_fuel_t"] == 0.9
    assert outcome.effects == (
        {"target": "ship", "field": "cargo_fuel_capacity_t", "op": "set", "value": 0.9},
    )


def test_stores_station_keeping_burns_a_tenth_of_a_burn_day_per_day_w25():
    result = stores(burn_day_fuel_t=1, station_keeping_days=1).result
    assert result["station_keeping_fraction"] == 0.1
    assert result["station_keeping_fuel_t"] == 0.1


def test_stores_spare_parts_are_1_percent_of_mass_and_5_percent_for_long_trips():
    result = stores(mass_t=3500).result
    assert result["spare_parts_t"] == 35.0
    assert result["spare_parts_long_trip_t"] == 175.0
    assert stores(mass_t=437).result["spare_parts_t"] == 4.37


def test_stores_without_mass_or_burn_day_leaves_those_to_the_gm():
    outcome = stores()
    assert outcome.result == {
        "spare_parts_t": None,
        "spare_parts_long_trip_t": None,
        "extra_fuel_t": 0.0,
        "station_keeping_fraction": 0.1,
        "station_keeping_fuel_t": None,
    }
    assert outcome.effects == (
        {"target": "ship", "field": "cargo_fuel_capacity_t", "op": "set", "value": 0.0},
    )


def test_stores_station_keeping_fuel_scales_with_days_and_burn_day():
    assert stores(burn_day_fuel_t=5, station_keeping_days=10).result["station_keeping_fuel_t"] == 5.0
    assert stores(burn_day_fuel_t=5).result["station_keeping_fuel_t"] == 0.0
    assert stores(burn_day_fuel_t=3, station_keeping_days=0.7).result["station_keeping_fuel_t"] == 0.21


def test_stores_fuel_cells_are_exact_in_tenths():
    # 0.9 * 3 in floats is 2.7000000000000002
    assert stores(tankage_t=3).result["extra_fuel_t"] == 2.7
    assert stores(tankage_t=0.1).result["extra_fuel_t"] == 0.09


@pytest.mark.parametrize("field", ["mass_t", "tankage_t", "burn_day_fuel_t", "station_keeping_days"])
def test_stores_refuses_negative_quantities(field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve("cargo.stores", {field: -1}, dice=[])
    assert err.value.field == field


def test_stores_refuses_unknown_and_mistyped_inputs():
    with pytest.raises(rules.InputError) as err:
        rules.resolve("cargo.stores", {"ammo_t": 5}, dice=[])
    assert err.value.field == "ammo_t"
    with pytest.raises(rules.InputError) as err:
        rules.resolve("cargo.stores", {"mass_t": "heavy"}, dice=[])
    assert err.value.field == "mass_t"


def test_stores_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("cargo.stores", {"mass_t": 100}, dice=[6])
    assert rules.resolve("cargo.stores", {"mass_t": 100}).rolls == ()


def test_stores_odds_are_certain_for_the_example():
    example = rules.get("cargo.stores").example
    dist = rules.odds("cargo.stores", example)
    assert dist == {35.0: Fraction(1)}
    assert sum(rules.odds("cargo.stores", {}).values()) == 1
    assert rules.odds("cargo.stores", {}) == {None: Fraction(1)}
