"""Weather (catalogue section 2): weather.earthquake, weather.missile_hits_modifier."""

from fractions import Fraction

import pytest
from dyce import H

import rules


def dyce_odds(h):
    return {k: Fraction(c, h.total) for k, c in h.items()}


def quake(dice=None, **inputs):
    return rules.resolve("weather.earthquake", inputs, dice=dice if dice is not None else [])


def missiles(dice=None, **inputs):
    return rules.resolve("weather.missile_hits_modifier", inputs, dice=dice if dice is not None else [])


# --- weather.earthquake -----------------------------------------------------------------------


@pytest.mark.parametrize("strength", [1, 2, 3, 4, 5])
def test_earthquake_biped_psr_and_to_hit_are_the_strength(strength):
    outcome = quake(strength=strength)
    assert outcome.result == {"psr_mod": strength, "to_hit_mod": strength, "psr_target": None, "fell": None}
    assert outcome.rolls == ()
    assert outcome.effects == ()


@pytest.mark.parametrize(("strength", "psr_mod"), [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1)])
def test_earthquake_quads_take_half_rounded_up_combined_with_their_minus_2_a44(strength, psr_mod):
    result = quake(strength=strength, is_quad=True).result
    assert result["psr_mod"] == psr_mod
    assert result["to_hit_mod"] == strength


def test_earthquake_psr_succeeds_on_the_target_and_fails_below_it():
    standing = quake([4, 4], strength=3, psr_tn=5)
    assert standing.result == {"psr_mod": 3, "to_hit_mod": 3, "psr_target": 8, "fell": False}
    assert standing.effects == ()
    assert [r["label"] for r in standing.to_dict()["rolls"]] == ["psr"]
    fallen = quake([3, 4], strength=3, psr_tn=5)
    assert fallen.result == {"psr_mod": 3, "to_hit_mod": 3, "psr_target": 8, "fell": True}
    assert fallen.effects == ({"target": "unit", "field": "prone", "op": "set", "value": True},)


def test_earthquake_quad_psr_target_can_drop_below_the_base():
    result = quake([2, 2], strength=1, is_quad=True, psr_tn=5).result
    assert result["psr_target"] == 4
    assert result["fell"] is False


@pytest.mark.parametrize("strength", [0, 6, -2])
def test_earthquake_strength_outside_1_to_5_is_refused(strength):
    with pytest.raises(rules.InputError) as e:
        quake([3, 3], strength=strength, psr_tn=5)
    assert e.value.field == "strength"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({}, "strength"),
        ({"strength": 2, "is_quad": "yes"}, "is_quad"),
        ({"strength": 2, "psr_tn": 5.5}, "psr_tn"),
        ({"strength": 2, "quad": True}, "quad"),
    ],
)
def test_earthquake_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        quake([3, 3], **inputs)
    assert e.value.field == field


@pytest.mark.parametrize(
    ("dice", "inputs"),
    [
        ([], {"strength": 2, "psr_tn": 5}),
        ([3], {"strength": 2, "psr_tn": 5}),
        ([3, 3, 3], {"strength": 2, "psr_tn": 5}),
        ([3, 7], {"strength": 2, "psr_tn": 5}),
        ([3, 3], {"strength": 2}),
    ],
)
def test_earthquake_bad_dice_are_refused(dice, inputs):
    with pytest.raises(rules.DiceError):
        quake(dice, **inputs)


def test_earthquake_odds_of_falling_match_dyce():
    example = rules.get("weather.earthquake").example
    assert rules.odds("weather.earthquake", example, key="fell") == dyce_odds(
        (2 @ H(6)).lt(example["psr_tn"] + 0)  # strength 3 quad: ceil(3/2) - 2 = 0
    )
    dist = rules.odds("weather.earthquake", {"strength": 3, "psr_tn": 5}, key="fell")
    assert dist == {True: Fraction(21, 36), False: Fraction(15, 36)}
    assert rules.odds("weather.earthquake", example) == {0: 1}


# --- weather.missile_hits_modifier ------------------------------------------------------------


@pytest.mark.parametrize(
    ("wind", "blizzard", "modifier"),
    [
        ("none", False, 0),
        ("moderate", False, -2),
        ("high", False, -4),
        ("none", True, -4),
        ("moderate", True, -4),
        ("high", True, -4),  # no stacking [A40]
    ],
)
def test_missile_hits_modifier_by_wind_and_blizzard(wind, blizzard, modifier):
    result = missiles(wind=wind, blizzard=blizzard, roll=9).result
    assert result == {
        "all_miss": False,
        "modifier": modifier,
        "modified_roll": 9 + modifier,
        "table_row": 9 + modifier,
    }


@pytest.mark.parametrize(
    ("wind", "roll", "all_miss"),
    [
        ("high", 5, True),
        ("high", 6, False),
        ("moderate", 3, True),
        ("moderate", 4, False),
        ("none", 2, False),
    ],
)
def test_missile_hits_every_missile_misses_below_2(wind, roll, all_miss):
    result = missiles(wind=wind, roll=roll).result
    assert result["all_miss"] is all_miss
    assert result["table_row"] == (None if all_miss else result["modified_roll"])


def test_missile_hits_rolls_2d6_when_no_roll_is_given():
    outcome = missiles([2, 3], wind="moderate")
    assert outcome.result == {"all_miss": False, "modifier": -2, "modified_roll": 3, "table_row": 3}
    assert [r["label"] for r in outcome.to_dict()["rolls"]] == ["missile_hits"]
    assert outcome.effects == ()
    assert missiles([1, 1], blizzard=True).result == {
        "all_miss": True,
        "modifier": -4,
        "modified_roll": -2,
        "table_row": None,
    }


@pytest.mark.parametrize("roll", [1, 13, 0])
def test_missile_hits_table_roll_outside_2_to_12_is_refused(roll):
    with pytest.raises(rules.InputError) as e:
        missiles(roll=roll)
    assert e.value.field == "roll"


@pytest.mark.parametrize(
    ("inputs", "field"),
    [({"wind": "heavy"}, "wind"), ({"blizzard": 1}, "blizzard"), ({"roll": 7.5}, "roll")],
)
def test_missile_hits_bad_inputs_name_their_field(inputs, field):
    with pytest.raises(rules.InputError) as e:
        missiles([3, 3], **inputs)
    assert e.value.field == field


@pytest.mark.parametrize(
    ("dice", "inputs"),
    [([], {}), ([3], {}), ([3, 3, 3], {}), ([3, 0], {}), ([3, 3], {"roll": 6}), ([1], {"roll": 6})],
)
def test_missile_hits_bad_dice_are_refused(dice, inputs):
    with pytest.raises(rules.DiceError):
        missiles(dice, **inputs)


def test_missile_hits_odds_match_dyce():
    example = rules.get("weather.missile_hits_modifier").example  # high winds, rolled
    dist = rules.odds("weather.missile_hits_modifier", example)
    assert dist == dyce_odds((2 @ H(6) - 4).lt(2))
    assert dist[True] == Fraction(10, 36)
    rows = rules.odds("weather.missile_hits_modifier", {"wind": "moderate"}, key="table_row")
    two_d6 = dyce_odds(2 @ H(6))
    assert rows == {None: two_d6[2] + two_d6[3], **{t - 2: two_d6[t] for t in range(4, 13)}}
    assert sum(rows.values()) == 1


def test_missile_hits_odds_with_a_given_roll_are_certain():
    assert rules.odds("weather.missile_hits_modifier", {"wind": "high", "roll": 5}) == {True: 1}
