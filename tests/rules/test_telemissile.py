"""Tele-operated missiles: telemissile.maneuver and telemissile.attack (catalogue 12.1-12.2)."""

from fractions import Fraction

import pytest
from dyce import H

import rules


def _result(pid, inputs, dice):
    return rules.resolve(pid, inputs, dice=dice).to_dict()["result"]


# ---------------------------------------------------------------------------
# telemissile.maneuver


def test_w18_20_fuel_points_allow_20_tp_and_no_more():
    r = _result(
        "telemissile.maneuver", {"missile_type": "killer_whale_t", "fuel": 20, "tp_requested": 20}, []
    )
    assert r == {"fuel_after": 0, "tp_spent": 20, "armor": 4, "can_maneuver": False}
    with pytest.raises(rules.InputError) as e:
        rules.resolve(
            "telemissile.maneuver", {"missile_type": "killer_whale_t", "fuel": 20, "tp_requested": 21}
        )
    assert e.value.field == "tp_requested"


def test_w19_armour_equals_fire_factor():
    assert _result("telemissile.maneuver", {"missile_type": "killer_whale_t"}, [])["armor"] == 4
    assert _result("telemissile.maneuver", {"missile_type": "barracuda_t"}, [])["armor"] == 2


@pytest.mark.parametrize(
    ("missile", "fuel", "armor"),
    [("killer_whale_t", 30, 4), ("white_shark_t", 40, 3), ("barracuda_t", None, 2), ("kraken_t", None, None)],
)
def test_maneuver_table_fuel_and_armour(missile, fuel, armor):
    r = _result("telemissile.maneuver", {"missile_type": missile}, [])
    assert r["fuel_after"] == fuel
    assert r["armor"] == armor
    assert r["tp_spent"] == 0
    assert r["can_maneuver"] is (fuel is not None)


def test_maneuver_each_tp_costs_one_fuel_point_and_sets_the_fuel():
    out = rules.resolve(
        "telemissile.maneuver", {"missile_type": "white_shark_t", "tp_requested": 7}, dice=[]
    ).to_dict()
    assert out["result"] == {"fuel_after": 33, "tp_spent": 7, "armor": 3, "can_maneuver": True}
    assert out["effects"] == [{"target": "unit", "field": "fuel", "op": "set", "value": 33}]


def test_maneuver_gm_fuel_and_fire_factor_override_the_table():
    r = _result(
        "telemissile.maneuver",
        {"missile_type": "kraken_t", "fuel": 12, "tp_requested": 2, "fire_factor": 5},
        [],
    )
    assert r == {"fuel_after": 10, "tp_spent": 2, "armor": 5, "can_maneuver": True}
    assert (
        _result("telemissile.maneuver", {"missile_type": "killer_whale_t", "fire_factor": 6}, [])["armor"]
        == 6
    )


def test_maneuver_unknown_fuel_cannot_thrust():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("telemissile.maneuver", {"missile_type": "barracuda_t", "tp_requested": 1})
    assert e.value.field == "tp_requested"
    out = rules.resolve("telemissile.maneuver", {"missile_type": "barracuda_t"}, dice=[]).to_dict()
    assert out["result"]["fuel_after"] is None
    assert out["effects"] == []


def test_maneuver_without_los_keeps_its_vector():
    with pytest.raises(rules.InputError) as e:
        rules.resolve(
            "telemissile.maneuver",
            {"missile_type": "killer_whale_t", "tp_requested": 1, "los_to_operator": False},
        )
    assert e.value.field == "los_to_operator"
    r = _result(
        "telemissile.maneuver", {"missile_type": "killer_whale_t", "fuel": 9, "los_to_operator": False}, []
    )
    assert r == {"fuel_after": 9, "tp_spent": 0, "armor": 4, "can_maneuver": False}


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "missile_type"),
        ({"missile_type": "barracuda"}, "missile_type"),
        ({"missile_type": "killer_whale_t", "fuel": -1}, "fuel"),
        ({"missile_type": "killer_whale_t", "tp_requested": -1}, "tp_requested"),
        ({"missile_type": "killer_whale_t", "fire_factor": 0}, "fire_factor"),
        ({"missile_type": "killer_whale_t", "tp_requested": 31}, "tp_requested"),
        ({"missile_type": "killer_whale_t", "heading": 2}, "heading"),
    ],
)
def test_maneuver_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("telemissile.maneuver", inputs, dice=[])
    assert e.value.field == field


def test_maneuver_rolls_no_dice_and_its_odds_are_certain():
    with pytest.raises(rules.DiceError):
        rules.resolve("telemissile.maneuver", {"missile_type": "killer_whale_t"}, dice=[4])
    proc = rules.get("telemissile.maneuver")
    assert rules.odds("telemissile.maneuver", proc.example) == {17: 1}


# ---------------------------------------------------------------------------
# telemissile.attack


def test_attack_base_tn_2_hits_on_anything():
    out = rules.resolve("telemissile.attack", {"fuel_left": 10}, dice=[1, 1]).to_dict()
    assert out["result"] == {"hit": True, "tn": 2, "roll": 2, "damage": 4}
    assert out["effects"] == [{"target": "ship", "field": "damage", "op": "add", "value": 4}]


@pytest.mark.parametrize(
    ("tp", "lost", "fuel", "tn"),
    [(0, 0, 5, 2), (3, 0, 5, 5), (0, 2, 5, 4), (2, 1, 5, 5), (0, 0, 0, 8), (4, 1, 0, 13)],
)
def test_attack_tn_adds_thrust_lost_armour_and_empty_tank(tp, lost, fuel, tn):
    inputs = {"tp_used_this_turn": tp, "armor_boxes_lost": lost, "fuel_left": fuel}
    assert _result("telemissile.attack", inputs, [6, 6])["tn"] == tn


def test_attack_hit_and_miss_at_the_boundary():
    inputs = {"missile_type": "white_shark_t", "tp_used_this_turn": 5, "fuel_left": 3}  # TN 7
    hit = _result("telemissile.attack", inputs, [3, 4])
    assert (hit["hit"], hit["damage"]) == (True, 3)
    out = rules.resolve("telemissile.attack", inputs, dice=[3, 3]).to_dict()
    assert out["result"] == {"hit": False, "tn": 7, "roll": 6, "damage": 0}
    assert out["effects"] == []


def test_attack_damage_mode_remaining_armour():
    inputs = {"armor_boxes_lost": 1, "fuel_left": 2, "damage_mode": "remaining_armor"}
    assert _result("telemissile.attack", inputs, [6, 6])["damage"] == 3
    assert _result("telemissile.attack", {**inputs, "damage_mode": "fire_factor"}, [6, 6])["damage"] == 4


def test_attack_destroyed_by_defensive_fire_rolls_nothing():
    out = rules.resolve(
        "telemissile.attack", {"fuel_left": 2, "survived_defensive_fire": False}, dice=[]
    ).to_dict()
    assert out["result"] == {"hit": False, "tn": 2, "roll": None, "damage": 0}
    assert out["rolls"] == []
    with pytest.raises(rules.DiceError):
        rules.resolve("telemissile.attack", {"fuel_left": 2, "survived_defensive_fire": False}, dice=[6, 6])


def test_attack_missile_with_no_armour_left_was_destroyed():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("telemissile.attack", {"fuel_left": 2, "armor_boxes_lost": 4}, dice=[6, 6])
    assert e.value.field == "armor_boxes_lost"
    r = _result(
        "telemissile.attack", {"fuel_left": 2, "armor_boxes_lost": 4, "survived_defensive_fire": False}, []
    )
    assert r["hit"] is False


def test_attack_kraken_needs_a_fire_factor():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("telemissile.attack", {"missile_type": "kraken_t", "fuel_left": 3}, dice=[6, 6])
    assert e.value.field == "fire_factor"
    r = _result("telemissile.attack", {"missile_type": "kraken_t", "fire_factor": 7, "fuel_left": 3}, [6, 6])
    assert r["damage"] == 7


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "fuel_left"),
        ({"fuel_left": -1}, "fuel_left"),
        ({"fuel_left": 1, "tp_used_this_turn": -1}, "tp_used_this_turn"),
        ({"fuel_left": 1, "armor_boxes_lost": -1}, "armor_boxes_lost"),
        ({"fuel_left": 1, "armor_boxes_lost": 5}, "armor_boxes_lost"),
        ({"fuel_left": 1, "damage_mode": "armor"}, "damage_mode"),
        ({"fuel_left": 1, "fire_factor": 0}, "fire_factor"),
    ],
)
def test_attack_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("telemissile.attack", inputs, dice=[])
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[], [3], [3, 3, 3], [3, 7], [0, 3]])
def test_attack_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("telemissile.attack", {"fuel_left": 4}, dice=dice)


def test_attack_odds_match_dyce():
    proc = rules.get("telemissile.attack")
    dist = rules.odds("telemissile.attack", proc.example)  # TN 2 + 2 TP + 1 box = 5
    h = (2 @ H(6)).ge(5)
    assert dist == {k: Fraction(v, h.total) for k, v in h.items()}
    assert sum(dist.values()) == 1
    empty = rules.odds("telemissile.attack", {"fuel_left": 0, "tp_used_this_turn": 3})  # TN 11
    assert empty == {True: Fraction(3, 36), False: Fraction(33, 36)}
