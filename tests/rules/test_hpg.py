"""Hyperpulse generators: hpg.transmit (catalogue 12.6)."""

import pytest

import rules


def _resolve(inputs, dice=None):
    base = {"power_points_assigned": 4, "comm_minutes": 6}
    return rules.resolve("hpg.transmit", {**base, **inputs}, dice=[] if dice is None else dice)


def test_recovery_takes_five_minutes_per_minute_of_traffic():
    out = _resolve({"comm_minutes": 12}).to_dict()
    assert out["result"] == {
        "emp_recovery_min": 60.0,
        "blinded_ids": [],
        "hpg_mass_t": 50,
        "chain_restricted": False,
    }
    assert out["effects"] == [
        {"target": "ship", "field": "blinded_until", "op": "set", "value": "end_of_turn"},
        {"target": "ship", "field": "emp_recovery_until", "op": "set", "value": "now + 60 min"},
    ]
    assert _resolve({"comm_minutes": 2.5}).result["emp_recovery_min"] == 12.5


def test_four_power_points_is_the_minimum():
    assert _resolve({"power_points_assigned": 4}).result["hpg_mass_t"] == 50
    assert _resolve({"power_points_assigned": 9}).result["emp_recovery_min"] == 30.0
    with pytest.raises(rules.InputError) as e:
        _resolve({"power_points_assigned": 3})
    assert e.value.field == "power_points_assigned"


def test_craft_within_1000_m_are_blinded_in_input_order():
    craft = [
        {"id": "Far", "distance_m": 1000.5},
        {"id": "Edge", "distance_m": 1000},
        {"id": "Docked", "distance_m": 0},
        {"id": "Near", "distance_m": 450},
    ]
    assert _resolve({"craft": craft}).result["blinded_ids"] == ["Edge", "Docked", "Near"]


def test_hpg_chain_restricts_the_ship():
    assert _resolve({"in_chain": True}).result["chain_restricted"] is True


def test_aiming_an_hpg_at_a_ship_is_refused():
    with pytest.raises(rules.InputError) as e:
        _resolve({"aimed_at_ship": True})
    assert e.value.field == "aimed_at_ship"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"comm_minutes": -1}, "comm_minutes"),
        ({"power_points_assigned": 4.5}, "power_points_assigned"),
        ({"craft": [{"id": "A", "distance_m": -3}]}, "craft"),
        ({"craft": [{"id": "A"}]}, "craft"),
        ({"craft": [{"id": "A", "distance_m": "close"}]}, "craft"),
        ({"target": "Tharkad"}, "target"),
    ],
)
def test_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        _resolve(inputs)
    assert e.value.field == field


def test_missing_required_inputs():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("hpg.transmit", {"comm_minutes": 3}, dice=[])
    assert e.value.field == "power_points_assigned"
    with pytest.raises(rules.InputError) as e:
        rules.resolve("hpg.transmit", {"power_points_assigned": 5}, dice=[])
    assert e.value.field == "comm_minutes"


def test_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        _resolve({}, dice=[2])


def test_example_odds_are_certain():
    proc = rules.get("hpg.transmit")
    assert rules.odds(proc.id, proc.example) == {50.0: 1}
    assert rules.odds(proc.id, proc.example, key="blinded_ids") == {("Escort",): 1}
