"""C.6 odds: keys that count a loop's rolls, grouped sums, and estimates for long paths.

Odds are checked against hand computation where it is short, and against many seeded
runs of ``rules.resolve`` itself: a value of probability p seen f times in n runs must
satisfy |f/n - p| <= 4.5 sqrt(p(1-p)/n) + 1/n (a false alarm about once in 150,000 per
value), and every value seen must be one the odds list.
"""

import math
from collections import Counter
from fractions import Fraction

import pytest

import rules
from rules import distributions
from rules.odds import MIN_SIMULATED_RUNS, SIMULATED_RUNS
from rules.odds import _exact as walk_every_die
from rules.odds import _odds as walk_or_simulate

FILL = "booby_trap.fill_weapons"
DAMAGE = "boarding.bs_to_bt_damage"
MAGMA = "terrain.magma"
Z = 4.5


def c6_key(value):
    if isinstance(value, list):
        return tuple(c6_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, c6_key(v)) for k, v in value.items()))
    return value


def rolled(pid, inputs, key, runs, *, refused_as=None):
    """Counts of ``key`` over ``runs`` seeded resolves; a loop-cap refusal counts as ``refused_as``."""
    counts = Counter()
    for seed in range(runs):
        try:
            result = rules.resolve(pid, inputs, rules.SeededDice(f"mc-{seed}")).result
        except rules.InputError:
            if refused_as is None:
                raise
            counts[refused_as] += 1
            continue
        counts[c6_key(result[key])] += 1
    return counts


def assert_agree(dist, counts, runs):
    assert set(counts) <= set(dist), set(counts) - set(dist)
    for value, p in dist.items():
        p = float(p)
        tolerance = Z * math.sqrt(p * (1 - p) / runs) + 1 / runs
        assert abs(counts[value] / runs - p) <= tolerance, (value, counts[value] / runs, p)


# ---------------------------------------------------------------- loop counts (C.6)


def test_rejected_fill_rolls_count_every_discard_exactly():
    # 4 torpedo spaces: a 1-space remainder is reached with chance 51/64 (1-1-1, 1-2, 2-1 with a
    # 1-space entry 3/4 of the time); there a 2-space entry (1 in 4) is discarded and rolled again.
    dist = rules.odds(FILL, {"spaces": 4}, "rejected_rolls")
    assert dist.exact
    assert dist[0] == Fraction(205, 256)  # the "about 0.80"
    for k in range(1, 8):
        assert dist[k] == Fraction(51, 64) * Fraction(1, 4) ** k * Fraction(3, 4)
    assert sum(dist.values()) == 1
    assert max(dist) <= 1000  # the tail is lumped into the loop cap


def test_fill_roll_counts_agree_with_resolving_many_times():
    runs = 6000
    for key in ("rejected_rolls", "rolls_used"):
        dist = rules.odds(FILL, {"spaces": 4}, key)
        assert_agree(dist, rolled(FILL, {"spaces": 4}, key, runs), runs)


def test_fill_roll_counts_with_a_chart_that_discards_often():
    # Only 7 fills one space; everything else needs three. Three spaces: the last space and the
    # second-to-last discard a lot, so several loops add up.
    chart = {str(k): {"weapon": "Heavy", "spaces": 3} for k in range(2, 13)}
    chart["7"] = {"weapon": "Light", "spaces": 1}
    chart["2"] = chart["12"] = {"weapon": "Heavy", "spaces": 3}
    inputs = {"spaces": 5, "chart": chart}
    runs = 3000
    for key in ("rejected_rolls", "rolls_used"):
        dist = rules.odds(FILL, inputs, key)
        assert dist.exact
        assert sum(dist.values()) == 1
        assert_agree(dist, rolled(FILL, inputs, key, runs), runs)


def test_the_tail_beyond_the_loop_cap_is_lumped_into_the_cap():
    # max_rolls 5: resolve refuses when more would be needed; the odds give that chance to 5.
    inputs = {"spaces": 4, "max_rolls": 5}
    dist = rules.odds(FILL, inputs, "rolls_used")
    assert set(dist) == {2, 3, 4, 5}
    assert sum(dist.values()) == 1
    uncapped = rules.odds(FILL, {"spaces": 4}, "rolls_used")
    assert dist[5] == 1 - uncapped[2] - uncapped[3] - uncapped[4]
    runs = 6000
    assert_agree(dist, rolled(FILL, inputs, "rolls_used", runs, refused_as=5), runs)


def test_location_rolls_without_re_rolls_are_exact():
    dist = rules.odds(DAMAGE, {"boxes": 2, "unit_kind": "mech"}, "location_rolls")
    assert dist.exact
    assert len(dist) == 11 * 11
    assert dist[(7, 7)] == Fraction(6, 36) ** 2
    assert sum(dist.values()) == 1


def test_location_rolls_with_re_rolls_are_a_labelled_estimate_within_its_margin():
    # Every re-roll is a value of its own, up to 1,000 rolls a box (C.9): ten thousand roll
    # lists for one box and the head re-rolled, too many to list exactly in time.
    inputs = {"boxes": 1, "unit_kind": "mech", "reroll_locations": ["HD"]}
    dist = rules.odds(DAMAGE, inputs, "location_rolls")
    # Sampled from the box's own odds: as many runs as its key allows, whatever the machine.
    assert dist.exact is False and dist.runs == distributions.sample_runs(2 * 36 / 35)
    assert rules.odds(DAMAGE, inputs, "location_rolls", time_limit=0.001) == dist
    assert abs(sum(dist.values()) - 1) < 1e-9
    assert abs(dist[(7,)] - 6 / 35 * 35 / 36) <= dist.margin  # a 7 at once: 6 in 36
    assert abs(dist.get((12, 7), 0) - 1 / 36 * 6 / 36) <= dist.margin
    assert all(value[-1] != 12 and all(r == 12 for r in value[:-1]) for value in dist)


def test_the_roll_list_of_a_loop_without_a_cap_is_lumped_at_its_odds_cap():
    from rules.odds import _EnumeratingDice
    from rules.tables.boarding import LOCATION_ROLLS_ODDS_CAP

    # Ten accepted totals (2..11) come first, then the one discarded total (12): choose it
    # every time. At the odds cap the loop takes an accepted total, lumping the tail there.
    dice = _EnumeratingDice([10] * (LOCATION_ROLLS_ODDS_CAP - 1) + [0], loop_mode="list")
    total = dice.total_until("location[0]", 2, 6, lambda t: t != 12, odds_cap=LOCATION_ROLLS_ODDS_CAP)
    assert total != 12
    assert len(dice.rolls) == LOCATION_ROLLS_ODDS_CAP
    assert [r.total for r in dice.rolls[:-1]] == [12] * (LOCATION_ROLLS_ODDS_CAP - 1)


def test_location_roll_counts_agree_with_resolving_many_times():
    # HD and CT re-rolled: a roll is rolled again with chance 8/36 = 2/9 (12, 2 or 7). Two
    # boxes take m rolls in all with chance (m - 1) (2/9)^(m - 2) (7/9)^2.
    inputs = {"boxes": 2, "unit_kind": "mech", "reroll_locations": ["HD", "CT"]}
    runs = 5000
    counts = rolled(DAMAGE, inputs, "location_rolls", runs)
    seen_length = Counter()
    for value, n in counts.items():
        seen_length[len(value)] += n
    q = Fraction(2, 9)
    by_length = {m: (m - 1) * q ** (m - 2) * (1 - q) ** 2 for m in range(2, 40)}
    by_length[40] = 1 - sum(by_length.values())
    assert_agree(by_length, seen_length, runs)
    dist = rules.odds(DAMAGE, inputs, "location_rolls")
    assert dist.exact is False and dist.margin is not None  # labelled
    assert abs(sum(dist.values()) - 1) < 1e-9


def test_what_the_loop_produces_still_ignores_the_discards():
    inputs = {"boxes": 1, "unit_kind": "mech", "reroll_locations": ["HD"]}
    dist = rules.odds(DAMAGE, inputs)
    assert dist[("CT",)] == Fraction(7, 35)  # 2 or 7, of the 35 totals that are not 12
    assert ("HD",) not in dist


# ---------------------------------------------------------------- grouped sums and idle dice


def test_start_and_end_in_liquid_magma_sum_the_two_rolls_as_one_4d6():
    inputs = {"unit_type": "battlemech", "start_hex": "liquid"}
    dist = rules.odds(MAGMA, inputs, "damage")
    assert dist.exact
    # Each leg takes 2D6 + 2D6: 21 totals a leg, 441 combinations, all listed.
    assert len(dist) == 21 * 21
    assert dist[(("LL", 4), ("RL", 4))] == Fraction(1, 6**4) ** 2
    assert dist[(("LL", 14), ("RL", 14))] == Fraction(146, 6**4) ** 2
    runs = 3000
    legs = Counter()
    for value, p in dist.items():
        legs[dict(value)["LL"]] += p
    seen = rolled(MAGMA, inputs, "damage", runs)
    seen_legs = Counter()
    for value, n in seen.items():
        seen_legs[dict(value)["LL"]] += n
    assert_agree(legs, seen_legs, runs)


def test_a_mech_crossing_crust_gets_exact_odds_of_what_the_damage_dice_cannot_change():
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"], "entry": "walk_run"}
    assert rules.odds(MAGMA, inputs) == {False: 1}
    assert rules.odds(MAGMA, inputs, "fell_through") == {False: Fraction(5, 6), True: Fraction(1, 6)}
    assert rules.odds(MAGMA, inputs, "end_hex") == {"crust": Fraction(5, 6), "liquid": Fraction(1, 6)}
    assert rules.odds(MAGMA, inputs, "heat") == {5: Fraction(5, 6), 10: Fraction(1, 6)}


# ---------------------------------------------------------------- estimates


def walked_odds(pid: str, inputs: dict, key: str, time_limit: float | None = None):
    """``rules.odds`` by the walk and its simulated runs alone, as for a procedure that does
    not count the key itself (magma damage is counted: ``test_counted_odds``)."""
    proc = rules.get(pid)
    _, frozen = proc.normalise(inputs)
    return walk_or_simulate(proc, frozen, pid, key, time_limit, False, SIMULATED_RUNS)


def test_too_many_paths_give_an_estimate_from_simulated_runs_labelled_as_such():
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"], "entry": "walk_run"}
    quick = walked_odds(MAGMA, inputs, "damage")  # within the default time: fewer runs
    assert quick.exact is False
    assert 1 <= quick.runs <= SIMULATED_RUNS
    assert quick.margin == pytest.approx(1.96 * math.sqrt(0.25 / quick.runs))
    est = walked_odds(MAGMA, inputs, "damage", time_limit=120)
    assert est.exact is False
    assert est.runs == SIMULATED_RUNS
    assert est.margin == pytest.approx(1.96 * math.sqrt(0.25 / SIMULATED_RUNS))
    assert all(isinstance(p, float) and 0 < p <= 1 for p in est.values())
    assert abs(sum(est.values()) - 1) < 1e-9
    # No fall (5 in 6): no damage. The estimate is within its margin of that.
    assert abs(est[()] - 5 / 6) <= est.margin
    # A fall: eight locations, each 2D6 (2..12).
    for value in est:
        if value:
            assert [loc for loc, _ in value] == sorted(["LL", "RL", "LA", "RA", "LT", "RT", "CT", "HD"])
            assert all(2 <= points <= 12 for _, points in value)
    assert walked_odds(MAGMA, inputs, "damage", time_limit=120) == est  # seeded: the same every time


def test_an_estimate_short_of_time_still_runs_enough_and_widens_its_margin():
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"], "entry": "walk_run"}
    est = walked_odds(MAGMA, inputs, "damage", time_limit=0.05)
    assert not est.exact
    assert MIN_SIMULATED_RUNS <= est.runs <= SIMULATED_RUNS
    assert est.margin == pytest.approx(1.96 * math.sqrt(0.25 / est.runs))
    assert abs(est[()] - 5 / 6) <= est.margin


def test_exact_odds_say_they_are_exact():
    dist = rules.odds("jump.malfunction", {})
    assert dist.exact is True
    assert dist.runs is None
    assert dist.margin is None


# Dice marked ``feeds=`` do not branch for other keys; walking every die gives the same odds.
FED = [
    ("booby_trap.weapon_spaces", {"speed": 18}),
    ("booby_trap.generate", {"year": 150, "mode": "campaign", "fill_weapons": False}),
    ("boarding.bs_to_bt_damage", {"boxes": 2, "unit_kind": "mech"}),
    ("boarding.bs_to_bt_damage", {"boxes": 3, "unit_kind": "battle_armor", "troopers": 2}),
    ("jump.malfunction", {"hours_since_last_jump": 0.5, "charged_from_reactor": True}),
    ("jump.nonstandard_plot", {"navigation_tn": 6, "location": "planet_with_moon"}),
    (
        "jump.nonstandard_arrival",
        {"navigation_tn": 9, "kf_integrity": 2, "ships": [{"id": "Scout", "facings": ["nose"]}]},
    ),
    ("sensor.neutrino", {"phase": "calibrate", "start_hour": 3}),
    ("shipboard.fuel_leak", {"fuel_line_crits": 2, "turns_leaking": 2, "weapon_kind": "other"}),
    ("shipboard.missed_shot", {"tn": 9, "candidates": [{"id": f"C{n}", "distance_m": n} for n in range(5)]}),
    (
        "terrain.careful_movement",
        {"unit_kind": "vehicle", "fog": True, "psr_tn": 7, "hexes": [{"clear": False}] * 4},
    ),
    ("booby_trap.generate", {"year": 150, "fill_weapons": False}),
    ("ram.collision_damage", {"entry_hexside": "fore_right"}),
    (MAGMA, {"unit_type": "battlemech", "start_hex": "liquid", "movement_path": ["other"]}),
    (MAGMA, {"unit_type": "battlemech", "movement_path": ["liquid"], "exposed_locations": ["LL"]}),
]


@pytest.mark.parametrize(("pid", "inputs"), FED, ids=[f"{n}-{p}" for n, (p, _) in enumerate(FED)])
def test_dice_marked_as_feeding_other_keys_change_no_odds(pid, inputs):
    proc = rules.get(pid)
    _, frozen = proc.normalise(inputs)
    for key in proc.result_keys:
        key_type = next(k.type for k in proc.contract.result if k.name == key)
        every_die = walk_every_die(proc, frozen, key, key_type, None, None, None, idle_dice=False)
        assert rules.odds(pid, inputs, key) == every_die, key


def test_counts_of_fill_rolls_read_only_the_spaces_of_each_entry_and_match_walking_every_die():
    proc = rules.get(FILL)
    chart = {str(k): {"weapon": f"W{k}", "spaces": 1 if 5 <= k <= 9 else 2} for k in range(2, 13)}
    inputs = {"spaces": 3, "chart": chart, "max_rolls": 40}
    _, frozen = proc.normalise(inputs)
    for key in ("rolls_used", "rejected_rolls", "spaces_used", "weapons"):
        key_type = next(k.type for k in proc.contract.result if k.name == key)
        mode, cap = ("count", "max_rolls") if key in proc.loop_counts else (None, None)
        every_die = walk_every_die(proc, frozen, key, key_type, mode, cap, None, idle_dice=False)
        assert rules.odds(FILL, inputs, key) == every_die, key


# ---------------------------------------------------------------- odds per key (C.9)


def test_a_mishap_needs_no_failed_jump_table_row():
    inputs = {"hours_since_last_jump": 0.5, "charged_from_reactor": True, "failed_jump_table": {"7": "Lost"}}
    # +4 (within the hour) +2 (reactor): a mishap on 6 or more, 26 of 36.
    assert rules.odds("jump.malfunction", inputs, "mishap") == {
        True: Fraction(13, 18),
        False: Fraction(5, 18),
    }
    assert rules.odds("jump.malfunction", inputs, "effect").exact
    with pytest.raises(rules.InputError) as info:  # this key does read the table's missing rows
        rules.odds("jump.malfunction", inputs, "failed_jump_result")
    assert info.value.field == "failed_jump_table"


def test_an_arrival_is_exact_from_its_one_2d6_whatever_the_facings():
    six = ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"]
    ships = [{"id": f"Ship {n}", "facings": six} for n in range(4)]
    inputs = {"navigation_tn": 4, "kf_integrity": 3, "ships": ships}  # TN 4: 33 of 36 succeed
    arrival = "jump.nonstandard_arrival"
    assert rules.odds(arrival, inputs) == {True: Fraction(11, 12), False: Fraction(1, 12)}
    assert rules.odds(arrival, inputs, "tn") == {4: 1}
    assert rules.odds(arrival, inputs, "roll") == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert rules.odds(arrival, inputs, "mof") == {
        None: Fraction(11, 12),
        1: Fraction(2, 36),
        2: Fraction(1, 36),
    }
    assert rules.odds(arrival, inputs, "kf_integrity_after") == {
        3: Fraction(11, 12),
        2: Fraction(2, 36),
        1: Fraction(1, 36),
    }
    assert rules.odds(arrival, inputs, "destroyed") == {False: 1}
    assert all(
        rules.odds(arrival, inputs, key).exact for key in ("success", "tn", "roll", "mof", "destroyed")
    )


def test_a_plot_is_exact_per_key_and_its_tn_uses_no_dice():
    inputs = {"navigation_tn": 0, "location": "deep_space"}  # TN 4: 11 in 12
    assert rules.odds("jump.nonstandard_plot", inputs) == {True: Fraction(11, 12), False: Fraction(1, 12)}
    assert rules.odds("jump.nonstandard_plot", inputs, "tn") == {4: 1}
    distance = rules.odds("jump.nonstandard_plot", inputs, "distance_km")
    assert distance.exact and len(distance) == 16 and distance[3 * 3_000_000] == Fraction(1, 216)


def test_a_generated_key_with_one_possible_value_answers_at_once():
    inputs = {"year": 150, "mode": "campaign", "fill_weapons": False}
    assert rules.odds("booby_trap.generate", inputs, "weapons") == {
        (("drone", None), ("phaser", None), ("torp", None)): 1
    }
    assert len(rules.odds("booby_trap.generate", inputs, "base_speed")) == 1
    # In a scenario the adjustment dice change the speed, never the speed from the year.
    scenario = {**inputs, "mode": "scenario"}
    assert rules.odds("booby_trap.generate", scenario, "base_speed") == rules.odds(
        "booby_trap.generate", inputs, "base_speed"
    )
    assert rules.odds("booby_trap.generate", scenario, "speed").exact
    spaces = rules.odds("booby_trap.generate", {"year": 150}, "spaces")
    assert spaces.exact and sum(spaces.values()) == 1


def test_a_collision_needs_no_fighter_hits_table_but_the_fighters_it_destroys_do():
    proc = rules.get("ram.accidental")
    inputs = {**proc.example, "fighter_hits": None, "fighter_hits_table": None}
    assert rules.odds("ram.accidental", inputs) == {True: Fraction(1, 6), False: Fraction(5, 6)}
    assert rules.odds("ram.accidental", inputs, "both_destroyed") == {False: 1}
    for key in ("fighters_destroyed", "target_damage", "fighter_hits_roll"):
        with pytest.raises(rules.InputError) as info:
            rules.odds("ram.accidental", inputs, key)
        assert info.value.field == "fighter_hits_table"
    with_table = rules.odds("ram.accidental", proc.example, "fighters_destroyed")
    assert with_table.exact and with_table[0] == Fraction(5, 6)


def test_a_screen_total_reads_only_each_units_band_and_matches_walking_every_die():
    proc = rules.get("screen.detonate")
    inputs = {"range_hexes": 2, "fighter_units": [{"id": f"U{n}", "fighters": n + 1} for n in range(3)]}
    _, frozen = proc.normalise(inputs)
    for key in ("total_damage", "large_ship_damage"):
        key_type = next(k.type for k in proc.contract.result if k.name == key)
        every_die = walk_every_die(proc, frozen, key, key_type, None, None, None, idle_dice=False)
        assert rules.odds("screen.detonate", inputs, key) == every_die, key
    many = {"range_hexes": 2, "fighter_units": [{"id": f"U{n}", "fighters": 6} for n in range(100)]}
    assert rules.odds("screen.detonate", many, "large_ship_damage") == {0: 1}
