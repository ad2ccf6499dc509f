"""Low-tech 'Mechs (catalogue section 5): lowtech.ice_engine, lowtech.ice_explosion,
lowtech.utility_critical; and the Explorer MechWarrior template (section 13)."""

import itertools
import json
from fractions import Fraction

import pytest
from dyce import H

import rules
from rules.tables import characters

TWO_D6 = H(6) + H(6)


def dyce_odds(histogram):
    total = histogram.total
    return {outcome: Fraction(count, total) for outcome, count in histogram.items()}


def every_2d6():
    """All 36 ordered throws of two dice, each with probability 1/36."""
    return list(itertools.product(range(1, 7), repeat=2))


# --- lowtech.ice_engine -------------------------------------------------------------------


def engine(**inputs):
    inputs.setdefault("fusion_engine_weight_t", 8.5)
    inputs.setdefault("tonnage", 50)
    return rules.resolve("lowtech.ice_engine", inputs, dice=[])


def test_ice_engine_weighs_twice_the_fusion_engine_and_gives_no_jump_or_free_sinks():
    outcome = engine(fusion_engine_weight_t=8.5, tonnage=50)
    assert outcome.result == {
        "ice_weight_t": 17.0,
        "power_amps_t": 0.0,
        "internal_structure_t": None,
        "jump_mp": 0,
        "free_heat_sinks": 0,
        "lift_hoist_capacity_t": 25.0,
    }
    assert outcome.effects == (
        {"target": "unit", "field": "engine_type", "op": "set", "value": "ICE"},
        {"target": "unit", "field": "jump_mp", "op": "set", "value": 0},
    )


@pytest.mark.parametrize(
    ("energy_tons", "amps"),
    [
        (0, 0.0),
        (0.5, 0.1),  # 0.05 t rounds up to a tenth
        (7, 0.7),
        (9.9, 1.0),
        (10, 1.0),  # exactly a tenth: no rounding
        (10.01, 1.1),  # just over: rounds up
        (10.5, 1.1),
        (11, 1.1),
        (23, 2.3),
    ],
)
def test_ice_engine_power_amplifiers_are_a_tenth_of_energy_tons_rounded_up_to_0_1(energy_tons, amps):
    assert engine(energy_weapon_tons=energy_tons).result["power_amps_t"] == amps


def test_ice_engine_utility_mech_structure_is_20_percent_of_tonnage():
    assert engine(tonnage=50, is_utility=True).result["internal_structure_t"] == 10.0
    assert engine(tonnage=35, is_utility=True).result["internal_structure_t"] == 7.0
    assert engine(tonnage=35, is_utility=False).result["internal_structure_t"] is None


def test_ice_engine_lift_hoist_lifts_half_the_tonnage():
    assert engine(tonnage=35).result["lift_hoist_capacity_t"] == 17.5


def test_ice_engine_weight_stays_exact_in_decimals():
    assert engine(fusion_engine_weight_t=0.15).result["ice_weight_t"] == 0.3


def test_ice_engine_utility_mech_may_carry_cargo_bays():
    outcome = engine(is_utility=True, cargo_bay_tons=4)
    assert outcome.result["internal_structure_t"] == 10.0


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"tech_base": "clan"}, "tech_base"),
        ({"tech_base": "clan", "is_utility": True}, "tech_base"),
        ({"xl": True}, "xl"),
        ({"cargo_bay_tons": 2}, "cargo_bay_tons"),
        ({"cargo_bay_tons": -1, "is_utility": True}, "cargo_bay_tons"),
        ({"tonnage": 0}, "tonnage"),
        ({"tonnage": 50.5}, "tonnage"),
        ({"fusion_engine_weight_t": -1}, "fusion_engine_weight_t"),
        ({"energy_weapon_tons": -0.5}, "energy_weapon_tons"),
        ({"tech_base": "periphery"}, "tech_base"),
    ],
)
def test_ice_engine_refuses_illegal_designs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        engine(**inputs)
    assert err.value.field == field


def test_ice_engine_requires_the_fusion_weight_and_tonnage():
    with pytest.raises(rules.InputError) as err:
        rules.resolve("lowtech.ice_engine", {"tonnage": 50}, dice=[])
    assert err.value.field == "fusion_engine_weight_t"
    with pytest.raises(rules.InputError) as err:
        rules.resolve("lowtech.ice_engine", {"fusion_engine_weight_t": 8.5}, dice=[])
    assert err.value.field == "tonnage"


def test_ice_engine_refusal_comes_before_the_dice_are_checked():
    with pytest.raises(rules.InputError):
        rules.resolve(
            "lowtech.ice_engine", {"fusion_engine_weight_t": 8.5, "tonnage": 50, "xl": True}, dice=[1]
        )


def test_ice_engine_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        engine_with_dice = {"fusion_engine_weight_t": 8.5, "tonnage": 50}
        rules.resolve("lowtech.ice_engine", engine_with_dice, dice=[2])
    assert rules.resolve("lowtech.ice_engine", {"fusion_engine_weight_t": 8.5, "tonnage": 50}).rolls == ()


def test_ice_engine_odds_are_certain_for_the_example():
    example = rules.get("lowtech.ice_engine").example
    assert rules.odds("lowtech.ice_engine", example) == {17.0: Fraction(1)}
    assert rules.odds("lowtech.ice_engine", example, key="power_amps_t") == {1.1: Fraction(1)}


# --- lowtech.ice_explosion ----------------------------------------------------------------


def explosion(hit, dice):
    return rules.resolve("lowtech.ice_explosion", {"engine_hit_number": hit}, dice=dice)


@pytest.mark.parametrize(
    ("hit", "dice", "total", "exploded", "destroyed"),
    [
        (1, [4, 5], 9, False, False),  # first hit: no modifier, 9 is one short
        (1, [4, 6], 10, True, True),
        (2, [3, 3], 9, False, False),  # second hit: +3
        (2, [3, 4], 10, True, True),
        (3, [1, 2], 9, False, True),  # third hit: +6; destroyed for play anyway
        (3, [2, 2], 10, True, True),
        (3, [6, 6], 18, True, True),
        (1, [1, 1], 2, False, False),
    ],
)
def test_ice_explosion_explodes_on_10_or_more_after_the_hit_modifier(hit, dice, total, exploded, destroyed):
    result = explosion(hit, dice).result
    assert result == {"exploded": exploded, "total": total, "destroyed_for_play": destroyed}


def test_ice_explosion_effects_for_each_case():
    destroyed = {"target": "unit", "field": "destroyed", "op": "set", "value": True}
    blown = {"target": "unit", "field": "engine_exploded", "op": "set", "value": True}
    assert explosion(1, [1, 2]).effects == ()
    assert explosion(1, [5, 5]).effects == (destroyed, blown)
    assert explosion(3, [1, 1]).effects == (destroyed,)


def test_ice_explosion_records_the_check_roll():
    outcome = explosion(2, [3, 5])
    assert [r.to_dict() for r in outcome.rolls] == [
        {"label": "check", "sides": 6, "values": [3, 5], "total": 8}
    ]


@pytest.mark.parametrize(
    ("value", "field"), [(0, "engine_hit_number"), (4, "engine_hit_number"), (1.5, "engine_hit_number")]
)
def test_ice_explosion_refuses_a_hit_number_outside_1_to_3(value, field):
    with pytest.raises(rules.InputError) as err:
        explosion(value, [3, 3])
    assert err.value.field == field


def test_ice_explosion_requires_the_hit_number():
    with pytest.raises(rules.InputError) as err:
        rules.resolve("lowtech.ice_explosion", {}, dice=[3, 3])
    assert err.value.field == "engine_hit_number"


@pytest.mark.parametrize("dice", [[], [3], [3, 4, 5], [0, 4], [7, 1], [True, 3], [2.5, 3]])
def test_ice_explosion_refuses_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        explosion(1, dice)


@pytest.mark.parametrize(("hit", "needed"), [(1, 10), (2, 7), (3, 4)])
def test_ice_explosion_odds_match_a_count_of_all_36_throws(hit, needed):
    exploding = sum(1 for a, b in every_2d6() if a + b >= needed)
    expected = {True: Fraction(exploding, 36), False: Fraction(36 - exploding, 36)}
    assert rules.odds("lowtech.ice_explosion", {"engine_hit_number": hit}) == expected


@pytest.mark.parametrize(("hit", "modifier"), [(1, 0), (2, 3), (3, 6)])
def test_ice_explosion_total_odds_match_dyce(hit, modifier):
    expected = dyce_odds(TWO_D6 + modifier)
    assert rules.odds("lowtech.ice_explosion", {"engine_hit_number": hit}, key="total") == expected


def test_ice_explosion_odds_for_the_example_sum_to_one():
    dist = rules.odds("lowtech.ice_explosion", rules.get("lowtech.ice_explosion").example)
    assert dist == {True: Fraction(7, 12), False: Fraction(5, 12)}
    assert sum(dist.values()) == 1


def test_ice_explosion_third_hit_is_always_destroyed_for_play():
    assert rules.odds("lowtech.ice_explosion", {"engine_hit_number": 3}, key="destroyed_for_play") == {
        True: Fraction(1)
    }


def test_ice_explosion_with_server_dice_is_consistent():
    outcome = rules.resolve("lowtech.ice_explosion", {"engine_hit_number": 2}, dice=rules.SeededDice(7))
    assert outcome.result["total"] == outcome.rolls[0].total + 3


# --- lowtech.utility_critical -------------------------------------------------------------


def critical(kind, dice):
    return rules.resolve("lowtech.utility_critical", {"location_kind": kind}, dice=dice)


@pytest.mark.parametrize(
    ("dice", "total", "row", "torso_crits", "limb_crits", "limb_blown"),
    [
        ([1, 1], 4, 4, 0, 0, False),
        ([2, 3], 7, 7, 0, 0, False),  # top of "none"
        ([3, 3], 8, 8, 1, 1, False),  # bottom of 1 crit
        ([3, 4], 9, 9, 1, 1, False),
        ([4, 4], 10, 10, 2, 2, False),  # bottom of 2 crits
        ([4, 5], 11, 11, 2, 2, False),
        ([5, 5], 12, 12, 3, 0, True),  # blown off / torso 3
        ([5, 6], 13, 12, 3, 0, True),  # modified 13 reads as 12 [A38]
        ([6, 6], 14, 14, 4, 0, True),  # 14: blown off / torso 4 [A38]
    ],
)
def test_utility_critical_table_rows_with_the_plus_2(dice, total, row, torso_crits, limb_crits, limb_blown):
    torso = critical("torso", dice).result
    limb = critical("head_limb", dice).result
    assert torso == {"crits": torso_crits, "blown_off": False, "total": total, "table_row": row}
    assert limb == {"crits": limb_crits, "blown_off": limb_blown, "total": total, "table_row": row}


def test_utility_critical_effects_only_when_a_head_or_limb_is_blown_off():
    blown = ({"target": "unit", "field": "location_blown_off", "op": "set", "value": True},)
    assert critical("head_limb", [6, 6]).effects == blown
    assert critical("head_limb", [5, 5]).effects == blown
    assert critical("head_limb", [4, 5]).effects == ()
    assert critical("torso", [6, 6]).effects == ()


@pytest.mark.parametrize("inputs", [{}, {"location_kind": "arm"}, {"location_kind": None}])
def test_utility_critical_needs_a_location_kind(inputs):
    with pytest.raises(rules.InputError) as err:
        rules.resolve("lowtech.utility_critical", inputs, dice=[3, 3])
    assert err.value.field == "location_kind"


@pytest.mark.parametrize("dice", [[], [4], [4, 4, 4], [0, 6], [6, 7]])
def test_utility_critical_refuses_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        critical("torso", dice)


def crits_by_dyce(kind):
    """The table written out independently: 2D6 + 2, by row."""

    def row(total):
        if total <= 7:
            return 0
        if total <= 9:
            return 1
        if total <= 11:
            return 2
        if kind == "head_limb":
            return 0
        return 4 if total == 14 else 3

    counts = {}
    for outcome, count in (TWO_D6 + 2).items():
        counts[row(outcome)] = counts.get(row(outcome), 0) + Fraction(count, 36)
    return counts


@pytest.mark.parametrize("kind", ["torso", "head_limb"])
def test_utility_critical_odds_match_an_independent_dyce_calculation(kind):
    assert rules.odds("lowtech.utility_critical", {"location_kind": kind}) == crits_by_dyce(kind)


def test_utility_critical_odds_by_hand():
    assert rules.odds("lowtech.utility_critical", {"location_kind": "torso"}) == {
        0: Fraction(10, 36),
        1: Fraction(11, 36),
        2: Fraction(9, 36),
        3: Fraction(5, 36),
        4: Fraction(1, 36),
    }
    assert rules.odds("lowtech.utility_critical", {"location_kind": "head_limb"}, key="blown_off") == {
        True: Fraction(6, 36),
        False: Fraction(30, 36),
    }


def test_utility_critical_odds_for_the_example_sum_to_one():
    dist = rules.odds("lowtech.utility_critical", rules.get("lowtech.utility_critical").example)
    assert sum(dist.values()) == 1


def test_utility_critical_monte_carlo_agrees_with_the_exact_odds():
    exact = rules.odds("lowtech.utility_critical", {"location_kind": "torso"}, key="crits")
    runs = 4000
    seen = {}
    for seed in range(runs):
        crits = rules.resolve(
            "lowtech.utility_critical", {"location_kind": "torso"}, dice=rules.SeededDice(seed)
        ).result["crits"]
        seen[crits] = seen.get(crits, 0) + 1
    for crits, p in exact.items():
        assert abs(seen.get(crits, 0) / runs - float(p)) < 0.03, crits


# --- Explorer MechWarrior template (static data, section 13) ------------------------------


def test_explorer_mechwarrior_template_has_the_printed_attributes_and_characteristics():
    t = characters.EXPLORER_MECHWARRIOR
    assert {k: (v["value"], v["target"]) for k, v in t["attributes"].items()} == {
        "BLD": (4, 8),
        "REF": (5, 7),
        "INT": (5, 7),
        "LRN": (5, 7),
        "CHA": (3, 9),
    }
    assert t["characteristics"] == {"athletic": 9, "physical": 8, "mental": 8, "social": 10}
    assert t["advantages"] == [{"name": "Well-Equipped", "points": 2}]
    assert (t["edge"], t["assets_cbills"], t["battlemech"]) == (1, 500, "light")


def test_explorer_mechwarrior_template_lists_every_printed_skill_and_item():
    t = characters.EXPLORER_MECHWARRIOR
    skills = {s["name"]: (s["level"], s["target"]) for s in t["skills"]}
    assert len(skills) == 13
    assert skills["Gunnery/BattleMech"] == (3, 5)
    assert skills["Piloting/BattleMech"] == (2, 6)
    assert skills["Unarmed Combat"] == (2, 7)
    assert len(t["equipment"]) == 14
    assert len(t["weapons_and_armor"]) == 8


def test_explorer_mechwarrior_character_fields_agree_with_the_template():
    t = characters.EXPLORER_MECHWARRIOR
    skills = {s["name"]: s["target"] for s in t["skills"]}
    assert t["character_fields"] == {
        "role": "mechwarrior",
        "bld": t["attributes"]["BLD"]["value"],
        "ref": t["attributes"]["REF"]["value"],
        "piloting": skills["Piloting/BattleMech"],
        "gunnery": skills["Gunnery/BattleMech"],
        "leadership": skills["Leadership"],
    }


def test_explorer_mechwarrior_copy_is_independent_and_json_ready():
    mine = characters.explorer_mechwarrior()
    mine["skills"].clear()
    assert len(characters.EXPLORER_MECHWARRIOR["skills"]) == 13
    assert json.loads(json.dumps(characters.explorer_mechwarrior())) == characters.EXPLORER_MECHWARRIOR
    assert characters.TEMPLATES["explorer_mechwarrior"] is characters.EXPLORER_MECHWARRIOR
