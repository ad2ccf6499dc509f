"""Terrain (catalogue section 2): terrain.hex_modifiers, terrain.clearing, terrain.magma,
terrain.geyser, terrain.bog_down, terrain.careful_movement."""

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from dyce import H

import rules

VECTORS = json.loads((Path(__file__).parent / "data" / "public_examples.json").read_text())


def vectors(procedure_id):
    return [pytest.param(v, id=v["id"]) for v in VECTORS if v["procedure"] == procedure_id]


def check_vector(vector):
    result = rules.resolve(vector["procedure"], vector["inputs"], dice=vector["dice"]).result
    for key, expected in vector["expect"].items():
        assert result[key] == expected, key


def dyce_odds(h):
    return {k: Fraction(c, h.total) for k, c in h.items()}


def hexm(**inputs):
    return rules.resolve("terrain.hex_modifiers", inputs, dice=[]).result


def magma(dice, **inputs):
    return rules.resolve("terrain.magma", inputs, dice=dice)


def labels(outcome):
    return [r["label"] for r in outcome.to_dict()["rolls"]]


NO_FLAGS = {
    "bog_down_possible": False,
    "skid": False,
    "psr_on_entry_fall": False,
    "psr_on_entry_damage": False,
    "poor_visibility": False,
}


def flags(*on):
    return {**NO_FLAGS, **dict.fromkeys(on, True)}


# --- terrain.hex_modifiers -------------------------------------------------------------------


@pytest.mark.parametrize("vector", vectors("terrain.hex_modifiers"))
def test_hex_modifiers_reproduces_the_seeds_worked_examples(vector):
    check_vector(vector)


def test_hex_modifiers_heavy_woods_and_mud_is_4_mp_plus_2_to_hit_plus_1_psr_w1():
    outcome = rules.resolve("terrain.hex_modifiers", {"base_terrain": "heavy_woods", "conditions": ["mud"]})
    assert outcome.result == {
        "mp_cost": 4,
        "to_hit_mod": 2,
        "psr_mod": 1,
        "prohibited": ["hover", "naval", "tracked", "wheeled"],
        "prohibited_for_unit": False,
        "flags": flags("bog_down_possible"),
        "skippable_mp": 0,
    }
    assert outcome.effects == ()
    assert outcome.rolls == ()


@pytest.mark.parametrize("unit", ["hover", "tracked", "wheeled", "naval"])
def test_hex_modifiers_heavy_woods_bars_ground_and_naval_units_w1(unit):
    assert hexm(base_terrain="heavy_woods", unit_type=unit)["prohibited_for_unit"] is True


@pytest.mark.parametrize("unit", ["battlemech_biped", "battlemech_quad", "infantry_foot", "vtol"])
def test_hex_modifiers_heavy_woods_admits_mechs_infantry_and_vtols(unit):
    assert hexm(base_terrain="heavy_woods", unit_type=unit)["prohibited_for_unit"] is False


def test_hex_modifiers_no_base_terrain_means_clear():
    assert hexm() == {
        "mp_cost": 1,
        "to_hit_mod": 0,
        "psr_mod": 0,
        "prohibited": ["naval"],
        "prohibited_for_unit": False,
        "flags": NO_FLAGS,
        "skippable_mp": 0,
    }


def test_hex_modifiers_naval_units_may_not_enter_clear():
    assert hexm(unit_type="naval")["prohibited_for_unit"] is True


@pytest.mark.parametrize(
    ("building", "mp"),
    [("building_light", 2), ("building_medium", 3), ("building_heavy", 4), ("building_hardened", 5)],
)
def test_hex_modifiers_buildings_cost_2_to_5_and_need_a_psr_against_damage(building, mp):
    result = hexm(base_terrain=building)
    assert result["mp_cost"] == mp
    assert result["flags"] == flags("psr_on_entry_damage")
    assert result["prohibited"] == ["naval"]


@pytest.mark.parametrize("infantry", ["infantry_foot", "infantry_jump"])
@pytest.mark.parametrize("building", ["building_light", "building_hardened"])
def test_hex_modifiers_infantry_pay_1_mp_for_any_building(infantry, building):
    assert hexm(base_terrain=building, unit_type=infantry)["mp_cost"] == 1


def test_hex_modifiers_ultra_heavy_woods_mp_is_gm_data_plus_3_to_hit_and_bars_mechs():
    result = hexm(base_terrain="ultra_heavy_woods", conditions=["mud"])
    assert result["mp_cost"] is None
    assert result["to_hit_mod"] == 3
    assert result["psr_mod"] == 1
    assert result["prohibited"] == ["battlemech", "hover", "naval", "tracked", "wheeled"]
    assert result["prohibited_for_unit"] is True


def test_hex_modifiers_ultra_heavy_woods_admits_infantry():
    assert hexm(base_terrain="ultra_heavy_woods", unit_type="infantry_foot")["prohibited_for_unit"] is False


@pytest.mark.parametrize(
    ("unit", "dune_buggy", "mp"),
    [
        ("battlemech_biped", False, 1),
        ("tracked", False, 1),
        ("hover", False, 1),
        ("wheeled", False, 2),
        ("wheeled", True, 1),
        ("infantry_foot", False, 2),
        ("infantry_jump", False, 1),
    ],
)
def test_hex_modifiers_sand_costs_1_or_2_mp_by_unit_a8(unit, dune_buggy, mp):
    result = hexm(base_terrain="sand", unit_type=unit, dune_buggy=dune_buggy)
    assert result["mp_cost"] == mp
    assert result["psr_mod"] == 1
    assert result["to_hit_mod"] == 0


def test_hex_modifiers_sand_plus_mud_adds_to_the_absolute_sand_cost():
    assert hexm(base_terrain="sand", unit_type="wheeled", conditions=["mud"])["mp_cost"] == 3


@pytest.mark.parametrize(
    ("condition", "mp", "to_hit", "psr", "prohibited", "on"),
    [
        ("deep_snow", 2, 0, 1, ["naval", "wheeled"], ["bog_down_possible"]),
        ("geyser", 2, 2, 1, ["infantry", "naval", "wheeled"], []),
        ("ice", 2, 0, 4, ["naval"], ["skid"]),
        ("mud", 2, 0, 1, ["naval"], ["bog_down_possible"]),
        ("rapids", 2, 0, 2, ["naval"], []),
    ],
)
def test_hex_modifiers_each_terrain_condition_row(condition, mp, to_hit, psr, prohibited, on):
    result = hexm(conditions=[condition])
    assert result["mp_cost"] == mp
    assert result["to_hit_mod"] == to_hit
    assert result["psr_mod"] == psr
    assert result["prohibited"] == prohibited
    assert result["flags"] == flags(*on)


@pytest.mark.parametrize(
    ("condition", "mp"), [("deep_snow", 1), ("ice", 1), ("mud", 1), ("geyser", 2), ("rapids", 2)]
)
def test_hex_modifiers_hover_ignores_only_the_i_costs(condition, mp):
    assert hexm(conditions=[condition], unit_type="hover")["mp_cost"] == mp


def test_hex_modifiers_hover_still_gets_the_psr_modifier_of_an_i_condition():
    assert hexm(conditions=["mud"], unit_type="hover")["psr_mod"] == 1


def test_hex_modifiers_geyser_bars_infantry():
    assert hexm(conditions=["geyser"], unit_type="infantry_jump")["prohibited_for_unit"] is True


def test_hex_modifiers_conditions_stack():
    result = hexm(base_terrain="heavy_woods", conditions=["deep_snow", "rapids", "geyser"])
    assert result["mp_cost"] == 6
    assert result["to_hit_mod"] == 4
    assert result["psr_mod"] == 4


def test_hex_modifiers_a_condition_listed_twice_counts_once():
    assert hexm(conditions=["mud", "mud"]) == hexm(conditions=["mud"])


@pytest.mark.parametrize(
    ("weather", "ballistic", "energy", "psr", "on"),
    [
        ("blizzard", 2, 1, 1, ["poor_visibility"]),
        ("blowing_sand", 1, 2, 0, []),
        ("dusk_dawn", 1, 1, 0, []),
        ("fire", 0, 0, 0, []),
        ("fog", 0, 1, 0, ["poor_visibility"]),
        ("heavy_snowfall", 1, 1, 1, []),
        ("rain_light", 1, 1, 0, []),
        ("rain_heavy", 1, 1, 1, []),
        ("wind_moderate", 1, 0, 0, []),
        ("wind_high", 2, 0, 2, []),
    ],
)
def test_hex_modifiers_each_weather_row_by_weapon_class(weather, ballistic, energy, psr, on):
    b = hexm(weather=[weather], weapon_class="ballistic")
    e = hexm(weather=[weather], weapon_class="energy")
    assert b["to_hit_mod"] == ballistic
    assert e["to_hit_mod"] == energy
    assert b["psr_mod"] == e["psr_mod"] == psr
    assert b["flags"] == flags(*on)


@pytest.mark.parametrize("weather", ["blizzard", "blowing_sand", "dusk_dawn", "heavy_snowfall", "wind_high"])
def test_hex_modifiers_weather_other_than_fog_costs_no_mp(weather):
    assert hexm(weather=[weather])["mp_cost"] == 1


def test_hex_modifiers_fog_costs_2_mp_that_careful_movement_can_skip():
    result = hexm(weather=["fog"])
    assert result["mp_cost"] == 3
    assert result["skippable_mp"] == 2


def test_hex_modifiers_ice_cost_is_skippable_by_careful_movement():
    result = hexm(conditions=["ice"])
    assert (result["mp_cost"], result["skippable_mp"]) == (2, 1)


def test_hex_modifiers_fog_and_ice_together_cost_2_not_3_w23():
    result = hexm(conditions=["ice"], weather=["fog"], unit_type="tracked")
    assert result["mp_cost"] == 3
    assert result["skippable_mp"] == 2
    assert result["psr_mod"] == 4
    assert result["flags"] == flags("skid", "poor_visibility")


@pytest.mark.parametrize("unit", ["battlemech_biped", "tracked", "wheeled"])
def test_hex_modifiers_careful_movement_skips_the_j_costs(unit):
    result = hexm(conditions=["ice", "mud"], weather=["fog"], unit_type=unit, careful=True)
    assert result["mp_cost"] == 2  # clear 1 + mud 1; fog and ice skipped
    assert result["skippable_mp"] == 0


@pytest.mark.parametrize("infantry", ["infantry_foot", "infantry_jump"])
def test_hex_modifiers_infantry_ignore_j_costs_and_have_nothing_to_skip(infantry):
    result = hexm(conditions=["ice"], weather=["fog"], unit_type=infantry)
    assert result["mp_cost"] == 1
    assert result["skippable_mp"] == 0


def test_hex_modifiers_hover_in_fog_and_ice_pays_only_the_fog():
    result = hexm(conditions=["ice"], weather=["fog"], unit_type="hover")
    assert (result["mp_cost"], result["skippable_mp"]) == (3, 2)


def test_hex_modifiers_hover_on_ice_alone_has_no_j_cost_to_skip():
    result = hexm(conditions=["ice"], unit_type="hover")
    assert (result["mp_cost"], result["skippable_mp"]) == (1, 0)


@pytest.mark.parametrize("weather", ["wind_high", "blizzard"])
def test_hex_modifiers_hover_skids_in_high_winds_or_blizzard(weather):
    assert hexm(weather=[weather], unit_type="hover")["flags"]["skid"] is True


@pytest.mark.parametrize(("unit", "weather"), [("battlemech_biped", "wind_high"), ("hover", "wind_moderate")])
def test_hex_modifiers_no_skid_for_other_units_or_milder_wind(unit, weather):
    assert hexm(weather=[weather], unit_type=unit)["flags"]["skid"] is False


@pytest.mark.parametrize("strength", [1, 2, 3, 4, 5])
def test_hex_modifiers_earthquake_adds_strength_to_hit_and_psr(strength):
    result = hexm(earthquake=strength)
    assert result["to_hit_mod"] == strength
    assert result["psr_mod"] == strength


@pytest.mark.parametrize(("strength", "psr"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_hex_modifiers_earthquake_psr_for_quads_is_half_rounded_up_without_the_quad_minus_2(strength, psr):
    assert hexm(earthquake=strength, unit_type="battlemech_quad")["psr_mod"] == psr


@pytest.mark.parametrize("strength", [-1, 6])
def test_hex_modifiers_earthquake_outside_0_to_5_is_refused(strength):
    with pytest.raises(rules.InputError) as e:
        hexm(earthquake=strength)
    assert e.value.field == "earthquake"


def test_hex_modifiers_miscalibrated_ballistic_weapon_is_plus_2():
    assert hexm(weapon_miscalibrated=True)["to_hit_mod"] == 2
    assert hexm(weapon_miscalibrated=False)["to_hit_mod"] == 0


def test_hex_modifiers_energy_weapons_never_need_calibration():
    assert hexm(weapon_miscalibrated=True, weapon_class="energy")["to_hit_mod"] == 0


def test_hex_modifiers_to_hit_sums_terrain_condition_weather_quake_and_calibration():
    result = hexm(
        base_terrain="ultra_heavy_woods",
        conditions=["geyser"],
        weather=["blizzard", "dusk_dawn"],
        earthquake=2,
        weapon_miscalibrated=True,
    )
    assert result["to_hit_mod"] == 3 + 2 + 2 + 1 + 2 + 2
    assert result["psr_mod"] == 1 + 1 + 2


def test_hex_modifiers_custom_base_terrain_uses_the_gms_row():
    result = hexm(
        base_terrain="custom",
        base_custom={"mp_cost": 3, "to_hit": 1, "psr": 2, "prohibited": ["ground"], "flags": ["F", "skid"]},
        conditions=["mud"],
    )
    assert result["mp_cost"] == 4
    assert result["to_hit_mod"] == 1
    assert result["psr_mod"] == 3
    assert result["prohibited"] == ["hover", "tracked", "wheeled"]
    assert result["flags"] == flags("bog_down_possible", "skid")


def test_hex_modifiers_custom_base_terrain_with_unknown_cost_gives_null_mp():
    result = hexm(
        base_terrain="custom", base_custom={"mp_cost": None, "to_hit": 0, "psr": 0, "prohibited": []}
    )
    assert result["mp_cost"] is None
    assert result["prohibited"] == []


def test_hex_modifiers_custom_conditions_stack_on_the_base():
    result = hexm(
        base_terrain="heavy_woods",
        custom_conditions=[
            {"name": "rubble", "mp_cost": 1, "to_hit": 0, "psr": 0, "flags": ["A"]},
            {"name": "swamp", "mp_cost": 1, "to_hit": 0, "psr": 1, "prohibited": ["wheeled"], "flags": ["F"]},
        ],
    )
    assert result["mp_cost"] == 5
    assert result["psr_mod"] == 1
    assert result["flags"] == flags("psr_on_entry_fall", "bog_down_possible")


def test_hex_modifiers_custom_base_terrain_without_its_row_is_refused():
    with pytest.raises(rules.InputError) as e:
        hexm(base_terrain="custom")
    assert e.value.field == "base_custom"


def test_hex_modifiers_custom_row_with_a_printed_base_terrain_is_refused():
    with pytest.raises(rules.InputError) as e:
        hexm(base_custom={"mp_cost": 1, "to_hit": 0, "psr": 0, "prohibited": []})
    assert e.value.field == "base_custom"


@pytest.mark.parametrize(
    "row",
    [
        {"mp_cost": -1, "to_hit": 0, "psr": 0, "prohibited": []},
        {"mp_cost": 1, "to_hit": 0, "psr": 0, "prohibited": ["mechs"]},
        {"mp_cost": 1, "to_hit": 0, "psr": 0, "prohibited": [], "flags": ["C"]},
        {"mp_cost": 1, "to_hit": 0, "psr": 0},
        {"mp_cost": 1, "to_hit": 0, "psr": 0, "prohibited": [], "colour": "red"},
    ],
)
def test_hex_modifiers_bad_custom_base_rows_are_refused(row):
    with pytest.raises(rules.InputError) as e:
        hexm(base_terrain="custom", base_custom=row)
    assert e.value.field == "base_custom"


def test_hex_modifiers_bad_custom_condition_is_refused():
    with pytest.raises(rules.InputError) as e:
        hexm(custom_conditions=[{"name": "x", "mp_cost": 1, "to_hit": 0, "psr": 0, "prohibited": ["tanks"]}])
    assert e.value.field == "custom_conditions"


def test_hex_modifiers_dune_buggy_must_be_wheeled():
    with pytest.raises(rules.InputError) as e:
        hexm(base_terrain="sand", unit_type="tracked", dune_buggy=True)
    assert e.value.field == "dune_buggy"


@pytest.mark.parametrize("weather", [["rain_light", "rain_heavy"], ["wind_high", "wind_moderate"]])
def test_hex_modifiers_two_intensities_of_one_weather_are_refused(weather):
    with pytest.raises(rules.InputError) as e:
        hexm(weather=weather)
    assert e.value.field == "weather"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"conditions": ["lava"]}, "conditions"),
        ({"weather": ["hail"]}, "weather"),
        ({"unit_type": "mech"}, "unit_type"),
        ({"base_terrain": "jungle"}, "base_terrain"),
        ({"earthquake": 2.5}, "earthquake"),
        ({"careful": 1}, "careful"),
        ({"terrain": "clear"}, "terrain"),
    ],
)
def test_hex_modifiers_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.hex_modifiers", inputs, dice=[])
    assert e.value.field == field


def test_hex_modifiers_accepts_no_dice_and_refuses_any():
    assert rules.resolve("terrain.hex_modifiers", {}, dice=None).rolls == ()
    with pytest.raises(rules.DiceError):
        rules.resolve("terrain.hex_modifiers", {}, dice=[3])


def test_hex_modifiers_odds_are_certain():
    assert rules.odds("terrain.hex_modifiers", {"base_terrain": "heavy_woods", "conditions": ["mud"]}) == {
        4: 1
    }


# --- terrain.clearing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "attacks", "new", "los"),
    [
        ("ultra_heavy_jungle", 1, "heavy_jungle", None),
        ("ultra_heavy_jungle", 2, "light_jungle", None),
        ("ultra_heavy_jungle", 3, "rough", None),
        ("heavy_jungle", 1, "light_jungle", None),
        ("heavy_jungle", 2, "rough", None),
        ("light_jungle", 1, "rough", None),
        ("ultra_heavy_woods", 1, "heavy_woods", 2),
    ],
)
def test_clearing_steps_down_the_chain(terrain, attacks, new, los):
    outcome = rules.resolve("terrain.clearing", {"terrain": terrain, "successful_attacks": attacks}, dice=[])
    assert outcome.result == {"new_terrain": new, "los_height": los}
    assert outcome.effects == ({"target": "hex", "field": "terrain", "op": "set", "value": new},)


def test_clearing_defaults_to_one_attack():
    assert (
        rules.resolve("terrain.clearing", {"terrain": "heavy_jungle"}).result["new_terrain"] == "light_jungle"
    )


@pytest.mark.parametrize(
    ("terrain", "attacks"),
    [("ultra_heavy_jungle", 4), ("heavy_jungle", 3), ("light_jungle", 2), ("ultra_heavy_woods", 2)],
)
def test_clearing_beyond_the_chain_is_refused(terrain, attacks):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.clearing", {"terrain": terrain, "successful_attacks": attacks})
    assert e.value.field == "successful_attacks"


@pytest.mark.parametrize("attacks", [0, -1])
def test_clearing_needs_at_least_one_attack(attacks):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.clearing", {"terrain": "light_jungle", "successful_attacks": attacks})
    assert e.value.field == "successful_attacks"


def test_clearing_bad_terrain_and_stray_dice_are_refused():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.clearing", {"terrain": "light_woods"})
    assert e.value.field == "terrain"
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.clearing", {})
    assert e.value.field == "terrain"
    with pytest.raises(rules.DiceError):
        rules.resolve("terrain.clearing", {"terrain": "light_jungle"}, dice=[1])


def test_clearing_odds_are_certain():
    assert rules.odds("terrain.clearing", {"terrain": "ultra_heavy_woods"}) == {"heavy_woods": 1}


# --- terrain.magma ----------------------------------------------------------------------------


def test_magma_mech_walking_through_liquid_takes_2d6_per_leg_and_heat_for_leaving_it():
    outcome = magma([3, 4, 6, 6], unit_type="battlemech", movement_path=["other", "liquid", "other"])
    assert outcome.result == {
        "destroyed": False,
        "fell_through": False,
        "damage": {"LL": 7, "RL": 12},
        "heat": 5,
        "end_hex": "other",
    }
    assert labels(outcome) == ["enter_LL", "enter_RL"]
    assert outcome.effects == (
        {"target": "unit", "field": "locations.LL.damage", "op": "add", "value": 7},
        {"target": "unit", "field": "locations.RL.damage", "op": "add", "value": 12},
        {"target": "unit", "field": "heat", "op": "add", "value": 5},
    )


def test_magma_mech_staying_in_liquid_takes_start_and_extra_damage_location_by_location():
    outcome = magma([1, 1, 2, 2, 3, 3, 4, 4], unit_type="battlemech", start_hex="liquid")
    assert labels(outcome) == ["start_LL", "extra_LL", "start_RL", "extra_RL"]
    assert outcome.result["damage"] == {"LL": 2 + 4, "RL": 6 + 8}
    assert outcome.result["heat"] == 10
    assert outcome.result["end_hex"] == "liquid"


def test_magma_mech_leaving_liquid_takes_only_the_start_damage():
    outcome = magma([1, 2, 3, 4], unit_type="battlemech", start_hex="liquid", movement_path=["other"])
    assert labels(outcome) == ["start_LL", "start_RL"]
    assert outcome.result["damage"] == {"LL": 3, "RL": 7}
    assert outcome.result["heat"] == 5  # moved out of one liquid hex, ends in a plain hex


def test_magma_mech_starting_and_ending_in_liquid_rolls_start_extra_then_entry():
    dice = [1, 1, 1, 2, 1, 3, 1, 4, 2, 2, 3, 3]
    outcome = magma(dice, unit_type="battlemech", start_hex="liquid", movement_path=["liquid"])
    assert labels(outcome) == ["start_LL", "extra_LL", "start_RL", "extra_RL", "enter_LL", "enter_RL"]
    assert outcome.result["damage"] == {"LL": 2 + 3 + 4, "RL": 4 + 5 + 6}
    assert outcome.result["heat"] == 5 + 10


def test_magma_crust_holds_below_6():
    outcome = magma([5], unit_type="battlemech", movement_path=["crust"])
    assert outcome.result == {
        "destroyed": False,
        "fell_through": False,
        "damage": {},
        "heat": 5,
        "end_hex": "crust",
    }
    assert labels(outcome) == ["crust"]
    assert outcome.effects == ({"target": "unit", "field": "heat", "op": "add", "value": 5},)


def test_magma_heat_counts_every_crust_and_liquid_hex_moved_out_of():
    outcome = magma(
        [1, 2, 1, 1, 1],
        unit_type="battlemech",
        start_hex="crust",
        movement_path=["crust", "liquid", "other"],
    )
    assert labels(outcome) == ["crust", "enter_LL", "enter_RL"]
    assert outcome.result["heat"] == 2 + 2 + 5 + 0


FALL_LABELS = ["fall_LL", "fall_RL", "fall_LA", "fall_RA", "fall_LT", "fall_RT", "fall_CT", "fall_HD"]


def test_magma_crust_breaks_on_6_mech_falls_through_exposing_every_location_and_stops():
    dice = [6, *range(1, 7), *range(1, 7), 6, 6, 5, 5]
    outcome = magma(dice, unit_type="battlemech", movement_path=["crust", "crust", "other"])
    assert labels(outcome) == ["crust", *FALL_LABELS]
    assert outcome.result == {
        "destroyed": False,
        "fell_through": True,
        "damage": {"LL": 3, "RL": 7, "LA": 11, "RA": 3, "LT": 7, "RT": 11, "CT": 12, "HD": 10},
        "heat": 10,
        "end_hex": "liquid",
    }
    assert len(outcome.effects) == 9


def test_magma_mech_jumping_onto_crust_makes_a_psr_then_the_crust_roll():
    outcome = magma([4, 3, 2], unit_type="battlemech", entry="jump", movement_path=["crust"], psr_tn=7)
    assert labels(outcome) == ["psr", "crust"]
    assert outcome.result["fell_through"] is False
    assert outcome.result["heat"] == 5


def test_magma_mech_failing_the_psr_falls_through_without_a_crust_roll():
    dice = [3, 3, *[1] * 16]
    outcome = magma(dice, unit_type="battlemech", entry="jump", movement_path=["crust"], psr_tn=7)
    assert labels(outcome) == ["psr", *FALL_LABELS]
    assert outcome.result["fell_through"] is True
    assert outcome.result["damage"] == dict.fromkeys(["LL", "RL", "LA", "RA", "LT", "RT", "CT", "HD"], 2)


def test_magma_mech_crashing_onto_crust_passes_the_psr_and_breaks_the_crust():
    outcome = magma(
        [6, 6, 6, *[2] * 16], unit_type="battlemech", entry="crash", movement_path=["crust"], psr_tn=7
    )
    assert labels(outcome) == ["psr", "crust", *FALL_LABELS]
    assert outcome.result["fell_through"] is True


def test_magma_mech_crashing_into_liquid_exposes_all_eight_locations():
    outcome = magma([1] * 16, unit_type="battlemech", entry="crash", movement_path=["liquid"])
    assert labels(outcome) == [label.replace("fall", "enter") for label in FALL_LABELS]
    assert outcome.result["fell_through"] is False
    assert outcome.result["heat"] == 10


def test_magma_mech_jumping_into_liquid_exposes_the_legs_and_needs_no_psr():
    outcome = magma([2, 2, 5, 5], unit_type="battlemech", entry="jump", movement_path=["liquid"])
    assert labels(outcome) == ["enter_LL", "enter_RL"]


def test_magma_exposed_locations_override_the_legs_in_the_given_order():
    outcome = magma(
        [1, 1, 2, 2, 3, 3],
        unit_type="battlemech",
        movement_path=["liquid"],
        exposed_locations=["CT", "LL", "RL"],
    )
    assert labels(outcome) == ["enter_CT", "enter_LL", "enter_RL"]
    assert outcome.result["damage"] == {"CT": 2, "LL": 4, "RL": 6}


@pytest.mark.parametrize("unit", ["tracked", "battlemech"])
def test_magma_unit_on_crust_that_does_not_break_is_unharmed(unit):
    outcome = magma([5], unit_type=unit, movement_path=["crust"])
    assert outcome.result["destroyed"] is False


def test_magma_vehicle_falling_through_the_crust_is_destroyed():
    outcome = magma([2, 6], unit_type="tracked", movement_path=["crust", "crust", "crust"])
    assert outcome.result == {
        "destroyed": True,
        "fell_through": True,
        "damage": {},
        "heat": 0,
        "end_hex": "liquid",
    }
    assert outcome.effects == ({"target": "unit", "field": "destroyed", "op": "set", "value": True},)


@pytest.mark.parametrize("unit", ["tracked", "wheeled", "infantry"])
def test_magma_non_mech_entering_liquid_is_destroyed_without_dice(unit):
    outcome = magma([], unit_type=unit, movement_path=["other", "liquid", "other"])
    assert outcome.result["destroyed"] is True
    assert outcome.result["fell_through"] is False
    assert outcome.result["end_hex"] == "liquid"


@pytest.mark.parametrize("unit", ["hover", "vtol"])
def test_magma_hover_and_vtol_roll_nothing_and_are_unharmed(unit):
    outcome = magma([], unit_type=unit, start_hex="liquid", movement_path=["crust", "liquid", "crust"])
    assert outcome.result == {
        "destroyed": False,
        "fell_through": False,
        "damage": {},
        "heat": 0,
        "end_hex": "crust",
    }
    assert outcome.effects == ()


def test_magma_mech_that_stays_put_outside_magma_rolls_nothing():
    assert magma([], unit_type="battlemech").result["heat"] == 0


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"unit_type": "infantry", "start_hex": "crust"}, "start_hex"),
        ({"unit_type": "wheeled", "start_hex": "crust"}, "start_hex"),
        ({"unit_type": "infantry", "movement_path": ["other", "crust"]}, "movement_path"),
        ({"unit_type": "wheeled", "movement_path": ["crust"]}, "movement_path"),
        ({"unit_type": "tracked", "start_hex": "liquid"}, "start_hex"),
        ({"unit_type": "infantry", "start_hex": "liquid"}, "start_hex"),
        ({"unit_type": "battlemech", "entry": "jump", "movement_path": ["other", "crust"]}, "movement_path"),
        ({"unit_type": "battlemech", "entry": "crash", "movement_path": []}, "movement_path"),
        ({"unit_type": "battlemech", "entry": "jump", "movement_path": ["crust"]}, "psr_tn"),
        ({"unit_type": "battlemech", "entry": "crash", "movement_path": ["crust"]}, "psr_tn"),
        (
            {"unit_type": "battlemech", "movement_path": ["liquid"], "exposed_locations": ["LF"]},
            "exposed_locations",
        ),
        (
            {"unit_type": "battlemech", "movement_path": ["liquid"], "exposed_locations": ["LL", "LL"]},
            "exposed_locations",
        ),
        ({"unit_type": "battlemech", "movement_path": ["lava"]}, "movement_path"),
        ({"unit_type": "quad"}, "unit_type"),
        ({}, "unit_type"),
    ],
)
def test_magma_illegal_moves_and_bad_inputs_are_refused_before_any_dice(inputs, field):
    with pytest.raises(rules.InputError) as e:
        magma([9, 9, 9], **inputs)  # the dice are wrong too: inputs are checked first
    assert e.value.field == field


def test_magma_psr_is_not_needed_for_a_walking_mech_or_a_jump_into_liquid():
    magma([1], unit_type="battlemech", movement_path=["crust"])
    magma([1, 1, 1, 1], unit_type="battlemech", entry="jump", movement_path=["liquid"])


@pytest.mark.parametrize(
    ("dice", "inputs"),
    [
        ([3, 4, 5], {"unit_type": "battlemech", "movement_path": ["liquid"]}),  # too few
        ([3, 4, 5, 6, 1], {"unit_type": "battlemech", "movement_path": ["liquid"]}),  # left over
        ([7], {"unit_type": "tracked", "movement_path": ["crust"]}),  # out of range
        ([0], {"unit_type": "tracked", "movement_path": ["crust"]}),
        ([True], {"unit_type": "tracked", "movement_path": ["crust"]}),
        ([1], {"unit_type": "hover", "movement_path": ["crust"]}),  # hover rolls nothing
    ],
)
def test_magma_bad_dice_are_refused(dice, inputs):
    with pytest.raises(rules.DiceError):
        magma(dice, **inputs)


def test_magma_odds_vehicle_crossing_two_crust_hexes_is_destroyed_11_in_36():
    # Independent hand calculation: destroyed unless both crust rolls miss the 6.
    dist = rules.odds("terrain.magma", rules.get("terrain.magma").example)
    assert dist == {True: 1 - Fraction(5, 6) ** 2, False: Fraction(5, 6) ** 2}
    assert sum(dist.values()) == 1


def test_magma_odds_of_the_damage_to_one_leg_match_dyce_2d6():
    inputs = {"unit_type": "battlemech", "movement_path": ["liquid"], "exposed_locations": ["LL"]}
    dist = rules.odds("terrain.magma", inputs, key="damage")
    expected = {(("LL", total),): p for total, p in dyce_odds(2 @ H(6)).items()}
    assert dist == expected


def test_magma_odds_of_the_crossing_heat_are_exact():
    inputs = {"unit_type": "battlemech", "movement_path": ["other", "liquid", "other"]}
    assert rules.odds("terrain.magma", inputs, key="heat") == {5: 1}


# --- terrain.geyser ---------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [2, 3, 4, 5, 6])
def test_geyser_dormant_stays_dormant_unless_it_rolls_1(roll):
    outcome = rules.resolve("terrain.geyser", {}, dice=[roll])
    assert outcome.result == {
        "erupted": False,
        "duration": None,
        "erupting_turns_left": 0,
        "became_liquid_magma": False,
    }
    assert outcome.effects == (
        {"target": "hex", "field": "geyser.erupting_turns_left", "op": "set", "value": 0},
    )


def test_geyser_erupts_on_1_and_the_eruption_turn_counts_by_default_a59():
    outcome = rules.resolve("terrain.geyser", {}, dice=[1, 4])
    assert outcome.result == {
        "erupted": True,
        "duration": 4,
        "erupting_turns_left": 3,
        "became_liquid_magma": False,
    }
    assert labels(outcome) == ["erupt", "duration"]


def test_geyser_gm_toggle_eruption_turn_does_not_count():
    result = rules.resolve("terrain.geyser", {"eruption_turn_counts": False}, dice=[1, 4]).result
    assert result["erupting_turns_left"] == 4


@pytest.mark.parametrize(("before", "after"), [(5, 4), (2, 1), (1, 0)])
def test_geyser_erupting_counts_down_without_dice(before, after):
    outcome = rules.resolve("terrain.geyser", {"erupting_turns_left": before}, dice=[])
    assert outcome.result == {
        "erupted": False,
        "duration": None,
        "erupting_turns_left": after,
        "became_liquid_magma": False,
    }


def test_geyser_volcanic_eruption_ending_leaves_liquid_magma():
    outcome = rules.resolve("terrain.geyser", {"erupting_turns_left": 1, "volcanic": True}, dice=[])
    assert outcome.result["became_liquid_magma"] is True
    assert outcome.effects == (
        {"target": "hex", "field": "geyser.erupting_turns_left", "op": "set", "value": 0},
        {"target": "hex", "field": "terrain", "op": "set", "value": "liquid_magma"},
    )


def test_geyser_volcanic_still_erupting_is_not_yet_magma():
    result = rules.resolve("terrain.geyser", {"erupting_turns_left": 2, "volcanic": True}).result
    assert result["became_liquid_magma"] is False


def test_geyser_volcanic_one_turn_eruption_ends_at_once_when_the_turn_counts():
    assert (
        rules.resolve("terrain.geyser", {"volcanic": True}, dice=[1, 1]).result["became_liquid_magma"] is True
    )
    toggled = {"volcanic": True, "eruption_turn_counts": False}
    result = rules.resolve("terrain.geyser", toggled, dice=[1, 1]).result
    assert (result["erupting_turns_left"], result["became_liquid_magma"]) == (1, False)


def test_geyser_volcanic_dormant_geyser_is_not_magma():
    assert (
        rules.resolve("terrain.geyser", {"volcanic": True}, dice=[3]).result["became_liquid_magma"] is False
    )


def test_geyser_negative_turns_left_is_refused():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.geyser", {"erupting_turns_left": -1}, dice=[1])
    assert e.value.field == "erupting_turns_left"


@pytest.mark.parametrize(
    ("dice", "inputs"),
    [([], {}), ([1], {}), ([2, 3], {}), ([7], {}), ([1, 0], {}), ([1], {"erupting_turns_left": 2})],
)
def test_geyser_bad_dice_are_refused(dice, inputs):
    with pytest.raises(rules.DiceError):
        rules.resolve("terrain.geyser", inputs, dice=dice)


def test_geyser_odds_match_a_hand_calculation():
    assert rules.odds("terrain.geyser", {}) == {True: Fraction(1, 6), False: Fraction(5, 6)}
    left = rules.odds("terrain.geyser", {}, key="erupting_turns_left")
    assert left == {0: Fraction(5, 6) + Fraction(1, 36), **{n: Fraction(1, 36) for n in range(1, 6)}}
    magma_odds = rules.odds("terrain.geyser", {"volcanic": True}, key="became_liquid_magma")
    assert magma_odds == {True: Fraction(1, 36), False: Fraction(35, 36)}
    assert sum(rules.odds("terrain.geyser", rules.get("terrain.geyser").example).values()) == 1


def test_geyser_seeded_dice_erupt_about_one_time_in_six():
    erupted = sum(
        rules.resolve("terrain.geyser", {}, dice=rules.SeededDice(n)).result["erupted"] for n in range(3000)
    )
    assert abs(erupted / 3000 - 1 / 6) < 0.03


# --- terrain.bog_down -------------------------------------------------------------------------


@pytest.mark.parametrize("vector", vectors("terrain.bog_down"))
def test_bog_down_reproduces_the_seeds_worked_examples(vector):
    check_vector(vector)


@pytest.mark.parametrize("terrain", ["tundra", "magma_crust", "deep_snow", "mud"])
def test_bog_down_regular_mechwarrior_needs_4_in_the_minus_one_terrains_w2(terrain):
    assert rules.resolve("terrain.bog_down", {"piloting": 5, "terrain": terrain}, dice=[2, 2]).result == {
        "stuck": False,
        "tn": 4,
        "roll": 4,
    }
    assert rules.resolve("terrain.bog_down", {"piloting": 5, "terrain": terrain}, dice=[1, 2]).result == {
        "stuck": True,
        "tn": 4,
        "roll": 3,
    }


def test_bog_down_psr_mods_add_to_the_target():
    result = rules.resolve(
        "terrain.bog_down", {"piloting": 5, "psr_mods": 2, "terrain": "mud"}, dice=[3, 3]
    ).result
    assert result["tn"] == 6
    assert result["stuck"] is False


@pytest.mark.parametrize("terrain", ["swamp", "liquid_magma"])
def test_bog_down_swamp_and_liquid_magma_use_the_swamp_roll_with_the_gms_modifier(terrain):
    inputs = {"piloting": 5, "psr_mods": 1, "terrain": terrain, "swamp_mod": 1}
    assert rules.resolve("terrain.bog_down", inputs, dice=[3, 4]).result == {
        "stuck": False,
        "tn": 7,
        "roll": 7,
    }
    assert rules.resolve("terrain.bog_down", inputs, dice=[3, 3]).result == {
        "stuck": True,
        "tn": 7,
        "roll": 6,
    }


def test_bog_down_swamp_modifier_does_not_touch_the_minus_one_terrains():
    inputs = {"piloting": 5, "terrain": "tundra", "swamp_mod": 3}
    assert rules.resolve("terrain.bog_down", inputs, dice=[2, 2]).result["tn"] == 4


def test_bog_down_getting_free_uses_the_same_target():
    inputs = {"piloting": 5, "terrain": "deep_snow", "attempt": "free"}
    outcome = rules.resolve("terrain.bog_down", inputs, dice=[1, 3])
    assert outcome.result == {"stuck": False, "tn": 4, "roll": 4}
    assert outcome.effects == ({"target": "unit", "field": "stuck", "op": "set", "value": False},)
    assert rules.resolve("terrain.bog_down", inputs, dice=[1, 2]).result["stuck"] is True


def test_bog_down_stuck_sets_the_unit_stuck():
    outcome = rules.resolve("terrain.bog_down", {"piloting": 5, "terrain": "swamp"}, dice=[1, 1])
    assert outcome.effects == ({"target": "unit", "field": "stuck", "op": "set", "value": True},)


@pytest.mark.parametrize("entered_by", ["walk", "run"])
def test_bog_down_jump_capable_unit_that_walked_in_jumps_out_without_a_roll(entered_by):
    inputs = {
        "piloting": 5,
        "terrain": "mud",
        "attempt": "free",
        "entered_by": entered_by,
        "jump_capable": True,
        "jump_out": True,
    }
    outcome = rules.resolve("terrain.bog_down", inputs, dice=[])
    assert outcome.result == {"stuck": False, "tn": None, "roll": None}
    assert outcome.effects == ({"target": "unit", "field": "stuck", "op": "set", "value": False},)
    assert rules.odds("terrain.bog_down", inputs) == {False: 1}


JUMP_OUT = {"piloting": 5, "terrain": "mud", "attempt": "free", "jump_capable": True, "jump_out": True}


@pytest.mark.parametrize(
    "change",
    [
        {"attempt": "enter"},
        {"jump_capable": False},
        {"entered_by": "jump"},
        {"terrain": "swamp"},
        {"terrain": "liquid_magma"},
    ],
)
def test_bog_down_jump_out_is_refused_unless_every_condition_holds(change):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.bog_down", {**JUMP_OUT, **change}, dice=[])
    assert e.value.field == "jump_out"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"terrain": "mud"}, "piloting"),
        ({"piloting": 5}, "terrain"),
        ({"piloting": 5, "terrain": "bog"}, "terrain"),
        ({"piloting": "5", "terrain": "mud"}, "piloting"),
        ({"piloting": 5, "terrain": "mud", "attempt": "escape"}, "attempt"),
    ],
)
def test_bog_down_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.bog_down", inputs, dice=[3, 3])
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[], [3], [3, 3, 3], [3, 7], [0, 3]])
def test_bog_down_bad_dice_are_refused(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve("terrain.bog_down", {"piloting": 5, "terrain": "mud"}, dice=dice)


def test_bog_down_odds_match_dyce():
    dist = rules.odds("terrain.bog_down", rules.get("terrain.bog_down").example)
    assert dist == dyce_odds((2 @ H(6)).lt(4))
    assert dist[True] == Fraction(1, 12)


# --- terrain.careful_movement -----------------------------------------------------------------


def careful(dice, **inputs):
    return rules.resolve("terrain.careful_movement", inputs, dice=dice)


@pytest.mark.parametrize("vector", vectors("terrain.careful_movement"))
def test_careful_movement_reproduces_the_seeds_worked_examples(vector):
    check_vector(vector)


@pytest.mark.parametrize(("fog", "ice", "saved"), [(True, False, 2), (False, True, 1), (True, True, 2)])
def test_careful_movement_saves_the_j_cost_fog_2_ice_1_both_2_w23(fog, ice, saved):
    result = careful([], unit_kind="battlemech", fog=fog, ice=ice, psr_tn=5).result
    assert result == {
        "failed": False,
        "psr_count": 0,
        "failed_at": None,
        "consequence": "none",
        "mp_saved_per_hex": saved,
    }


def test_careful_movement_needs_fog_or_ice():
    with pytest.raises(rules.InputError) as e:
        careful([], unit_kind="battlemech", psr_tn=5)
    assert e.value.field == "fog"


HEXES = [
    {"clear": True},
    {"clear": True},
    {"clear": False},
    {"clear": True, "elevation_change": True},
    {"clear": True},
]


def test_careful_movement_rolls_after_hex_1_and_each_later_non_clear_or_elevation_hex():
    outcome = careful([3, 3, 4, 4, 5, 5], unit_kind="battlemech", ice=True, psr_tn=6, hexes=HEXES)
    assert labels(outcome) == ["psr[1]", "psr[3]", "psr[4]"]
    assert outcome.result == {
        "failed": False,
        "psr_count": 3,
        "failed_at": None,
        "consequence": "none",
        "mp_saved_per_hex": 1,
    }
    assert outcome.effects == ()


def test_careful_movement_stops_rolling_at_the_first_failure():
    outcome = careful([3, 3, 2, 3], unit_kind="battlemech", ice=True, psr_tn=6, hexes=HEXES)
    assert labels(outcome) == ["psr[1]", "psr[3]"]
    assert outcome.result["failed_at"] == 3
    assert outcome.result["psr_count"] == 2


def test_careful_movement_mech_that_fails_falls():
    outcome = careful([2, 3], unit_kind="battlemech", fog=True, psr_tn=6, hexes=HEXES)
    assert outcome.result == {
        "failed": True,
        "psr_count": 1,
        "failed_at": 1,
        "consequence": "fall",
        "mp_saved_per_hex": 2,
    }
    assert outcome.effects == ({"target": "unit", "field": "prone", "op": "set", "value": True},)


@pytest.mark.parametrize(
    ("fog", "ice", "failing_hex", "consequence"),
    [
        (False, True, {"clear": True}, "skid"),
        (False, True, {"clear": False}, "skid"),
        (True, False, {"clear": True}, "extra_mp"),
        (True, False, {"clear": True, "elevation_change": True}, "extra_mp"),
        (True, False, {"clear": False}, "crash"),
        (True, True, {"clear": True}, "extra_mp"),  # C.9: fog and ice together follow fog
        (True, True, {"clear": False}, "crash"),
    ],
)
def test_careful_movement_vehicle_failure_consequences(fog, ice, failing_hex, consequence):
    outcome = careful([2, 3], unit_kind="vehicle", fog=fog, ice=ice, psr_tn=6, hexes=[failing_hex])
    assert outcome.result["failed"] is True
    assert outcome.result["consequence"] == consequence
    expected = {
        "skid": (),
        "extra_mp": (),
        "crash": ({"target": "unit", "field": "movement_ended", "op": "set", "value": True},),
    }[consequence]
    assert outcome.effects == expected


def test_careful_movement_vehicle_crash_in_a_later_wooded_hex():
    hexes = [{"clear": True}, {"clear": True}, {"clear": False}]
    outcome = careful([4, 4, 1, 4], unit_kind="vehicle", fog=True, psr_tn=6, hexes=hexes)
    assert labels(outcome) == ["psr[1]", "psr[3]"]
    assert (outcome.result["failed_at"], outcome.result["consequence"]) == (3, "crash")


def test_careful_movement_roll_equal_to_the_target_succeeds():
    assert careful([3, 3], unit_kind="vehicle", fog=True, psr_tn=6, hexes=[{}]).result["failed"] is False
    assert careful([2, 3], unit_kind="vehicle", fog=True, psr_tn=6, hexes=[{}]).result["failed"] is True


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"unit_kind": "mech", "fog": True, "psr_tn": 5}, "unit_kind"),
        ({"unit_kind": "vehicle", "fog": True}, "psr_tn"),
        ({"unit_kind": "vehicle", "fog": True, "psr_tn": 5, "hexes": [{"clear": "yes"}]}, "hexes"),
        ({"unit_kind": "vehicle", "fog": True, "psr_tn": 5, "hexes": [{"woods": True}]}, "hexes"),
    ],
)
def test_careful_movement_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.careful_movement", inputs, dice=[3, 3])
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[], [3], [3, 3, 3], [3, 3, 1, 1, 1], [3, 9]])
def test_careful_movement_bad_dice_are_refused(dice):
    with pytest.raises(rules.DiceError):
        careful(dice, unit_kind="vehicle", fog=True, psr_tn=6, hexes=[{"clear": True}, {"clear": False}])


def test_careful_movement_odds_match_a_hand_calculation():
    example = rules.get("terrain.careful_movement").example  # vehicle in fog, tn 6, clear then woods
    p_fail = Fraction(10, 36)  # 2D6 below 6
    dist = rules.odds("terrain.careful_movement", example, key="consequence")
    assert dist == {
        "extra_mp": p_fail,
        "crash": (1 - p_fail) * p_fail,
        "none": (1 - p_fail) ** 2,
    }
    assert sum(rules.odds("terrain.careful_movement", example).values()) == 1


def test_careful_movement_monte_carlo_agrees_with_the_exact_odds():
    example = rules.get("terrain.careful_movement").example
    exact = rules.odds("terrain.careful_movement", example, key="consequence")
    rng = random.Random(7)
    runs = 4000
    counts = {}
    for _ in range(runs):
        outcome = rules.resolve("terrain.careful_movement", example, dice=rules.SeededDice(rng.random()))
        counts[outcome.result["consequence"]] = counts.get(outcome.result["consequence"], 0) + 1
    for value, p in exact.items():
        assert abs(counts.get(value, 0) / runs - float(p)) < 0.03, value
