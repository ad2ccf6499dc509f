"""BattleSpace ramming: ram.accidental, ram.collision_damage, ram.deliberate (catalogue section 7)."""

from fractions import Fraction

import pytest
from dyce import H

import rules


def _probabilities(h: H) -> dict:
    total = h.total
    return {k: Fraction(v, total) for k, v in h.items()}


def _result(pid, inputs, dice):
    return rules.resolve(pid, inputs, dice=dice).to_dict()["result"]


# ---------------------------------------------------------------------------
# ram.collision_damage


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_collision_damage_1_to_5_destroys_both_craft(roll):
    out = rules.resolve("ram.collision_damage", {}, dice=[roll]).to_dict()
    assert out["result"] == {
        "both_destroyed": True,
        "damage_roll": roll,
        "glancing": False,
        "mover_damage": 0,
        "target_damage": 0,
    }
    destroyed = {"target": "ship", "field": "destroyed", "op": "set", "value": True}
    assert out["effects"] == [destroyed, destroyed]


def test_collision_damage_6_is_glancing_with_separate_products_mover_first():
    out = rules.resolve("ram.collision_damage", {"entry_hexside": "aft"}, dice=[6, 2, 3, 4, 5]).to_dict()
    assert out["result"] == {
        "both_destroyed": False,
        "damage_roll": 6,
        "glancing": True,
        "mover_damage": 6,
        "target_damage": 20,
    }
    assert [r["label"] for r in out["rolls"]] == ["damage", "mover_a", "mover_b", "target_a", "target_b"]
    assert out["effects"] == [
        {"target": "ship", "field": "armor.nose", "op": "add", "value": -6},
        {"target": "ship", "field": "armor.aft", "op": "add", "value": -20},
    ]


def test_collision_damage_without_entry_hexside_leaves_the_target_facing_to_the_gm():
    out = rules.resolve("ram.collision_damage", {}, dice=[6, 1, 1, 2, 2]).to_dict()
    assert out["effects"][1]["field"] == "armor.toward_entry_hexside"
    assert out["result"]["target_damage"] == 4


@pytest.mark.parametrize(
    "dice",
    [[], [6, 1, 2, 3], [3, 1], [7], [0], [6, 1, 2, 3, 7], [True]],
    ids=["none", "too-few-glancing", "left-over", "seven", "zero", "glancing-seven", "bool"],
)
def test_collision_damage_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.collision_damage", {}, dice=dice)


def test_collision_damage_unknown_input():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.collision_damage", {"velocity": 3}, dice=[1])
    assert e.value.field == "velocity"


def test_collision_damage_odds_match_hand_calculation():
    assert rules.odds("ram.collision_damage", {}) == {True: Fraction(5, 6), False: Fraction(1, 6)}
    # mover damage: 0 on 1-5, else the product of two independent d6.
    mover = rules.odds("ram.collision_damage", {}, key="mover_damage")
    expected = {0: Fraction(5, 6)}
    for a in range(1, 7):
        for b in range(1, 7):
            expected[a * b] = expected.get(a * b, Fraction(0)) + Fraction(1, 6 * 36)
    assert mover == expected
    assert sum(mover.values()) == 1


# ---------------------------------------------------------------------------
# ram.accidental


def test_accidental_large_ship_needs_10_to_collide():
    assert _result("ram.accidental", {"mover": "dropship", "occupant": "warship"}, [4, 5]) == {
        "collision": False,
        "collision_roll": 9,
        "damage_roll": None,
        "both_destroyed": False,
        "glancing": False,
        "mover_damage": 0,
        "target_damage": 0,
        "fighter_hits_roll": None,
        "fighters_destroyed": 0,
    }
    hit = _result("ram.accidental", {"mover": "dropship", "occupant": "warship"}, [5, 5, 3])
    assert hit["collision"] is True
    assert hit["collision_roll"] == 10
    assert hit["damage_roll"] == 3
    assert hit["both_destroyed"] is True


def test_accidental_large_collision_chains_the_glancing_damage():
    out = rules.resolve(
        "ram.accidental",
        {"mover": "warship", "occupant": "station", "entry_hexside": "fore_left"},
        dice=[6, 6, 6, 5, 5, 1, 3],
    ).to_dict()
    r = out["result"]
    assert (r["collision"], r["glancing"], r["mover_damage"], r["target_damage"]) == (True, True, 25, 3)
    assert out["effects"] == [
        {"target": "ship", "field": "armor.nose", "op": "add", "value": -25},
        {"target": "ship", "field": "armor.fore_left", "op": "add", "value": -3},
    ]


def test_accidental_both_destroyed_effects_for_mover_and_occupant():
    out = rules.resolve(
        "ram.accidental", {"mover": "jumpship", "occupant": "dropship"}, dice=[6, 4, 1]
    ).to_dict()
    destroyed = {"target": "ship", "field": "destroyed", "op": "set", "value": True}
    assert out["effects"] == [destroyed, destroyed]


@pytest.mark.parametrize(
    ("mover", "occupant"),
    [
        ("fighter_unit", "fighter_unit"),
        ("dropship", "fighter_unit"),
        ("fighter_unit", "station"),
    ],
)
def test_accidental_combinations_without_a_check_roll_no_dice(mover, occupant):
    out = rules.resolve("ram.accidental", {"mover": mover, "occupant": occupant}, dice=[]).to_dict()
    assert out["result"]["collision"] is False
    assert out["result"]["collision_roll"] is None
    assert out["rolls"] == []
    assert out["effects"] == []
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.accidental", {"mover": mover, "occupant": occupant}, dice=[6, 6])


def test_accidental_fighter_with_gm_hits_skips_the_hits_roll():
    inputs = {
        "mover": "fighter_unit",
        "occupant": "dropship",
        "velocity": 5,
        "fighters_in_unit": 6,
        "fighter_hits": 2,
        "entry_hexside": "nose",
    }
    out = rules.resolve("ram.accidental", inputs, dice=[4, 6]).to_dict()
    r = out["result"]
    assert r["collision"] is True
    assert r["fighter_hits_roll"] is None
    assert r["damage_roll"] is None
    assert r["fighters_destroyed"] == 2
    assert r["target_damage"] == 10
    assert r["mover_damage"] == 0
    assert out["effects"] == [
        {"target": "ship", "field": "armor.nose", "op": "add", "value": -10},
        {"target": "fighter", "field": "armor_rows", "op": "add", "value": -2},
    ]


def test_accidental_fighter_hits_are_capped_at_the_fighters_in_the_unit():
    inputs = {
        "mover": "fighter_unit",
        "occupant": "warship",
        "velocity": 3,
        "fighters_in_unit": 2,
        "fighter_hits": 5,
    }
    r = _result("ram.accidental", inputs, [5, 6])
    assert r["fighters_destroyed"] == 2
    assert r["target_damage"] == 6


def test_accidental_fighter_rolls_on_the_gm_fighter_hits_table():
    table = {str(n): (n - 2) // 3 for n in range(2, 13)}  # 2-4 -> 0, 5-7 -> 1, 8-10 -> 2, 11-12 -> 3
    inputs = {
        "mover": "fighter_unit",
        "occupant": "jumpship",
        "velocity": 4,
        "fighters_in_unit": 3,
        "fighter_hits_table": table,
    }
    out = rules.resolve("ram.accidental", inputs, dice=[5, 5, 4, 4]).to_dict()
    assert [r["label"] for r in out["rolls"]] == ["collision", "fighter_hits"]
    assert out["result"]["fighter_hits_roll"] == 8
    assert out["result"]["fighters_destroyed"] == 2
    assert out["result"]["target_damage"] == 8


def test_accidental_fighter_miss_needs_no_fighter_hits_data():
    r = _result("ram.accidental", {"mover": "fighter_unit", "occupant": "warship", "velocity": 4}, [4, 5])
    assert r["collision"] is False
    assert r["fighters_destroyed"] == 0


def test_accidental_fighter_collision_without_hits_or_table_asks_the_gm():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.accidental", {"mover": "fighter_unit", "occupant": "warship"}, dice=[5, 5])
    assert e.value.field == "fighter_hits_table"


def test_accidental_fighter_table_without_the_rolled_entry():
    inputs = {"mover": "fighter_unit", "occupant": "warship", "fighter_hits_table": {"7": 1}}
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.accidental", inputs, dice=[5, 5, 1, 1])
    assert e.value.field == "fighter_hits_table"
    assert _result("ram.accidental", inputs, [5, 5, 3, 4])["fighters_destroyed"] == 1


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"mover": "fighter", "occupant": "warship"}, "mover"),
        ({"mover": "dropship", "occupant": "asteroid"}, "occupant"),
        ({"mover": "fighter_unit", "occupant": "warship", "velocity": -1}, "velocity"),
        ({"mover": "fighter_unit", "occupant": "warship", "fighters_in_unit": 0}, "fighters_in_unit"),
        ({"mover": "fighter_unit", "occupant": "warship", "fighter_hits": -1}, "fighter_hits"),
        (
            {"mover": "fighter_unit", "occupant": "warship", "fighter_hits_table": {"7": -2}},
            "fighter_hits_table",
        ),
        (
            {"mover": "fighter_unit", "occupant": "warship", "fighter_hits_table": {"13": 1}},
            "fighter_hits_table",
        ),
        ({"occupant": "warship"}, "mover"),
    ],
)
def test_accidental_invalid_inputs_fail_before_any_dice(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.accidental", inputs, dice=[])
    assert e.value.field == field


def test_accidental_bad_dice():
    base = {"mover": "dropship", "occupant": "warship"}
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.accidental", base, dice=[5])  # too few
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.accidental", base, dice=[5, 5])  # collision needs the damage die
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.accidental", base, dice=[1, 2, 3])  # left over
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.accidental", base, dice=[5, 9])


def test_accidental_odds_for_the_example_sum_to_one():
    proc = rules.get("ram.accidental")  # fighter unit into a DropShip, GM Fighter Hits column
    dist = rules.odds("ram.accidental", proc.example)
    assert dist == _probabilities((2 @ H(6)).ge(10))
    assert sum(dist.values()) == 1
    table = proc.example["fighter_hits_table"]
    damage = rules.odds("ram.accidental", proc.example, key="target_damage")
    expected = {0: Fraction(5, 6)}
    for roll, count in (2 @ H(6)).items():
        hits = min(table[str(roll)], proc.example["fighters_in_unit"])
        value = hits * proc.example["velocity"]
        expected[value] = expected.get(value, 0) + Fraction(1, 6) * Fraction(count, 36)
    assert damage == expected


def test_accidental_large_ship_odds_chain_the_collision_damage():
    inputs = {"mover": "dropship", "occupant": "warship"}
    destroyed = rules.odds("ram.accidental", inputs, key="both_destroyed")
    assert destroyed == {True: Fraction(1, 6) * Fraction(5, 6), False: 1 - Fraction(1, 6) * Fraction(5, 6)}


def test_accidental_fighter_odds_match_dyce():
    table = {str(n): (n - 2) // 3 for n in range(2, 13)}
    inputs = {
        "mover": "fighter_unit",
        "occupant": "jumpship",
        "velocity": 4,
        "fighters_in_unit": 2,
        "fighter_hits_table": table,
    }
    dist = rules.odds("ram.accidental", inputs, key="fighters_destroyed")
    collide = Fraction(6, 36)
    hits = _probabilities((2 @ H(6)).apply(lambda n: min((n - 2) // 3, 2)))
    expected = {k: collide * p for k, p in hits.items()}
    expected[0] = expected.get(0, 0) + (1 - collide)
    assert dist == expected
    assert sum(dist.values()) == 1


# ---------------------------------------------------------------------------
# ram.deliberate


@pytest.mark.parametrize(
    ("target", "can_accelerate", "tn"),
    [
        ("warship", True, 7),
        ("warship", False, 5),
        ("jumpship", True, 6),
        ("jumpship", False, 6),
        ("station", True, 5),
        ("station", False, 5),
        ("dropship", True, 8),
        ("dropship", False, 6),
    ],
)
def test_deliberate_ramming_attacks_table(target, can_accelerate, tn):
    inputs = {"target_type": target, "target_can_accelerate": can_accelerate, "gm_waive": True}
    miss = _result("ram.deliberate", inputs, [1, tn - 2] if tn - 2 <= 6 else [tn - 7, 6])
    assert miss["tn"] == tn
    assert miss["hit"] is False
    assert miss["ram_roll"] == tn - 1
    hit = _result("ram.deliberate", inputs, [*([1, tn - 1] if tn - 1 <= 6 else [tn - 6, 6]), 2])
    assert hit["hit"] is True
    assert hit["ram_roll"] == tn


def test_deliberate_crew_refuses_below_11():
    out = rules.resolve("ram.deliberate", {"target_type": "station"}, dice=[5, 5]).to_dict()
    r = out["result"]
    assert (r["allowed"], r["hit"], r["convince_roll"], r["convince_tn"], r["ram_roll"]) == (
        False,
        False,
        10,
        11,
        None,
    )
    assert [roll["label"] for roll in out["rolls"]] == ["convince"]
    assert out["effects"] == []


def test_deliberate_crew_agrees_on_11_and_the_ram_chains_collision_damage():
    out = rules.resolve(
        "ram.deliberate", {"target_type": "station"}, dice=[5, 6, 2, 3, 6, 1, 2, 3, 3]
    ).to_dict()
    r = out["result"]
    assert r == {
        "hit": True,
        "allowed": True,
        "convince_roll": 11,
        "convince_tn": 11,
        "tn": 5,
        "ram_roll": 5,
        "damage_roll": 6,
        "both_destroyed": False,
        "glancing": True,
        "mover_damage": 2,
        "target_damage": 9,
        "fighters_destroyed": 0,
    }
    assert [roll["label"] for roll in out["rolls"]] == [
        "convince",
        "ram",
        "damage",
        "mover_a",
        "mover_b",
        "target_a",
        "target_b",
    ]
    assert out["effects"] == [
        {"target": "ship", "field": "armor.nose", "op": "add", "value": -2},
        {"target": "ship", "field": "armor.toward_entry_hexside", "op": "add", "value": -9},
    ]


def test_deliberate_dropship_ramming_a_warship_still_destroys_both_on_1_to_5():
    r = _result("ram.deliberate", {"target_type": "warship", "gm_waive": True}, [4, 3, 5])
    assert r["hit"] is True
    assert r["both_destroyed"] is True


def test_deliberate_leadership_roll_uses_skill_plus_4_plus_gm_mods():
    inputs = {
        "target_type": "jumpship",
        "leadership_mode": True,
        "leadership_skill_tn": 5,
        "gm_mods": 1,
    }
    refused = _result("ram.deliberate", inputs, [4, 5])
    assert (refused["convince_tn"], refused["convince_roll"], refused["allowed"]) == (10, 9, False)
    allowed = _result("ram.deliberate", inputs, [5, 5, 1, 1])
    assert (allowed["allowed"], allowed["ram_roll"], allowed["hit"]) == (True, 2, False)
    easier = _result("ram.deliberate", {**inputs, "gm_mods": -2}, [3, 4, 1, 1])
    assert (easier["convince_tn"], easier["allowed"]) == (7, True)


def test_deliberate_gm_mods_only_touch_the_leadership_roll():
    r = _result("ram.deliberate", {"target_type": "jumpship", "gm_mods": -5}, [5, 5])
    assert r["convince_tn"] == 11
    assert r["allowed"] is False


def test_deliberate_leadership_mode_needs_the_skill_tn():
    with pytest.raises(rules.InputError) as e:
        rules.resolve(
            "ram.deliberate", {"target_type": "warship", "leadership_mode": True}, dice=[6, 6, 6, 6, 1]
        )
    assert e.value.field == "leadership_skill_tn"


def test_deliberate_gm_waive_skips_the_crew_roll():
    out = rules.resolve(
        "ram.deliberate", {"target_type": "jumpship", "gm_waive": True}, dice=[1, 1]
    ).to_dict()
    assert out["result"]["allowed"] is True
    assert out["result"]["convince_roll"] is None
    assert out["result"]["convince_tn"] is None
    assert [roll["label"] for roll in out["rolls"]] == ["ram"]


def test_deliberate_fighter_unit_uses_the_fighter_hits_branch():
    inputs = {
        "target_type": "dropship",
        "attacker": "fighter_unit",
        "gm_waive": True,
        "velocity": 6,
        "fighters_in_unit": 4,
        "fighter_hits_table": {str(n): 3 for n in range(2, 13)},
    }
    out = rules.resolve("ram.deliberate", inputs, dice=[4, 4, 2, 5]).to_dict()
    r = out["result"]
    assert (r["hit"], r["damage_roll"], r["fighters_destroyed"], r["target_damage"]) == (True, None, 3, 18)
    assert [roll["label"] for roll in out["rolls"]] == ["ram", "fighter_hits"]
    assert out["effects"] == [
        {"target": "ship", "field": "armor.toward_entry_hexside", "op": "add", "value": -18},
        {"target": "fighter", "field": "armor_rows", "op": "add", "value": -3},
    ]
    gm_hits = _result("ram.deliberate", {**inputs, "fighter_hits": 9, "fighter_hits_table": None}, [4, 4])
    assert gm_hits["fighters_destroyed"] == 4
    assert gm_hits["target_damage"] == 24


def test_deliberate_fighter_hit_without_hits_or_table():
    inputs = {"target_type": "dropship", "attacker": "fighter_unit", "gm_waive": True}
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.deliberate", inputs, dice=[6, 6])
    assert e.value.field == "fighter_hits_table"
    assert _result("ram.deliberate", inputs, [1, 1])["hit"] is False


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"target_type": "fighter_unit"}, "target_type"),
        ({"target_type": "warship", "attacker": "smallcraft"}, "attacker"),
        ({"target_type": "warship", "velocity": -3}, "velocity"),
        ({"target_type": "warship", "fighters_in_unit": 0}, "fighters_in_unit"),
        ({"target_type": "warship", "gm_waive": "yes"}, "gm_waive"),
        ({"target_type": "warship", "fighter_hits_table": {"6": -1}}, "fighter_hits_table"),
        ({}, "target_type"),
    ],
)
def test_deliberate_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("ram.deliberate", inputs, dice=[])
    assert e.value.field == field


def test_deliberate_bad_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.deliberate", {"target_type": "warship"}, dice=[6, 6, 6])
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.deliberate", {"target_type": "warship"}, dice=[1, 1, 1])
    with pytest.raises(rules.DiceError):
        rules.resolve("ram.deliberate", {"target_type": "warship", "gm_waive": True}, dice=[6, 6, 6, 1, 2])


def test_deliberate_odds_example_sum_to_one_and_match_dyce():
    proc = rules.get("ram.deliberate")  # fighter unit rams a DropShip that cannot accelerate (TN 6)
    dist = rules.odds("ram.deliberate", proc.example)
    assert sum(dist.values()) == 1
    convinced = _probabilities((2 @ H(6)).ge(11))[True]
    hits = _probabilities((2 @ H(6)).ge(6))[True]
    assert dist == {True: convinced * hits, False: 1 - convinced * hits}
    assert rules.odds("ram.deliberate", proc.example, key="target_damage") == {
        15: convinced * hits,
        0: 1 - convinced * hits,
    }


def test_deliberate_leadership_odds_match_dyce():
    inputs = {
        "target_type": "station",
        "attacker": "fighter_unit",
        "fighter_hits": 1,
        "leadership_mode": True,
        "leadership_skill_tn": 4,
    }
    dist = rules.odds("ram.deliberate", inputs, key="allowed")
    assert dist == _probabilities((2 @ H(6)).ge(8))
    hit = rules.odds("ram.deliberate", inputs)[True]
    assert hit == _probabilities((2 @ H(6)).ge(8))[True] * _probabilities((2 @ H(6)).ge(5))[True]


def test_deliberate_monte_carlo_agrees_with_the_exact_odds():
    inputs = {"target_type": "dropship", "gm_waive": True}
    exact = rules.odds("ram.deliberate", inputs, key="glancing")[True]
    assert exact == Fraction(15, 36) * Fraction(1, 6)
    runs = 4000
    glancing = sum(
        rules.resolve("ram.deliberate", inputs, dice=rules.SeededDice(seed)).result["glancing"]
        for seed in range(runs)
    )
    assert abs(glancing / runs - float(exact)) < 0.025
