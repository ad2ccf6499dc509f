"""Input limits: no input can make a resolution slow, its result non-finite or its log entry
huge. Each limit is tested at its edge: the cap is accepted, one past it is an InputError
naming the input."""

import json
import math
import random

import pytest

import rules
from rules.dice import SeededDice
from rules.schema import (
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_JSON_TEXT,
    MAX_NUMBER,
    MAX_TEXT,
    check_limits,
    parse_json_text,
)
from rules.tables import boarding, booby_trap, gforce, jump, shipboard

# The most dice any accepted input may make one resolution roll (the largest is a 46-box
# conversion re-rolling the head, about 100 dice; a full non-standard arrival about 2,000).
DICE_BUDGET = 3_000


class TooManyDice(Exception):
    pass


class CountingDice(SeededDice):
    """The server's dice, seeded, refusing to draw past a budget (so a test cannot stall)."""

    def __init__(self, seed: int, budget: int = DICE_BUDGET) -> None:
        super().__init__(seed)
        self.budget = budget
        self.drawn = 0

    def _draw(self, label, count, sides, accept):
        self.drawn += count
        if self.drawn > self.budget:
            raise TooManyDice(f"{label}: {self.drawn:,} dice drawn")
        return super()._draw(label, count, sides, accept)


def refused(procedure_id: str, inputs: dict) -> rules.InputError:
    """The InputError, raised before any die is drawn (a draw would raise TooManyDice)."""
    with pytest.raises(rules.InputError) as info:
        rules.resolve(procedure_id, inputs, CountingDice(0, budget=0))
    return info.value


# --- Dice counts: the rules' own limits ----------------------------------------------------

DICE_COUNTS = [
    # (procedure, base inputs, the count input, its cap, dice drawn at the cap)
    ("gforce.tactical", {"mode": "mechwarrior"}, "thrust_points", gforce.MAX_THRUST_POINTS, 30),
    (
        "shipboard.bulkhead_hit",
        {"surface": "door"},
        "damage_dice",
        shipboard.MAX_WEAPON_DAMAGE_DICE,
        20,
    ),
    (
        "shipboard.over_penetration",
        {"part_threshold": 9},
        "damage_dice",
        shipboard.MAX_WEAPON_DAMAGE_DICE,
        20,
    ),
    (
        "shipboard.fuel_leak",
        {"fuel_line_crits": 0, "weapon_kind": "flamer"},
        "leaked_points",
        shipboard.MAX_FUEL_BLAST_DICE,
        100,
    ),
    ("boarding.bs_to_bt_damage", {"unit_kind": "mech"}, "boxes", boarding.MAX_BOXES, 2 * 46),
    ("booby_trap.fill_weapons", {"max_rolls": 1000}, "spaces", booby_trap.MAX_SPACES, None),
    ("booby_trap.fill_weapons", {"spaces": 1}, "max_rolls", booby_trap.MAX_FILL_ROLLS, None),
    ("jump.nonstandard_arrival", {"kf_integrity": 3}, "navigation_tn", jump.MAX_NAVIGATION_TN, None),
    ("jump.nonstandard_plot", {"location": "deep_space"}, "navigation_tn", jump.MAX_NAVIGATION_TN, 7),
    ("jump.double_jump_interval", {"dropship_factor": 2}, "ly_first_jump", jump.MAX_JUMP_LY, 0),
    ("booby_trap.fill_weapons", {"weapon_type": "torp"}, "spaces", booby_trap.MAX_SPACES, None),
]


def test_the_plot_and_the_arrival_agree_on_the_navigation_tn_limit():
    plot, arrival = (
        next(i for i in rules.get(pid).contract.inputs if i.name == "navigation_tn")
        for pid in ("jump.nonstandard_plot", "jump.nonstandard_arrival")
    )
    assert plot.max == arrival.max == jump.MAX_NAVIGATION_TN == 20


def test_fill_spaces_follow_the_spaces_table():
    # What booby_trap.weapon_spaces can give, 0 to 6 per kind, and no more.
    assert booby_trap.MAX_SPACES == max(max(row) for row in booby_trap.SPACES.values()) == 6
    spaces = {
        value
        for speed in range(1, 33)
        for key in ("torp", "drone", "phaser")
        for value in rules.odds("booby_trap.weapon_spaces", {"speed": speed}, key)
    }
    assert max(spaces) == booby_trap.MAX_SPACES
    for n in range(booby_trap.MAX_SPACES + 1):
        assert rules.resolve("booby_trap.fill_weapons", {"spaces": n}).result["spaces_used"] == n
    assert refused("booby_trap.fill_weapons", {"spaces": 7}).field == "spaces"


@pytest.mark.parametrize("procedure_id,base,field,cap,dice_at_cap", DICE_COUNTS)
def test_a_dice_count_is_accepted_at_its_cap_and_refused_one_past_it(
    procedure_id, base, field, cap, dice_at_cap
):
    source = CountingDice(1)
    outcome = rules.resolve(procedure_id, {**base, field: cap}, source)
    if dice_at_cap is not None:
        assert source.drawn == dice_at_cap
    assert source.drawn <= DICE_BUDGET
    assert outcome.inputs[field] == cap
    error = refused(procedure_id, {**base, field: cap + 1})
    assert error.field == field
    assert f"{cap:,}" in error.message


def test_the_issue_posts_are_refused_before_any_die_is_drawn():
    source = CountingDice(0, budget=0)
    for procedure_id, inputs, field in [
        ("gforce.tactical", {"mode": "mechwarrior", "thrust_points": 1_000_000_000}, "thrust_points"),
        ("gforce.tactical", {"mode": "mechwarrior", "thrust_points": 200_000}, "thrust_points"),
        ("shipboard.bulkhead_hit", {"surface": "door", "damage_dice": 10**9}, "damage_dice"),
        ("shipboard.over_penetration", {"part_threshold": 9, "damage_dice": 10**9}, "damage_dice"),
    ]:
        with pytest.raises(rules.InputError) as info:
            rules.resolve(procedure_id, inputs, source)
        assert info.value.field == field
    assert source.drawn == 0


def test_a_fuel_leak_of_too_many_turns_names_the_turns():
    inputs = {"fuel_line_crits": 3, "turns_leaking": 34, "weapon_kind": "flamer"}
    assert refused("shipboard.fuel_leak", inputs).field == "turns_leaking"
    assert rules.resolve("shipboard.fuel_leak", {**inputs, "turns_leaking": 33}).result["leaked_total"] == 99


def test_a_craft_has_at_most_six_armour_facings():
    six = ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"]
    ok = {"navigation_tn": 20, "kf_integrity": 3, "ships": [{"id": "js", "facings": six}]}
    source = CountingDice(0)
    outcome = rules.resolve("jump.nonstandard_arrival", ok, source)
    assert len(outcome.result["facing_damage"]) == 6
    assert source.drawn <= 2 + 6 * 18  # the navigation 2D6, then at most MoF 18 per facing
    seven = {**ok, "ships": [{"id": "js", "facings": [*six, "keel"]}]}
    assert refused("jump.nonstandard_arrival", seven).field == "ships"


# --- Every number: the schema-level cap ---------------------------------------------------


def numeric_inputs():
    for proc in rules.all_procedures():
        for spec in proc.contract.inputs:
            if spec.type.kind in ("int", "float"):
                yield pytest.param(proc, spec, id=f"{proc.id}.{spec.name}")


@pytest.mark.parametrize("proc,spec", list(numeric_inputs()))
def test_every_number_input_has_an_upper_and_lower_bound(proc, spec):
    top = MAX_NUMBER if spec.max is None else spec.max
    bottom = -MAX_NUMBER if spec.min is None else spec.min
    assert spec.validate(top) == top
    assert spec.validate(bottom) == bottom
    for beyond in (top + 1, bottom - 1, 10**20, -(10**20), 1e308, math.inf, -math.inf, math.nan):
        with pytest.raises(rules.InputError) as info:
            spec.validate(beyond)
        assert info.value.field == spec.name


def test_a_whole_number_input_at_the_cap_survives_float_arithmetic_exactly():
    assert float(MAX_NUMBER) == MAX_NUMBER
    assert MAX_NUMBER < 2**53


# --- Lists, text, objects, nesting --------------------------------------------------------

NEUTRINO = "sensor.neutrino"


def vessels(n: int) -> list[dict]:
    return [{"id": f"v{i}", "distance_au": 9.0} for i in range(n)]


def test_a_list_input_takes_max_items_and_not_one_more():
    outcome = rules.resolve(NEUTRINO, {"phase": "hour", "vessels": vessels(MAX_ITEMS)}, [])
    assert outcome.result["detected_ids"] == []
    error = refused(NEUTRINO, {"phase": "hour", "vessels": vessels(MAX_ITEMS + 1)})
    assert error.field == "vessels"
    assert f"at most {MAX_ITEMS}" in error.message


def test_a_text_input_takes_max_text_characters_and_not_one_more():
    name = "x" * MAX_TEXT
    inputs = {"phase": "hour", "vessels": [{"id": name, "distance_au": 1.0}]}
    assert rules.resolve(NEUTRINO, inputs, [6, 6]).result["detected_ids"] == [name]
    inputs["vessels"][0]["id"] = name + "x"
    error = refused(NEUTRINO, inputs)
    assert (error.field, f"at most {MAX_TEXT}" in error.message) == ("vessels", True)


@pytest.mark.parametrize("text", ["a\x00b", "\ud800", "tail\udfff"])
def test_text_a_database_cannot_store_is_refused(text):
    error = refused(NEUTRINO, {"phase": "hour", "vessels": [{"id": text, "distance_au": 1.0}]})
    assert error.field == "vessels"
    assert "cannot be stored" in error.message


def test_an_object_key_is_text_within_the_limit():
    check_limits({"k" * MAX_TEXT: 1}, "table")
    with pytest.raises(rules.InputError):
        check_limits({"k" * (MAX_TEXT + 1): 1}, "table")
    with pytest.raises(rules.InputError):
        check_limits({1: 1}, "table")


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_nesting_is_allowed_to_max_depth_and_refused_past_it():
    check_limits(nested(MAX_DEPTH), "x")
    with pytest.raises(rules.InputError) as info:
        check_limits(nested(MAX_DEPTH + 1), "x")
    assert "nested" in info.value.message


def test_every_contract_type_fits_within_max_depth():
    def depth(description: dict) -> int:
        inner = [description.get("item"), *description.get("fields", [])]
        return (description["type"] in ("list", "object", "table2d6", "map", "chart")) + max(
            (depth(i) for i in inner if i), default=0
        )

    deepest = max(depth(spec.describe()) for p in rules.all_procedures() for spec in p.contract.inputs)
    assert deepest < MAX_DEPTH


def test_a_value_nested_a_hundred_thousand_deep_is_refused_without_recursing():
    error = refused(NEUTRINO, {"phase": "hour", "vessels": nested(100_000)})
    assert (error.field, "nested" in error.message) == ("vessels", True)


# --- Inputs written as JSON (forms, the CLI) ----------------------------------------------


def test_json_text_nested_past_the_limit_is_refused_before_parsing():
    assert parse_json_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f") is not None
    for text in ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "[" * 100_000, '{"a":' * 50_000):
        with pytest.raises(rules.InputError) as info:
            parse_json_text(text, "f")
        assert info.value.field == "f"


def test_brackets_inside_json_strings_do_not_count_as_nesting():
    text = json.dumps(["[[[[[[[[[[", "{{{{{{{{{{{{", 'a "quoted" \\ [['])
    assert parse_json_text(text, "f")[0] == "[[[[[[[[[["


@pytest.mark.parametrize(
    "text,why",
    [
        ("NaN", "finite"),
        ("[Infinity]", "finite"),
        ("1e309", "finite"),
        ("1e308", "between"),
        ("123456789012345678901", "between"),
        ("9" * 5000, "valid JSON"),
        ('"\\u0000"', "cannot be stored"),
        ('["\\ud800"]', "cannot be stored"),
        ("[1,", "valid JSON"),
        (" " * (MAX_JSON_TEXT + 1), "characters long"),
    ],
)
def test_hostile_json_text_is_an_input_error_with_a_reason(text, why):
    with pytest.raises(rules.InputError) as info:
        parse_json_text(text, "weapons")
    assert info.value.field == "weapons"
    assert why in info.value.message


@pytest.mark.parametrize("fraction", ["1234567890123456/1", "1/1234567890123456", "-" + "9" * 4400 + "/1"])
def test_a_fraction_with_too_many_digits_is_refused(fraction):
    error = refused(
        "booby_trap.pursuit_target", {"units": [{"id": "a", "range_hexes": 1, "move_cost": fraction}]}
    )
    assert error.field == "units"


def test_an_error_message_quotes_a_huge_value_briefly():
    error = refused("gforce.threshold", {"thrust_points_this_turn": ["x" * 150] * 50})
    assert len(error.message) < 150


# --- Worst accepted inputs: bounded work, finite results ---------------------------------


def extremes(spec):
    top = MAX_NUMBER if spec.max is None else spec.max
    bottom = -MAX_NUMBER if spec.min is None else spec.min
    values = [top, bottom, 0]
    if spec.type.kind == "float":
        values += [float(top), 1e-15]
    return values


@pytest.mark.parametrize("proc", rules.all_procedures(), ids=lambda p: p.id)
def test_the_worst_accepted_numbers_draw_a_bounded_number_of_dice(proc):
    """Every number of the procedure's example at its extremes, alone and (seeded) together:
    either an InputError, or a finite result from at most DICE_BUDGET dice."""
    numeric = [s for s in proc.contract.inputs if s.type.kind in ("int", "float")]
    trials = [{s.name: v} for s in numeric for v in extremes(s)]
    rng = random.Random(proc.id)
    trials += [{s.name: rng.choice(extremes(s)) for s in numeric} for _ in range(20)]
    resolved = 0
    for n, change in enumerate(trials):
        source = CountingDice(n)
        try:
            outcome = rules.resolve(proc.id, {**proc.example, **change}, source)
        except (rules.InputError, rules.DiceError):
            continue
        resolved += 1
        assert source.drawn <= DICE_BUDGET
        assert json.loads(json.dumps(outcome.to_dict(), allow_nan=False))
    assert resolved or not numeric


def test_a_non_finite_result_is_an_input_error_not_a_crash():
    proc = rules.get("hpg.transmit")
    outcome = rules.resolve("hpg.transmit", proc.example)
    result = {**outcome.result, proc.headline: math.inf}
    with pytest.raises(rules.InputError) as info:
        proc.check_result(result)
    assert info.value.field == "inputs"


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_the_odds_of_a_sum_of_dice_match_counting_every_throw(count):
    import itertools
    from collections import Counter

    from rules.odds import _sum_options

    throws = Counter(sum(t) for t in itertools.product(range(1, 7), repeat=count))
    options = _sum_options(count, 6)
    assert {sum(v): n for v, n, _den in options} == dict(throws)
    assert all(den == 6**count for _v, _n, den in options)


def test_the_odds_of_the_largest_dice_counts_are_counted_not_enumerated():
    from rules.odds import _sum_options

    options = _sum_options(shipboard.MAX_FUEL_BLAST_DICE, 6)  # 96 million multisets, 501 totals
    assert len(options) == 5 * shipboard.MAX_FUEL_BLAST_DICE + 1
    bruise = rules.odds("gforce.tactical", {"mode": "mechwarrior", "thrust_points": gforce.MAX_THRUST_POINTS})
    assert sum(bruise.values()) == 1
    assert min(bruise) == 30 and max(bruise) == 180


# --- The command line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,field",
    [
        (["--input", "mode=mechwarrior", "--input", "thrust_points=" + "[" * 100_000], "thrust_points"),
        (["--inputs-json", '{"mode": ' + "[" * 100_000 + "}"], "inputs"),
        (["--input", "mode=mechwarrior", "--input", "thrust_points=1e308"], "thrust_points"),
        (["--input", "mode=mechwarrior", "--input", "thrust_points=NaN"], "thrust_points"),
        (["--input", "mode=mechwarrior", "--input", "thrust_points=" + "9" * 5_000], "thrust_points"),
    ],
)
def test_the_command_line_refuses_hostile_inputs_with_exit_status_2(args, field):
    from io import StringIO

    from django.core.management import call_command

    err = StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("resolve", "gforce.tactical", *args, stdout=StringIO(), stderr=err)
    assert info.value.code == 2
    assert err.getvalue().startswith(f"InputError: {field}:")
