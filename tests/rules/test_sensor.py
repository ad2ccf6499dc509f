"""Sensor procedures (catalogue section 8; Seed B, Sensor Rules)."""

import json
from fractions import Fraction

import pytest
from dyce import H

import rules

IR = "sensor.ir_signature"
WAVE = "sensor.emergence_wave"
RADAR = "sensor.active_radar"
PASSIVE = "sensor.passive_intercept"
PLUME = "sensor.drive_plume"
HPG = "sensor.hpg_detection"
NEUTRINO = "sensor.neutrino"


def result(pid, inputs, dice=()):
    return rules.resolve(pid, inputs, dice=list(dice)).to_dict()["result"]


def effects(pid, inputs, dice=()):
    return rules.resolve(pid, inputs, dice=list(dice)).to_dict()["effects"]


def rolls(pid, inputs, dice=()):
    return [(r["label"], r["values"]) for r in rules.resolve(pid, inputs, dice=list(dice)).to_dict()["rolls"]]


def input_error(pid, inputs, dice=()):
    with pytest.raises(rules.InputError) as e:
        rules.resolve(pid, inputs, dice=list(dice))
    return e.value.field


def set_(field, value):
    return {"target": "ship", "field": field, "op": "set", "value": value}


def p_at_least(tn):
    """Independent 2D6 >= tn probability, from dyce."""
    counts = dict((2 @ H(6)).ge(tn))
    return Fraction(counts.get(True, 0), 36)


# --- every procedure: registered, example valid, odds exact, JSON-safe ---------------------

SENSOR_IDS = [IR, WAVE, RADAR, PASSIVE, PLUME, HPG, NEUTRINO]


def test_all_seven_sensor_procedures_are_registered_in_catalogue_order():
    assert [p for p in rules.PROCEDURE_IDS if p.startswith("sensor.")] == SENSOR_IDS


@pytest.mark.parametrize("pid", SENSOR_IDS)
def test_example_inputs_resolve_and_their_odds_sum_to_exactly_one(pid):
    example = rules.get(pid).example
    outcome = rules.resolve(pid, example, dice=rules.SeededDice(7))
    json.dumps(outcome.to_dict())
    dist = rules.odds(pid, example)
    assert all(isinstance(p, Fraction) for p in dist.values())
    assert sum(dist.values()) == 1


# --- 8.1 sensor.ir_signature ---------------------------------------------------------------


def test_w11_garibaldi_signature_10_s_before_a_5_s_jump():
    r = result(IR, {"ly": 10, "dropship_factor": 1})
    assert r["detection_period_s"] == 10
    assert r["jump_duration_s"] == 5


def test_w12_valley_forge_signature_750_s_before_a_375_s_jump():
    r = result(IR, {"ly": 30, "dropship_factor": 25, "ship_kind": "warship"})
    assert r["detection_period_s"] == 750
    assert r["jump_duration_s"] == 375


def test_ir_dropship_factor_zero_is_read_as_one():
    assert result(IR, {"ly": 7.5, "dropship_factor": 0})["detection_period_s"] == 7.5
    assert result(IR, {"ly": 7.5, "dropship_factor": 2})["detection_period_s"] == 15


def test_ir_observers_within_50000_km_of_an_arriving_jumpship_see_it_in_input_order():
    observers = [
        {"id": "far", "distance_km": 50000.5},
        {"id": "edge", "distance_km": 50000},
        {"id": "near", "distance_km": 0},
    ]
    r = result(IR, {"ly": 10, "dropship_factor": 1, "observers": observers})
    assert r["auto_detected_by"] == ["edge", "near"]
    r = result(IR, {"ly": 10, "dropship_factor": 1, "ship_kind": "warship", "observers": observers})
    assert r["auto_detected_by"] == ["edge", "near"]


def test_ir_an_arriving_dropship_is_never_auto_detected_a50():
    observers = [{"id": "near", "distance_km": 0}]
    r = result(IR, {"ly": 10, "dropship_factor": 1, "ship_kind": "dropship", "observers": observers})
    assert r["auto_detected_by"] == []


def test_ir_effect_sets_signature_time_before_arrival():
    assert effects(IR, {"ly": 30, "dropship_factor": 25}) == [
        set_("ir_signature_at", "arrival − 750 s"),
    ]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"ly": 0, "dropship_factor": 1}, "ly"),
        ({"ly": -1, "dropship_factor": 1}, "ly"),
        ({"ly": 30.01, "dropship_factor": 1}, "ly"),
        ({"ly": 10, "dropship_factor": -1}, "dropship_factor"),
        ({"ly": 10, "dropship_factor": 1.5}, "dropship_factor"),
        ({"ly": 10}, "dropship_factor"),
        ({"ly": 10, "dropship_factor": 1, "ship_kind": "station"}, "ship_kind"),
        ({"ly": 10, "dropship_factor": 1, "observers": [{"id": "x", "distance_km": -1}]}, "observers"),
        ({"ly": 10, "dropship_factor": 1, "observers": [{"id": "x"}]}, "observers"),
        ({"ly": 10, "dropship_factor": 1, "range": 3}, "range"),
    ],
)
def test_ir_rejects_bad_inputs(inputs, field):
    assert input_error(IR, inputs) == field


def test_ir_limits_are_inclusive_at_30_ly():
    assert result(IR, {"ly": 30, "dropship_factor": 1})["detection_period_s"] == 30


def test_ir_takes_no_dice():
    assert rules.resolve(IR, {"ly": 10, "dropship_factor": 1}, dice=None).rolls == ()
    with pytest.raises(rules.DiceError):
        rules.resolve(IR, {"ly": 10, "dropship_factor": 1}, dice=[3])


# --- 8.2 sensor.emergence_wave -------------------------------------------------------------

W13 = {"distance_au": 3, "kf_integrity_max": 4, "dropship_factor": 3}


def test_w13_john_wayne_vs_waterloo_tn_8_detected_24_min_after_arrival():
    r = result(WAVE, W13, [4, 4])
    assert r == {
        "detected": True,
        "in_range": True,
        "base_tn": 9,
        "modifier": 1,
        "tn": 8,
        "roll": 8,
        "delay_min": 24,
    }
    assert result(WAVE, W13, [3, 4])["detected"] is False


def test_w27_wave_travels_8_minutes_per_au():
    assert result(WAVE, {"distance_au": 1, "kf_integrity_max": 0, "dropship_factor": 0}, [1, 1])[
        "delay_min"
    ] == pytest.approx(8)
    assert result(WAVE, {**W13, "distance_au": 12.5}, [1, 1])["delay_min"] == pytest.approx(100)


@pytest.mark.parametrize(("distance", "base"), [(0, 7), (2, 8), (2.1, 9), (3, 9), (4, 9), (15, 15)])
def test_emergence_base_tn_rounds_half_the_distance_plus_7_up(distance, base):
    r = result(WAVE, {"distance_au": distance, "kf_integrity_max": 0, "dropship_factor": 0}, [1, 1])
    assert r["base_tn"] == base
    assert r["modifier"] == 0
    assert r["tn"] == base


@pytest.mark.parametrize(("kf", "ds", "mod"), [(0, 0, 0), (1, 0, 1), (10, 0, 1), (10, 1, 2), (4, 16, 2)])
def test_emergence_modifier_rounds_kf_plus_dropships_over_10_up(kf, ds, mod):
    r = result(WAVE, {"distance_au": 4, "kf_integrity_max": kf, "dropship_factor": ds}, [1, 1])
    assert r["modifier"] == mod
    assert r["tn"] == 9 - mod


def test_emergence_dropship_factor_zero_stays_zero_unlike_ir():
    r = result(WAVE, {"distance_au": 4, "kf_integrity_max": 10, "dropship_factor": 0}, [1, 1])
    assert r["modifier"] == 1


def test_emergence_uses_undamaged_integrity_and_ignores_current_a4():
    damaged = result(WAVE, {**W13, "kf_integrity": 0}, [4, 4])
    assert damaged == result(WAVE, W13, [4, 4])


def test_emergence_15_au_is_in_range_but_tn_14_can_never_succeed_a57():
    r = result(WAVE, {"distance_au": 15, "kf_integrity_max": 4, "dropship_factor": 3}, [6, 6])
    assert r["in_range"] is True
    assert r["tn"] == 14
    assert r["detected"] is False
    assert rules.odds(WAVE, {"distance_au": 15, "kf_integrity_max": 4, "dropship_factor": 3}) == {False: 1}


def test_emergence_tn_is_not_clamped_below_2_so_it_always_succeeds_a57():
    r = result(WAVE, {"distance_au": 0, "kf_integrity_max": 90, "dropship_factor": 10}, [1, 1])
    assert r["tn"] == -3
    assert r["detected"] is True
    assert rules.odds(WAVE, {"distance_au": 0, "kf_integrity_max": 90, "dropship_factor": 10}) == {True: 1}


def test_emergence_beyond_15_au_is_impossible_and_rolls_no_dice():
    inputs = {"distance_au": 15.01, "kf_integrity_max": 90, "dropship_factor": 90}
    r = result(WAVE, inputs)
    assert r == {
        "detected": False,
        "in_range": False,
        "base_tn": None,
        "modifier": None,
        "tn": None,
        "roll": None,
        "delay_min": None,
    }
    assert effects(WAVE, inputs) == []
    with pytest.raises(rules.DiceError):
        rules.resolve(WAVE, inputs, dice=[6, 6])


def test_emergence_effects_mark_the_roll_used_and_the_detection_time():
    assert effects(WAVE, W13, [4, 4]) == [
        set_("emergence_roll_used.<target>", True),
        set_("detected.<target>", "arrival + 24 min"),
    ]
    assert effects(WAVE, W13, [1, 1]) == [set_("emergence_roll_used.<target>", True)]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({**W13, "already_rolled": True}, "already_rolled"),
        ({**W13, "detector_large_military": False}, "detector_large_military"),
        ({**W13, "distance_au": -0.5}, "distance_au"),
        ({**W13, "kf_integrity_max": -1}, "kf_integrity_max"),
        ({**W13, "dropship_factor": -1}, "dropship_factor"),
        ({**W13, "kf_integrity": -1}, "kf_integrity"),
        ({**W13, "already_rolled": 1}, "already_rolled"),
        ({"distance_au": 3, "kf_integrity_max": 4}, "dropship_factor"),
    ],
)
def test_emergence_rejects_bad_inputs_before_reading_dice(inputs, field):
    assert input_error(WAVE, inputs, []) == field


@pytest.mark.parametrize("dice", [[4], [7, 1], [4, 4, 4], [0, 4], [True, 4]])
def test_emergence_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(WAVE, W13, dice=dice)


def test_emergence_odds_match_dyce_for_tn_8():
    assert rules.odds(WAVE, W13) == {True: p_at_least(8), False: 1 - p_at_least(8)}
    assert p_at_least(8) == Fraction(15, 36)


# --- 8.3 sensor.active_radar ---------------------------------------------------------------


def radar(**kw):
    return {"detector_class": "warship", "distance_km": 50000, **kw}


@pytest.mark.parametrize("cls", ["dropship", "warship", "jumpship"])
def test_radar_military_dropship_warship_jumpship_roll_against_tn_4(cls):
    assert result(RADAR, radar(detector_class=cls), [2, 2]) == {
        "detected": True,
        "in_range": True,
        "range_km": 100000,
        "tn": 4,
        "roll": 4,
    }
    assert result(RADAR, radar(detector_class=cls), [1, 2])["detected"] is False


@pytest.mark.parametrize(
    ("kw", "tn"),
    [
        ({"detector_class": "warship", "military": False}, 6),
        ({"detector_class": "station", "military": True}, 6),
        ({"detector_class": "fighter", "military": True, "distance_km": 500}, 6),
        ({"detector_class": "small_craft", "military": True, "distance_km": 500}, 6),
        ({"detector_class": "small_craft", "military": False, "distance_km": 500}, 6),
    ],
)
def test_radar_all_other_vessels_roll_against_tn_6_a48(kw, tn):
    r = result(RADAR, radar(**kw), [3, 3])
    assert r["tn"] == tn
    assert r["detected"] is True
    assert result(RADAR, radar(**kw), [2, 3])["detected"] is False


def test_radar_each_radar_critical_box_adds_1_to_the_tn():
    assert result(RADAR, radar(radar_crit_boxes=1), [2, 3])["tn"] == 5
    assert result(RADAR, radar(radar_crit_boxes=2), [3, 3]) == {
        "detected": True,
        "in_range": True,
        "range_km": 100000,
        "tn": 6,
        "roll": 6,
    }
    assert result(RADAR, radar(radar_crit_boxes=2), [2, 3])["detected"] is False
    assert (
        result(RADAR, radar(detector_class="fighter", distance_km=10, radar_crit_boxes=3), [6, 6])["tn"] == 9
    )


@pytest.mark.parametrize(
    ("cls", "military", "limit"),
    [
        ("warship", True, 100000),
        ("station", False, 100000),
        ("dropship", False, 100000),
        ("fighter", True, 1000),
        ("small_craft", True, 1000),
        ("small_craft", False, 1000),
    ],
)
def test_radar_range_is_100000_km_for_large_craft_and_1000_km_for_fighters_and_small_craft(
    cls, military, limit
):
    at_edge = result(RADAR, radar(detector_class=cls, military=military, distance_km=limit), [6, 6])
    assert at_edge["in_range"] is True
    assert at_edge["range_km"] == limit
    beyond = result(RADAR, radar(detector_class=cls, military=military, distance_km=limit + 0.5))
    assert beyond == {
        "detected": False,
        "in_range": False,
        "range_km": limit,
        "tn": beyond["tn"],
        "roll": None,
    }


def test_radar_out_of_range_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve(RADAR, radar(distance_km=100001), dice=[6, 6])


def test_radar_a_detected_target_stays_detected_in_range_without_a_roll():
    r = result(RADAR, radar(already_detected=True))
    assert r["detected"] is True
    assert r["roll"] is None
    assert rules.odds(RADAR, radar(already_detected=True)) == {True: 1}


def test_radar_a_detected_target_is_lost_once_out_of_range():
    r = result(RADAR, radar(already_detected=True, distance_km=150000))
    assert r["detected"] is False
    assert r["in_range"] is False


def test_radar_one_roll_per_target_per_hour():
    assert input_error(RADAR, radar(minutes_since_last_roll=59.9), []) == "minutes_since_last_roll"
    assert input_error(RADAR, radar(minutes_since_last_roll=0), []) == "minutes_since_last_roll"
    assert result(RADAR, radar(minutes_since_last_roll=60), [6, 6])["detected"] is True
    assert result(RADAR, radar(minutes_since_last_roll=None), [6, 6])["detected"] is True


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"minutes_since_last_roll": -5}, "minutes_since_last_roll"),
        ({"radar_crit_boxes": -1}, "radar_crit_boxes"),
        ({"distance_km": -1}, "distance_km"),
        ({"detector_class": "battlemech"}, "detector_class"),
        ({"military": "yes"}, "military"),
    ],
)
def test_radar_rejects_bad_inputs(kw, field):
    assert input_error(RADAR, radar(**kw), [6, 6]) == field


def test_radar_requires_class_and_distance():
    assert input_error(RADAR, {"distance_km": 10}) == "detector_class"
    assert input_error(RADAR, {"detector_class": "warship"}) == "distance_km"


def test_radar_effects_record_detection_and_that_the_detector_now_emits():
    assert effects(RADAR, radar(), [3, 3]) == [set_("detected.<target>", True), set_("radar_emitting", True)]
    assert effects(RADAR, radar(), [1, 1]) == [set_("detected.<target>", False), set_("radar_emitting", True)]
    assert effects(RADAR, radar(distance_km=1e6)) == [
        set_("detected.<target>", False),
        set_("radar_emitting", True),
    ]


@pytest.mark.parametrize("dice", [[3], [3, 7], [3, 3, 3]])
def test_radar_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(RADAR, radar(), dice=dice)


@pytest.mark.parametrize("crits", [0, 1, 3, 9])
def test_radar_odds_match_dyce(crits):
    p = p_at_least(4 + crits)
    dist = rules.odds(RADAR, radar(radar_crit_boxes=crits))
    assert dist.get(True, 0) == p
    assert dist.get(False, 0) == 1 - p


def test_radar_odds_match_a_seeded_monte_carlo_run():
    n = 20000
    hits = sum(
        rules.resolve(RADAR, radar(military=False), dice=rules.SeededDice(f"radar-{i}")).result["detected"]
        for i in range(n)
    )
    assert abs(hits / n - float(p_at_least(6))) < 0.015  # about 4.3 standard errors


# --- 8.4 sensor.passive_intercept ----------------------------------------------------------


@pytest.mark.parametrize("cls", ["dropship", "warship", "jumpship", "station"])
def test_esm_military_large_craft_hear_radar_to_150000_km(cls):
    inputs = {"signal": "radar", "detector_class": cls, "military": True}
    assert result(PASSIVE, {**inputs, "distance_km": 150000}) == {"detected": True, "range_km": 150000}
    assert result(PASSIVE, {**inputs, "distance_km": 150000.5}) == {"detected": False, "range_km": 150000}


@pytest.mark.parametrize(
    ("cls", "military"),
    [("fighter", True), ("small_craft", True), ("warship", False), ("dropship", False), ("fighter", False)],
)
def test_craft_without_esm_cannot_hear_radar_at_all(cls, military):
    r = result(PASSIVE, {"signal": "radar", "distance_km": 0, "detector_class": cls, "military": military})
    assert r == {"detected": False, "range_km": None}


def test_esm_equipped_craft_hear_radio_to_one_million_km():
    inputs = {"signal": "radio", "detector_class": "jumpship"}
    assert result(PASSIVE, {**inputs, "distance_km": 1_000_000}) == {"detected": True, "range_km": 1_000_000}
    assert result(PASSIVE, {**inputs, "distance_km": 1_000_001})["detected"] is False


@pytest.mark.parametrize(
    ("cls", "military"),
    [("warship", False), ("station", False), ("fighter", True), ("small_craft", True), ("fighter", False)],
)
def test_civilian_craft_fighters_and_small_craft_hear_radio_to_500000_km_c9(cls, military):
    inputs = {"signal": "radio", "detector_class": cls, "military": military}
    assert result(PASSIVE, {**inputs, "distance_km": 500000}) == {"detected": True, "range_km": 500000}
    assert result(PASSIVE, {**inputs, "distance_km": 500000.5}) == {"detected": False, "range_km": 500000}


def test_passive_intercept_has_no_effects_and_no_dice():
    inputs = {"signal": "radar", "distance_km": 10, "detector_class": "warship"}
    assert effects(PASSIVE, inputs) == []
    assert rules.odds(PASSIVE, inputs) == {True: 1}
    with pytest.raises(rules.DiceError):
        rules.resolve(PASSIVE, inputs, dice=[4])


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"signal": "laser", "distance_km": 10, "detector_class": "warship"}, "signal"),
        ({"signal": "radio", "distance_km": -10, "detector_class": "warship"}, "distance_km"),
        ({"signal": "radio", "distance_km": 10, "detector_class": "mech"}, "detector_class"),
        ({"signal": "radio", "distance_km": 10}, "detector_class"),
    ],
)
def test_passive_intercept_rejects_bad_inputs(inputs, field):
    assert input_error(PASSIVE, inputs) == field


# --- 8.5 sensor.drive_plume ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "tn"),
    [
        (0, 5),
        (1, 6),
        (500000, 6),
        (500000.5, 7),
        (1_000_000, 7),
        (1_000_001, 8),
        (3_500_000, 12),
        (3_500_001, 13),
    ],
)
def test_plume_tn_is_5_plus_1_per_500000_km_or_part(distance, tn):
    assert result(PLUME, {"distance_km": distance}, [1, 1])["tn"] == tn


def test_plume_roll_must_meet_the_tn():
    assert result(PLUME, {"distance_km": 600000}, [3, 4]) == {"detected": True, "tn": 7, "roll": 7}
    assert result(PLUME, {"distance_km": 600000}, [3, 3]) == {"detected": False, "tn": 7, "roll": 6}


def test_plume_beyond_3500000_km_cannot_succeed_but_is_still_rolled():
    assert result(PLUME, {"distance_km": 4e6}, [6, 6]) == {"detected": False, "tn": 13, "roll": 12}
    assert rules.odds(PLUME, {"distance_km": 4e6}) == {False: 1}


def test_plume_one_roll_per_target_per_hour():
    assert (
        input_error(PLUME, {"distance_km": 0, "minutes_since_last_roll": 30}, []) == "minutes_since_last_roll"
    )
    assert result(PLUME, {"distance_km": 0, "minutes_since_last_roll": 60}, [3, 2])["detected"] is True


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"distance_km": -1}, "distance_km"),
        ({}, "distance_km"),
        ({"distance_km": 5, "minutes_since_last_roll": -1}, "minutes_since_last_roll"),
        ({"distance_km": "far"}, "distance_km"),
    ],
)
def test_plume_rejects_bad_inputs(inputs, field):
    assert input_error(PLUME, inputs, [3, 3]) == field


def test_plume_effect_records_whether_the_plume_was_seen():
    assert effects(PLUME, {"distance_km": 0}, [3, 2]) == [set_("plume_seen.<target>", True)]
    assert effects(PLUME, {"distance_km": 0}, [2, 2]) == [set_("plume_seen.<target>", False)]


@pytest.mark.parametrize("dice", [[], [3], [3, 3, 1], [3, 9]])
def test_plume_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(PLUME, {"distance_km": 0}, dice=dice)


@pytest.mark.parametrize("distance", [0, 1.2e6, 2.5e6])
def test_plume_odds_match_dyce(distance):
    dist = rules.odds(PLUME, {"distance_km": distance})
    tn = result(PLUME, {"distance_km": distance}, [1, 1])["tn"]
    assert dist == {True: p_at_least(tn), False: 1 - p_at_least(tn)}


# --- 8.6 sensor.hpg_detection --------------------------------------------------------------


@pytest.mark.parametrize(("distance", "tn"), [(0, 7), (0.5, 8), (2.5, 10), (3, 10), (15, 22)])
def test_hpg_uses_the_base_tn_with_the_distance_doubled(distance, tn):
    r = result(HPG, {"distance_au": distance}, [6, 6])
    assert r["tn"] == tn
    assert r["in_range"] is True
    assert r["detected"] is (tn <= 12)


def test_hpg_roll_must_meet_the_tn():
    assert result(HPG, {"distance_au": 3}, [4, 6]) == {
        "detected": True,
        "in_range": True,
        "tn": 10,
        "roll": 10,
    }
    assert result(HPG, {"distance_au": 3}, [4, 5])["detected"] is False


def test_hpg_15_au_limit_applies_to_the_real_distance_a5():
    assert result(HPG, {"distance_au": 15.5}) == {
        "detected": False,
        "in_range": False,
        "tn": None,
        "roll": None,
    }
    with pytest.raises(rules.DiceError):
        rules.resolve(HPG, {"distance_au": 15.5}, dice=[6, 6])


def test_hpg_detector_must_be_a_large_military_craft():
    assert (
        input_error(HPG, {"distance_au": 1, "detector_large_military": False}, [])
        == "detector_large_military"
    )
    assert input_error(HPG, {"distance_au": -1}, []) == "distance_au"


def test_hpg_has_no_effects_and_exact_odds():
    assert effects(HPG, {"distance_au": 0}, [6, 6]) == []
    assert rules.odds(HPG, {"distance_au": 0}) == {True: Fraction(21, 36), False: Fraction(15, 36)}


@pytest.mark.parametrize("dice", [[6], [6, 6, 6], [7, 1]])
def test_hpg_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(HPG, {"distance_au": 1}, dice=dice)


# --- 8.7 sensor.neutrino -------------------------------------------------------------------


def test_neutrino_calibration_takes_2d6_hours():
    outcome = rules.resolve(NEUTRINO, {"phase": "calibrate", "start_hour": 100}, dice=[3, 4])
    assert outcome.result == {
        "detected_ids": [],
        "calibration_hours": 7,
        "calibrated_at_hour": 107,
        "vessels": [],
    }
    assert [r.label for r in outcome.rolls] == ["calibration"]
    assert list(outcome.effects) == [set_("neutrino.calibrated_at", 107)]


def test_neutrino_calibration_rolls_no_vessel_dice():
    inputs = {"phase": "calibrate", "vessels": [{"id": "V1", "distance_au": 1}]}
    assert result(NEUTRINO, inputs, [6, 6])["calibrated_at_hour"] == 12
    with pytest.raises(rules.DiceError):
        rules.resolve(NEUTRINO, inputs, dice=[6, 6, 6, 6])


def test_neutrino_calibration_odds_are_the_2d6_distribution():
    dist = rules.odds(NEUTRINO, {"phase": "calibrate"}, key="calibration_hours")
    assert dist == {total: Fraction(count, 36) for total, count in (2 @ H(6)).items()}


def test_neutrino_rolls_only_for_vessels_within_4_au_in_input_order_a49():
    vessels = [
        {"id": "far", "distance_au": 4.01},
        {"id": "edge", "distance_au": 4},
        {"id": "near", "distance_au": 0.2},
    ]
    inputs = {"phase": "hour", "vessels": vessels}
    assert rolls(NEUTRINO, inputs, [4, 5, 1, 2]) == [("detect_edge", [4, 5]), ("detect_near", [1, 2])]
    r = result(NEUTRINO, inputs, [4, 5, 1, 2])
    assert r["detected_ids"] == ["edge"]
    assert r["calibration_hours"] is None
    assert r["calibrated_at_hour"] is None
    assert r["vessels"] == [
        {
            "id": "far",
            "rolled": False,
            "roll": None,
            "detected": False,
            "tracked_hours": None,
            "profile_level": "none",
        },
        {
            "id": "edge",
            "rolled": True,
            "roll": 9,
            "detected": True,
            "tracked_hours": 0,
            "profile_level": "none",
        },
        {
            "id": "near",
            "rolled": True,
            "roll": 3,
            "detected": False,
            "tracked_hours": None,
            "profile_level": "none",
        },
    ]


@pytest.mark.parametrize(
    ("roll", "detected"), [([4, 5], True), ([4, 4], False), ([6, 6], True), ([1, 1], False)]
)
def test_neutrino_detects_on_9_or_more(roll, detected):
    r = result(NEUTRINO, {"phase": "hour", "vessels": [{"id": "V", "distance_au": 1}]}, roll)
    assert r["vessels"][0]["detected"] is detected


@pytest.mark.parametrize(
    ("before", "after", "level"),
    [
        (None, 0, "none"),
        (0, 1, "none"),
        (4, 5, "none"),
        (5, 6, "class"),
        (10, 11, "class"),
        (11, 12, "individual"),
        (40, 41, "individual"),
    ],
)
def test_neutrino_unbroken_tracking_builds_a_class_then_an_individual_profile(before, after, level):
    inputs = {"phase": "hour", "vessels": [{"id": "V", "distance_au": 2, "tracked_hours": before}]}
    row = result(NEUTRINO, inputs, [5, 5])["vessels"][0]
    assert row["tracked_hours"] == after
    assert row["profile_level"] == level


@pytest.mark.parametrize(("distance", "dice"), [(2, [4, 4]), (5, [])])
def test_neutrino_a_miss_or_leaving_range_breaks_tracking(distance, dice):
    inputs = {"phase": "hour", "vessels": [{"id": "V", "distance_au": distance, "tracked_hours": 11}]}
    row = result(NEUTRINO, inputs, dice)["vessels"][0]
    assert row["tracked_hours"] is None
    assert row["profile_level"] == "none"


def test_neutrino_hour_effects_set_tracking_for_every_vessel():
    vessels = [
        {"id": "A", "distance_au": 1, "tracked_hours": 3},
        {"id": "B", "distance_au": 1},
        {"id": "C", "distance_au": 9, "tracked_hours": 2},
    ]
    assert effects(NEUTRINO, {"phase": "hour", "vessels": vessels}, [6, 6, 1, 1]) == [
        set_("neutrino.tracking.A", 4),
        set_("neutrino.tracking.B", None),
        set_("neutrino.tracking.C", None),
    ]


def test_neutrino_hour_with_no_vessels_rolls_nothing():
    assert result(NEUTRINO, {"phase": "hour"}) == {
        "detected_ids": [],
        "calibration_hours": None,
        "calibrated_at_hour": None,
        "vessels": [],
    }
    assert effects(NEUTRINO, {"phase": "hour"}) == []


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"phase": "track"}, "phase"),
        ({}, "phase"),
        (
            {"phase": "hour", "vessels": [{"id": "A", "distance_au": 1}, {"id": "A", "distance_au": 2}]},
            "vessels",
        ),
        ({"phase": "hour", "vessels": [{"id": "A", "distance_au": -1}]}, "vessels"),
        ({"phase": "hour", "vessels": [{"id": "A", "distance_au": 1, "tracked_hours": -1}]}, "vessels"),
        ({"phase": "hour", "vessels": [{"id": "", "distance_au": 1}]}, "vessels"),
        ({"phase": "hour", "vessels": [{"id": "A", "distance_au": 1, "speed": 3}]}, "vessels"),
        ({"phase": "calibrate", "start_hour": 1.5}, "start_hour"),
    ],
)
def test_neutrino_rejects_bad_inputs(inputs, field):
    assert input_error(NEUTRINO, inputs, []) == field


@pytest.mark.parametrize("dice", [[], [3], [3, 3, 3], [3, 0]])
def test_neutrino_bad_dice(dice):
    with pytest.raises(rules.DiceError):
        rules.resolve(NEUTRINO, {"phase": "calibrate"}, dice=dice)


def test_neutrino_too_few_dice_for_the_vessels_in_range():
    vessels = [{"id": "A", "distance_au": 1}, {"id": "B", "distance_au": 1}]
    with pytest.raises(rules.DiceError):
        rules.resolve(NEUTRINO, {"phase": "hour", "vessels": vessels}, dice=[5, 5])


def test_neutrino_odds_are_independent_9_plus_rolls_per_vessel_in_range():
    vessels = [
        {"id": "A", "distance_au": 1},
        {"id": "B", "distance_au": 3.9},
        {"id": "C", "distance_au": 4.5},
    ]
    p = Fraction(10, 36)  # 9, 10, 11, 12: 4 + 3 + 2 + 1 ways
    assert rules.odds(NEUTRINO, {"phase": "hour", "vessels": vessels}) == {
        (): (1 - p) ** 2,
        ("A",): p * (1 - p),
        ("B",): (1 - p) * p,
        ("A", "B"): p * p,
    }


def test_neutrino_profile_odds_for_a_vessel_tracked_5_hours():
    inputs = {"phase": "hour", "vessels": [{"id": "A", "distance_au": 1, "tracked_hours": 5}]}
    dist = rules.odds(NEUTRINO, inputs, key="vessels")
    by_level = {}
    for rows, prob in dist.items():
        level = dict(rows[0])["profile_level"]
        by_level[level] = by_level.get(level, 0) + prob
    assert by_level == {"class": Fraction(10, 36), "none": Fraction(26, 36)}
