"""Boarding actions (catalogue 9.3-9.5): boarding.landing, boarding.landed_attack and
boarding.bs_to_bt_damage."""

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from dyce import H

import rules

TWO_D6 = Counter(a + b for a, b in product(range(1, 7), repeat=2))  # total -> ways out of 36
FRONT = {2: "CT", 3: "RA", 4: "RA", 5: "RL", 6: "RT", 7: "CT", 8: "LT", 9: "LL", 10: "LA", 11: "LA", 12: "HD"}


def landing(dice=None, **inputs):
    return rules.resolve("boarding.landing", inputs, dice=dice)


def attack(**inputs):
    return rules.resolve("boarding.landed_attack", inputs, dice=[])


def damage(dice=None, **inputs):
    return rules.resolve("boarding.bs_to_bt_damage", inputs, dice=dice)


def dice_for(total):
    """A 2D6 pair with this total."""
    return [min(6, total - 1), total - min(6, total - 1)]


# --- boarding.landing ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("inputs", "tn"),
    [
        ({"piloting": 5}, 7),
        ({"piloting": 4, "damage_psr_mods": 2}, 8),
        ({"piloting": 4, "leg_actuator_mods": 1}, 7),
        ({"piloting": 4, "leg_actuator_mods": 1, "leg_mounted_jets": True}, 8),
        ({"piloting": 4, "damage_psr_mods": 1, "leg_actuator_mods": 2, "leg_mounted_jets": True}, 11),
        ({"piloting": 4, "leg_mounted_jets": True}, 6),
    ],
)
def test_mech_landing_tn_is_piloting_plus_2_plus_damage_with_leg_actuators_doubled_for_leg_jets(inputs, tn):
    assert landing(dice=[6, 6], unit_kind="mech", **inputs).result["tn"] == tn


@pytest.mark.parametrize(
    ("inputs", "tn"),
    [
        ({}, 6),
        ({"damage_psr_mods": 2}, 8),
        ({"leg_actuator_mods": 1, "leg_mounted_jets": True}, 7),  # doubling is for 'Mechs only
        ({"piloting": 2}, 6),  # piloting does not matter
    ],
)
def test_battle_armor_landing_tn_is_6_plus_mods(inputs, tn):
    assert landing(dice=[6, 6], unit_kind="battle_armor", **inputs).result["tn"] == tn


# TN 10 ('Mech, Piloting 8): roll -> (landed, mof, outcome, damage, movement_ended)
LANDING_TABLE = [
    (12, True, None, "clean", 0, False),
    (10, True, None, "clean", 0, False),  # roll = TN succeeds
    (9, True, 1, "hard_landing", 1, False),
    (8, True, 2, "very_hard_landing", 2, False),
    (7, False, 3, "glancing_collision", 1, False),
    (6, False, 4, "collision", 2, False),
    (5, False, 5, "hard_collision", 3, False),
    (4, False, 6, "off_target", 0, True),
    (2, False, 8, "off_target", 0, True),
]


@pytest.mark.parametrize(("roll", "landed", "mof", "outcome", "dmg", "ended"), LANDING_TABLE)
def test_boarding_failure_table_by_margin_of_failure(roll, landed, mof, outcome, dmg, ended):
    r = landing(dice=dice_for(roll), unit_kind="mech", piloting=8, entry_hexside="nose").result
    assert r == {
        "landed": landed,
        "tn": 10,
        "roll": roll,
        "mof": mof,
        "outcome": outcome,
        "damage": dmg,
        "location": "nose" if landed else None,
        "movement_ended": ended,
    }


def test_landing_without_an_entry_hexside_leaves_the_location_to_the_gm():
    r = landing(dice=[6, 6], unit_kind="battle_armor").result
    assert r["landed"] is True and r["location"] is None


def test_entry_hexside_is_passed_through_as_given():
    assert (
        landing(dice=[6, 6], unit_kind="battle_armor", entry_hexside="aft_left").result["location"]
        == "aft_left"
    )


def test_clean_landing_effects():
    out = landing(dice=[6, 6], unit_kind="mech", piloting=4, target_kind="warship", entry_hexside="fore_left")
    assert list(out.effects) == [
        {
            "target": "unit",
            "field": "landed_on",
            "op": "set",
            "value": {"ship": "warship", "location": "fore_left"},
        }
    ]


def test_hard_landing_effects_land_and_damage():
    out = landing(dice=[3, 3], unit_kind="mech", piloting=5, entry_hexside="nose")  # TN 7, MoF 1
    assert list(out.effects) == [
        {
            "target": "unit",
            "field": "landed_on",
            "op": "set",
            "value": {"ship": "dropship", "location": "nose"},
        },
        {"target": "unit", "field": "damage", "op": "add", "value": 1},
    ]


def test_collision_effects_damage_only():
    out = landing(dice=[1, 2], unit_kind="mech", piloting=5, entry_hexside="nose")  # TN 7, MoF 4
    assert list(out.effects) == [{"target": "unit", "field": "damage", "op": "add", "value": 2}]


def test_off_target_has_no_effects():
    out = landing(dice=[1, 1], unit_kind="mech", piloting=6, entry_hexside="nose")  # TN 8, MoF 6
    assert out.result["outcome"] == "off_target"
    assert list(out.effects) == []


def test_unit_must_start_the_turn_in_the_targets_hex():
    with pytest.raises(rules.InputError) as e:
        landing(dice=[], unit_kind="battle_armor", started_in_hex=False)
    assert e.value.field == "started_in_hex"


def test_mech_landing_needs_piloting_before_any_dice():
    with pytest.raises(rules.InputError) as e:
        landing(dice=[], unit_kind="mech")
    assert e.value.field == "piloting"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"target_kind": "station"}, "target_kind"),
        ({"entry_hexside": "  "}, "entry_hexside"),
        ({"entry_hexside": 3}, "entry_hexside"),
        ({"piloting": -1}, "piloting"),
        ({"leg_mounted_jets": "yes"}, "leg_mounted_jets"),
    ],
)
def test_bad_landing_inputs_are_refused(inputs, field):
    with pytest.raises(rules.InputError) as e:
        landing(dice=[6, 6], unit_kind="battle_armor", **inputs)
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[], [3], [3, 4, 5], [7, 1], [0, 3], [False, 3], [3.5, 3]])
def test_bad_landing_dice(dice):
    with pytest.raises(rules.DiceError):
        landing(dice=dice, unit_kind="battle_armor")


def test_landing_odds_by_hand_for_tn_10():
    example = rules.get("boarding.landing").example  # Piloting 5 + 2 + 1 + 2 x 1 = TN 10
    assert landing(dice=[6, 6], **example).result["tn"] == 10
    got = rules.odds("boarding.landing", example, key="outcome")
    ways = {
        "clean": TWO_D6[10] + TWO_D6[11] + TWO_D6[12],
        "hard_landing": TWO_D6[9],
        "very_hard_landing": TWO_D6[8],
        "glancing_collision": TWO_D6[7],
        "collision": TWO_D6[6],
        "hard_collision": TWO_D6[5],
        "off_target": TWO_D6[2] + TWO_D6[3] + TWO_D6[4],
    }
    assert got == {k: Fraction(v, 36) for k, v in ways.items()}
    landed = rules.odds("boarding.landing", example)
    assert landed == {True: Fraction(6 + 4 + 5, 36), False: Fraction(21, 36)}
    assert sum(landed.values()) == 1


def test_landing_odds_against_monte_carlo():
    inputs = {"unit_kind": "battle_armor", "damage_psr_mods": 1}  # TN 7
    exact = rules.odds("boarding.landing", inputs, key="damage")
    n = 6000
    seen = Counter(
        rules.resolve("boarding.landing", inputs, dice=rules.SeededDice(seed)).result["damage"]
        for seed in range(n)
    )
    for value, p in exact.items():
        assert abs(seen[value] / n - float(p)) < 0.025, (value, seen[value] / n, float(p))
    assert set(seen) <= set(exact)


# --- boarding.landed_attack ------------------------------------------------------------------


def test_hull_attack_crosses_off_nose_plus_wings_short_range_damage():
    out = attack(attack="hull", location="nose", nose_s=3, lw_s=1, rw_s=2)
    assert out.result == {"boxes": 6, "box_type": "armor", "melee_boxes": 0}
    assert list(out.effects) == [{"target": "ship", "field": "armor.nose", "op": "add", "value": -6}]


@pytest.mark.parametrize(
    ("melee", "melee_boxes"),
    [([4], 0), ([5], 1), ([14], 1), ([15], 2), ([25], 3), ([10, 15], 3), ([], 0)],
)
def test_hull_melee_adds_damage_over_10_rounded_half_up_per_weapon(melee, melee_boxes):
    r = attack(attack="hull", location="aft", nose_s=1, melee_damage=melee).result
    assert (r["melee_boxes"], r["boxes"]) == (melee_boxes, 1 + melee_boxes)


def test_hull_attack_is_one_call_per_landed_unit():
    with pytest.raises(rules.InputError) as e:
        attack(attack="hull", location="nose", attacking_units=2, nose_s=3)
    assert e.value.field == "attacking_units"


@pytest.mark.parametrize("kind", ["weapon_bay", "door"])
@pytest.mark.parametrize("location", ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"])
def test_weapon_bays_and_doors_can_be_attacked_anywhere_one_critical_box_per_unit(kind, location):
    out = attack(attack=kind, location=location, attacking_units=3, nose_s=9, melee_damage=[30])
    assert out.result == {"boxes": 3, "box_type": "critical", "melee_boxes": 0}
    assert list(out.effects) == [{"target": "ship", "field": f"crit_boxes.{kind}", "op": "add", "value": 3}]


@pytest.mark.parametrize(
    ("bay", "location"),
    [(1, "fore_left"), (2, "fore_right"), (3, "aft_left"), (3, "aft_right")],
)
def test_bay_doors_where_the_seed_puts_them(bay, location):
    out = attack(attack="bay_door", location=location, bay=bay)
    assert out.result["boxes"] == 1 and out.result["box_type"] == "critical"
    assert list(out.effects) == [{"target": "ship", "field": "crit_boxes.bay_door", "op": "add", "value": 1}]


@pytest.mark.parametrize(
    ("bay", "location"),
    [
        (1, "fore_right"),
        (2, "fore_left"),
        (3, "aft"),
        (1, "nose"),
        (None, "fore_left"),
        (4, "aft_left"),
        (0, "aft"),
    ],
)
def test_bay_door_in_the_wrong_place_or_without_a_bay_is_refused(bay, location):
    with pytest.raises(rules.InputError) as e:
        attack(attack="bay_door", location=location, bay=bay)
    assert e.value.field == "bay"


@pytest.mark.parametrize("location", ["fore_left", "fore_right", "aft_left", "aft_right"])
def test_thrusters_from_a_side_location(location):
    assert attack(attack="thruster", location=location, attacking_units=2).result["boxes"] == 2


@pytest.mark.parametrize("location", ["nose", "aft"])
def test_thrusters_not_from_nose_or_aft(location):
    with pytest.raises(rules.InputError) as e:
        attack(attack="thruster", location=location)
    assert e.value.field == "location"


def test_transit_drive_only_from_the_aft():
    out = attack(attack="transit_drive", location="aft")
    assert list(out.effects) == [
        {"target": "ship", "field": "crit_boxes.transit_drive", "op": "add", "value": 1}
    ]
    for location in ["nose", "fore_left", "fore_right", "aft_left", "aft_right"]:
        with pytest.raises(rules.InputError) as e:
            attack(attack="transit_drive", location=location)
        assert e.value.field == "location"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"attacking_units": 0}, "attacking_units"),
        ({"nose_s": -1}, "nose_s"),
        ({"lw_s": -1}, "lw_s"),
        ({"rw_s": -2}, "rw_s"),
        ({"melee_damage": [10, -5]}, "melee_damage"),
        ({"melee_damage": [2.5]}, "melee_damage"),
        ({"location": "belly"}, "location"),
        ({"attack": "bridge"}, "attack"),
    ],
)
def test_bad_landed_attack_inputs_are_refused(inputs, field):
    with pytest.raises(rules.InputError) as e:
        attack(**{"attack": "hull", "location": "nose", **inputs})
    assert e.value.field == field


def test_landed_attack_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("boarding.landed_attack", {"attack": "door", "location": "nose"}, dice=[4])
    assert rules.resolve("boarding.landed_attack", {"attack": "door", "location": "nose"}).rolls == ()


def test_landed_attack_odds_are_certain():
    example = rules.get("boarding.landed_attack").example
    got = rules.odds("boarding.landed_attack", example)
    assert got == {8: 1}  # 3 + 1 + 2 + rhu(15/10)
    json.dumps(attack(**example).to_dict())


# --- boarding.bs_to_bt_damage ----------------------------------------------------------------


@pytest.mark.parametrize(("roll", "location"), sorted(FRONT.items()))
def test_standard_front_column(roll, location):
    r = damage(dice=dice_for(roll), boxes=1, unit_kind="mech").result
    assert r["locations"] == [location]
    assert r["damage"] == {location: 10}
    assert r["location_rolls"] == [roll]
    assert r["crit_checks"] == (1 if roll == 2 else 0)
    assert r["troopers_removed"] == 0


def test_boxes_on_the_same_location_add_up_and_only_a_2_is_a_critical_check():
    r = damage(dice=[1, 1, 3, 4, 4, 4, 5, 5], boxes=4, unit_kind="mech").result
    assert r["locations"] == ["CT", "CT", "LT", "LA"]
    assert r["damage"] == {"CT": 20, "LT": 10, "LA": 10}
    assert r["location_rolls"] == [2, 7, 8, 10]
    assert r["crit_checks"] == 1


def test_mech_damage_effects_per_location():
    out = damage(dice=[1, 1, 3, 4, 6, 6], boxes=3, unit_kind="mech")
    assert list(out.effects) == [
        {"target": "unit", "field": "locations.CT.damage", "op": "add", "value": 20},
        {"target": "unit", "field": "locations.HD.damage", "op": "add", "value": 10},
    ]


def test_a_location_that_would_destroy_the_mech_is_re_rolled():
    out = damage(dice=[6, 6, 3, 4], boxes=1, unit_kind="mech", reroll_locations=["HD"])
    r = out.result
    assert r["locations"] == ["CT"]
    assert r["location_rolls"] == [12, 7]
    assert r["damage"] == {"CT": 10}
    assert [roll.label for roll in out.rolls] == ["location[0]", "location[0]"]


def test_re_rolls_repeat_until_an_allowed_location_and_labels_follow_the_box():
    out = damage(
        dice=[6, 6, 5, 5, 6, 6, 1, 1, 2, 1],
        boxes=2,
        unit_kind="mech",
        reroll_locations=["HD", "LA"],
    )
    r = out.result
    assert r["location_rolls"] == [12, 10, 12, 2, 3]
    assert r["locations"] == ["CT", "RA"]
    assert r["crit_checks"] == 1
    assert [roll.label for roll in out.rolls] == ["location[0]"] * 4 + ["location[1]"]


def test_a_re_rolled_2_is_not_a_critical_check():
    r = damage(dice=[1, 1, 4, 4], boxes=1, unit_kind="mech", reroll_locations=["CT"]).result
    assert r["locations"] == ["LT"] and r["crit_checks"] == 0


def test_re_roll_location_not_on_the_table_is_refused():
    with pytest.raises(rules.InputError) as e:
        damage(dice=[3, 4], boxes=1, unit_kind="mech", reroll_locations=["Head"])
    assert e.value.field == "reroll_locations"


def test_re_rolling_every_location_is_refused():
    with pytest.raises(rules.InputError) as e:
        damage(
            dice=[],
            boxes=1,
            unit_kind="mech",
            reroll_locations=["HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL"],
        )
    assert e.value.field == "reroll_locations"


def test_gm_hit_table_replaces_the_front_column():
    table = {str(n): "CT" for n in range(2, 13)} | {"7": "HD", "8": "LT"}
    r = damage(dice=[3, 4, 4, 4], boxes=1, unit_kind="mech", hit_table=table, reroll_locations=["HD"]).result
    assert r["location_rolls"] == [7, 8]
    assert r["locations"] == ["LT"]


def test_gm_hit_table_with_a_gap_raises_when_the_gap_is_rolled():
    table = {"7": "CT", "8": "LT"}
    assert damage(dice=[3, 4], boxes=1, unit_kind="mech", hit_table=table).result["locations"] == ["CT"]
    with pytest.raises(rules.InputError) as e:
        damage(dice=[1, 1], boxes=1, unit_kind="mech", hit_table=table)
    assert e.value.field == "hit_table"


def test_re_rolling_every_location_of_a_gm_table_is_refused():
    with pytest.raises(rules.InputError) as e:
        damage(dice=[], boxes=1, unit_kind="mech", hit_table={"7": "CT"}, reroll_locations=["CT"])
    assert e.value.field == "reroll_locations"


@pytest.mark.parametrize(
    ("boxes", "troopers", "removed"), [(3, 5, 3), (5, 5, 5), (7, 4, 4), (2, None, 2), (0, 3, 0)]
)
def test_battle_armor_loses_one_trooper_per_box(boxes, troopers, removed):
    out = damage(dice=[], boxes=boxes, unit_kind="battle_armor", troopers=troopers)
    assert out.result == {
        "locations": [],
        "damage": {},
        "location_rolls": [],
        "crit_checks": 0,
        "troopers_removed": removed,
    }
    assert list(out.effects) == [{"target": "unit", "field": "troopers", "op": "add", "value": -removed}]


def test_battle_armor_rolls_no_dice_and_ignores_mech_options():
    with pytest.raises(rules.DiceError):
        damage(dice=[3, 4], boxes=1, unit_kind="battle_armor")
    out = damage(dice=[], boxes=1, unit_kind="battle_armor", reroll_locations=["Head"])
    assert out.result["troopers_removed"] == 1


def test_zero_boxes_on_a_mech_rolls_nothing():
    out = damage(dice=[], boxes=0, unit_kind="mech")
    assert out.result["locations"] == [] and out.result["damage"] == {} and list(out.effects) == []


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"boxes": -1}, "boxes"),
        ({"troopers": -1}, "troopers"),
        ({"hit_table": {"13": "CT"}}, "hit_table"),
        ({"hit_table": {"7": 3}}, "hit_table"),
        ({"reroll_locations": "HD"}, "reroll_locations"),
        ({"unit_kind": "fighter"}, "unit_kind"),
    ],
)
def test_bad_damage_inputs_are_refused(inputs, field):
    with pytest.raises(rules.InputError) as e:
        damage(dice=[3, 4], **{"boxes": 1, "unit_kind": "mech", **inputs})
    assert e.value.field == field


def test_boxes_is_required():
    with pytest.raises(rules.InputError) as e:
        damage(dice=[], unit_kind="mech")
    assert e.value.field == "boxes"


@pytest.mark.parametrize("dice", [[3], [3, 4, 5], [7, 1], [3, 0], [True, 3]])
def test_bad_damage_dice(dice):
    with pytest.raises(rules.DiceError):
        damage(dice=dice, boxes=1, unit_kind="mech")


def test_re_roll_that_runs_out_of_dice_is_a_dice_error():
    with pytest.raises(rules.DiceError):
        damage(dice=[6, 6], boxes=1, unit_kind="mech", reroll_locations=["HD"])


def test_damage_odds_use_the_conditional_distribution_of_re_rolls():
    example = rules.get("boarding.bs_to_bt_damage").example  # 1 box, HD re-rolled
    got = rules.odds("boarding.bs_to_bt_damage", example)
    two_d6 = 2 @ H(6)
    allowed = {face: count for face, count in two_d6.items() if FRONT[face] != "HD"}
    norm = sum(allowed.values())
    expect: dict = {}
    for face, count in allowed.items():
        key = (FRONT[face],)
        expect[key] = expect.get(key, 0) + Fraction(count, norm)
    assert got == expect
    assert got[("CT",)] == Fraction(1, 5)  # (1 + 6) / 35
    assert ("HD",) not in got
    assert sum(got.values()) == 1


def test_crit_check_odds_for_two_boxes_by_hand():
    got = rules.odds("boarding.bs_to_bt_damage", {"boxes": 2, "unit_kind": "mech"}, key="crit_checks")
    p = Fraction(1, 36)
    assert got == {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p * p}


def test_damage_with_re_rolls_against_monte_carlo():
    inputs = {"boxes": 2, "unit_kind": "mech", "reroll_locations": ["HD", "CT"]}
    n = 4000
    seen = Counter()
    for seed in range(n):
        for loc in rules.resolve("boarding.bs_to_bt_damage", inputs, dice=rules.SeededDice(seed)).result[
            "locations"
        ]:
            seen[loc] += 1
    # Without CT (2, 7) and HD (12): 28 of 36 totals remain; RA is 3 or 4 = 5 of them.
    assert seen["HD"] == seen["CT"] == 0
    assert abs(seen["RA"] / (2 * n) - 5 / 28) < 0.02
    assert abs(seen["LA"] / (2 * n) - 5 / 28) < 0.02
    assert abs(seen["LT"] / (2 * n) - 5 / 28) < 0.02


def test_battle_armor_damage_odds_are_certain():
    assert rules.odds(
        "boarding.bs_to_bt_damage",
        {"boxes": 3, "unit_kind": "battle_armor", "troopers": 2},
        key="troopers_removed",
    ) == {2: 1}


def test_outcomes_survive_json():
    for pid in ("boarding.landing", "boarding.landed_attack", "boarding.bs_to_bt_damage"):
        out = rules.resolve(pid, rules.get(pid).example, dice=rules.SeededDice(1))
        json.dumps(out.to_dict())
        assert out.summary
