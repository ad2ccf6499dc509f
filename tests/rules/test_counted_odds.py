"""Odds counted by convolution or multinomial counting (``exact_odds=``) are the odds of
walking every die, on every input small enough to walk, and stay exact on the largest
inputs the contract accepts (how long they take is ``manage.py bench_rules``'s to say:
a loaded machine makes wall-clock asserts flaky)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import distributions
from rules.odds import _discards as discards_of
from rules.odds import _exact as walk_every_die
from rules.registry import procedure
from rules.tables.boarding import FRONT_HIT_LOCATION

WALKED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOCATIONS = sorted(set(FRONT_HIT_LOCATION.values()))


def walked(pid: str, inputs: dict, key: str):
    """The odds of ``key`` by walking every die, ``feeds`` and ``reads`` marks ignored."""
    proc = rules.get(pid)
    _, frozen = proc.normalise(inputs)
    key_type = next(k.type for k in proc.contract.result if k.name == key)
    return walk_every_die(proc, frozen, key, key_type, None, False, None, idle_dice=False)


def counted(pid: str, inputs: dict, key: str):
    dist = rules.odds(pid, inputs, key)
    assert dist.exact is True
    assert sum(dist.values()) == 1
    return dist


@WALKED
@given(
    boxes=st.integers(0, 3),
    reroll=st.sets(st.sampled_from(LOCATIONS), max_size=len(LOCATIONS) - 1),
    key=st.sampled_from(["crit_checks", "damage", "locations"]),
)
def test_box_odds_counted_are_those_of_walking_every_die(boxes, reroll, key):
    inputs = {"boxes": boxes, "unit_kind": "mech", "reroll_locations": sorted(reroll)}
    assert counted("boarding.bs_to_bt_damage", inputs, key) == walked("boarding.bs_to_bt_damage", inputs, key)


@WALKED
@given(
    table=st.lists(st.sampled_from(["CT", "LA", "HD"]), min_size=11, max_size=11),
    boxes=st.integers(0, 3),
    key=st.sampled_from(["crit_checks", "damage", "locations"]),
)
def test_box_odds_on_a_gm_hit_table_are_those_of_walking_every_die(table, boxes, key):
    hit_table = {str(total): loc for total, loc in zip(range(2, 13), table, strict=True)}
    reroll = ["HD"] if len(set(table)) > 1 and "HD" in table else []
    inputs = {"boxes": boxes, "unit_kind": "mech", "reroll_locations": reroll, "hit_table": hit_table}
    assert counted("boarding.bs_to_bt_damage", inputs, key) == walked("boarding.bs_to_bt_damage", inputs, key)


@pytest.mark.parametrize("key", ["damage", "locations"])
def test_a_gm_hit_table_with_a_gap_is_refused_as_by_the_walk(key):
    hit_table = {str(total): "CT" for total in range(2, 12)}  # no entry for 12
    inputs = {"boxes": 2, "unit_kind": "mech", "hit_table": hit_table}
    with pytest.raises(rules.InputError) as error:
        rules.odds("boarding.bs_to_bt_damage", inputs, key)
    assert error.value.field == "hit_table"


def test_the_critical_checks_of_every_box_are_a_binomial_whatever_the_number_of_boxes():
    inputs = {"boxes": 46, "unit_kind": "mech", "reroll_locations": ["HD"]}
    dist = counted("boarding.bs_to_bt_damage", inputs, "crit_checks")
    # 2D6 of 2 is 1 way in 36; the head (12, 1 way) is re-rolled, so 1 in 35 per box.
    assert dist == {k: Fraction(math.comb(46, k) * 34 ** (46 - k), 35**46) for k in range(47)}


def test_a_re_rolled_critical_location_gives_no_critical_checks():
    inputs = {"boxes": 46, "unit_kind": "mech", "reroll_locations": ["CT"]}
    assert counted("boarding.bs_to_bt_damage", inputs, "crit_checks") == {0: 1}


def test_battle_armour_has_no_location_odds_to_count():
    inputs = {"boxes": 5, "unit_kind": "battle_armor"}
    for key in ("crit_checks", "damage", "locations"):
        assert rules.odds("boarding.bs_to_bt_damage", inputs, key) == walked(
            "boarding.bs_to_bt_damage", inputs, key
        )


def test_damage_of_many_boxes_over_many_locations_stays_a_labelled_estimate():
    # 46 boxes over seven locations split some twenty million ways: too many values to list.
    dist = rules.odds("boarding.bs_to_bt_damage", {"boxes": 46, "unit_kind": "mech"}, "damage")
    assert dist.exact is False


def test_damage_of_many_boxes_over_two_locations_is_counted():
    reroll = [loc for loc in LOCATIONS if loc not in ("CT", "LA")]
    inputs = {"boxes": 46, "unit_kind": "mech", "reroll_locations": reroll}
    dist = counted("boarding.bs_to_bt_damage", inputs, "damage")
    # CT on 2 and 7 (7 ways), LA on 10 and 11 (5 ways): binomial splits of 46 boxes.
    assert dist[(("CT", 460),)] == Fraction(7, 12) ** 46
    assert dist[(("CT", 200), ("LA", 260))] == Fraction(math.comb(46, 20) * 7**20 * 5**26, 12**46)
    assert len(dist) == 47


fighter_units = st.lists(st.integers(1, 5), max_size=4).map(
    lambda sizes: [{"id": f"Blue {n}", "fighters": f} for n, f in enumerate(sizes)]
)


@WALKED
@given(units=fighter_units)
def test_screen_damage_counted_is_that_of_walking_every_die(units):
    inputs = {"range_hexes": 3, "fighter_units": units}
    assert counted("screen.detonate", inputs, "total_damage") == walked(
        "screen.detonate", inputs, "total_damage"
    )


def test_screen_damage_over_a_hundred_units_is_exact():
    units = [{"id": f"Blue {n}", "fighters": 6 if n % 2 else 4} for n in range(100)]
    dist = counted("screen.detonate", {"range_hexes": 3, "fighter_units": units}, "total_damage")
    assert dist[0] == Fraction(26, 36) ** 100
    assert dist[12 * 50 + 8 * 50] == Fraction(1, 36) ** 100  # every unit rolls 12
    assert max(dist) == 1000


def test_screen_damage_refuses_what_the_procedure_refuses():
    with pytest.raises(rules.InputError) as error:
        rules.odds("screen.detonate", {"range_hexes": 3, "in_arc": False}, "total_damage")
    assert error.value.field == "in_arc"


@WALKED
@given(
    crits=st.integers(0, 3),
    turns=st.integers(0, 2),
    leaked=st.integers(0, 2),
    weapon=st.sampled_from(["none", "flamer", "gyrojet", "primitive", "other"]),
)
def test_blast_damage_counted_is_that_of_walking_every_die(crits, turns, leaked, weapon):
    inputs = {
        "fuel_line_crits": crits,
        "turns_leaking": turns,
        "leaked_points": leaked,
        "weapon_kind": weapon,
    }
    assert counted("shipboard.fuel_leak", inputs, "blast_damage") == walked(
        "shipboard.fuel_leak", inputs, "blast_damage"
    )


def test_a_hundred_d6_blast_is_exact():
    inputs = {"fuel_line_crits": 100, "turns_leaking": 1, "weapon_kind": "flamer"}
    dist = counted("shipboard.fuel_leak", inputs, "blast_damage")
    assert min(dist) == 100 and max(dist) == 600
    assert dist[100] == Fraction(1, 6**100)
    assert sum(v * p for v, p in dist.items()) == 350


def test_counted_distributions_agree_with_counting_throws():
    ways, den = distributions.dice_sum(3, 6)
    throws = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                throws[a + b + c] = throws.get(a + b + c, 0) + 1
    assert ways == throws and den == 216
    assert distributions.power(({0: 1, 1: 1}, 2), 5) == ({k: math.comb(5, k) for k in range(6)}, 32)
    assert distributions.binomial(3, 1, 6) == ({0: 125, 1: 75, 2: 15, 3: 1}, 216)
    assert distributions.multinomial(60, {"a": 1, "b": 1, "c": 1, "d": 1}, limit=100) is None
    assert distributions.sequences(20, {"a": 1, "b": 1}, limit=1000) is None


def test_a_procedure_cannot_count_odds_of_a_key_its_contract_lacks():
    contract = """
procedure: test.counted_key
inputs:
  n: int
dice: none
result:
  total: int
effects: []
errors: none
"""
    with pytest.raises(SyntaxError, match="not in the contract"):
        procedure(contract, title="t", reference="r", exact_odds={"other": lambda inp: None})


def naive_discards(discard_odds, left):
    """Sums of geometric counts by convolving Fractions term by term, the tail lumped at ``left``."""
    dist = {0: Fraction(1)}
    for p in discard_odds:
        step: dict[int, Fraction] = {}
        for base, q in dist.items():
            for k in range(left + 1):
                step[base + k] = step.get(base + k, Fraction(0)) + q * (1 - p) * p**k
        dist = step
    head = {k: q for k, q in dist.items() if k < left and q}
    head[left] = 1 - sum(head.values(), Fraction(0))
    return {k: q for k, q in head.items() if q}


@WALKED
@given(
    chances=st.lists(st.integers(1, 35).map(lambda r: Fraction(r, 36)), min_size=1, max_size=4),
    left=st.integers(0, 12),
)
def test_discards_counted_in_integers_are_those_of_convolving_geometric_counts(chances, left):
    ways, den = discards_of(tuple(sorted(chances)), left)
    got = {k: Fraction(n, den) for k, n in ways.items()}
    assert got == (naive_discards(chances, left) if left > 0 else {0: 1})


def test_a_thousand_fill_rolls_are_counted_exactly():
    inputs = {"spaces": 6, "weapon_type": "torp", "max_rolls": 1000}
    discards_of.cache_clear()
    dist = counted("booby_trap.fill_weapons", inputs, "rolls_used")
    assert max(dist) == 1000 and min(dist) == 3


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    year=st.sampled_from([-5, 69, 70, 100, 150, 200, 219, 220, 400]),
    mode=st.sampled_from(["campaign", "scenario"]),
)
def test_generated_spaces_counted_are_those_of_walking_every_die(year, mode):
    inputs = {"year": year, "mode": mode, "fill_weapons": False}
    assert counted("booby_trap.generate", inputs, "spaces") == walked("booby_trap.generate", inputs, "spaces")


def test_generated_spaces_in_a_scenario_with_weapons_to_fill_are_exact():
    inputs = {"year": 150, "mode": "scenario", "fill_weapons": True}
    dist = counted("booby_trap.generate", inputs, "spaces")
    campaign = counted("booby_trap.generate", {**inputs, "mode": "campaign"}, "spaces")
    assert set(campaign) < set(dist)  # a moved speed reaches other columns' spaces
