"""Jump procedures (Seed B, catalogue 10.1, 10.3-10.6 and 12.7)."""

import itertools
import json
from fractions import Fraction

import pytest
from dyce import H

import rules

MALF = "jump.malfunction"
PLOT = "jump.nonstandard_plot"
ARRIVAL = "jump.nonstandard_arrival"
DOUBLE = "jump.double_jump_interval"
FIELD = "jump.field_interference"
CONSTANTS = "jump.basic_constants"


def result(pid, inputs, dice):
    return rules.resolve(pid, inputs, dice=dice).to_dict()["result"]


def effects(pid, inputs, dice):
    return rules.resolve(pid, inputs, dice=dice).to_dict()["effects"]


def ship(field, op, value):
    return {"target": "ship", "field": field, "op": op, "value": value}


DISCHARGED = ship("drive_charged", "set", False)
JUMPED = [DISCHARGED, ship("last_jump_at", "set", "now"), ship("charged_from_reactor", "set", False)]

# hours_since_last_jump 0.5 -> +4, so a malfunction roll of [4, 4] is exactly a mishap.
WITHIN_HOUR = {"hours_since_last_jump": 0.5}
MISHAP_AT_4 = [4, 4]


# ---------------------------------------------------------------- jump.malfunction: modifiers


@pytest.mark.parametrize(
    ("hours", "modifier"),
    [
        (None, 0),
        (0, 4),
        (1, 4),
        (1.01, 3),
        (6, 3),
        (6.01, 2),
        (12, 2),
        (12.01, 1),
        (36, 1),
        (36.01, 0),
        (5000, 0),
    ],
)
def test_malfunction_time_band_both_sides_of_each_boundary(hours, modifier):
    r = result(MALF, {"hours_since_last_jump": hours}, [1, 1])
    assert r["modifier"] == modifier
    assert r["malfunction_total"] == 2 + modifier  # C.9: the dice plus the modifier


@pytest.mark.parametrize(("hours", "modifier"), [(None, 2), (0.5, 6), (3, 5), (10, 4), (20, 3), (40, 2)])
def test_malfunction_reactor_charge_adds_two_to_the_one_time_band(hours, modifier):
    r = result(MALF, {"hours_since_last_jump": hours, "charged_from_reactor": True}, [1, 1])
    assert r["modifier"] == modifier


def test_malfunction_mishap_needs_twelve_after_modifiers():
    assert result(MALF, {}, [6, 5])["mishap"] is False
    assert result(MALF, {}, [6, 6, 1, 1])["mishap"] is True
    assert result(MALF, {"hours_since_last_jump": 5}, [4, 4])["mishap"] is False  # 8 + 3 = 11
    assert result(MALF, {"hours_since_last_jump": 5}, [4, 5, 1, 1])["mishap"] is True  # 9 + 3 = 12


def test_malfunction_total_is_the_dice_plus_the_modifier():
    # Last jump half an hour ago (+4), reactor-charged (+2), dice 3 3: 6 + 6 = 12, the number
    # compared with 12 and the one the summary prints (C.9).
    outcome = rules.resolve(MALF, {"hours_since_last_jump": 0.5, "charged_from_reactor": True}, [3, 3, 1, 1])
    assert outcome.result["modifier"] == 6
    assert outcome.result["malfunction_total"] == 12
    assert outcome.result["mishap"] is True
    assert "= 12" in outcome.summary
    no_modifier = rules.resolve(MALF, {}, [3, 3]).result
    assert no_modifier["malfunction_total"] == 6
    assert no_modifier["mishap"] is False


def test_malfunction_no_mishap_result_and_effects():
    inputs = {"hours_since_last_jump": 3, "kf_integrity": 4, "kf_integrity_max": 4}
    r = result(MALF, inputs, [2, 3])
    assert r == {
        "mishap": False,
        "modifier": 3,
        "malfunction_total": 8,
        "effect_total": None,
        "effect": "none",
        "jump_proceeds": True,
        "charge_lost": False,
        "kf_integrity_after": 4,
        "helium_tanks_destroyed": False,
        "failed_jump_roll": None,
        "failed_jump_result": None,
    }
    assert effects(MALF, inputs, [2, 3]) == JUMPED


# ---------------------------------------------------------------- jump.malfunction: effect table


@pytest.mark.parametrize(
    ("effect_dice", "total", "effect"),
    [
        ([2, 2], 8, "no_effect"),
        ([2, 3], 9, "micro_fractures"),
        ([3, 4], 11, "micro_fractures"),
        ([4, 4], 12, "helium_seal"),
        ([4, 5], 13, "helium_seal"),
        ([5, 5], 14, "drive_failure"),
        ([5, 6], 15, "drive_failure"),
        ([6, 6, 1], 16, "failed_jump_table"),
        ([6, 6, 2], 17, "failed_jump_table"),
        ([6, 6, 3], 18, "catastrophic"),
    ],
)
def test_malfunction_effect_bands_both_sides_of_each_boundary(effect_dice, total, effect):
    r = result(MALF, WITHIN_HOUR, MISHAP_AT_4 + effect_dice)
    assert r["mishap"] is True
    assert r["effect_total"] == total
    assert r["effect"] == effect


def test_malfunction_lowest_effect_total_is_two_without_modifiers():
    r = result(MALF, {}, [6, 6, 1, 1])
    assert (r["effect_total"], r["effect"]) == (2, "no_effect")


def test_malfunction_highest_effect_total_with_every_modifier():
    r = result(MALF, {"hours_since_last_jump": 0, "charged_from_reactor": True}, [6, 6, 6, 6, 6])
    assert (r["modifier"], r["effect_total"], r["effect"]) == (6, 23, "catastrophic")


def test_malfunction_natural_twelve_effect_roll_is_replaced_by_eleven_plus_d6():
    outcome = rules.resolve(MALF, {}, dice=[6, 6, 6, 6, 4])
    assert outcome.result["effect_total"] == 15  # 11 + 4, modifier 0
    assert [r.label for r in outcome.rolls] == ["malfunction", "effect", "effect_d6"]
    assert [r.sides for r in outcome.rolls] == [6, 6, 6]


def test_malfunction_modified_twelve_is_not_a_natural_twelve():
    # 8 + 4 = 12 after modifiers: no 1D6 is rolled [A20].
    outcome = rules.resolve(MALF, WITHIN_HOUR, dice=[4, 4, 4, 4])
    assert outcome.result["effect_total"] == 12
    assert [r.label for r in outcome.rolls] == ["malfunction", "effect"]
    with pytest.raises(rules.DiceError):
        rules.resolve(MALF, WITHIN_HOUR, dice=[4, 4, 4, 4, 1])


def test_malfunction_natural_twelve_needs_its_d6():
    with pytest.raises(rules.DiceError):
        rules.resolve(MALF, {}, dice=[6, 6, 6, 6])


def test_malfunction_no_effect_mishap_lets_the_jump_go_ahead():
    r = result(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 2, 2])
    assert (r["jump_proceeds"], r["charge_lost"]) == (True, False)
    assert effects(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 2, 2]) == JUMPED


def test_malfunction_micro_fractures_reduce_integrity_and_the_jump_goes_ahead():
    inputs = {**WITHIN_HOUR, "kf_integrity": 4, "kf_integrity_max": 5}
    r = result(MALF, inputs, [*MISHAP_AT_4, 2, 3])
    assert r["effect"] == "micro_fractures"
    assert (r["kf_integrity_after"], r["jump_proceeds"], r["charge_lost"]) == (3, True, False)
    assert effects(MALF, inputs, [*MISHAP_AT_4, 2, 3]) == [ship("kf_integrity", "add", -1), *JUMPED]


def test_malfunction_micro_fractures_to_zero_abort_the_jump_and_keep_the_charge():
    inputs = {**WITHIN_HOUR, "kf_integrity": 1}
    r = result(MALF, inputs, [*MISHAP_AT_4, 3, 4])
    assert (r["kf_integrity_after"], r["jump_proceeds"], r["charge_lost"]) == (0, False, False)
    assert effects(MALF, inputs, [*MISHAP_AT_4, 3, 4]) == [ship("kf_integrity", "add", -1)]


def test_malfunction_micro_fractures_with_untracked_integrity():
    r = result(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 2, 3])
    assert (r["kf_integrity_after"], r["jump_proceeds"]) == (None, True)
    assert effects(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 2, 3])[0] == ship("kf_integrity", "add", -1)


def test_malfunction_helium_seal_aborts_loses_charge_and_crosses_off_tanks():
    r = result(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 4, 4])
    assert r["effect"] == "helium_seal"
    assert (r["jump_proceeds"], r["charge_lost"], r["helium_tanks_destroyed"]) == (False, True, True)
    assert effects(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 4, 4]) == [
        DISCHARGED,
        ship("helium_tank_boxes", "set", "all_crossed"),
    ]


def test_malfunction_static_discharge_loses_the_charge_by_default():
    r = result(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 5, 5])
    assert r["effect"] == "drive_failure"
    assert (r["jump_proceeds"], r["charge_lost"], r["helium_tanks_destroyed"]) == (False, True, False)
    assert effects(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 5, 5]) == [DISCHARGED]


def test_malfunction_static_discharge_toggle_keeps_the_charge():
    inputs = {**WITHIN_HOUR, "static_discharge_keeps_charge": True}
    r = result(MALF, inputs, [*MISHAP_AT_4, 5, 6])
    assert (r["effect"], r["jump_proceeds"], r["charge_lost"]) == ("drive_failure", False, False)
    assert effects(MALF, inputs, [*MISHAP_AT_4, 5, 6]) == []


def test_malfunction_static_discharge_toggle_only_affects_drive_failure():
    inputs = {**WITHIN_HOUR, "static_discharge_keeps_charge": True}
    assert result(MALF, inputs, [*MISHAP_AT_4, 4, 4])["charge_lost"] is True  # helium seal


def test_malfunction_failed_jump_table_absent_leaves_the_outcome_to_the_gm():
    outcome = rules.resolve(MALF, WITHIN_HOUR, dice=[*MISHAP_AT_4, 6, 6, 1])
    r = outcome.result
    assert r["effect"] == "failed_jump_table"
    assert (r["jump_proceeds"], r["charge_lost"]) == (None, False)
    assert (r["failed_jump_roll"], r["failed_jump_result"]) == (None, None)
    assert list(outcome.effects) == []
    with pytest.raises(rules.DiceError):  # no Failed Jump Table roll without a table
        rules.resolve(MALF, WITHIN_HOUR, dice=[*MISHAP_AT_4, 6, 6, 1, 3, 4])


def test_malfunction_failed_jump_table_present_is_rolled():
    table = {"2": "Drive destroyed", "7": "Arrive 1D6 x 10,000 km off course", "12": "Misjump"}
    outcome = rules.resolve(
        MALF, {**WITHIN_HOUR, "failed_jump_table": table}, dice=[*MISHAP_AT_4, 6, 6, 2, 3, 4]
    )
    r = outcome.result
    assert (r["failed_jump_roll"], r["failed_jump_result"]) == (7, "Arrive 1D6 x 10,000 km off course")
    assert r["jump_proceeds"] is None
    assert [roll.label for roll in outcome.rolls] == ["malfunction", "effect", "effect_d6", "failed_jump"]
    assert list(outcome.effects) == []


def test_malfunction_failed_jump_table_missing_entry_is_an_input_error():
    with pytest.raises(rules.InputError) as err:
        rules.resolve(
            MALF, {**WITHIN_HOUR, "failed_jump_table": {"2": "x"}}, dice=[*MISHAP_AT_4, 6, 6, 1, 3, 4]
        )
    assert err.value.field == "failed_jump_table"


def test_malfunction_failed_jump_table_is_not_rolled_for_other_effects():
    inputs = {**WITHIN_HOUR, "failed_jump_table": {"7": "x"}}
    assert result(MALF, inputs, [*MISHAP_AT_4, 5, 5])["failed_jump_roll"] is None
    with pytest.raises(rules.DiceError):
        rules.resolve(MALF, inputs, dice=[*MISHAP_AT_4, 5, 5, 3, 4])


def test_malfunction_catastrophic_misjump_goes_ahead():
    r = result(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 6, 6, 6])
    assert (r["effect"], r["effect_total"]) == ("catastrophic", 21)
    assert (r["jump_proceeds"], r["charge_lost"], r["helium_tanks_destroyed"]) == (True, False, False)
    assert effects(MALF, WITHIN_HOUR, [*MISHAP_AT_4, 6, 6, 6]) == JUMPED


def test_malfunction_integrity_max_is_informational():
    a = result(MALF, {"kf_integrity": 2}, [6, 6, 3, 3])
    b = result(MALF, {"kf_integrity": 2, "kf_integrity_max": 6}, [6, 6, 3, 3])
    assert a == b


def test_malfunction_inputs_are_normalised_with_defaults():
    outcome = rules.resolve(MALF, {"hours_since_last_jump": 2.0, "kf_integrity": 3.0}, dice=[1, 1]).to_dict()
    assert outcome["inputs"] == {
        "hours_since_last_jump": 2.0,
        "charged_from_reactor": False,
        "kf_integrity": 3,
        "kf_integrity_max": None,
        "failed_jump_table": None,
        "static_discharge_keeps_charge": False,
    }
    json.dumps(outcome)


def test_malfunction_summary_names_roll_modifiers_and_outcome():
    s = rules.resolve(
        MALF, {"hours_since_last_jump": 5, "charged_from_reactor": True, "kf_integrity": 1}, dice=[4, 3, 2, 2]
    ).summary
    assert "Malfunction roll 7 +5" in s and "MISHAP" in s and "1 -> 0" in s and "ABORTED" in s


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"hours_since_last_jump": -0.5}, "hours_since_last_jump"),
        ({"hours_since_last_jump": "5"}, "hours_since_last_jump"),
        ({"charged_from_reactor": 1}, "charged_from_reactor"),
        ({"kf_integrity": 0}, "kf_integrity"),
        ({"kf_integrity": -1}, "kf_integrity"),
        ({"kf_integrity": 2.5}, "kf_integrity"),
        ({"kf_integrity": True}, "kf_integrity"),
        ({"kf_integrity": 5, "kf_integrity_max": 4}, "kf_integrity"),
        ({"kf_integrity_max": 0}, "kf_integrity_max"),
        ({"failed_jump_table": {"13": "x"}}, "failed_jump_table"),
        ({"failed_jump_table": {"7": 3}}, "failed_jump_table"),
        ({"static_discharge_keeps_charge": "yes"}, "static_discharge_keeps_charge"),
        ({"hours": 3}, "hours"),
    ],
)
def test_malfunction_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(MALF, inputs, dice=[])  # inputs are checked before any die
    assert err.value.field == field


@pytest.mark.parametrize("dice", [[6], [1, 1, 1], [7, 1], [0, 3], [True, 1], [6, 6, 1], [6, 6, 6, 6]])
def test_malfunction_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(MALF, {}, dice=dice)


def test_malfunction_odds_contract_example():
    assert rules.odds(MALF, {}) == {False: Fraction(35, 36), True: Fraction(1, 36)}


def test_malfunction_odds_of_the_example_sum_to_one_and_match_dyce():
    example = rules.get(MALF).example
    dist = rules.odds(MALF, example)
    assert sum(dist.values()) == 1
    # Modifier +5 (5 h, reactor): a mishap on a natural 7 or more.
    h = (2 @ H(6)).ge(7)
    assert dist[True] == Fraction(h[True], h.total)


def _hand_effect_distribution(modifier):
    """Independent enumeration of every 2D6 x 2D6 x 1D6 outcome (each 1/6^5)."""
    dist = {}
    bands = [
        (8, "no_effect"),
        (11, "micro_fractures"),
        (13, "helium_seal"),
        (15, "drive_failure"),
        (17, "failed_jump_table"),
    ]
    for dice in itertools.product(range(1, 7), repeat=5):
        m1, m2, e1, e2, d6 = dice
        if m1 + m2 + modifier < 12:
            effect = "none"
        else:
            total = (11 + d6 if e1 + e2 == 12 else e1 + e2) + modifier
            effect = next((name for top, name in bands if total <= top), "catastrophic")
        dist[effect] = dist.get(effect, 0) + Fraction(1, 6**5)
    return dist


@pytest.mark.parametrize(
    "inputs", [{}, {"hours_since_last_jump": 0.2, "charged_from_reactor": True}, {"hours_since_last_jump": 8}]
)
def test_malfunction_effect_odds_match_a_hand_enumeration(inputs):
    modifier = result(MALF, inputs, [1, 1])["modifier"]
    assert rules.odds(MALF, inputs, key="effect") == _hand_effect_distribution(modifier)


def test_malfunction_rolls_itself_when_no_dice_are_given():
    for seed in range(30):
        outcome = rules.resolve(MALF, {"hours_since_last_jump": 0}, dice=rules.SeededDice(seed))
        assert outcome.result["malfunction_total"] == outcome.rolls[0].total + 4
        assert outcome.result["mishap"] == (outcome.rolls[0].total + 4 >= 12)


# ---------------------------------------------------------------- jump.nonstandard_plot


def test_plot_target_is_navigation_plus_four_and_success_is_at_or_above_it():
    r = result(PLOT, {"navigation_tn": 5}, [4, 5, 1, 1])
    assert (r["success"], r["tn"], r["roll"], r["mos"]) == (True, 9, 9, 0)
    r = result(PLOT, {"navigation_tn": 5}, [4, 4, 1, 1])
    assert (r["success"], r["tn"], r["roll"], r["mos"]) == (False, 9, 8, None)


def test_plot_margin_of_success():
    assert result(PLOT, {"navigation_tn": 3}, [6, 6, 1, 1])["mos"] == 5


@pytest.mark.parametrize(("navigation", "ok"), [([6, 6], True), ([1, 1], False)])
def test_plot_time_is_spent_on_success_or_failure(navigation, ok):
    r = result(PLOT, {"navigation_tn": 5}, [*navigation, 3, 4])
    assert (r["success"], r["plot_minutes"]) == (ok, 210)


def test_plot_time_range():
    assert result(PLOT, {"navigation_tn": 5}, [1, 1, 1, 1])["plot_minutes"] == 60
    assert result(PLOT, {"navigation_tn": 5}, [1, 1, 6, 6])["plot_minutes"] == 360


def test_plot_without_a_gravity_well_rolls_no_distance():
    outcome = rules.resolve(PLOT, {"navigation_tn": 5}, dice=[3, 3, 2, 2])
    assert outcome.result["distance_km"] is None
    assert [r.label for r in outcome.rolls] == ["navigation", "plot_time"]
    with pytest.raises(rules.DiceError):
        rules.resolve(PLOT, {"navigation_tn": 5}, dice=[3, 3, 2, 2, 1, 1, 1])


@pytest.mark.parametrize(
    ("location", "reading", "distance_dice", "km"),
    [
        ("deep_space", "multiply", [1, 1, 1], 9_000_000),
        ("deep_space", "multiply", [6, 6, 6], 54_000_000),
        ("planet_with_moon", "multiply", [1, 1, 1], 900_000),
        ("planet_with_moon", "multiply", [6, 6, 6], 5_400_000),
        ("deep_space", "subtract", [1, 1, 1], 0),
        ("deep_space", "subtract", [6, 6, 6], 15_000_000),
        ("planet_with_moon", "subtract", [1, 1, 1], 0),
        ("planet_with_moon", "subtract", [2, 3, 4], 600_000),
    ],
)
def test_plot_distance_readings(location, reading, distance_dice, km):
    inputs = {"navigation_tn": 5, "location": location, "distance_reading": reading}
    outcome = rules.resolve(PLOT, inputs, dice=[5, 5, 2, 2, *distance_dice])
    assert outcome.result["distance_km"] == km
    assert [r.label for r in outcome.rolls] == ["navigation", "plot_time", "distance"]


def test_plot_distance_is_rolled_even_when_the_plot_fails():
    r = result(PLOT, {"navigation_tn": 5, "location": "deep_space"}, [1, 1, 2, 2, 3, 3, 3])
    assert (r["success"], r["distance_km"]) == (False, 27_000_000)


def test_plot_target_above_twelve_is_impossible():
    assert result(PLOT, {"navigation_tn": 9}, [6, 6, 1, 1])["success"] is False
    assert rules.odds(PLOT, {"navigation_tn": 9}) == {False: 1}


def test_plot_effects():
    assert effects(PLOT, {"navigation_tn": 4}, [5, 5, 1, 1]) == [
        ship("plot", "set", {"mos": 2, "valid_for_time": "fixed beforehand"})
    ]
    assert effects(PLOT, {"navigation_tn": 4}, [1, 2, 1, 1]) == []


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "navigation_tn"),
        ({"navigation_tn": 4.5}, "navigation_tn"),
        ({"navigation_tn": 4, "location": "orbit"}, "location"),
        ({"navigation_tn": 4, "distance_reading": "divide"}, "distance_reading"),
        ({"navigation_tn": 4, "tn": 8}, "tn"),
    ],
)
def test_plot_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(PLOT, inputs, dice=[1])
    assert err.value.field == field


@pytest.mark.parametrize("dice", [[3, 3, 3], [3, 3, 3, 3, 3], [3, 7, 3, 3], [3, 3, 3, 0]])
def test_plot_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(PLOT, {"navigation_tn": 5}, dice=dice)


def test_plot_odds_sum_to_one_and_match_dyce():
    dist = rules.odds(PLOT, rules.get(PLOT).example)
    assert sum(dist.values()) == 1
    h = (2 @ H(6)).ge(9)  # example TN 5 + 4
    assert dist == {True: Fraction(h[True], h.total), False: Fraction(h[False], h.total)}


def test_plot_distance_odds_follow_3d6():
    dist = rules.odds(PLOT, {"navigation_tn": 5, "location": "planet_with_moon"}, key="distance_km")
    h = 3 @ H(6)
    assert dist == {k * 300_000: Fraction(v, h.total) for k, v in h.items()}


# ---------------------------------------------------------------- jump.nonstandard_arrival

SCOUT = [{"id": "js", "facings": ["nose", "aft"]}]


def test_arrival_plot_margin_lowers_the_target():
    r = result(ARRIVAL, {"navigation_tn": 8, "plot_mos": 2, "kf_integrity": 4, "ships": SCOUT}, [3, 3])
    assert (r["success"], r["tn"], r["roll"], r["mof"]) == (True, 6, 6, None)
    assert (r["kf_integrity_after"], r["destroyed"], r["facing_damage"]) == (4, False, [])


def test_arrival_clean_jump_has_no_effects_and_no_damage_dice():
    inputs = {"navigation_tn": 6, "kf_integrity": 4}
    assert effects(ARRIVAL, inputs, [3, 3]) == []
    with pytest.raises(rules.DiceError):
        rules.resolve(ARRIVAL, inputs, dice=[3, 3, 1])


def test_arrival_failure_rolls_mof_d6_per_facing_of_every_ship_in_order():
    ships = [{"id": "js", "facings": ["nose", "aft"]}, {"id": "union1", "facings": ["nose"]}]
    inputs = {"navigation_tn": 8, "plot_mos": 1, "kf_integrity": 5, "ships": ships}
    dice = [2, 3, 1, 2, 3, 4, 5, 6]  # roll 5 vs TN 7: MoF 2, then 2D6 per facing
    outcome = rules.resolve(ARRIVAL, inputs, dice=dice)
    r = outcome.result
    assert (r["success"], r["tn"], r["roll"], r["mof"]) == (False, 7, 5, 2)
    assert (r["kf_integrity_after"], r["destroyed"]) == (3, False)
    assert r["facing_damage"] == [
        {"ship": "js", "facing": "nose", "boxes": 3},
        {"ship": "js", "facing": "aft", "boxes": 7},
        {"ship": "union1", "facing": "nose", "boxes": 11},
    ]
    assert [(x.label, len(x.values)) for x in outcome.rolls] == [
        ("navigation", 2),
        ("facing[0]", 2),
        ("facing[1]", 2),
        ("facing[2]", 2),
    ]
    assert list(outcome.effects) == [
        ship("kf_integrity", "add", -2),
        ship("armor.nose", "add", -3),
        ship("armor.aft", "add", -7),
    ]
    # C.9: the carried DropShip's armour is no field of the arriving ship; its damage stays in
    # facing_damage and is named, by its id, in a note for the GM.
    assert "union1" in outcome.summary
    assert "by hand" in outcome.summary


def test_arrival_default_ship_has_six_facings():
    r = result(ARRIVAL, {"navigation_tn": 3, "kf_integrity": 4}, [1, 1, 1, 2, 3, 4, 5, 6])
    assert r["mof"] == 1
    assert [d["facing"] for d in r["facing_damage"]] == [
        "nose",
        "fore_left",
        "fore_right",
        "aft_left",
        "aft_right",
        "aft",
    ]
    assert [d["boxes"] for d in r["facing_damage"]] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("kf", "destroyed"), [(3, False), (2, True), (1, True)])
def test_arrival_ship_destroyed_when_integrity_reaches_zero_or_less(kf, destroyed):
    inputs = {"navigation_tn": 4, "kf_integrity": kf, "ships": [{"id": "js", "facings": ["nose"]}]}
    r = result(ARRIVAL, inputs, [1, 1, 1, 1])  # roll 2 vs 4: MoF 2
    assert (r["kf_integrity_after"], r["destroyed"]) == (kf - 2, destroyed)
    fx = effects(ARRIVAL, inputs, [1, 1, 1, 1])
    assert (fx[-1] == ship("destroyed", "set", True)) is destroyed


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"navigation_tn": 6}, "kf_integrity"),
        ({"kf_integrity": 3}, "navigation_tn"),
        ({"navigation_tn": 6, "kf_integrity": 0}, "kf_integrity"),
        ({"navigation_tn": 6, "kf_integrity": 3, "plot_mos": -1}, "plot_mos"),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": []}, "ships"),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": [{"id": "a", "facings": []}]}, "ships"),
        (
            {"navigation_tn": 6, "kf_integrity": 3, "ships": [{"id": "a", "facings": ["nose", "nose"]}]},
            "ships",
        ),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": [*SCOUT, *SCOUT]}, "ships"),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": [{"id": "a"}]}, "ships"),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": [{"id": "a", "facings": ["n"], "x": 1}]}, "ships"),
        ({"navigation_tn": 6, "kf_integrity": 3, "ships": "js"}, "ships"),
    ],
)
def test_arrival_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(ARRIVAL, inputs, dice=[])
    assert err.value.field == field


@pytest.mark.parametrize(
    "dice", [[1], [1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1], [6, 6, 1], [1, 1, 0, 1, 1, 1, 1, 1]]
)
def test_arrival_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(ARRIVAL, {"navigation_tn": 4, "kf_integrity": 3}, dice=dice)


def test_arrival_odds_of_the_example_match_a_hand_calculation():
    example = rules.get(ARRIVAL).example  # TN 6 - 2 = 4: only 2 and 3 fail
    assert rules.odds(ARRIVAL, example) == {True: Fraction(33, 36), False: Fraction(3, 36)}
    # kf 2 is destroyed only by MoF 2 or more: a roll of 2.
    assert rules.odds(ARRIVAL, example, key="destroyed") == {False: Fraction(35, 36), True: Fraction(1, 36)}


def test_arrival_damage_odds_with_one_facing():
    inputs = {"navigation_tn": 3, "kf_integrity": 5, "ships": [{"id": "js", "facings": ["nose"]}]}
    dist = rules.odds(ARRIVAL, inputs, key="facing_damage")
    assert sum(dist.values()) == 1
    assert dist[()] == Fraction(35, 36)
    one_box = ((("boxes", 1), ("facing", "nose"), ("ship", "js")),)
    assert dist[one_box] == Fraction(1, 36 * 6)


# ---------------------------------------------------------------- jump.double_jump_interval


def test_double_jump_potemkin_field_collapse_about_six_minutes():
    r = result(DOUBLE, {"ly_first_jump": 30, "dropship_factor": 25}, None)
    assert r == {"min_interval_s": 375.0, "field_collapse_s": 375.0, "malfunction_modifier": 4}


def test_double_jump_short_jump_waits_for_the_sensors():
    r = result(DOUBLE, {"ly_first_jump": 10, "dropship_factor": 1}, [])
    assert (r["field_collapse_s"], r["min_interval_s"]) == (5.0, 30)


@pytest.mark.parametrize(("ly", "ds", "collapse", "interval"), [(12, 5, 30.0, 30.0), (12.2, 5, 30.5, 30.5)])
def test_double_jump_thirty_second_floor_both_sides(ly, ds, collapse, interval):
    r = result(DOUBLE, {"ly_first_jump": ly, "dropship_factor": ds}, [])
    assert r["field_collapse_s"] == pytest.approx(collapse)
    assert r["min_interval_s"] == pytest.approx(interval)


def test_double_jump_no_dropships_counts_as_one():
    assert result(DOUBLE, {"ly_first_jump": 30, "dropship_factor": 0}, [])["field_collapse_s"] == 15.0


@pytest.mark.parametrize(("override", "interval"), [(600, 600), (10, 30), (0, 30)])
def test_double_jump_gm_override_of_field_collapse(override, interval):
    inputs = {"ly_first_jump": 30, "dropship_factor": 25, "field_collapse_s": override}
    r = result(DOUBLE, inputs, [])
    assert (r["field_collapse_s"], r["min_interval_s"]) == (override, interval)


def test_double_jump_uses_the_battery():
    assert effects(DOUBLE, {"ly_first_jump": 8, "dropship_factor": 2}, []) == [
        ship("lf_battery_charged", "set", False)
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"ly_first_jump": 30, "dropship_factor": 2, "lf_battery_charged": False}, "lf_battery_charged"),
        ({"ly_first_jump": 31, "dropship_factor": 2}, "ly_first_jump"),
        ({"ly_first_jump": -1, "dropship_factor": 2}, "ly_first_jump"),
        ({"ly_first_jump": 30, "dropship_factor": -1}, "dropship_factor"),
        ({"ly_first_jump": 30, "dropship_factor": 2, "field_collapse_s": -5}, "field_collapse_s"),
        ({"dropship_factor": 2}, "ly_first_jump"),
        ({"ly_first_jump": 30}, "dropship_factor"),
    ],
)
def test_double_jump_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(DOUBLE, inputs, dice=[])
    assert err.value.field == field


def test_double_jump_rolls_no_dice_and_has_certain_odds():
    with pytest.raises(rules.DiceError):
        rules.resolve(DOUBLE, {"ly_first_jump": 30, "dropship_factor": 2}, dice=[3])
    assert rules.odds(DOUBLE, rules.get(DOUBLE).example) == {375.0: 1}


# ---------------------------------------------------------------- jump.field_interference


def test_field_clear_jump_goes_ahead():
    r = result(FIELD, {}, [])
    assert r == {"outcome": "jump", "charge_lost": False, "interfering": 0}
    assert effects(FIELD, {}, []) == []


@pytest.mark.parametrize(("distance", "interfering"), [(1000, 1), (1000.5, 0), (0, 1), (999.9, 1)])
def test_field_radius_boundary(distance, interfering):
    r = result(FIELD, {"jumpship_distances_m": [distance]}, [])
    assert r["interfering"] == interfering
    assert r["outcome"] == ("abort" if interfering else "jump")


def test_field_working_controller_aborts_and_loses_the_charge():
    inputs = {"jumpship_distances_m": [400, 900, 5000]}
    assert result(FIELD, inputs, []) == {"outcome": "abort", "charge_lost": True, "interfering": 2}
    assert effects(FIELD, inputs, []) == [DISCHARGED]


@pytest.mark.parametrize(("controller_ok", "override"), [(False, False), (True, True), (False, True)])
def test_field_broken_or_overridden_controller_misjumps(controller_ok, override):
    inputs = {"jumpship_distances_m": [500], "controller_ok": controller_ok, "override": override}
    assert result(FIELD, inputs, []) == {"outcome": "misjump", "charge_lost": False, "interfering": 1}
    assert effects(FIELD, inputs, []) == []


def test_field_override_without_another_jumpship_is_harmless():
    r = result(FIELD, {"jumpship_distances_m": [2000], "override": True, "controller_ok": False}, [])
    assert r["outcome"] == "jump"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"jumpship_distances_m": [-1]}, "jumpship_distances_m"),
        ({"jumpship_distances_m": 500}, "jumpship_distances_m"),
        ({"jumpship_distances_m": ["near"]}, "jumpship_distances_m"),
        ({"controller_ok": None}, "controller_ok"),
        ({"override": "no"}, "override"),
    ],
)
def test_field_invalid_inputs(inputs, field):
    with pytest.raises(rules.InputError) as err:
        rules.resolve(FIELD, inputs, dice=[])
    assert err.value.field == field


def test_field_rolls_no_dice_and_has_certain_odds():
    with pytest.raises(rules.DiceError):
        rules.resolve(FIELD, {}, dice=[1])
    assert rules.odds(FIELD, rules.get(FIELD).example) == {"abort": 1}


# ---------------------------------------------------------------- jump.basic_constants


def test_basic_constants():
    outcome = rules.resolve(CONSTANTS, {}, dice=None).to_dict()
    assert outcome["result"] == {
        "max_jump_ly": 30,
        "field_expands_after_ready_s": 10,
        "sensor_blind_s": 30,
        "arrival_accuracy_m": 5000,
        "military_arrival_accuracy_m": 500,
        "kf_field_radius_m": 1000,
    }
    assert outcome["effects"] == []
    assert outcome["rolls"] == []


def test_basic_constants_take_no_inputs_and_no_dice():
    with pytest.raises(rules.InputError) as err:
        rules.resolve(CONSTANTS, {"ly": 3})
    assert err.value.field == "ly"
    with pytest.raises(rules.DiceError):
        rules.resolve(CONSTANTS, {}, dice=[1])
    assert rules.odds(CONSTANTS, {}) == {30: 1}


# ---------------------------------------------------------------- every jump procedure


@pytest.mark.parametrize("pid", [MALF, PLOT, ARRIVAL, DOUBLE, FIELD, CONSTANTS])
def test_example_inputs_resolve_and_odds_sum_to_one(pid):
    example = rules.get(pid).example
    outcome = rules.resolve(pid, example, dice=rules.SeededDice(7)).to_dict()
    json.dumps(outcome)
    assert outcome["summary"]
    dist = rules.odds(pid, example)
    assert sum(dist.values()) == 1
    assert all(isinstance(p, (Fraction, int)) for p in dist.values())
