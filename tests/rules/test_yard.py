"""Mobile yards: yard.capacity_and_damage (catalogue 12.5)."""

import pytest

import rules


def _resolve(inputs, dice=None):
    return rules.resolve(
        "yard.capacity_and_damage", {"ship_kind": "warship", **inputs}, dice=[] if dice is None else dice
    )


def test_w20_ten_percent_of_the_boxes_is_ten_percent_damage():
    r = _resolve({"bay_boxes_total": 10, "bay_boxes_crossed": 1}).result
    assert r["damage_fraction"] == pytest.approx(0.1, abs=1e-12)
    assert r["destroyed"] is False


def test_w20_every_box_crossed_destroys_the_yard_and_contents():
    r = _resolve({"bay_boxes_total": 10, "bay_boxes_crossed": 10}).result
    assert r["damage_fraction"] == 1.0
    assert r["destroyed"] is True


def test_one_box_short_of_all_is_not_destroyed():
    r = _resolve({"bay_boxes_total": 12, "bay_boxes_crossed": 11}).result
    assert r["destroyed"] is False
    assert r["damage_fraction"] == pytest.approx(11 / 12)


def test_max_yard_mass_is_a_tenth_of_the_ship():
    assert _resolve({"ship_mass_t": 1_250_000}).result["max_yard_mass_t"] == 125_000.0
    assert _resolve({"ship_mass_t": 3}).result["max_yard_mass_t"] == pytest.approx(0.3)


def test_yard_mass_at_exactly_ten_percent_is_allowed_and_above_is_refused():
    assert _resolve({"ship_mass_t": 3, "yard_mass_t": 0.3}).result["max_yard_mass_t"] == pytest.approx(0.3)
    assert _resolve({"ship_mass_t": 800_000, "yard_mass_t": 80_000}).result["max_yard_mass_t"] == 80_000.0
    with pytest.raises(rules.InputError) as e:
        _resolve({"ship_mass_t": 800_000, "yard_mass_t": 80_000.5})
    assert e.value.field == "yard_mass_t"


def test_yard_mass_without_ship_mass_cannot_be_checked():
    r = _resolve({"yard_mass_t": 90_000}).result
    assert r == {"max_yard_mass_t": None, "thrust_boxes": 0, "damage_fraction": None, "destroyed": False}


def test_pressurized_yard_takes_at_most_100000_t():
    assert _resolve({"vessel_capacity_t": 100_000}).result["max_yard_mass_t"] is None
    with pytest.raises(rules.InputError) as e:
        _resolve({"vessel_capacity_t": 100_001})
    assert e.value.field == "vessel_capacity_t"
    # Non-pressurized yards may be bigger.
    assert _resolve({"vessel_capacity_t": 250_000, "pressurized": False}).result["destroyed"] is False


def test_thrust_with_a_vessel_in_the_yard_crosses_off_one_box_per_tp():
    out = _resolve({"tp_spent": 3, "vessel_in_yard": True}).to_dict()
    assert out["result"]["thrust_boxes"] == 3
    assert out["effects"] == [{"target": "ship", "field": "cargo_bays.yard.crossed", "op": "add", "value": 3}]


def test_thrust_with_an_empty_yard_does_no_damage():
    out = _resolve({"tp_spent": 3, "vessel_in_yard": False}).to_dict()
    assert out["result"]["thrust_boxes"] == 0
    assert out["effects"] == []
    assert _resolve({"tp_spent": 0, "vessel_in_yard": True}).effects == ()


@pytest.mark.parametrize("kind", ["dropship", "jumpship"])
def test_only_warships_carry_yards(kind):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("yard.capacity_and_damage", {"ship_kind": kind}, dice=[])
    assert e.value.field == "ship_kind"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"bay_boxes_total": 10, "bay_boxes_crossed": 11}, "bay_boxes_crossed"),
        ({"bay_boxes_total": 0}, "bay_boxes_total"),
        ({"bay_boxes_crossed": -1}, "bay_boxes_crossed"),
        ({"tp_spent": -1}, "tp_spent"),
        ({"ship_mass_t": -5}, "ship_mass_t"),
        ({"yard_mass_t": -5}, "yard_mass_t"),
        ({"vessel_capacity_t": -5}, "vessel_capacity_t"),
        ({"ship_mass_t": "big"}, "ship_mass_t"),
        ({"ship_kind": "station"}, "ship_kind"),
    ],
)
def test_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        _resolve(inputs)
    assert e.value.field == field


def test_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        _resolve({}, dice=[1])
    assert rules.resolve("yard.capacity_and_damage", {"ship_kind": "warship"}, dice=None).rolls == ()


def test_example_and_odds_are_certain():
    proc = rules.get("yard.capacity_and_damage")
    r = rules.resolve(proc.id, proc.example, dice=[]).result
    assert r == {"max_yard_mass_t": 120_000.0, "thrust_boxes": 2, "damage_fraction": 0.25, "destroyed": False}
    assert rules.odds(proc.id, proc.example) == {120_000.0: 1}
    assert rules.odds(proc.id, proc.example, key="destroyed") == {False: 1}
