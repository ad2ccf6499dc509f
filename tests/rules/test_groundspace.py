"""Ground units in BattleSpace (catalogue 9.1-9.2): groundspace.convert and groundspace.thrust."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from dyce import H

import rules

VECTORS = json.loads((Path(__file__).parent / "data" / "public_examples.json").read_text())


def _same(expected, got):
    """Exact structural equality; a bool never equals a number."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, dict):
        return (
            isinstance(got, dict)
            and expected.keys() == got.keys()
            and all(_same(expected[k], got[k]) for k in expected)
        )
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(map(_same, expected, got))
    return expected == got and (expected is None) == (got is None)


def convert(dice=None, **inputs):
    return rules.resolve("groundspace.convert", inputs, dice=dice)


def thrust(dice=None, **inputs):
    return rules.resolve("groundspace.thrust", inputs, dice=dice)


def weapon(**fields):
    return {"type": "Laser", **fields}


# --- worked examples -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "vector",
    [v for v in VECTORS if v["procedure"].startswith("groundspace.")],
    ids=lambda v: v["id"],
)
def test_public_worked_examples_W15_W16_W17(vector):
    result = rules.resolve(vector["procedure"], vector["inputs"], dice=vector["dice"]).to_dict()["result"]
    for key, want in vector["expect"].items():
        assert _same(want, result[key]), (key, want, result[key])


def test_public_vectors_cover_W15_W16_W17():
    ids = {v["id"] for v in VECTORS if v["procedure"].startswith("groundspace.")}
    assert {"W15", "W15b", "W16", "W17"} <= ids


def test_W15_victor_full_conversion_with_armour_factor_200():
    out = convert(
        unit_kind="mech",
        armor_factor=200,
        jump_mp=4,
        heat_sinks=15,
        weapons=[
            {"type": "SRM", "location": "LT", "heat": 3, "range_value": 1, "mounts": 1},
            {"type": "Pulse", "location": "LA", "heat": 8, "range_value": 1, "mounts": 2},
            {"type": "AC", "location": "RA", "heat": 1, "range_value": 2, "mounts": 1},
        ],
    )
    r = out.result
    assert (r["armor_value"], r["safe_thrust"], r["fuel_points"], r["heat_sinks"]) == (5, 1, 8, 15)
    assert [w["arc"] for w in r["weapons"]] == ["nose", "lw", "rw"]
    assert [(w["heat"], w["range_value"], w["mounts"]) for w in r["weapons"]] == [
        (3, 1, 1),
        (8, 1, 2),
        (1, 2, 1),
    ]


# --- conversion: armour, thrust, fuel --------------------------------------------------------


@pytest.mark.parametrize(
    ("af", "armor_value"),
    [(0, 0), (19, 0), (20, 1), (179, 4), (180, 5), (219, 5), (220, 6)],
)
def test_mech_armor_value_is_af_over_40_rounded_half_up(af, armor_value):
    assert convert(unit_kind="mech", armor_factor=af).result["armor_value"] == armor_value


@pytest.mark.parametrize(("af", "armor_value"), [(4, 0), (5, 1), (14, 1), (15, 2), (10, 1)])
def test_battle_armor_value_is_af_per_trooper_over_10_rounded_half_up(af, armor_value):
    out = convert(unit_kind="battle_armor", armor_factor_per_trooper=af, troopers=4)
    assert out.result["armor_value"] == armor_value


def test_each_unit_kind_reads_only_its_own_armour_input():
    assert convert(unit_kind="mech", armor_factor=200, armor_factor_per_trooper=50).result["armor_value"] == 5
    ba = convert(unit_kind="battle_armor", armor_factor=200, armor_factor_per_trooper=10)
    assert ba.result["armor_value"] == 1


@pytest.mark.parametrize(
    ("jump_mp", "safe_thrust", "fuel", "can_thrust"),
    [(0, 0, 0, False), (1, 0, 2, True), (2, 1, 4, True), (4, 1, 8, True), (5, 2, 10, True), (6, 2, 12, True)],
)
def test_safe_thrust_is_jump_mp_over_3_and_fuel_is_twice_jump_mp(jump_mp, safe_thrust, fuel, can_thrust):
    for kind in ("mech", "battle_armor"):
        r = convert(unit_kind=kind, jump_mp=jump_mp).result
        assert (r["safe_thrust"], r["fuel_points"], r["can_thrust"]) == (safe_thrust, fuel, can_thrust)


def test_mech_copies_heat_sinks_and_uses_one_armour_row():
    r = convert(unit_kind="mech", heat_sinks=15, troopers=5).result
    assert (r["heat_sinks"], r["armor_rows"]) == (15, 1)


def test_battle_armor_has_no_heat_sinks_and_one_row_per_trooper():
    r = convert(unit_kind="battle_armor", heat_sinks=10, troopers=5).result
    assert r["heat_sinks"] is None
    assert r["armor_rows"] == 5


@pytest.mark.parametrize("troopers", [1, 10])
def test_troopers_1_and_10_are_accepted(troopers):
    assert convert(unit_kind="battle_armor", troopers=troopers).result["armor_rows"] == troopers


@pytest.mark.parametrize("troopers", [0, 11, -1])
def test_troopers_outside_1_to_10_are_refused(troopers):
    with pytest.raises(rules.InputError) as e:
        convert(unit_kind="battle_armor", troopers=troopers)
    assert e.value.field == "troopers"


@pytest.mark.parametrize("field", ["armor_factor", "armor_factor_per_trooper", "jump_mp", "heat_sinks"])
def test_negative_statistics_are_refused(field):
    with pytest.raises(rules.InputError) as e:
        convert(unit_kind="mech", **{field: -1})
    assert e.value.field == field


def test_unknown_unit_kind_is_refused():
    with pytest.raises(rules.InputError) as e:
        convert(unit_kind="vehicle")
    assert e.value.field == "unit_kind"


# --- conversion: weapons ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "rear", "arc"),
    [
        ("HD", False, "nose"),
        ("CT", False, "nose"),
        ("LT", False, "nose"),
        ("RT", False, "nose"),
        ("LL", False, "nose"),
        ("RL", False, "nose"),
        ("LA", False, "lw"),
        ("RA", False, "rw"),
        ("CT", True, "aft"),
        ("LT", True, "aft"),
        ("LA", True, "aft"),
    ],
)
def test_mech_weapon_arcs(location, rear, arc):
    r = convert(unit_kind="mech", weapons=[weapon(location=location, rear=rear)]).result
    assert r["weapons"][0]["arc"] == arc


def test_mech_weapon_location_defaults_to_centre_torso_nose():
    assert convert(unit_kind="mech", weapons=[weapon()]).result["weapons"][0]["arc"] == "nose"


def test_melee_weapons_are_left_off_and_input_order_is_kept():
    weapons = [
        weapon(type="Hatchet", location="RA", melee=True),
        weapon(type="AC", location="RA"),
        weapon(type="Sword", location="LA", melee=True),
        weapon(type="SRM", location="LT"),
    ]
    for kind in ("mech", "battle_armor"):
        r = convert(unit_kind=kind, weapons=weapons).result
        assert [w["type"] for w in r["weapons"]] == ["AC", "SRM"]


def test_weapon_fields_are_carried_across():
    w = weapon(type="PPC", location="RA", bs_fire_factor=2.5, heat=10, range_value=3, mounts=2)
    r = convert(unit_kind="mech", weapons=[w]).result
    assert r["weapons"] == [
        {"arc": "rw", "type": "PPC", "fire_factor": 2.5, "heat": 10, "range_value": 3, "mounts": 2}
    ]


def test_mech_srm_keeps_its_full_fire_factor():
    r = convert(unit_kind="mech", weapons=[weapon(type="SRM 6", bs_fire_factor=3)]).result
    assert r["weapons"][0]["fire_factor"] == 3


def test_battle_armor_puts_every_weapon_in_the_nose():
    weapons = [weapon(location="LA"), weapon(location="RA"), weapon(location="CT", rear=True)]
    r = convert(unit_kind="battle_armor", weapons=weapons).result
    assert [w["arc"] for w in r["weapons"]] == ["nose", "nose", "nose"]


@pytest.mark.parametrize(
    ("weapon_type", "ff", "fire_factor"),
    [
        ("SRM", 2, 2),  # 1.5 rounds up
        ("SRM 2", 3, 2),  # 2.25
        ("srm-4", 4, 3),  # 3.0, any case
        ("SRM", 1, 1),  # 0.75
        ("SRM", 0.6, 0),  # 0.45
        ("SRM", 2.2, 2),  # 1.65
        ("LRM", 2, 2),  # not an SRM: unchanged
        ("Mixed", 1.5, 1.5),
    ],
)
def test_battle_armor_srm_fire_factor_is_three_quarters_rounded_half_up(weapon_type, ff, fire_factor):
    r = convert(unit_kind="battle_armor", weapons=[weapon(type=weapon_type, bs_fire_factor=ff)]).result
    assert r["weapons"][0]["fire_factor"] == fire_factor


def test_missing_fire_factor_stays_null_for_the_gm():
    r = convert(unit_kind="battle_armor", weapons=[weapon(type="SRM")]).result
    assert r["weapons"][0]["fire_factor"] is None


@pytest.mark.parametrize(
    "bad",
    [
        {"mounts": 0},
        {"range_value": -1},
        {"heat": -1},
        {"bs_fire_factor": -0.5},
        {"location": "XX"},
        {"arc": "nose"},
    ],
)
def test_bad_weapon_entries_are_refused_on_the_weapons_list(bad):
    with pytest.raises(rules.InputError) as e:
        convert(unit_kind="mech", weapons=[weapon(**bad)])
    assert e.value.field == "weapons"


def test_weapon_without_type_is_refused():
    with pytest.raises(rules.InputError) as e:
        convert(unit_kind="mech", weapons=[{"location": "CT"}])
    assert e.value.field == "weapons"


def test_conversion_rolls_no_dice_and_has_no_effects():
    out = convert(dice=[], unit_kind="mech", jump_mp=4)
    assert out.rolls == () and out.effects == ()
    with pytest.raises(rules.DiceError):
        convert(dice=[3], unit_kind="mech", jump_mp=4)


def test_conversion_odds_are_certain():
    example = rules.get("groundspace.convert").example
    assert rules.odds("groundspace.convert", example) == {5: 1}
    assert rules.odds("groundspace.convert", example, key="fuel_points") == {8: 1}


def test_conversion_survives_json():
    json.dumps(convert(**rules.get("groundspace.convert").example).to_dict())


# --- thrust ----------------------------------------------------------------------------------


def test_W17_launch_inherits_the_mother_vessel_vector():
    r = thrust(dice=[], unit_kind="mech", launch_from={"heading": "N", "velocity": 10}).result
    assert (r["heading"], r["velocity"]) == ("N", 10)
    assert r["control_ok"] is None and r["to_hit_mod"] == 4


def test_launch_vector_replaces_the_units_own_heading_and_velocity():
    r = thrust(
        dice=[],
        unit_kind="battle_armor",
        heading="S",
        velocity=2,
        launch_from={"heading": "NE", "velocity": 7},
    ).result
    assert (r["heading"], r["velocity"]) == ("NE", 7)


def test_without_launch_heading_and_velocity_are_carried_through():
    r = thrust(dice=[], unit_kind="battle_armor", heading="S", velocity=2).result
    assert (r["heading"], r["velocity"]) == ("S", 2)


def test_no_thrust_means_no_control_roll_and_fuel_unchanged():
    out = thrust(dice=[], unit_kind="mech", fuel=6, piloting=5)
    r = out.result
    assert (r["control_ok"], r["control_roll"], r["fuel_after"]) == (None, None, 6)
    assert r["control_tn"] == 7
    assert out.rolls == ()
    assert list(out.effects) == [{"target": "unit", "field": "fuel", "op": "set", "value": 6}]


def test_control_tn_is_null_for_a_mech_without_piloting_that_does_not_thrust():
    assert thrust(dice=[], unit_kind="mech").result["control_tn"] is None


@pytest.mark.parametrize(
    ("piloting", "damage_mods", "dice", "tn", "ok"),
    [
        (5, 0, [3, 4], 7, True),  # roll = TN
        (5, 0, [3, 3], 7, False),  # roll = TN - 1
        (4, 2, [4, 4], 8, True),
        (4, 2, [3, 4], 8, False),
        (6, 3, [6, 5], 11, True),
    ],
)
def test_mech_control_roll_is_piloting_plus_2_plus_damage(piloting, damage_mods, dice, tn, ok):
    r = thrust(dice=dice, unit_kind="mech", fuel=4, tp=2, piloting=piloting, damage_mods=damage_mods).result
    assert (r["control_tn"], r["control_roll"], r["control_ok"]) == (tn, sum(dice), ok)
    assert r["fuel_after"] == 2


@pytest.mark.parametrize(
    ("damage_mods", "dice", "tn", "ok"),
    [(0, [3, 3], 6, True), (0, [2, 3], 6, False), (1, [3, 4], 7, True), (1, [3, 3], 7, False)],
)
def test_battle_armor_control_tn_is_6_plus_damage(damage_mods, dice, tn, ok):
    r = thrust(dice=dice, unit_kind="battle_armor", fuel=6, tp=1, damage_mods=damage_mods, piloting=1).result
    assert (r["control_tn"], r["control_ok"], r["fuel_after"]) == (tn, ok, 5)


def test_failed_control_roll_puts_the_unit_out_of_control():
    out = thrust(dice=[1, 1], unit_kind="mech", fuel=3, tp=3, piloting=4)
    assert list(out.effects) == [
        {"target": "unit", "field": "fuel", "op": "set", "value": 0},
        {"target": "unit", "field": "out_of_control", "op": "set", "value": True},
    ]


def test_successful_control_roll_only_spends_fuel():
    out = thrust(dice=[6, 6], unit_kind="mech", fuel=3, tp=1, piloting=4)
    assert list(out.effects) == [{"target": "unit", "field": "fuel", "op": "set", "value": 2}]


def test_all_fuel_may_be_spent_but_no_more():
    assert thrust(dice=[6, 6], unit_kind="battle_armor", fuel=3, tp=3).result["fuel_after"] == 0
    with pytest.raises(rules.InputError) as e:
        thrust(dice=[6, 6], unit_kind="battle_armor", fuel=3, tp=4)
    assert e.value.field == "tp"


def test_mech_without_jump_jets_cannot_thrust():
    with pytest.raises(rules.InputError) as e:
        thrust(dice=[6, 6], unit_kind="mech", fuel=3, tp=1, piloting=4, has_jump_jets=False)
    assert e.value.field == "tp"
    # ...but it can still be launched and drift with the mother vessel's vector.
    r = thrust(
        dice=[], unit_kind="mech", has_jump_jets=False, launch_from={"heading": "N", "velocity": 3}
    ).result
    assert r["velocity"] == 3


def test_mech_spending_thrust_needs_piloting_even_when_the_dice_are_wrong():
    with pytest.raises(rules.InputError) as e:
        thrust(dice=[], unit_kind="mech", fuel=3, tp=1)
    assert e.value.field == "piloting"


def test_battle_armor_needs_no_piloting():
    assert thrust(dice=[4, 4], unit_kind="battle_armor", fuel=1, tp=1).result["control_ok"] is True


@pytest.mark.parametrize(
    ("enters", "protected", "destroyed"), [(True, False, True), (True, True, False), (False, False, False)]
)
def test_interface_hex_destroys_units_without_pod_or_pru(enters, protected, destroyed):
    out = thrust(dice=[], unit_kind="mech", enters_interface_hex=enters, reentry_protection=protected)
    assert out.result["destroyed"] is destroyed
    assert ({"target": "unit", "field": "destroyed", "op": "set", "value": True} in out.effects) is destroyed


def test_to_hit_modifier_is_always_plus_4():
    for kind in ("mech", "battle_armor"):
        assert thrust(dice=[], unit_kind=kind).result["to_hit_mod"] == 4


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"fuel": -1}, "fuel"),
        ({"tp": -1}, "tp"),
        ({"velocity": -1}, "velocity"),
        ({"piloting": -1}, "piloting"),
        ({"launch_from": {"heading": "N", "velocity": -2}}, "launch_from"),
        ({"launch_from": {"heading": "N"}}, "launch_from"),
        ({"fuel": 1.5}, "fuel"),
        ({"has_jump_jets": 1}, "has_jump_jets"),
        ({"extra": 1}, "extra"),
    ],
)
def test_bad_thrust_inputs_are_refused(inputs, field):
    with pytest.raises(rules.InputError) as e:
        thrust(dice=[], unit_kind="mech", **inputs)
    assert e.value.field == field


@pytest.mark.parametrize("dice", [[3], [3, 4, 5], [7, 1], [0, 3], [True, 3]])
def test_bad_dice_for_a_control_roll(dice):
    with pytest.raises(rules.DiceError):
        thrust(dice=dice, unit_kind="battle_armor", fuel=2, tp=1)


def test_no_dice_may_be_given_when_no_thrust_is_spent():
    with pytest.raises(rules.DiceError):
        thrust(dice=[3, 4], unit_kind="battle_armor", fuel=2)


def test_control_roll_is_recorded_with_its_label():
    out = thrust(dice=[2, 5], unit_kind="battle_armor", fuel=2, tp=1)
    assert [r.to_dict() for r in out.rolls] == [
        {"label": "control", "sides": 6, "values": [2, 5], "total": 7}
    ]


def test_thrust_odds_match_dyce_for_the_example():
    example = rules.get("groundspace.thrust").example  # 'Mech, TN 5 + 2 + 1 = 8
    got = rules.odds("groundspace.thrust", example)
    two_d6 = 2 @ H(6)
    p_ok = Fraction(sum(c for face, c in two_d6.items() if face >= 8), two_d6.total)
    assert got == {True: p_ok, False: 1 - p_ok}
    assert sum(got.values()) == 1


def test_battle_armor_odds_by_hand():
    got = rules.odds("groundspace.thrust", {"unit_kind": "battle_armor", "fuel": 1, "tp": 1})
    # 2D6 >= 6 fails only on 2..5: 1 + 2 + 3 + 4 = 10 of 36.
    assert got == {True: Fraction(26, 36), False: Fraction(10, 36)}


def test_odds_without_thrust_are_certain():
    assert rules.odds("groundspace.thrust", {"unit_kind": "mech"}) == {None: 1}
    assert rules.odds("groundspace.thrust", {"unit_kind": "mech", "fuel": 5}, key="fuel_after") == {5: 1}
