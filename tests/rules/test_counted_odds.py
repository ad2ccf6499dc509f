"""Odds counted by convolution or multinomial counting (``exact_odds=``) are the odds of
walking every die, on every input small enough to walk, and stay exact on the largest
inputs the contract accepts (how long they take is ``manage.py bench_rules``'s to say:
a loaded machine makes wall-clock asserts flaky)."""

from __future__ import annotations

import math
import random
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
from rules.tables.booby_trap import TORPEDO_CHART

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


def walked_per_key(pid: str, inputs: dict, key: str):
    """The walk of every die that can change ``key`` (C.9): dice marked as feeding only other
    keys do not branch, so a GM table only those keys read may be missing."""
    proc = rules.get(pid)
    _, frozen = proc.normalise(inputs)
    key_type = next(k.type for k in proc.contract.result if k.name == key)
    return walk_every_die(proc, frozen, key, key_type, None, False, None)


def same_as_the_walk(pid: str, inputs: dict, key: str) -> None:
    """Counted odds equal the walk of every die; where that walk is refused for a table the
    key never reads, the walk of the key's own dice."""
    got = counted(pid, inputs, key)
    try:
        want = walked(pid, inputs, key)
    except rules.InputError:
        want = walked_per_key(pid, inputs, key)
    assert got == want


def labelled_estimate(pid: str, inputs: dict, key: str):
    """An estimate says so, with its runs and margin, and is the same on every call."""
    dist = rules.odds(pid, inputs, key)
    assert dist.exact is False and dist.runs >= distributions.MIN_SAMPLE_RUNS
    assert 0 < dist.margin <= 0.1
    assert sum(dist.values()) == pytest.approx(1)
    again = rules.odds(pid, inputs, key)
    assert again == dist and again.runs == dist.runs
    return dist


HITS_TABLE = {str(t): h for t, h in zip(range(2, 13), [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6], strict=True)}


@WALKED
@given(
    target=st.sampled_from(["warship", "jumpship", "station", "dropship"]),
    can_accelerate=st.booleans(),
    attacker=st.sampled_from(["large", "fighter_unit"]),
    convince=st.sampled_from([("crew", None), ("leadership", 5), ("leadership", 9), ("waive", None)]),
    gm_mods=st.integers(-3, 3),
    hits=st.sampled_from([None, 0, 2, 9]),
    velocity=st.integers(0, 6),
    key=st.sampled_from(["mover_damage", "target_damage"]),
)
def test_a_deliberate_rams_damage_counted_is_that_of_walking_every_die(
    target, can_accelerate, attacker, convince, gm_mods, hits, velocity, key
):
    how, skill = convince
    inputs = {
        "target_type": target,
        "target_can_accelerate": can_accelerate,
        "attacker": attacker,
        "leadership_mode": how == "leadership",
        "leadership_skill_tn": skill,
        "gm_mods": gm_mods,
        "gm_waive": how == "waive",
        "velocity": velocity,
        "fighters_in_unit": 6,
        "fighter_hits": hits,
        "fighter_hits_table": HITS_TABLE if hits is None else None,
    }
    same_as_the_walk("ram.deliberate", inputs, key)


@WALKED
@given(
    mover=st.sampled_from(["dropship", "jumpship", "warship", "fighter_unit"]),
    occupant=st.sampled_from(["dropship", "jumpship", "warship", "station", "fighter_unit"]),
    hits=st.sampled_from([None, 1, 8]),
    key=st.sampled_from(["mover_damage", "target_damage"]),
)
def test_an_accidental_collisions_damage_counted_is_that_of_walking_every_die(mover, occupant, hits, key):
    inputs = {
        "mover": mover,
        "occupant": occupant,
        "velocity": 3,
        "fighters_in_unit": 4,
        "fighter_hits": hits,
        "fighter_hits_table": HITS_TABLE if hits is None else None,
    }
    same_as_the_walk("ram.accidental", inputs, key)


def test_collision_damage_counted_is_that_of_walking_every_die():
    for key in ("mover_damage", "target_damage"):
        same_as_the_walk("ram.collision_damage", {}, key)
    dist = counted("ram.collision_damage", {}, "target_damage")
    assert dist[0] == Fraction(5, 6) and dist[36] == Fraction(1, 6 * 36)  # 6, then 6 x 6


def test_a_fighter_ram_without_hits_or_table_is_refused_for_the_target_only():
    inputs = {"target_type": "dropship", "attacker": "fighter_unit", "velocity": 5, "gm_waive": True}
    with pytest.raises(rules.InputError) as error:
        rules.odds("ram.deliberate", inputs, "target_damage")
    assert error.value.field == "fighter_hits_table"
    assert counted("ram.deliberate", inputs, "mover_damage") == {0: 1}


BIG_TO_TINY = [("Big", 3), ("Big", 3), ("Mid", 2), ("Small", 1), ("Small", 1), ("Tiny", 1)]
GM_CHART = {
    str(t): {"weapon": name, "spaces": spaces, "weight": spaces}
    for t, (name, spaces) in zip(
        range(2, 13),
        [*BIG_TO_TINY, ("Small", 1), ("Small", 1), ("Mid", 2), ("Big", 3), ("Huge", 3)],
        strict=True,
    )
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spaces=st.integers(0, 4), chart=st.sampled_from([None, GM_CHART]))
def test_the_weapons_of_a_fill_counted_are_those_of_walking_every_die(spaces, chart):
    inputs = {"spaces": spaces, "weapon_type": "torp", "chart": chart, "max_rolls": 3}
    same_as_the_walk("booby_trap.fill_weapons", inputs, "weapons")


def test_the_weapons_of_five_torpedo_spaces_are_exact():
    dist = counted("booby_trap.fill_weapons", {"spaces": 5}, "weapons")
    assert len(dist) == 12_546  # every list of 1- and 2-space weapons filling 5 spaces
    # Five Fusions (on 7, 6 ways of 36): every entry fits while 2 or more spaces are left;
    # with 1 left only the 1-space entries do (5 to 10: 27 ways), the others rolled again.
    seven = distributions.dice_sum_ways(2, 6)[7]
    assert dist[("Fusion (FA)",) * 5] == Fraction(seven, 36) ** 4 * Fraction(seven, 27)
    assert dist == walked("booby_trap.fill_weapons", {"spaces": 5}, "weapons")


def test_the_weapons_of_six_torpedo_spaces_are_a_labelled_estimate_of_possible_lists():
    # 84,581 lists: more than can be listed in the odds panel's wait.
    dist = labelled_estimate("booby_trap.fill_weapons", {"spaces": 6}, "weapons")
    names = {entry["weapon"]: entry["spaces"] for entry in TORPEDO_CHART.values()}
    assert all(sum(names[w] for w in weapons) == 6 for weapons in dist)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    year=st.sampled_from([-5, 80, 110, 150]),
    mode=st.sampled_from(["campaign", "scenario"]),
    drone=st.sampled_from([None, GM_CHART]),
)
def test_generated_weapons_counted_are_those_of_walking_the_dice(year, mode, drone):
    inputs = {"year": year, "mode": mode, "fill_weapons": True, "drone_chart": drone}
    dist = rules.odds("booby_trap.generate", inputs, "weapons")
    if dist.exact:
        # The spaces and fill dice of each type, walked (the year's speed dice only in a scenario).
        assert dist == walked_per_key("booby_trap.generate", inputs, "weapons")
    else:
        labelled_estimate("booby_trap.generate", inputs, "weapons")


def test_generated_weapons_of_a_slow_trap_are_exact():
    dist = counted("booby_trap.generate", {"year": 60, "fill_weapons": True}, "weapons")
    assert dist == walked("booby_trap.generate", {"year": 60, "fill_weapons": True}, "weapons")
    assert all(dict(value)["drone"] is None and dict(value)["phaser"] is None for value in dist)


@WALKED
@given(
    tn=st.integers(2, 9),
    facings=st.lists(st.integers(1, 2), min_size=1, max_size=2),
)
def test_facing_damage_counted_is_that_of_walking_every_die(tn, facings):
    ships = [{"id": f"S{n}", "facings": ["nose", "aft"][:k]} for n, k in enumerate(facings)]
    inputs = {"navigation_tn": tn, "kf_integrity": 3, "ships": ships}
    dist = rules.odds("jump.nonstandard_arrival", inputs, "facing_damage")
    if dist.exact:
        assert dist == walked("jump.nonstandard_arrival", inputs, "facing_damage")
    else:
        labelled_estimate("jump.nonstandard_arrival", inputs, "facing_damage")


def test_facing_damage_of_many_facings_is_an_estimate_whose_clean_jump_is_exact():
    ships = [{"id": f"S{n}", "facings": ["nose", "aft", "fore_left"]} for n in range(4)]
    inputs = {"navigation_tn": 8, "kf_integrity": 3, "ships": ships}
    dist = labelled_estimate("jump.nonstandard_arrival", inputs, "facing_damage")
    assert dist[()] == 15 / 36  # 8 or more on 2D6: no damage, known exactly
    assert dist.margin < distributions.MAX_SAMPLE_RUNS**-0.5 * 2  # scaled to the sampled failures
    assert all(len(rows) == 12 for rows in dist if rows)


vessels = st.lists(
    st.tuples(st.sampled_from([1.0, 4.0, 5.0]), st.sampled_from([None, 0, 5, 11])), max_size=4
).map(lambda rows: [{"id": f"V{n}", "distance_au": d, "tracked_hours": h} for n, (d, h) in enumerate(rows)])


@WALKED
@given(
    vessels=vessels,
    key=st.sampled_from(["detected_ids", "vessels"]),
    phase=st.sampled_from(["hour", "calibrate"]),
)
def test_neutrino_detections_counted_are_those_of_walking_every_die(vessels, key, phase):
    inputs = {"phase": phase, "vessels": vessels}
    dist = rules.odds("sensor.neutrino", inputs, key)
    if dist.exact:
        assert dist == walked("sensor.neutrino", inputs, key)
    else:
        labelled_estimate("sensor.neutrino", inputs, key)


def test_neutrino_detections_of_twelve_vessels_are_exact_and_of_a_hundred_an_estimate():
    near = [{"id": f"V{n}", "distance_au": 1, "tracked_hours": None} for n in range(12)]
    dist = counted("sensor.neutrino", {"phase": "hour", "vessels": near}, "detected_ids")
    assert len(dist) == 2**12 and dist[()] == Fraction(26, 36) ** 12
    many = [{"id": f"V{n}", "distance_au": 1, "tracked_hours": None} for n in range(100)]
    labelled_estimate("sensor.neutrino", {"phase": "hour", "vessels": many}, "detected_ids")
    labelled_estimate("sensor.neutrino", {"phase": "hour", "vessels": many}, "vessels")


magma_paths = st.lists(st.sampled_from(["other", "liquid"]), max_size=2)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from(["other", "liquid"]), path=magma_paths, legs=st.sampled_from([["LL"], ["HD"]]))
def test_magma_damage_counted_is_that_of_walking_every_die(start, path, legs):
    # One exposed location keeps the walk of every damage die short.
    inputs = {"unit_type": "battlemech", "start_hex": start, "movement_path": path, "exposed_locations": legs}
    same_as_the_walk("terrain.magma", inputs, "damage")


def test_magma_damage_of_both_legs_counted_is_that_of_walking_every_die():
    inputs = {"unit_type": "battlemech", "start_hex": "liquid", "movement_path": []}
    same_as_the_walk("terrain.magma", inputs, "damage")
    inputs = {"unit_type": "battlemech", "start_hex": "other", "movement_path": ["liquid"]}
    same_as_the_walk("terrain.magma", inputs, "damage")


def test_magma_crust_keys_read_only_whether_the_crust_holds():
    for unit in ("tracked", "battlemech"):
        inputs = {"unit_type": unit, "movement_path": ["crust", "other", "crust"]}
        for key in ("destroyed", "fell_through", "heat", "end_hex"):
            assert counted("terrain.magma", inputs, key) == walked_per_key("terrain.magma", inputs, key)
    inputs = {"unit_type": "tracked", "movement_path": ["crust", "crust"]}
    assert counted("terrain.magma", inputs, "destroyed") == walked("terrain.magma", inputs, "destroyed")


def test_magma_damage_after_a_fall_is_an_estimate_whose_crossing_without_one_is_exact():
    # A fall burns all eight locations: 11**8 totals, too many to list.
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"]}
    dist = labelled_estimate("terrain.magma", inputs, "damage")
    assert dist[()] == 5 / 6  # the crust holds: no damage, known exactly
    assert all(len(value) == 8 for value in dist if value)


def test_location_rolls_without_re_rolls_counted_are_those_of_walking_every_die():
    for boxes in range(4):
        inputs = {"boxes": boxes, "unit_kind": "mech"}
        assert counted("boarding.bs_to_bt_damage", inputs, "location_rolls") == walked(
            "boarding.bs_to_bt_damage", inputs, "location_rolls"
        )


def test_location_rolls_with_re_rolls_are_an_estimate_within_its_margin():
    inputs = {"boxes": 1, "unit_kind": "mech", "reroll_locations": ["HD"]}
    dist = labelled_estimate("boarding.bs_to_bt_damage", inputs, "location_rolls")
    ways = distributions.dice_sum_ways(2, 6)
    for rolls, p in dist.items():
        *discarded, landed = rolls
        assert set(discarded) <= {12} and landed != 12
        exact = Fraction(1, 36) ** len(discarded) * Fraction(ways[landed], 36)
        assert abs(p - exact) <= dist.margin


@pytest.mark.parametrize("key", ["locations", "damage"])
def test_many_boxes_are_an_estimate_within_its_margin(key):
    inputs = {"boxes": 12, "unit_kind": "mech", "reroll_locations": ["HD"]}
    dist = labelled_estimate("boarding.bs_to_bt_damage", inputs, key)
    # The chance that no box lands on the centre torso (2 and 7: 7 ways of 35), exactly and as sampled.
    no_ct = sum(p for value, p in dist.items() if "CT" not in (value if key == "locations" else dict(value)))
    assert abs(no_ct - (28 / 35) ** 12) <= dist.margin


@WALKED
@given(units=fighter_units.filter(lambda units: len(units) <= 3))
def test_screen_unit_rows_counted_are_those_of_walking_every_die(units):
    inputs = {"range_hexes": 3, "fighter_units": units}
    assert counted("screen.detonate", inputs, "units") == walked("screen.detonate", inputs, "units")


def test_screen_unit_rows_of_many_units_are_a_labelled_estimate():
    units = [{"id": f"Blue {n}", "fighters": 6} for n in range(20)]
    dist = labelled_estimate("screen.detonate", {"range_hexes": 3, "fighter_units": units}, "units")
    assert all(len(rows) == 20 for rows in dist)


def _crossings_of_the_walk(inputs: dict) -> dict:
    """The ways a crossing can go by walking the procedure (damage dice not branching)."""
    from rules.odds import walk_paths

    _, frozen = rules.get("terrain.magma").normalise(inputs)
    ways: dict = {}
    for num, den, rolls in walk_paths("terrain.magma", frozen, "fell_through"):
        dice: dict = {}
        for roll in rolls:
            cause, _, loc = roll.label.partition("_")
            if cause in ("start", "extra", "fall", "enter"):
                dice[loc] = dice.get(loc, 0) + len(roll.values)
        taken = tuple(sorted(dice.items()))
        ways[taken] = ways.get(taken, 0) + Fraction(num, den)
    return ways


@WALKED
@given(
    start=st.sampled_from(["other", "crust", "liquid"]),
    path=st.lists(st.sampled_from(["other", "crust", "liquid"]), max_size=4),
    entry=st.sampled_from(["walk_run", "jump", "crash"]),
    psr_tn=st.integers(1, 13),
    legs=st.sampled_from([None, ["LL"], ["HD", "CT", "LA"]]),
)
def test_magma_crossings_counted_hex_by_hex_are_those_of_walking_the_procedure(
    start, path, entry, psr_tn, legs
):
    from rules.procedures.terrain import magma_crossings

    if entry != "walk_run":
        path = path[:1] or ["crust"]
    inputs = {
        "unit_type": "battlemech",
        "start_hex": start,
        "movement_path": path,
        "entry": entry,
        "psr_tn": psr_tn,
        "exposed_locations": legs,
    }
    _, frozen = rules.get("terrain.magma").normalise(inputs)
    counted_ways: dict = {}
    for weight, taken, _outcome in magma_crossings(frozen):
        if weight:
            counted_ways[taken] = counted_ways.get(taken, 0) + weight
    assert counted_ways == _crossings_of_the_walk(inputs)
    for key in ("destroyed", "fell_through", "heat", "end_hex"):
        assert counted("terrain.magma", inputs, key) == walked_per_key("terrain.magma", inputs, key)


@WALKED
@given(
    unit=st.sampled_from(["tracked", "hover", "vtol"]),
    start=st.sampled_from(["other", "crust"]),
    path=st.lists(st.sampled_from(["other", "crust", "liquid"]), max_size=5),
)
def test_magma_keys_of_other_units_counted_are_those_of_walking_every_die(unit, start, path):
    inputs = {"unit_type": unit, "start_hex": start, "movement_path": path}
    for key in ("destroyed", "fell_through", "heat", "end_hex", "damage"):
        assert counted("terrain.magma", inputs, key) == walked("terrain.magma", inputs, key)


def test_magma_damage_across_a_hundred_crust_hexes_keeps_the_crossing_without_a_fall_exact():
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"] * 100}
    dist = labelled_estimate("terrain.magma", inputs, "damage")
    assert dist[()] == pytest.approx(float(Fraction(5, 6) ** 100), rel=1e-12)
    assert all(len(value) == 8 for value in dist if value)  # every other way falls through


def test_facing_damage_of_a_hundred_ships_failing_by_eighteen_is_a_labelled_estimate():
    six = ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"]
    ships = [{"id": f"S{n}", "facings": six} for n in range(100)]
    inputs = {"navigation_tn": 20, "kf_integrity": 3, "ships": ships}
    dist = labelled_estimate("jump.nonstandard_arrival", inputs, "facing_damage")
    assert () not in dist  # 12 on 2D6 still fails TN 20: every run burns every facing
    for rows in dist:
        assert [(dict(row)["ship"], dict(row)["facing"]) for row in rows] == [
            (ship["id"], facing) for ship in ships for facing in six
        ]
    margins = {20 - roll for roll in range(2, 13)}
    for rows in dist:  # one failure margin m per run: every facing takes mD6
        boxes = [dict(row)["boxes"] for row in rows]
        assert any(m <= min(boxes) and max(boxes) <= 6 * m for m in margins)


@pytest.mark.parametrize(
    "dist", [distributions.dice_sum(2), distributions.dice_sum(18), ({"a": 1, "b": 0, "c": 2}, 3)]
)
@pytest.mark.parametrize("bits", [12, 16])
def test_quick_draws_give_each_value_exactly_its_share(dist, bits):
    """Each value's slots, and its part of the slots it shares, add up to its exact odds."""
    picker = distributions.Picker(dist, bits=bits)
    table, straddling = picker._slots
    ways, _den = dist
    total = sum(ways.values())
    slots = picker.slots
    shares: dict = {}
    start = 0
    bounds = {}
    for value, n in ways.items():
        bounds[value] = (Fraction(start * slots, total), Fraction((start + n) * slots, total))
        start += n
    for slot, value in enumerate(table):
        if slot in straddling:
            assert value not in ways
            for v, (low, high) in bounds.items():
                overlap = min(high, slot + 1) - max(low, slot)
                if overlap > 0:
                    shares[v] = shares.get(v, 0) + overlap / slots
        else:
            shares[value] = shares.get(value, 0) + Fraction(1, slots)
    assert shares == {v: Fraction(n, total) for v, n in ways.items() if n}
    # The same draws from the same seed, whoever makes them.
    again = [distributions.Picker(dist, bits=bits).picks(random.Random(7), 500) for _ in range(2)]
    assert again[0] == again[1] and set(again[0]) <= {v for v, n in ways.items() if n}


ESTIMATE_PRINTED = """
import json, sys
import rules
pid, inputs, key = json.loads(sys.argv[1])
dist = rules.odds(pid, inputs, key)
print(json.dumps([dist.exact, dist.runs, sorted((repr(k), float(v)) for k, v in dist.items())]))
"""


@pytest.mark.parametrize(
    ("pid", "inputs", "key"),
    [
        ("booby_trap.fill_weapons", {"spaces": 6}, "weapons"),
        (
            "jump.nonstandard_arrival",
            {
                "navigation_tn": 20,
                "kf_integrity": 3,
                "ships": [{"id": "S", "facings": ["nose", "aft", "fls"]}],
            },
            "facing_damage",
        ),
    ],
)
def test_an_estimate_is_the_same_in_another_process_under_another_hash_seed(pid, inputs, key):
    """The same inputs give the same estimate on any machine: two interpreters with other
    string hashes (set iteration orders) print the same runs and the same odds."""
    import json
    import os
    import subprocess
    import sys

    printed = []
    for seed in ("1", "4242"):
        run = subprocess.run(
            [sys.executable, "-c", ESTIMATE_PRINTED, json.dumps([pid, inputs, key])],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        printed.append(json.loads(run.stdout))
    assert printed[0][0] is False, "the input is meant to need an estimate"
    assert printed[0] == printed[1]
