"""Heat (catalogue section 2): heat.expanded."""

import pytest

import rules


def heat(**inputs):
    return rules.resolve("heat.expanded", inputs, dice=[])


def result(**inputs):
    return heat(**inputs).result


def test_heat_nothing_happening_is_zero():
    assert result() == {
        "heat": 0,
        "movement_heat": 0,
        "engine_heat": 0,
        "sink_dissipation": 0,
        "underwater_bonus": 0,
        "temperature_heat": 0,
        "magma_heat": 0,
    }


@pytest.mark.parametrize(
    ("movement", "hexes", "expected"),
    [
        ("none", 0, 0),
        ("walk", 0, 1),
        ("run", 0, 2),
        ("jump", 1, 3),
        ("jump", 3, 3),
        ("jump", 4, 4),
        ("jump", 7, 7),
    ],
)
def test_heat_movement_walk_1_run_2_jump_1_per_hex_minimum_3(movement, hexes, expected):
    r = result(movement=movement, jump_hexes=hexes)
    assert r["movement_heat"] == expected
    assert r["heat"] == expected


def test_heat_jump_needs_at_least_one_hex():
    with pytest.raises(rules.InputError) as e:
        heat(movement="jump")
    assert e.value.field == "jump_hexes"


def test_heat_standing_up_and_weapons_add_directly():
    assert result(stand_attempts=2, weapon_heat=13)["heat"] == 15


@pytest.mark.parametrize(("hits", "engine"), [(0, 0), (1, 5), (2, 10)])
def test_heat_fusion_engine_hits_add_5_then_10_in_total(hits, engine):
    r = result(fusion_engine_hits=hits)
    assert (r["engine_heat"], r["heat"]) == (engine, engine)


@pytest.mark.parametrize("hits", [1, 2, 3])
def test_heat_ice_engine_hits_never_add_heat(hits):
    assert result(ice_engine_hits=hits)["heat"] == 0


@pytest.mark.parametrize(
    ("field", "value"), [("fusion_engine_hits", 3), ("fusion_engine_hits", -1), ("ice_engine_hits", 4)]
)
def test_heat_engine_hits_out_of_range_are_refused(field, value):
    with pytest.raises(rules.InputError) as e:
        heat(**{field: value})
    assert e.value.field == field


def test_heat_single_and_double_sinks_dissipate_1_and_2():
    r = result(weapon_heat=30, single_sinks_operational=10, double_sinks_operational=5)
    assert r["sink_dissipation"] == 20
    assert r["heat"] == 10


def test_heat_sinks_under_water_dissipate_one_more_each():
    r = result(
        single_sinks_operational=10,
        single_sinks_underwater=2,
        double_sinks_operational=3,
        double_sinks_underwater=1,
    )
    assert r["underwater_bonus"] == 2 + 2
    assert r["sink_dissipation"] == 10 + 6 + 4
    assert r["heat"] == -20


@pytest.mark.parametrize(
    ("single_uw", "double_uw", "bonus"),
    [(6, 0, 6), (7, 0, 6), (0, 3, 6), (0, 4, 6), (4, 2, 6), (5, 0, 5), (1, 2, 5)],
)
def test_heat_underwater_bonus_is_capped_at_6(single_uw, double_uw, bonus):
    r = result(
        single_sinks_operational=10,
        single_sinks_underwater=single_uw,
        double_sinks_operational=5,
        double_sinks_underwater=double_uw,
    )
    assert r["underwater_bonus"] == bonus
    assert r["sink_dissipation"] == 20 + bonus


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"single_sinks_operational": 2, "single_sinks_underwater": 3}, "single_sinks_underwater"),
        ({"double_sinks_operational": 1, "double_sinks_underwater": 2}, "double_sinks_underwater"),
    ],
)
def test_heat_more_sinks_under_water_than_working_is_refused(inputs, field):
    with pytest.raises(rules.InputError) as e:
        heat(**inputs)
    assert e.value.field == field


@pytest.mark.parametrize(
    ("ambient", "floor_steps", "fraction_steps"),
    [
        (20, 0, 0),
        (-30, 0, 0),
        (-30.5, 0, -1),
        (-39.9, 0, -1),
        (-40, -1, -1),
        (-40.1, -1, -2),
        (-50, -2, -2),
        (-61, -3, -4),
        (50, 0, 0),
        (50.5, 0, 1),
        (59.9, 0, 1),
        (60, 1, 1),
        (70.1, 2, 3),
        (80, 3, 3),
    ],
)
def test_heat_temperature_steps_of_10_degrees_whole_or_fraction_a39(ambient, floor_steps, fraction_steps):
    assert result(ambient_c=ambient)["temperature_heat"] == floor_steps
    assert result(ambient_c=ambient, temperature_mode="floor")["temperature_heat"] == floor_steps
    assert result(ambient_c=ambient, temperature_mode="fraction")["temperature_heat"] == fraction_steps


def test_heat_no_ambient_temperature_means_no_temperature_heat():
    assert result(ambient_c=None, temperature_mode="fraction")["temperature_heat"] == 0


@pytest.mark.parametrize(("end", "magma"), [("none", 0), ("crust", 5), ("liquid", 10)])
def test_heat_magma_end_hex_adds_5_for_crust_10_for_liquid(end, magma):
    assert result(magma_end=end)["magma_heat"] == magma


def test_heat_magma_hexes_moved_out_of_add_2_per_crust_and_5_per_liquid():
    r = result(magma_end="crust", magma_crust_exited=3, magma_liquid_exited=2)
    assert r["magma_heat"] == 5 + 6 + 10
    assert r["heat"] == 21


def test_heat_magma_terms_agree_with_terrain_magma():
    crossing = rules.resolve(
        "terrain.magma",
        {"unit_type": "battlemech", "start_hex": "crust", "movement_path": ["crust", "other", "crust"]},
        dice=[2, 3],
    ).result
    assert crossing["heat"] == result(magma_end="crust", magma_crust_exited=2)["magma_heat"]


def test_heat_other_gm_rows_may_reduce_heat():
    assert result(movement="run", other_heat=-3)["heat"] == -1


def test_heat_sums_every_row():
    outcome = heat(**rules.get("heat.expanded").example)
    # run 2 + weapons 14 + engine 5 - sinks (10 + 2) + 65 degC (+1) + magma (5 + 2)
    assert outcome.result == {
        "heat": 17,
        "movement_heat": 2,
        "engine_heat": 5,
        "sink_dissipation": 12,
        "underwater_bonus": 2,
        "temperature_heat": 1,
        "magma_heat": 7,
    }
    assert outcome.effects == ({"target": "unit", "field": "heat", "op": "add", "value": 17},)


def test_heat_negative_net_heat_is_emitted_as_is():
    outcome = heat(single_sinks_operational=10)
    assert outcome.effects == ({"target": "unit", "field": "heat", "op": "add", "value": -10},)


@pytest.mark.parametrize(
    "field",
    [
        "jump_hexes",
        "stand_attempts",
        "weapon_heat",
        "single_sinks_operational",
        "double_sinks_operational",
        "magma_crust_exited",
        "magma_liquid_exited",
    ],
)
def test_heat_negative_counts_are_refused(field):
    with pytest.raises(rules.InputError) as e:
        heat(**{field: -1})
    assert e.value.field == field


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"movement": "sprint"}, "movement"),
        ({"temperature_mode": "round"}, "temperature_mode"),
        ({"magma_end": "lava"}, "magma_end"),
        ({"ambient_c": "hot"}, "ambient_c"),
        ({"ambient_c": -300}, "ambient_c"),
        ({"weapon_heat": 2.5}, "weapon_heat"),
        ({"heat_sinks": 10}, "heat_sinks"),
    ],
)
def test_heat_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        heat(**inputs)
    assert e.value.field == field


def test_heat_rolls_no_dice_and_its_odds_are_certain():
    with pytest.raises(rules.DiceError):
        rules.resolve("heat.expanded", {}, dice=[1])
    assert rules.odds("heat.expanded", rules.get("heat.expanded").example) == {17: 1}
