"""C.9: a roll-again loop never gives up on an accepted input. Thousands of accepted inputs
for every loop in the engine (``boarding.bs_to_bt_damage`` re-rolls, the weapon fills of
``booby_trap.fill_weapons`` and ``booby_trap.generate``) resolve on any dice; the one input
that can never land (every location of the hit table re-rolled) is refused before any die."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.tables.boarding import FRONT_HIT_LOCATION, MAX_BOXES
from rules.tables.booby_trap import MAX_SPACES

DAMAGE = "boarding.bs_to_bt_damage"
LOCATIONS = sorted(set(FRONT_HIT_LOCATION.values()))
THOUSANDS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class CountingDice(rules.SeededDice):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.drawn = 0

    def _draw(self, label, count, sides, accept):
        self.drawn += count
        return super()._draw(label, count, sides, accept)


@st.composite
def hit_tables(draw):
    """A GM hit table: every 2D6 total mapped to some of the eight locations."""
    return {str(total): draw(st.sampled_from(LOCATIONS)) for total in range(2, 13)}


@st.composite
def damage_inputs(draw):
    table = draw(st.none() | hit_tables())
    on_table = sorted(set((FRONT_HIT_LOCATION if table is None else table).values()))
    # Any set of the table's locations but all of them; seven of eight is the hardest case.
    reroll = draw(st.lists(st.sampled_from(on_table), unique=True, max_size=len(on_table) - 1))
    inputs = {"boxes": draw(st.integers(0, MAX_BOXES)), "unit_kind": "mech", "reroll_locations": reroll}
    if table is not None:
        inputs["hit_table"] = table
    return inputs


@THOUSANDS
@given(inputs=damage_inputs(), seed=st.integers(0, 2**32))
def test_a_conversion_is_never_refused_once_its_dice_are_drawn(inputs, seed):
    outcome = rules.resolve(DAMAGE, inputs, rules.SeededDice(seed))
    result = outcome.result
    assert len(result["locations"]) == inputs["boxes"]
    assert not set(result["locations"]) & set(inputs["reroll_locations"])
    assert len(result["location_rolls"]) >= inputs["boxes"]


def test_seven_of_eight_locations_re_rolled_resolve_every_time_however_long_it_takes():
    # Only the head is left: 1 roll in 36 lands. The old cap of 100 rolls refused about 6 %.
    inputs = {
        "boxes": MAX_BOXES,
        "unit_kind": "mech",
        "reroll_locations": [x for x in LOCATIONS if x != "HD"],
    }
    longest = 0
    for seed in range(200):
        result = rules.resolve(DAMAGE, inputs, rules.SeededDice(seed)).result
        assert result["locations"] == ["HD"] * MAX_BOXES
        longest = max(longest, len(result["location_rolls"]))
    assert longest > MAX_BOXES * 36  # runs far past any per-box cap of 100 over the seeds
    for key in rules.get(DAMAGE).result_keys:
        assert sum(rules.odds(DAMAGE, inputs, key).values()) == pytest.approx(1)


def test_one_location_left_after_a_hundred_misses_still_lands():
    rolls = [6, 6] * 150 + [3, 4]  # 150 head hits re-rolled, then a 7 (CT)
    outcome = rules.resolve(DAMAGE, {"boxes": 1, "unit_kind": "mech", "reroll_locations": ["HD"]}, rolls)
    assert outcome.result["locations"] == ["CT"]
    assert len(outcome.result["location_rolls"]) == 151


@pytest.mark.parametrize("table", [None, {str(t): "LA" for t in range(2, 13)}])
def test_re_rolling_every_location_on_the_table_is_refused_before_any_die(table):
    on_table = sorted(set((FRONT_HIT_LOCATION if table is None else table).values()))
    inputs = {"boxes": 3, "unit_kind": "mech", "reroll_locations": on_table, "hit_table": table}
    source = CountingDice(0)
    with pytest.raises(rules.InputError) as info:
        rules.resolve(DAMAGE, inputs, source)
    assert info.value.field == "reroll_locations"
    assert source.drawn == 0
    with pytest.raises(rules.InputError):
        rules.odds(DAMAGE, inputs, "location_rolls")


@st.composite
def charts(draw):
    """A chart IR107.32 allows: spaces never rise from 2 to 7 nor fall from 7 to 12, and the
    lightest entry (7) takes one space, so every remainder can be filled."""
    spaces = {7: 1}
    for total in range(6, 1, -1):
        spaces[total] = spaces[total + 1] + draw(st.integers(0, 1))
    for total in range(8, 13):
        spaces[total] = spaces[total - 1] + draw(st.integers(0, 1))
    return {str(t): {"weapon": f"Weapon {t}", "spaces": spaces[t]} for t in range(2, 13)}


@THOUSANDS
@given(spaces=st.integers(0, MAX_SPACES), chart=st.none() | charts(), seed=st.integers(0, 2**32))
def test_a_fill_at_its_default_cap_is_never_refused_once_its_dice_are_drawn(spaces, chart, seed):
    inputs = {"spaces": spaces, "chart": chart}
    result = rules.resolve("booby_trap.fill_weapons", inputs, rules.SeededDice(seed)).result
    assert result["spaces_used"] == spaces
    assert result["rolls_used"] == len(result["weapons"]) + result["rejected_rolls"]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    year=st.integers(-(10**15), 10**15),
    mode=st.sampled_from(["campaign", "scenario"]),
    torp=st.none() | charts(),
    drone=st.none() | charts(),
    phaser=st.none() | charts(),
    seed=st.integers(0, 2**32),
)
def test_a_generated_booby_trap_is_never_refused_once_its_dice_are_drawn(
    year, mode, torp, drone, phaser, seed
):
    inputs = {"year": year, "mode": mode, "torp_chart": torp, "drone_chart": drone, "phaser_chart": phaser}
    result = rules.resolve("booby_trap.generate", inputs, rules.SeededDice(seed)).result
    assert result["weapons"]["torp"] is not None


def test_a_generated_fill_rolls_past_a_thousand_discards():
    sparse = {
        str(t): {"weapon": "Light" if t == 7 else "Heavy", "spaces": 1 if t == 7 else 2} for t in range(2, 13)
    }
    dice = [3, 4] * 3 + [1, 1] * 1200 + [3, 4]  # spaces rolls, 1,200 discarded 2s, then a 7
    outcome = rules.resolve("booby_trap.generate", {"year": 60, "torp_chart": sparse}, dice)
    assert outcome.result["weapons"]["torp"] == ["Light"]
