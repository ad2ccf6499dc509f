"""Shipboard combat (catalogue section 3): missed shots, bulkheads, ricochets,
critical hits, decompression, fuel leaks, over-penetration."""

import itertools
from fractions import Fraction

import pytest
from dyce import H

import rules
from rules.tables import shipboard as tables


def resolve(pid, inputs, dice):
    return rules.resolve(f"shipboard.{pid}", inputs, dice=dice)


def result(pid, inputs, dice):
    return resolve(pid, inputs, dice).result


def effects(pid, inputs, dice):
    return [dict(e) for e in resolve(pid, inputs, dice).effects]


def input_error(pid, inputs, dice=None):
    with pytest.raises(rules.InputError) as err:
        resolve(pid, inputs, dice)
    return err.value.field


def dyce_odds(h):
    """A dyce histogram as exact probabilities."""
    return {k: Fraction(v, h.total) for k, v in h.items()}


# --------------------------------------------------------------------------- 3.1 missed_shot

CREW = [
    {"id": "near", "distance_m": 1},
    {"id": "far", "distance_m": 5},
    {"id": "edge", "distance_m": 3},
]


def test_w3_margin_of_failure_is_tn_minus_roll():
    r = result("missed_shot", {"tn": 8, "roll": 6}, [1, 1])
    assert (r["mof"], r["radius_m"], r["outcome"]) == (2, 2, "bulkhead")


def test_w4_second_roll_hits_the_crewman_within_the_margin():
    r = result(
        "missed_shot", {"tn": 8, "roll": 5, "candidates": [{"id": "crewman2", "distance_m": 2}]}, [4, 5]
    )
    assert r == {
        "outcome": "character",
        "mof": 3,
        "second_roll": 9,
        "second_success": True,
        "radius_m": 3,
        "character_id": "crewman2",
    }


def test_a_first_roll_equal_to_the_tn_hits_the_target_and_rolls_nothing_more():
    r = result("missed_shot", {"tn": 8, "roll": 8}, [])
    assert r == {
        "outcome": "hit_target",
        "mof": None,
        "second_roll": None,
        "second_success": None,
        "radius_m": None,
        "character_id": None,
    }


def test_a_first_roll_one_below_the_tn_misses():
    r = result("missed_shot", {"tn": 8, "roll": 7}, [1, 1])
    assert (r["outcome"], r["mof"]) == ("bulkhead", 1)


def test_the_first_roll_is_rolled_when_not_given():
    out = resolve("missed_shot", {"tn": 8}, [3, 4, 2, 2])
    assert [(r.label, r.total) for r in out.rolls] == [("to_hit", 7), ("second", 4)]
    assert out.result["mof"] == 1
    assert result("missed_shot", {"tn": 8}, [4, 4])["outcome"] == "hit_target"


def test_a_second_roll_equal_to_the_tn_succeeds():
    r = result("missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, [4, 4, 1])
    assert (r["second_success"], r["outcome"]) == (True, "character")


def test_a_second_roll_below_the_tn_hits_a_bulkhead_even_with_people_close():
    r = result("missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, [3, 4])
    assert (r["second_success"], r["outcome"], r["character_id"]) == (False, "bulkhead", None)


def test_a_character_exactly_at_the_margin_is_in_the_radius():
    r = result("missed_shot", {"tn": 8, "roll": 5, "candidates": [{"id": "edge", "distance_m": 3}]}, [6, 6])
    assert r["character_id"] == "edge"


def test_nobody_within_the_radius_sends_the_shot_to_a_bulkhead():
    r = result("missed_shot", {"tn": 8, "roll": 5, "candidates": [{"id": "x", "distance_m": 3.5}]}, [6, 6])
    assert (r["second_success"], r["outcome"], r["character_id"]) == (True, "bulkhead", None)


@pytest.mark.parametrize(("pick", "victim"), [(1, "near"), (2, "edge")])
def test_a_random_pick_chooses_among_those_in_range_in_input_order(pick, victim):
    out = resolve("missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, [6, 6, pick])
    assert out.result["character_id"] == victim
    assert (out.rolls[-1].label, out.rolls[-1].sides) == ("pick", 2)


def test_one_candidate_in_range_needs_no_pick_die():
    with pytest.raises(rules.DiceError):
        resolve("missed_shot", {"tn": 8, "roll": 5, "candidates": [CREW[0]]}, [6, 6, 1])


def test_the_weapon_class_does_not_change_where_the_shot_goes():
    inputs = {"tn": 8, "roll": 5, "candidates": CREW}
    energy = result("missed_shot", {**inputs, "weapon_class": "energy"}, [6, 6, 2])
    assert energy == result("missed_shot", inputs, [6, 6, 2])


def test_a_missed_shot_has_no_effects():
    assert effects("missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, [6, 6, 1]) == []


@pytest.mark.parametrize("roll", [1, 13])
def test_a_first_roll_outside_2_to_12_is_refused(roll):
    assert input_error("missed_shot", {"tn": 8, "roll": roll}) == "roll"


def test_a_negative_candidate_distance_is_refused():
    assert (
        input_error("missed_shot", {"tn": 8, "candidates": [{"id": "a", "distance_m": -1}]}) == "candidates"
    )


def test_a_candidate_without_an_id_is_refused():
    assert input_error("missed_shot", {"tn": 8, "candidates": [{"distance_m": 1}]}) == "candidates"


def test_the_tn_is_required():
    assert input_error("missed_shot", {"roll": 5}) == "tn"


@pytest.mark.parametrize(
    "dice",
    [
        [6],  # second roll short a die
        [6, 6],  # pick missing
        [6, 6, 3],  # pick among 2 is 1d2
        [6, 6, 1, 1],  # left over
        [7, 1],  # not a d6
    ],
)
def test_bad_dice_for_a_missed_shot_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, dice)


def test_missed_shot_odds_match_a_hand_calculation():
    odds = rules.odds("shipboard.missed_shot", {"tn": 8, "roll": 5, "candidates": CREW}, key="character_id")
    second_hits = Fraction(15, 36)
    assert odds == {"near": second_hits / 2, "edge": second_hits / 2, None: 1 - second_hits}


def test_missed_shot_example_odds_sum_to_one_and_match_monte_carlo():
    proc = rules.get("shipboard.missed_shot")
    odds = rules.odds(proc.id, proc.example)
    assert sum(odds.values()) == 1
    # First roll hits on 8+ (15/36); else a second 8+ finds someone within the margin.
    exact = {"hit_target": Fraction(15, 36)}
    character = Fraction(0)
    for first in range(2, 8):
        p_first = Fraction(6 - abs(first - 7), 36)
        near = [c for c in proc.example["candidates"] if c["distance_m"] <= 8 - first]
        if near:
            character += p_first * Fraction(15, 36)
    exact["character"] = character
    exact["bulkhead"] = 1 - exact["hit_target"] - character
    assert odds == exact
    n = 4000
    counts = {}
    for seed in range(n):
        outcome = rules.resolve(proc.id, proc.example, dice=rules.SeededDice(seed)).result["outcome"]
        counts[outcome] = counts.get(outcome, 0) + 1
    for outcome, p in exact.items():
        assert abs(counts.get(outcome, 0) / n - float(p)) < 0.03


# --------------------------------------------------------------------------- 3.2 bulkhead_hit


def test_the_damage_capacities_table_is_the_seeds():
    rows = {k: (r.capacity, r.threshold, r.armor_rating, r.kind) for k, r in tables.DAMAGE_CAPACITIES.items()}
    assert rows == {
        "minor_bulkhead": (50, 5, 0.5, "bulkhead"),
        "major_bulkhead": (100, 10, 0.5, "bulkhead"),
        "external_bulkhead": (200, 20, 0.5, "bulkhead"),
        "observation_port": (50, 3, 0.5, "object"),
        "door": (50, 4, 0.5, "object"),
        "pressure_door": (100, 8, 0.5, "object"),
        "computer_console": (10, 2, 0.5, "object"),
    }


def test_the_surface_enum_offers_every_table_row_and_custom():
    choices = next(i for i in rules.get("shipboard.bulkhead_hit").contract.inputs if i.name == "surface")
    assert set(choices.type.choices) == {*tables.DAMAGE_CAPACITIES, "custom"}


def test_w5_the_pistol_shot_pierces_the_door_and_may_ricochet():
    r = result("bulkhead_hit", {"surface": "door", "damage_dice": 2, "damage_bonus": 3}, [6, 4])
    assert r == {
        "pierced": True,
        "raw_damage": 13,
        "damage_potential": 13,
        "inflicted": 6,
        "capacity_damage": 6,
        "capacity_left": 44,
        "destroyed": False,
        "excess": 2,
        "next_steps": ["ricochet"],
    }


def test_w6_the_pistol_shot_pierces_a_minor_bulkhead_and_checks_for_criticals():
    r = result("bulkhead_hit", {"surface": "minor_bulkhead", "damage_dice": 2, "damage_bonus": 3}, [6, 5])
    assert (r["raw_damage"], r["inflicted"], r["excess"], r["capacity_left"]) == (14, 7, 2, 43)
    assert r["next_steps"] == ["critical"]


def test_w8_aet_halves_the_damage_potential_then_the_armour_halves_it_again():
    r = result("bulkhead_hit", {"surface": "minor_bulkhead", "raw_damage": 12, "ammo": "aet"}, [])
    assert (r["damage_potential"], r["inflicted"], r["capacity_left"]) == (6, 3, 47)


def test_aet_rounds_down_both_halvings():
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 15, "ammo": "aet"}, [])
    assert (r["damage_potential"], r["inflicted"]) == (7, 3)


@pytest.mark.parametrize("surface", sorted(tables.DAMAGE_CAPACITIES))
def test_inflicted_equal_to_the_threshold_does_not_pierce(surface):
    row = tables.DAMAGE_CAPACITIES[surface]
    r = result("bulkhead_hit", {"surface": surface, "raw_damage": 2 * row.threshold + 1}, [])
    assert (r["inflicted"], r["pierced"], r["excess"]) == (row.threshold, False, 0)
    assert r["capacity_left"] == row.capacity - row.threshold
    assert r["next_steps"] == []


@pytest.mark.parametrize("surface", sorted(tables.DAMAGE_CAPACITIES))
def test_one_point_over_the_threshold_pierces_with_excess_one(surface):
    row = tables.DAMAGE_CAPACITIES[surface]
    r = result("bulkhead_hit", {"surface": surface, "raw_damage": 2 * row.threshold + 2}, [])
    assert (r["inflicted"], r["pierced"], r["excess"]) == (row.threshold + 1, True, 1)


def test_the_armour_rating_is_a_multiplier_the_gm_can_change():
    full = result("bulkhead_hit", {"surface": "door", "raw_damage": 13, "armor_rating": 1}, [])
    assert (full["inflicted"], full["excess"]) == (13, 9)
    exact = result("bulkhead_hit", {"surface": "major_bulkhead", "raw_damage": 100, "armor_rating": 0.29}, [])
    assert exact["inflicted"] == 29  # 100 × 0.29 in floats is 28.999…


def test_capacity_damage_adds_up_over_hits():
    first = result("bulkhead_hit", {"surface": "door", "raw_damage": 13}, [])
    second = result(
        "bulkhead_hit", {"surface": "door", "raw_damage": 13, "capacity_left": first["capacity_left"]}, []
    )
    assert (first["capacity_left"], second["capacity_left"]) == (44, 38)


def test_capacity_reaching_zero_destroys_the_surface():
    r = result("bulkhead_hit", {"surface": "computer_console", "raw_damage": 8, "capacity_left": 4}, [])
    assert (r["capacity_left"], r["destroyed"]) == (0, True)


def test_capacity_left_above_zero_is_not_destroyed():
    r = result("bulkhead_hit", {"surface": "computer_console", "raw_damage": 8, "capacity_left": 5}, [])
    assert (r["capacity_left"], r["destroyed"]) == (1, False)


def test_capacity_left_is_not_clamped_at_zero():
    r = result("bulkhead_hit", {"surface": "computer_console", "raw_damage": 20}, [])
    assert (r["capacity_left"], r["destroyed"]) == (0, True)
    r = result("bulkhead_hit", {"surface": "computer_console", "raw_damage": 30}, [])
    assert r["capacity_left"] == -5


def test_a_destroyed_door_sends_the_excess_through_instead_of_ricocheting():
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 13, "capacity_left": 6}, [])
    assert (r["destroyed"], r["excess"], r["next_steps"]) == (True, 2, ["pass_through"])


def test_a_destroyed_surface_without_excess_sends_nothing_through():
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 8, "capacity_left": 3}, [])
    assert (r["destroyed"], r["pierced"], r["next_steps"]) == (True, False, [])


def test_a_destroyed_pierced_minor_bulkhead_checks_criticals_then_passes_through():
    r = result("bulkhead_hit", {"surface": "minor_bulkhead", "raw_damage": 14, "capacity_left": 7}, [])
    assert r["next_steps"] == ["critical", "pass_through"]


def test_a_pierced_major_bulkhead_checks_for_criticals():
    r = result("bulkhead_hit", {"surface": "major_bulkhead", "raw_damage": 30}, [])
    assert (r["excess"], r["next_steps"]) == (5, ["critical"])


def test_a_pierced_external_bulkhead_always_decompresses_and_has_no_critical_check():
    r = result("bulkhead_hit", {"surface": "external_bulkhead", "raw_damage": 50}, [])
    assert (r["excess"], r["next_steps"]) == (5, ["decompression"])


def test_a_pierced_internal_pressure_boundary_checks_criticals_then_decompresses():
    r = result("bulkhead_hit", {"surface": "minor_bulkhead", "raw_damage": 14, "pressure_boundary": True}, [])
    assert r["next_steps"] == ["critical", "decompression"]


def test_a_pierced_pressure_door_on_a_boundary_decompresses_and_may_ricochet():
    r = result("bulkhead_hit", {"surface": "pressure_door", "raw_damage": 20, "pressure_boundary": True}, [])
    assert r["next_steps"] == ["decompression", "ricochet"]


@pytest.mark.parametrize(
    ("weapon_kind", "steps"),
    [("slug", ["ricochet"]), ("needler", ["ricochet"]), ("energy", []), ("contact_explosive", [])],
)
def test_only_slugs_and_needlers_ricochet_off_objects(weapon_kind, steps):
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 13, "weapon_kind": weapon_kind}, [])
    assert (r["excess"], r["next_steps"]) == (2, steps)


def test_frangible_rounds_never_pierce_and_by_default_do_no_capacity_damage():
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 20, "ammo": "frangible"}, [])
    assert (r["inflicted"], r["pierced"], r["excess"], r["capacity_damage"], r["capacity_left"]) == (
        10,
        False,
        0,
        0,
        50,
    )
    assert r["next_steps"] == []


def test_the_frangible_toggle_lets_them_wear_down_capacity():
    inputs = {"surface": "door", "raw_damage": 20, "ammo": "frangible", "frangible_capacity_damage": True}
    r = result("bulkhead_hit", inputs, [])
    assert (r["pierced"], r["capacity_damage"], r["capacity_left"]) == (False, 10, 40)


def test_the_gm_may_override_a_table_surfaces_values():
    r = result("bulkhead_hit", {"surface": "door", "raw_damage": 13, "capacity": 80, "threshold": 6}, [])
    assert (r["capacity_left"], r["pierced"]) == (74, False)


def test_a_custom_object_uses_the_gms_values_and_can_ricochet():
    inputs = {"surface": "custom", "capacity": 30, "threshold": 1, "raw_damage": 6}
    r = result("bulkhead_hit", inputs, [])
    assert (r["inflicted"], r["excess"], r["capacity_left"], r["next_steps"]) == (3, 2, 27, ["ricochet"])


def test_a_custom_bulkhead_does_not_ricochet_and_has_no_critical_column():
    inputs = {
        "surface": "custom",
        "surface_kind": "bulkhead",
        "capacity": 30,
        "threshold": 1,
        "raw_damage": 6,
    }
    assert result("bulkhead_hit", inputs, [])["next_steps"] == []
    assert result("bulkhead_hit", {**inputs, "pressure_boundary": True}, [])["next_steps"] == [
        "decompression"
    ]


def test_a_negative_damage_bonus_never_makes_damage_negative():
    r = result("bulkhead_hit", {"surface": "door", "damage_dice": 1, "damage_bonus": -3}, [1])
    assert (r["raw_damage"], r["inflicted"], r["capacity_left"]) == (0, 0, 50)


def test_a_bulkhead_hit_sets_the_capacity_left():
    assert effects("bulkhead_hit", {"surface": "door", "raw_damage": 13}, []) == [
        {"target": "compartment", "field": "surfaces.door.capacity_left", "op": "set", "value": 44}
    ]


def test_a_destroying_hit_also_marks_the_surface_destroyed():
    assert effects("bulkhead_hit", {"surface": "door", "raw_damage": 13, "capacity_left": 6}, []) == [
        {"target": "compartment", "field": "surfaces.door.capacity_left", "op": "set", "value": 0},
        {"target": "compartment", "field": "surfaces.door.destroyed", "op": "set", "value": True},
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"surface": "door", "raw_damage": 13, "damage_dice": 2}, "raw_damage"),
        ({"surface": "door"}, "raw_damage"),
        ({"surface": "door", "damage_bonus": 3}, "raw_damage"),
        ({"surface": "door", "raw_damage": 13, "damage_bonus": 3}, "damage_bonus"),
        ({"surface": "door", "raw_damage": -1}, "raw_damage"),
        ({"surface": "door", "damage_dice": -1}, "damage_dice"),
        ({"surface": "custom", "threshold": 3, "raw_damage": 5}, "capacity"),
        ({"surface": "custom", "capacity": 30, "raw_damage": 5}, "threshold"),
        ({"surface": "door", "raw_damage": 5, "ammo": "aet", "weapon_kind": "needler"}, "ammo"),
        ({"surface": "door", "raw_damage": 5, "ammo": "frangible", "weapon_kind": "energy"}, "ammo"),
        ({"surface": "door", "raw_damage": 5, "capacity_left": 0}, "capacity_left"),
        ({"surface": "door", "raw_damage": 5, "capacity_left": 51}, "capacity_left"),
        ({"surface": "door", "raw_damage": 5, "armor_rating": -0.5}, "armor_rating"),
        ({"surface": "door", "raw_damage": 5, "capacity": 0}, "capacity"),
        ({"surface": "door", "raw_damage": 5, "threshold": -1}, "threshold"),
        ({"surface": "hatch", "raw_damage": 5}, "surface"),
        ({"raw_damage": 5}, "surface"),
    ],
)
def test_bad_bulkhead_hit_inputs_are_refused(inputs, field):
    assert input_error("bulkhead_hit", inputs, [6, 6]) == field


@pytest.mark.parametrize("dice", [[6], [6, 4, 1], [0, 4], [6, 7]])
def test_bad_dice_for_a_bulkhead_hit_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("bulkhead_hit", {"surface": "door", "damage_dice": 2, "damage_bonus": 3}, dice)


def test_known_damage_takes_no_dice():
    with pytest.raises(rules.DiceError):
        resolve("bulkhead_hit", {"surface": "door", "raw_damage": 13}, [1])


def test_bulkhead_hit_odds_match_counting_every_2d6():
    proc = rules.get("shipboard.bulkhead_hit")
    odds = rules.odds(proc.id, proc.example)
    pierced = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if (a + b + 3) // 2 > 4)
    assert odds == {True: Fraction(pierced, 36), False: Fraction(36 - pierced, 36)}
    assert sum(odds.values()) == 1


def test_bulkhead_hit_excess_odds_match_dyce():
    odds = rules.odds(
        "shipboard.bulkhead_hit", {"surface": "door", "damage_dice": 2, "damage_bonus": 3}, "excess"
    )
    expected = dyce_odds(((2 @ H(6)) + 3).apply(lambda d: max(0, d // 2 - 4)))
    assert odds == expected


# --------------------------------------------------------------------------- 3.3 ricochet


def test_w5_the_door_ricochet_does_one_point():
    r = result("ricochet", {"excess": 2}, [1, 4, 4])
    assert r == {
        "ricochet": True,
        "reduction_roll": 1,
        "net": 1,
        "damage": 1,
        "attack_roll": 8,
        "attack_hit": True,
        "bulkhead_inflicted": None,
        "bulkhead_excess": None,
        "next_steps": [],
    }


def test_a_reduction_equal_to_the_excess_means_no_ricochet_and_no_attack_roll():
    r = result("ricochet", {"excess": 3}, [3])
    assert (r["ricochet"], r["net"], r["damage"], r["attack_roll"], r["attack_hit"]) == (
        False,
        0,
        0,
        None,
        None,
    )


def test_a_reduction_one_below_the_excess_ricochets_for_one():
    assert result("ricochet", {"excess": 3}, [2, 6, 6])["damage"] == 1


def test_net_may_be_negative():
    assert result("ricochet", {"excess": 1}, [6])["net"] == -5


@pytest.mark.parametrize(
    ("inputs", "dice_count"),
    [({}, 1), ({"weapon_kind": "needler"}, 2), ({"ammo": "aet"}, 2)],
)
def test_slugs_reduce_by_1d6_needlers_and_aet_by_2d6(inputs, dice_count):
    out = resolve("ricochet", {"excess": 20, **inputs}, [1] * dice_count + [6, 6])
    assert (out.rolls[0].label, len(out.rolls[0].values)) == ("reduction", dice_count)
    assert out.result["net"] == 20 - dice_count


def test_a_ricochet_attack_of_7_misses_and_hits_a_minor_bulkhead():
    r = result("ricochet", {"excess": 20}, [1, 3, 4])
    assert (r["attack_hit"], r["net"], r["bulkhead_inflicted"], r["bulkhead_excess"]) == (False, 19, 9, 4)
    assert r["next_steps"] == ["critical"]


def test_a_missed_ricochet_that_does_not_pierce_ends_the_chain():
    r = result("ricochet", {"excess": 6}, [1, 1, 1])
    assert (r["bulkhead_inflicted"], r["bulkhead_excess"], r["next_steps"]) == (2, 0, [])


def test_a_missed_ricochet_off_a_door_can_ricochet_again():
    r = result("ricochet", {"excess": 13, "miss_surface": "door"}, [1, 1, 1])
    assert (r["bulkhead_inflicted"], r["bulkhead_excess"], r["next_steps"]) == (6, 2, ["ricochet"])


def test_a_missed_ricochet_that_destroys_the_door_passes_through():
    r = result("ricochet", {"excess": 13, "miss_surface": "door", "miss_capacity_left": 5}, [1, 1, 1])
    assert r["next_steps"] == ["pass_through"]


def test_a_missed_ricochet_piercing_the_hull_decompresses():
    r = result("ricochet", {"excess": 50, "reduction": False, "miss_surface": "external_bulkhead"}, [1, 1])
    assert (r["bulkhead_inflicted"], r["bulkhead_excess"], r["next_steps"]) == (25, 5, ["decompression"])


def test_aet_halves_a_missed_ricochets_bulkhead_damage_too():
    r = result("ricochet", {"excess": 14, "ammo": "aet"}, [1, 1, 1, 1])
    assert (r["net"], r["bulkhead_inflicted"]) == (12, 3)


def test_without_reduction_the_full_excess_goes_on_for_any_weapon():
    out = resolve("ricochet", {"excess": 3, "reduction": False, "weapon_kind": "energy"}, [5, 3])
    assert [r.label for r in out.rolls] == ["attack"]
    assert (out.result["reduction_roll"], out.result["net"], out.result["attack_hit"]) == (None, 3, True)


def test_a_missed_ricochet_subtracts_the_inflicted_damage_from_the_surface():
    assert effects("ricochet", {"excess": 20}, [1, 3, 4]) == [
        {"target": "compartment", "field": "surfaces.minor_bulkhead.capacity_left", "op": "add", "value": -9}
    ]


def test_a_ricochet_that_hits_someone_or_dies_out_changes_no_surface():
    assert effects("ricochet", {"excess": 2}, [1, 4, 4]) == []
    assert effects("ricochet", {"excess": 2}, [2]) == []


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"excess": 0}, "excess"),
        ({"excess": 3, "weapon_kind": "energy"}, "weapon_kind"),
        ({"excess": 3, "weapon_kind": "contact_explosive"}, "weapon_kind"),
        ({"excess": 3, "ammo": "frangible"}, "ammo"),
        ({"excess": 3, "ammo": "frangible", "reduction": False}, "ammo"),
        ({"excess": 3, "ammo": "aet", "weapon_kind": "needler"}, "ammo"),
        ({"excess": 3, "miss_capacity_left": 0}, "miss_capacity_left"),
        ({"excess": 3, "miss_capacity_left": 51}, "miss_capacity_left"),
        ({"excess": 3, "miss_surface": "custom"}, "miss_surface"),
        ({}, "excess"),
    ],
)
def test_bad_ricochet_inputs_are_refused(inputs, field):
    assert input_error("ricochet", inputs, [1, 1, 1]) == field


@pytest.mark.parametrize("dice", [[], [1], [1, 4], [1, 4, 4, 4], [7, 4, 4]])
def test_bad_dice_for_a_ricochet_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("ricochet", {"excess": 2}, dice)


def test_ricochet_odds_match_dyce():
    proc = rules.get("shipboard.ricochet")
    odds = rules.odds(proc.id, proc.example)
    assert sum(odds.values()) == 1
    assert odds == dyce_odds((proc.example["excess"] - H(6)).apply(lambda net: net > 0))
    hit = rules.odds(proc.id, {"excess": 2}, key="attack_hit")
    assert hit == {
        None: Fraction(5, 6),
        True: Fraction(1, 6) * Fraction(15, 36),
        False: Fraction(1, 6) * Fraction(21, 36),
    }


# --------------------------------------------------------------------------- 3.4 bulkhead_critical


def test_w6_the_emergency_equipment_locker_is_hit():
    r = result("bulkhead_critical", {"excess": 2, "bulkhead": "minor"}, [3, 5, 3])
    assert r == {
        "crits": 1,
        "check_total": 10,
        "results": ["emergency_equipment"],
        "power_points_delta": 0,
        "control_roll_mod_delta": 0,
        "visibility_mod_delta": 0,
        "fuel_line_crits_delta": 0,
    }


@pytest.mark.parametrize(
    ("check", "excess", "crits"),
    [((1, 4), 2, 0), ((1, 5), 2, 1), ((4, 4), 2, 1), ((4, 5), 2, 2), ((6, 6), 9, 2), ((1, 1), 5, 0)],
)
def test_critical_bands_7_or_less_none_8_to_10_one_11_up_two(check, excess, crits):
    out = resolve("bulkhead_critical", {"excess": excess, "bulkhead": "minor"}, [*check] + [6] * crits)
    assert (out.result["check_total"], out.result["crits"]) == (sum(check) + excess, crits)
    assert [r.label for r in out.rolls] == ["check"] + [f"effect[{i}]" for i in range(crits)]


MINOR = ["power_line", "comm_panel", "emergency_equipment", "lights", "cable_mechanism", "no_effect"]
MAJOR = [
    "power_line",
    "hydraulics_line",
    "fuel_line",
    "emergency_equipment",
    "lights",
    "communications_lines",
]


@pytest.mark.parametrize(("bulkhead", "column"), [("minor", MINOR), ("major", MAJOR)])
@pytest.mark.parametrize("die", range(1, 7))
def test_every_entry_of_the_critical_table(bulkhead, column, die):
    r = result("bulkhead_critical", {"excess": 2, "bulkhead": bulkhead}, [3, 3, die])
    assert r["results"] == [column[die - 1]]


def test_a_power_line_in_a_major_bulkhead_costs_the_ship_a_power_point():
    r = result("bulkhead_critical", {"excess": 5, "bulkhead": "major"}, [3, 3, 1, 1])
    assert (r["results"], r["power_points_delta"]) == (["power_line", "power_line"], -2)
    assert effects("bulkhead_critical", {"excess": 5, "bulkhead": "major"}, [3, 3, 1, 1]) == [
        {"target": "ship", "field": "power_points", "op": "add", "value": -2},
        {"target": "compartment", "field": "power_line_disabled", "op": "set", "value": True},
    ]


def test_a_power_line_in_a_minor_bulkhead_costs_no_power_point():
    r = result("bulkhead_critical", {"excess": 2, "bulkhead": "minor"}, [3, 3, 1])
    assert r["power_points_delta"] == 0
    assert effects("bulkhead_critical", {"excess": 2, "bulkhead": "minor"}, [3, 3, 1]) == [
        {"target": "compartment", "field": "power_line_disabled", "op": "set", "value": True}
    ]


def test_hydraulics_and_fuel_lines_change_control_visibility_and_fuel_crits():
    inputs = {"excess": 5, "bulkhead": "major"}
    r = result("bulkhead_critical", inputs, [3, 3, 2, 3])
    assert (r["control_roll_mod_delta"], r["visibility_mod_delta"], r["fuel_line_crits_delta"]) == (1, 2, 1)
    assert effects("bulkhead_critical", inputs, [3, 3, 2, 3]) == [
        {"target": "ship", "field": "control_roll_mod", "op": "add", "value": 1},
        {"target": "compartment", "field": "visibility_mod", "op": "add", "value": 2},
        {"target": "compartment", "field": "fuel_line_crits", "op": "add", "value": 1},
    ]


def test_lights_and_disabled_systems_are_set_in_table_order():
    inputs = {"excess": 5, "bulkhead": "major"}
    assert effects("bulkhead_critical", inputs, [3, 3, 6, 5]) == [
        {"target": "compartment", "field": "lights_damaged", "op": "set", "value": True},
        {"target": "compartment", "field": "communications_lines_disabled", "op": "set", "value": True},
    ]
    assert effects("bulkhead_critical", {"excess": 5, "bulkhead": "minor"}, [3, 3, 5, 2]) == [
        {"target": "compartment", "field": "cable_mechanism_disabled", "op": "set", "value": True},
        {"target": "compartment", "field": "comm_panel_disabled", "op": "set", "value": True},
    ]


def test_no_critical_and_no_effect_change_nothing():
    assert effects("bulkhead_critical", {"excess": 1, "bulkhead": "minor"}, [1, 1]) == []
    assert effects("bulkhead_critical", {"excess": 2, "bulkhead": "minor"}, [3, 3, 6]) == []


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"excess": 0, "bulkhead": "minor"}, "excess"),
        ({"excess": 2, "bulkhead": "external"}, "bulkhead"),
        ({"excess": 2}, "bulkhead"),
        ({"excess": 2.5, "bulkhead": "minor"}, "excess"),
    ],
)
def test_bad_critical_inputs_are_refused(inputs, field):
    assert input_error("bulkhead_critical", inputs, [3, 5, 3]) == field


@pytest.mark.parametrize("dice", [[3, 5], [3], [1, 1, 1], [3, 5, 7], [3, 5, 3, 3]])
def test_bad_dice_for_a_critical_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("bulkhead_critical", {"excess": 2, "bulkhead": "minor"}, dice)


def test_critical_count_odds_match_dyce():
    proc = rules.get("shipboard.bulkhead_critical")
    odds = rules.odds(proc.id, proc.example)
    assert sum(odds.values()) == 1
    bands = ((2 @ H(6)) + proc.example["excess"]).apply(lambda t: 0 if t <= 7 else 1 if t <= 10 else 2)
    assert odds == dyce_odds(bands)


def test_power_point_loss_odds_by_hand():
    # Major bulkhead, excess 2: P(1 crit) = 16/36, P(2) = 10/36; each crit is a power line 1/6.
    odds = rules.odds("shipboard.bulkhead_critical", {"excess": 2, "bulkhead": "major"}, "power_points_delta")
    one, two = Fraction(16, 36), Fraction(10, 36)
    assert odds == {
        0: Fraction(10, 36) + one * Fraction(5, 6) + two * Fraction(25, 36),
        -1: one * Fraction(1, 6) + two * Fraction(10, 36),
        -2: two * Fraction(1, 36),
    }


# --------------------------------------------------------------------------- 3.5 decompression


def test_w26_one_point_loses_ten_thousand_pascals_a_round():
    r = result("decompression", {"penetrating_points": 1}, [])
    assert r == {
        "explosive": False,
        "loss_per_round": 10000,
        "pressure_pa": 90000,
        "bulkheads_closed": False,
        "closed_after_round": None,
    }


def test_w26_five_points_is_not_explosive_but_closes_the_bulkheads():
    r = result("decompression", {"penetrating_points": 5}, [])
    assert (r["explosive"], r["pressure_pa"], r["bulkheads_closed"], r["closed_after_round"]) == (
        False,
        50000,
        True,
        1,
    )


def test_w26_six_points_is_explosive():
    r = result("decompression", {"penetrating_points": 6}, [])
    assert (r["explosive"], r["loss_per_round"], r["pressure_pa"]) == (True, 60000, 40000)


def test_pressure_never_goes_below_zero():
    assert result("decompression", {"penetrating_points": 4, "rounds": 3}, [])["pressure_pa"] == 0


def test_bulkheads_close_in_the_first_round_that_reaches_50000():
    four = result("decompression", {"penetrating_points": 1, "rounds": 4}, [])
    five = result("decompression", {"penetrating_points": 1, "rounds": 5}, [])
    assert (four["pressure_pa"], four["bulkheads_closed"], four["closed_after_round"]) == (60000, False, None)
    assert (five["pressure_pa"], five["bulkheads_closed"], five["closed_after_round"]) == (50000, True, 5)


def test_a_compartment_already_at_50000_has_its_bulkheads_closed_from_the_start():
    r = result("decompression", {"penetrating_points": 1, "pressure_pa": 50000}, [])
    assert (r["closed_after_round"], r["pressure_pa"]) == (0, 40000)
    r = result("decompression", {"penetrating_points": 1, "pressure_pa": 50001}, [])
    assert (r["closed_after_round"], r["pressure_pa"]) == (1, 40001)


def test_zero_rounds_leaves_the_pressure_alone():
    r = result("decompression", {"penetrating_points": 3, "rounds": 0}, [])
    assert (r["pressure_pa"], r["bulkheads_closed"]) == (100000, False)


def test_decompression_effects():
    assert effects("decompression", {"penetrating_points": 1}, []) == [
        {"target": "compartment", "field": "pressure_pa", "op": "set", "value": 90000}
    ]
    assert effects("decompression", {"penetrating_points": 6}, []) == [
        {"target": "compartment", "field": "pressure_pa", "op": "set", "value": 40000},
        {"target": "compartment", "field": "bulkheads_closed", "op": "set", "value": True},
        {"target": "character", "field": "build_save_required", "op": "set", "value": True},
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"penetrating_points": 0}, "penetrating_points"),
        ({}, "penetrating_points"),
        ({"penetrating_points": 1, "pressure_pa": -1}, "pressure_pa"),
        ({"penetrating_points": 1, "rounds": -1}, "rounds"),
    ],
)
def test_bad_decompression_inputs_are_refused(inputs, field):
    assert input_error("decompression", inputs, []) == field


def test_decompression_rolls_no_dice():
    assert resolve("decompression", {"penetrating_points": 2}, None).rolls == ()
    with pytest.raises(rules.DiceError):
        resolve("decompression", {"penetrating_points": 2}, [3])


def test_decompression_odds_are_certain():
    proc = rules.get("shipboard.decompression")
    assert rules.odds(proc.id, proc.example) == {False: 1}
    assert rules.odds(proc.id, {"penetrating_points": 6}) == {True: 1}


# --------------------------------------------------------------------------- 3.6 fuel_leak


def test_the_leak_grows_by_the_fuel_line_crits_each_turn():
    r = result("fuel_leak", {"fuel_line_crits": 2, "turns_leaking": 3, "leaked_points": 1}, [])
    assert r == {
        "ignited": False,
        "leaked_total": 7,
        "ignition_roll": None,
        "blast_damage": 0,
        "leaked_after": 7,
    }


def test_a_repaired_line_stops_adding_but_the_leaked_fuel_stays():
    assert result("fuel_leak", {"fuel_line_crits": 0, "leaked_points": 3}, [])["leaked_after"] == 3


@pytest.mark.parametrize("weapon", ["flamer", "gyrojet"])
def test_flamers_and_gyrojets_always_ignite_the_fuel(weapon):
    out = resolve("fuel_leak", {"fuel_line_crits": 1, "turns_leaking": 2, "weapon_kind": weapon}, [3, 5])
    assert out.result == {
        "ignited": True,
        "leaked_total": 2,
        "ignition_roll": None,
        "blast_damage": 8,
        "leaked_after": 0,
    }
    assert [(r.label, len(r.values)) for r in out.rolls] == [("blast", 2)]


@pytest.mark.parametrize("weapon", ["primitive", "none"])
def test_primitive_weapons_and_no_fire_never_ignite_it(weapon):
    r = result("fuel_leak", {"fuel_line_crits": 3, "weapon_kind": weapon}, [])
    assert (r["ignited"], r["leaked_after"]) == (False, 3)


def test_other_weapons_ignite_it_on_8():
    r = result("fuel_leak", {"fuel_line_crits": 1, "weapon_kind": "other"}, [4, 4, 6])
    assert (r["ignited"], r["ignition_roll"], r["blast_damage"], r["leaked_after"]) == (True, 8, 6, 0)


def test_other_weapons_do_not_ignite_it_on_7():
    r = result("fuel_leak", {"fuel_line_crits": 1, "weapon_kind": "other"}, [3, 4])
    assert (r["ignited"], r["ignition_roll"], r["blast_damage"], r["leaked_after"]) == (False, 7, 0, 1)


@pytest.mark.parametrize("weapon", ["other", "flamer"])
def test_no_leaked_fuel_means_nothing_to_ignite_and_no_dice(weapon):
    r = result("fuel_leak", {"fuel_line_crits": 0, "weapon_kind": weapon}, [])
    assert (r["ignited"], r["ignition_roll"], r["leaked_total"]) == (False, None, 0)


def test_fuel_leak_effects():
    assert effects("fuel_leak", {"fuel_line_crits": 1, "weapon_kind": "other"}, [3, 4]) == [
        {"target": "compartment", "field": "fuel_leak_points", "op": "set", "value": 1}
    ]
    assert effects("fuel_leak", {"fuel_line_crits": 2, "weapon_kind": "flamer"}, [1, 2]) == [
        {"target": "compartment", "field": "fuel_leak_points", "op": "set", "value": 0},
        {"target": "character", "field": "damage", "op": "add", "value": 3},
    ]


@pytest.mark.parametrize("field", ["fuel_line_crits", "turns_leaking", "leaked_points"])
def test_negative_leak_counts_are_refused(field):
    inputs = {"fuel_line_crits": 1, field: -1}
    assert input_error("fuel_leak", inputs, []) == field


def test_an_unknown_weapon_kind_is_refused():
    assert input_error("fuel_leak", {"fuel_line_crits": 1, "weapon_kind": "laser"}, []) == "weapon_kind"


@pytest.mark.parametrize("dice", [[4, 4], [4, 4, 6, 6], [4], [4, 9, 1]])
def test_bad_dice_for_a_fuel_leak_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("fuel_leak", {"fuel_line_crits": 1, "weapon_kind": "other"}, dice)


def test_fuel_leak_odds_match_a_hand_calculation():
    proc = rules.get("shipboard.fuel_leak")
    odds = rules.odds(proc.id, proc.example)
    assert odds == {True: Fraction(15, 36), False: Fraction(21, 36)}


def test_fuel_blast_damage_odds_match_dyce():
    odds = rules.odds("shipboard.fuel_leak", {"fuel_line_crits": 3, "weapon_kind": "other"}, "blast_damage")
    blast = dyce_odds(3 @ H(6))
    expected = {k: Fraction(15, 36) * p for k, p in blast.items()}
    expected[0] = Fraction(21, 36)
    assert odds == expected


# --------------------------------------------------------------------------- 3.7 over_penetration


def test_w7_the_arm_shot_over_penetrates_by_3():
    r = result("over_penetration", {"damage_dice": 2, "damage_bonus": 3, "part_threshold": 9}, [6, 3])
    assert r == {"over": 3, "damage": 12, "next_step": "ricochet"}


def test_damage_equal_to_the_threshold_does_not_over_penetrate():
    assert result("over_penetration", {"damage_to_part": 9, "part_threshold": 9}, []) == {
        "over": 0,
        "damage": 9,
        "next_step": None,
    }


def test_one_point_over_the_threshold_over_penetrates_by_one():
    assert result("over_penetration", {"damage_to_part": 10, "part_threshold": 9}, [])["over"] == 1


def test_armour_on_the_part_is_subtracted_and_never_drives_it_negative():
    assert (
        result("over_penetration", {"damage_to_part": 15, "part_threshold": 9, "armor_on_part": 4}, [])[
            "over"
        ]
        == 2
    )
    r = result("over_penetration", {"damage_to_part": 12, "part_threshold": 9, "armor_on_part": 4}, [])
    assert (r["over"], r["damage"], r["next_step"]) == (0, 12, None)


@pytest.mark.parametrize(
    "kind",
    [
        {"weapon_kind": "needler"},
        {"weapon_kind": "contact_explosive"},
        {"ammo": "aet"},
        {"ammo": "frangible"},
    ],
)
def test_needlers_contact_explosives_aet_and_frangible_never_over_penetrate(kind):
    r = result("over_penetration", {"damage_to_part": 30, "part_threshold": 9, **kind}, [])
    assert (r["over"], r["damage"], r["next_step"]) == (0, 30, None)


def test_energy_weapons_can_over_penetrate():
    r = result("over_penetration", {"damage_to_part": 14, "part_threshold": 9, "weapon_kind": "energy"}, [])
    assert r["over"] == 5


def test_the_reduction_toggle_only_tells_the_ricochet_step():
    plain = result("over_penetration", {"damage_to_part": 14, "part_threshold": 9}, [])
    toggled = result("over_penetration", {"damage_to_part": 14, "part_threshold": 9, "reduction": True}, [])
    assert plain == toggled == {"over": 5, "damage": 14, "next_step": "ricochet"}


def test_the_full_damage_goes_to_the_condition_monitor():
    assert effects(
        "over_penetration", {"damage_to_part": 14, "part_threshold": 9, "weapon_kind": "needler"}, []
    ) == [{"target": "character", "field": "damage", "op": "add", "value": 14}]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"damage_to_part": 12, "damage_dice": 2, "part_threshold": 9}, "damage_to_part"),
        ({"part_threshold": 9}, "damage_to_part"),
        ({"damage_to_part": 12, "damage_bonus": 3, "part_threshold": 9}, "damage_bonus"),
        ({"damage_to_part": 12}, "part_threshold"),
        ({"damage_to_part": 12, "part_threshold": -1}, "part_threshold"),
        ({"damage_to_part": 12, "part_threshold": 9, "armor_on_part": -1}, "armor_on_part"),
        ({"damage_to_part": -2, "part_threshold": 9}, "damage_to_part"),
        ({"damage_to_part": 12, "part_threshold": 9, "ammo": "aet", "weapon_kind": "needler"}, "ammo"),
    ],
)
def test_bad_over_penetration_inputs_are_refused(inputs, field):
    assert input_error("over_penetration", inputs, [6, 3]) == field


@pytest.mark.parametrize("dice", [[6], [6, 3, 3], [6, 0]])
def test_bad_dice_for_over_penetration_are_refused(dice):
    with pytest.raises(rules.DiceError):
        resolve("over_penetration", {"damage_dice": 2, "damage_bonus": 3, "part_threshold": 9}, dice)


def test_over_penetration_odds_match_dyce():
    proc = rules.get("shipboard.over_penetration")
    odds = rules.odds(proc.id, proc.example)
    assert sum(odds.values()) == 1
    assert odds == dyce_odds(((2 @ H(6)) + 3).apply(lambda d: max(0, d - 9)))


# --------------------------------------------------------------------------- chains


def test_w5_chain_the_door_excess_feeds_the_ricochet():
    hit = result("bulkhead_hit", {"surface": "door", "damage_dice": 2, "damage_bonus": 3}, [6, 4])
    assert hit["next_steps"] == ["ricochet"]
    bounce = result("ricochet", {"excess": hit["excess"]}, [1, 2, 2])
    assert (bounce["damage"], bounce["attack_hit"], bounce["bulkhead_inflicted"]) == (1, False, 0)


def test_w6_chain_the_bulkhead_excess_feeds_the_critical_check():
    hit = result("bulkhead_hit", {"surface": "minor_bulkhead", "damage_dice": 2, "damage_bonus": 3}, [6, 5])
    crit = result("bulkhead_critical", {"excess": hit["excess"], "bulkhead": "minor"}, [3, 5, 3])
    assert crit["results"] == ["emergency_equipment"]


def test_every_shipboard_example_resolves_quickly_and_its_odds_sum_to_one():
    for proc in rules.all_procedures():
        if proc.family != "shipboard":
            continue
        rules.resolve(proc.id, proc.example)
        assert sum(rules.odds(proc.id, proc.example).values()) == 1, proc.id


def test_bulkhead_critical_check_total_is_the_dice_plus_the_excess():
    # C.9: a *_total key is the dice plus every modifier, as the summary prints it.
    outcome = rules.resolve("shipboard.bulkhead_critical", {"bulkhead": "minor", "excess": 4}, [2, 2, 4])
    assert outcome.result["check_total"] == 2 + 2 + 4
    assert outcome.result["crits"] == 1  # 8-10: one critical hit
