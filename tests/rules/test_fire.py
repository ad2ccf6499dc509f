"""Fire (catalogue section 2): fire.intentional."""

import pytest

import rules


def fire(*weather):
    outcome = rules.resolve("fire.intentional", {"weather": list(weather)}, dice=[])
    assert outcome.effects == ()
    return outcome.result


def test_fire_clear_weather_has_no_modifiers():
    assert fire() == {"start_mod": 0, "spread_mod": 0, "downwind_hexes_per_turn": None}
    assert rules.resolve("fire.intentional", {}).result["start_mod"] == 0


@pytest.mark.parametrize("weather", ["rain", "thick_fog", "falling_snow", "blizzard"])
def test_fire_wet_or_obscured_weather_is_plus_2_to_start_and_plus_1_to_spread(weather):
    assert fire(weather) == {"start_mod": 2, "spread_mod": 1, "downwind_hexes_per_turn": None}


def test_fire_several_dampening_conditions_count_once():
    assert fire("rain", "thick_fog", "falling_snow", "blizzard") == {
        "start_mod": 2,
        "spread_mod": 1,
        "downwind_hexes_per_turn": None,
    }


def test_fire_high_winds_are_minus_1_to_start_and_spread_2_hexes_downwind():
    assert fire("high_winds") == {"start_mod": -1, "spread_mod": 0, "downwind_hexes_per_turn": 2}


def test_fire_rain_and_high_winds_add_together():
    assert fire("rain", "high_winds") == {"start_mod": 1, "spread_mod": 1, "downwind_hexes_per_turn": 2}


@pytest.mark.parametrize(
    ("inputs", "field"), [({"weather": ["hail"]}, "weather"), ({"wind": "high"}, "wind")]
)
def test_fire_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        rules.resolve("fire.intentional", inputs)
    assert e.value.field == field


def test_fire_rolls_no_dice():
    with pytest.raises(rules.DiceError):
        rules.resolve("fire.intentional", {}, dice=[4])
    assert rules.resolve("fire.intentional", {}, dice=None).rolls == ()


def test_fire_odds_are_certain():
    example = rules.get("fire.intentional").example
    assert rules.odds("fire.intentional", example) == {1: 1}
