"""The engine's contract mechanics (catalogue C.1-C.10), independent of any one rule family.

Most tests run over every registered procedure, driven by its contract and ``example``.
"""

import copy
import json
import math
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import rules
from rules.schema import EnumType, FloatType, IntType, NullableType, RationalType, parse_contract

SEED_A = "000_07cf8a2f0c4164e5.txt"
SEED_B = "004_a36b5ea8439b26e7.txt"
CATALOGUE = Path(__file__).resolve().parents[3] / "shared" / "rules-catalogue.md"
PURSUIT = "booby_trap.pursuit_target"
MALF = "jump.malfunction"

# C.10: every procedure id, in the index's order, with its headline result key.
INDEX = (
    ("booby_trap.speed_by_year", "speed"),
    ("booby_trap.scenario_speed_adjust", "speed"),
    ("booby_trap.weapon_spaces", "torp"),
    ("booby_trap.fill_weapons", "weapons"),
    ("booby_trap.generate", "speed"),
    ("booby_trap.pursuit_target", "target_id"),
    ("booby_trap.terrain_pursuit", "pursue_terrain"),
    ("booby_trap.turn_upkeep", "loaded"),
    ("terrain.hex_modifiers", "mp_cost"),
    ("terrain.clearing", "new_terrain"),
    ("terrain.magma", "destroyed"),
    ("terrain.geyser", "erupted"),
    ("terrain.bog_down", "stuck"),
    ("terrain.careful_movement", "failed"),
    ("weather.earthquake", "psr_mod"),
    ("weather.missile_hits_modifier", "all_miss"),
    ("heat.expanded", "heat"),
    ("fire.intentional", "start_mod"),
    ("shipboard.missed_shot", "outcome"),
    ("shipboard.bulkhead_hit", "pierced"),
    ("shipboard.ricochet", "ricochet"),
    ("shipboard.bulkhead_critical", "crits"),
    ("shipboard.decompression", "explosive"),
    ("shipboard.fuel_leak", "ignited"),
    ("shipboard.over_penetration", "over"),
    ("cargo.food", "tons_per_day"),
    ("cargo.stores", "spare_parts_t"),
    ("lowtech.ice_engine", "ice_weight_t"),
    ("lowtech.ice_explosion", "exploded"),
    ("lowtech.utility_critical", "crits"),
    ("vehicle.amphibious", "equipment_t"),
    ("vehicle.dune_buggy", "cruise_mp"),
    ("ram.accidental", "collision"),
    ("ram.collision_damage", "both_destroyed"),
    ("ram.deliberate", "hit"),
    ("sensor.ir_signature", "detection_period_s"),
    ("sensor.emergence_wave", "detected"),
    ("sensor.active_radar", "detected"),
    ("sensor.passive_intercept", "detected"),
    ("sensor.drive_plume", "detected"),
    ("sensor.hpg_detection", "detected"),
    ("sensor.neutrino", "detected_ids"),
    ("groundspace.convert", "armor_value"),
    ("groundspace.thrust", "control_ok"),
    ("boarding.landing", "landed"),
    ("boarding.landed_attack", "boxes"),
    ("boarding.bs_to_bt_damage", "locations"),
    ("jump.malfunction", "mishap"),
    ("fighter.overburn", "overburn"),
    ("jump.nonstandard_plot", "success"),
    ("jump.nonstandard_arrival", "success"),
    ("jump.double_jump_interval", "min_interval_s"),
    ("jump.field_interference", "outcome"),
    ("drive.charge", "failed"),
    ("gforce.threshold", "blackout"),
    ("gforce.tactical", "bruise_damage"),
    ("telemissile.maneuver", "fuel_after"),
    ("telemissile.attack", "hit"),
    ("screen.detonate", "total_damage"),
    ("screen.end_phase", "removed"),
    ("yard.capacity_and_damage", "max_yard_mass_t"),
    ("hpg.transmit", "emp_recovery_min"),
    ("jump.basic_constants", "max_jump_ly"),
)

PROCEDURES = [rules.get(pid) for pid, _ in INDEX]
IDS = [p.id for p in PROCEDURES]
EFFECT_TARGETS = {"ship", "unit", "fighter", "character", "booby_trap", "compartment", "campaign", "hex"}


def each_procedure(func):
    return pytest.mark.parametrize("proc", PROCEDURES, ids=IDS)(func)


def base_type(t):
    return t.inner if isinstance(t, NullableType) else t


def flat(rolls):
    return [v for r in rolls for v in r["values"]]


def seeded(proc, seed=0):
    return rules.resolve(proc.id, copy.deepcopy(proc.example), rules.SeededDice(seed))


def c6_key(value):
    """C.6 odds keys: lists become tuples, objects tuples of sorted (key, value) pairs."""
    if isinstance(value, list):
        return tuple(c6_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, c6_key(v)) for k, v in value.items()))
    return value


def assert_plain_hashable(key):
    hash(key)
    assert not isinstance(key, (list, dict, set, frozenset))
    if isinstance(key, tuple):
        for item in key:
            assert_plain_hashable(item)


# ---------------------------------------------------------------- C.10 index, C.1 shape


def test_procedure_ids_are_exactly_the_index_in_its_order():
    assert isinstance(rules.PROCEDURE_IDS, tuple)
    assert tuple(pid for pid, _ in INDEX) == rules.PROCEDURE_IDS
    assert len(rules.PROCEDURE_IDS) == 63


def test_the_error_classes_are_value_errors_and_distinct():
    assert issubclass(rules.InputError, ValueError)
    assert issubclass(rules.DiceError, ValueError)
    assert not issubclass(rules.InputError, rules.DiceError)
    assert not issubclass(rules.DiceError, rules.InputError)


def test_an_unknown_procedure_is_an_input_error_on_procedure_id():
    for bad in ("jump.nonesuch", "", None, 3):
        with pytest.raises(rules.InputError) as e:
            rules.resolve(bad, {})
        assert e.value.field == "procedure_id"
    with pytest.raises(rules.InputError) as e:
        rules.odds("jump.nonesuch", {})
    assert e.value.field == "procedure_id"


@pytest.mark.parametrize(("pid", "headline"), INDEX, ids=IDS)
def test_the_headline_is_the_first_result_key(pid, headline):
    proc = rules.get(pid)
    assert proc.result_keys[0] == headline
    assert next(iter(seeded(proc).to_dict()["result"])) == headline


@each_procedure
def test_to_dict_of_the_example_is_plain_json_with_the_contract_shape(proc):
    before = copy.deepcopy(proc.example)
    inputs = copy.deepcopy(proc.example)
    outcome = rules.resolve(proc.id, inputs, rules.SeededDice(1))
    assert inputs == before, "resolve must not change its inputs"
    d = outcome.to_dict()
    assert list(d) == ["procedure", "inputs", "rolls", "result", "effects", "summary"]
    text = json.dumps(d, allow_nan=False)  # no custom encoder, no Fraction/Decimal/set
    assert json.loads(text) == d  # and no tuples or non-string keys hiding in it
    assert d["procedure"] == proc.id
    assert list(d["result"]) == list(proc.result_keys)
    assert isinstance(d["summary"], str)
    assert d["summary"].strip()
    for roll in d["rolls"]:
        assert list(roll) == ["label", "sides", "values", "total"]
        assert roll["total"] == sum(roll["values"])
        assert all(1 <= v <= roll["sides"] for v in roll["values"])
        assert not re.search(r"[<>]|\[i\]", roll["label"]), "placeholders are filled in (C.3)"
    for effect in d["effects"]:
        assert list(effect) == ["target", "field", "op", "value"]
        assert effect["target"] in EFFECT_TARGETS
        assert effect["op"] in ("set", "add")
        assert isinstance(effect["field"], str)
        assert effect["field"]


@each_procedure
def test_result_values_have_their_contract_types(proc):
    result = seeded(proc, 2).to_dict()["result"]
    for key in proc.contract.result:
        value = result[key.name]
        typ = base_type(key.type)
        if value is None:
            assert isinstance(key.type, NullableType), key.name
        elif isinstance(typ, IntType):
            assert type(value) is int, key.name
        elif isinstance(typ, FloatType):
            assert type(value) in (int, float), key.name
        elif isinstance(typ, EnumType):
            assert value in typ.choices, key.name


@each_procedure
def test_normalised_inputs_list_every_input_with_defaults_filled_in(proc):
    inputs = seeded(proc).to_dict()["inputs"]
    assert list(inputs) == [i.name for i in proc.contract.inputs]
    for spec in proc.contract.inputs:
        if spec.name not in proc.example:
            assert not spec.required
            assert inputs[spec.name] == spec.default
            assert type(inputs[spec.name]) is type(spec.default)


def test_object_fields_left_out_show_their_defaults():
    inputs = {"unit_kind": "vehicle", "fog": True, "psr_tn": 6, "hexes": [{}, {"clear": False}]}
    d = rules.resolve("terrain.careful_movement", inputs, rules.SeededDice(0)).to_dict()
    assert d["inputs"]["hexes"] == [
        {"clear": True, "elevation_change": False},
        {"clear": False, "elevation_change": False},
    ]
    assert inputs["hexes"] == [{}, {"clear": False}]  # the caller's dict is left alone


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared catalogue is not beside the repository")
def test_every_registered_contract_is_the_catalogues_contract_block():
    blocks = re.findall(r"```contract\n(.*?)```", CATALOGUE.read_text(encoding="utf-8"), re.S)
    contracts = {c.procedure: c for c in map(parse_contract, blocks)}
    assert list(contracts) == list(rules.PROCEDURE_IDS)
    for proc in PROCEDURES:
        theirs = contracts[proc.id]
        assert proc.result_keys == tuple(k.name for k in theirs.result), proc.id
        assert [(i.name, i.default) for i in proc.contract.inputs] == [
            (i.name, i.default) for i in theirs.inputs
        ], proc.id
        assert proc.contract.dice.strip() == theirs.dice.strip(), proc.id
        # Verbatim: the comments on result keys, the effects and the refusals too.
        assert [(k.name, k.help) for k in proc.contract.result] == [
            (k.name, k.help) for k in theirs.result
        ], proc.id
        assert proc.contract.effects.strip() == theirs.effects.strip(), proc.id
        assert proc.contract.errors.strip() == theirs.errors.strip(), proc.id


# ---------------------------------------------------------------- C.2 inputs, over every procedure


@each_procedure
def test_an_unknown_input_is_refused_by_name(proc):
    with pytest.raises(rules.InputError) as e:
        rules.resolve(proc.id, {**proc.example, "no_such_input": 1}, [])
    assert e.value.field == "no_such_input"


REQUIRED = [(p, i.name) for p in PROCEDURES for i in p.contract.inputs if i.required]


@pytest.mark.parametrize(("proc", "name"), REQUIRED, ids=[f"{p.id}-{n}" for p, n in REQUIRED])
def test_a_missing_required_input_is_refused_by_name(proc, name):
    inputs = {k: v for k, v in proc.example.items() if k != name}
    with pytest.raises(rules.InputError) as e:
        rules.resolve(proc.id, inputs, [])
    assert e.value.field == name


NUMBERS = [
    (p, i)
    for p in PROCEDURES
    for i in p.contract.inputs
    if isinstance(base_type(i.type), (IntType, FloatType, RationalType))
]


@pytest.mark.parametrize(("proc", "spec"), NUMBERS, ids=[f"{p.id}-{i.name}" for p, i in NUMBERS])
def test_a_bool_is_never_a_number(proc, spec):
    for flag in (True, False):
        with pytest.raises(rules.InputError) as e:
            rules.resolve(proc.id, {**proc.example, spec.name: flag}, [])
        assert e.value.field == spec.name


INTS_IN_EXAMPLES = [
    (p, i.name)
    for p in PROCEDURES
    for i in p.contract.inputs
    if isinstance(base_type(i.type), IntType) and type(p.example.get(i.name)) is int
]


@pytest.mark.parametrize(("proc", "name"), INTS_IN_EXAMPLES, ids=[f"{p.id}-{n}" for p, n in INTS_IN_EXAMPLES])
def test_an_integral_float_is_normalised_to_int(proc, name):
    value = proc.example[name]
    as_int = rules.resolve(proc.id, proc.example, rules.SeededDice(3)).to_dict()
    as_float = rules.resolve(proc.id, {**proc.example, name: float(value)}, rules.SeededDice(3)).to_dict()
    assert type(as_float["inputs"][name]) is int
    assert as_float == as_int
    with pytest.raises(rules.InputError) as e:
        rules.resolve(proc.id, {**proc.example, name: value + 0.5}, [])
    assert e.value.field == name


ENUMS = [(p, i) for p in PROCEDURES for i in p.contract.inputs if isinstance(base_type(i.type), EnumType)]


@pytest.mark.parametrize(("proc", "spec"), ENUMS, ids=[f"{p.id}-{i.name}" for p, i in ENUMS])
def test_an_enum_takes_exactly_its_listed_strings(proc, spec):
    choices = base_type(spec.type).choices
    wrong = ["not_a_choice", "", 1, True, [choices[0]]]
    wrong += [c.upper() for c in choices if c.upper() != c][:1]
    wrong += [" " + choices[0]]
    for value in wrong:
        with pytest.raises(rules.InputError) as e:
            rules.resolve(proc.id, {**proc.example, spec.name: value}, [])
        assert e.value.field == spec.name, value
    for choice in choices:
        normalised, _ = proc.normalise({**proc.example, spec.name: choice})
        assert normalised[spec.name] == choice


ALL_INPUTS = [(p, i) for p in PROCEDURES for i in p.contract.inputs]


@pytest.mark.parametrize(("proc", "spec"), ALL_INPUTS, ids=[f"{p.id}-{i.name}" for p, i in ALL_INPUTS])
def test_null_is_accepted_exactly_where_the_type_says_t_or_null(proc, spec):
    # Validation only: a procedure may still refuse a null in some combination (C.2 refusals).
    inputs = {**proc.example, spec.name: None}
    if isinstance(spec.type, NullableType):
        normalised, _ = proc.normalise(inputs)
        assert normalised[spec.name] is None
    else:
        with pytest.raises(rules.InputError) as e:
            proc.normalise(inputs)
        assert e.value.field == spec.name


BOUNDED = [
    (p, i)
    for p in PROCEDURES
    for i in p.contract.inputs
    if (i.min is not None or i.max is not None) and isinstance(base_type(i.type), (IntType, FloatType))
]


@pytest.mark.parametrize(("proc", "spec"), BOUNDED, ids=[f"{p.id}-{i.name}" for p, i in BOUNDED])
def test_a_value_outside_a_stated_range_is_refused_by_name(proc, spec):
    step = 1 if isinstance(base_type(spec.type), IntType) else 0.5
    outside = []
    if spec.min is not None:
        outside.append(math.floor(spec.min) - 1 if step == 1 else spec.min - step)
    if spec.max is not None:
        outside.append(math.ceil(spec.max) + 1 if step == 1 else spec.max + step)
    for value in outside:
        with pytest.raises(rules.InputError) as e:
            rules.resolve(proc.id, {**proc.example, spec.name: value}, [])
        assert e.value.field == spec.name


@each_procedure
def test_inputs_are_validated_before_any_die(proc):
    bad = {**proc.example, "no_such_input": 1}
    for dice in ([], [0], [99, 99, 99], [True], ["x"], [1] * 200):
        with pytest.raises(rules.InputError):
            rules.resolve(proc.id, bad, dice)


# ---------------------------------------------------------------- C.2 inputs, one rule at a time


def malfunction_error(**inputs):
    with pytest.raises(rules.InputError) as e:
        rules.resolve(MALF, inputs, [1, 1])
    return e.value


def test_int_and_float_rules():
    d = rules.resolve(MALF, {"kf_integrity": 4.0, "kf_integrity_max": 4, "hours_since_last_jump": 5}, [1, 1])
    assert type(d.to_dict()["inputs"]["kf_integrity"]) is int
    assert d.to_dict()["inputs"]["kf_integrity"] == 4
    assert d.to_dict()["inputs"]["hours_since_last_jump"] == 5  # a float input takes an int
    assert malfunction_error(kf_integrity=4.5).field == "kf_integrity"
    assert malfunction_error(kf_integrity=True).field == "kf_integrity"
    assert malfunction_error(kf_integrity="4").field == "kf_integrity"
    assert malfunction_error(kf_integrity=float("inf")).field == "kf_integrity"
    assert malfunction_error(hours_since_last_jump=float("nan")).field == "hours_since_last_jump"
    assert malfunction_error(hours_since_last_jump=False).field == "hours_since_last_jump"
    assert malfunction_error(hours_since_last_jump=-1).field == "hours_since_last_jump"


def test_bool_and_t_or_null_rules():
    ok = rules.resolve(MALF, {"hours_since_last_jump": None, "kf_integrity": None}, [1, 1])
    assert ok.to_dict()["inputs"]["hours_since_last_jump"] is None
    assert malfunction_error(charged_from_reactor=None).field == "charged_from_reactor"
    assert malfunction_error(charged_from_reactor=1).field == "charged_from_reactor"
    assert malfunction_error(charged_from_reactor="true").field == "charged_from_reactor"


def test_the_inputs_must_be_an_object():
    with pytest.raises(rules.InputError):
        rules.resolve(MALF, [("hours_since_last_jump", 1)], [1, 1])


def test_a_bad_list_element_names_the_list():
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.hex_modifiers", {"base_terrain": "heavy_woods", "conditions": ["no_such"]}, [])
    assert e.value.field == "conditions"
    with pytest.raises(rules.InputError) as e:
        rules.resolve("terrain.hex_modifiers", {"base_terrain": "heavy_woods", "conditions": "mud"}, [])
    assert e.value.field == "conditions"


def unit(uid, move_cost, speed, range_hexes=3, size_class=4):
    return {
        "id": uid,
        "range_hexes": range_hexes,
        "size_class": size_class,
        "move_cost": move_cost,
        "speed": speed,
    }


def pursuit_error(units):
    with pytest.raises(rules.InputError) as e:
        rules.resolve(PURSUIT, {"units": units}, [])
    return e.value


def test_an_object_has_exactly_its_listed_fields():
    assert pursuit_error([{**unit("A", 1, 5), "colour": "red"}]).field == "units"
    missing_speed = {k: v for k, v in unit("A", 1, 5).items() if k != "speed"}
    assert pursuit_error([missing_speed]).field == "units"
    assert pursuit_error([{**unit("A", 1, 5), "speed": True}]).field == "units"
    assert pursuit_error(["A"]).field == "units"


def test_a_rational_takes_an_int_a_float_or_p_over_q():
    for written, normalised in ((1, 1), (0.5, 0.5), ("1/3", "1/3"), (" 2 / 3 ", "2/3")):
        d = rules.resolve(PURSUIT, {"units": [unit("A", written, 5)]}, []).to_dict()
        assert d["inputs"]["units"][0]["move_cost"] == normalised
    for bad in ("1/0", "a/b", "1/3/4", "one third", True, None, [1, 3]):
        assert pursuit_error([unit("A", bad, 5)]).field == "units", bad


def test_a_rational_compares_exactly():
    # 1/3 < 0.34 < 1/2: the lower movement cost decides.
    r = rules.resolve(PURSUIT, {"units": [unit("A", "1/2", 1), unit("B", 0.34, 9), unit("C", "1/3", 9)]}, [])
    assert r.to_dict()["result"]["target_id"] == "C"


def test_a_rational_float_means_the_decimal_it_was_written_as():
    rational = RationalType()
    assert rational.freeze(0.2) == Fraction(1, 5)
    assert rational.freeze(0.1) == Fraction(1, 10)
    assert rational.freeze(2.5) == Fraction(5, 2)
    assert rational.freeze(3) == Fraction(3)
    assert rational.freeze("1/3") == Fraction(1, 3)


def test_a_float_move_cost_ties_with_the_same_fraction_written_p_over_q():
    # 0.2 and "1/5" are the same movement cost, so the lower speed (A) decides.
    r = rules.resolve(PURSUIT, {"units": [unit("A", 0.2, 5), unit("B", "1/5", 10)]}, []).to_dict()["result"]
    assert r == {"target_id": "A", "candidate_ids": ["A", "B"], "decided_by": "speed"}


# ---------------------------------------------------------------- C.3 dice


def dice_error(dice, inputs=None, pid=MALF):
    with pytest.raises(rules.DiceError) as e:
        rules.resolve(pid, {} if inputs is None else inputs, dice)
    return str(e.value)


def test_dice_entries_must_be_whole_numbers_in_range():
    assert rules.resolve(MALF, {}, [6, 5]).to_dict()["rolls"] == [
        {"label": "malfunction", "sides": 6, "values": [6, 5], "total": 11}
    ]
    for bad in ([1, "2"], [1, 2.0], [1, None], [True, 1], [1, False], [7, 1], [0, 1], [-1, 1], [1, 7]):
        dice_error(bad)
    for bad in ("6,5", {"a": 1}, 11, 6.0):
        dice_error(bad)


def test_too_few_dice_names_the_roll_that_is_short():
    assert "malfunction" in dice_error([])
    assert "malfunction" in dice_error([6])
    assert "effect" in dice_error([6, 6])  # a mishap rolls the effect 2D6 next
    assert "effect d6" in dice_error([6, 6, 6, 6])  # a natural 12 rolls one more die


def test_dice_left_over_are_refused():
    message = dice_error([1, 1, 4])
    assert "4" in message
    dice_error([1] * 3, pid="jump.basic_constants")


def test_a_procedure_without_dice_takes_none_or_an_empty_list():
    a = rules.resolve("jump.basic_constants", {}, None).to_dict()
    b = rules.resolve("jump.basic_constants", {}, []).to_dict()
    assert a == b
    assert a["rolls"] == []
    dice_error([1], pid="jump.basic_constants")


def test_a_1dn_pick_takes_one_die_of_n_sides():
    tied = [unit("A", 1, 5), unit("B", 1, 5), unit("C", 1, 5)]
    d = rules.resolve(PURSUIT, {"units": tied}, [3]).to_dict()
    assert d["rolls"] == [{"label": "tie", "sides": 3, "values": [3], "total": 3}]
    assert d["result"]["target_id"] == "C"
    dice_error([4], {"units": tied}, PURSUIT)
    dice_error([], {"units": tied}, PURSUIT)


def test_a_d100_takes_one_die_of_a_hundred_sides():
    inputs = {"method": "reactor", "target_hours": 100}
    d = rules.resolve("drive.charge", inputs, [100]).to_dict()
    assert d["rolls"] == [{"label": "failure", "sides": 100, "values": [100], "total": 100}]
    dice_error([101], inputs, "drive.charge")
    dice_error([50, 50], inputs, "drive.charge")


@each_procedure
def test_the_server_dice_are_recorded_so_the_same_dice_replay_the_outcome(proc):
    for seed in range(3):
        rolled = seeded(proc, seed).to_dict()
        assert rules.resolve(proc.id, proc.example, flat(rolled["rolls"])).to_dict() == rolled


@each_procedure
def test_short_long_and_out_of_range_dice_are_refused(proc):
    rolled = seeded(proc).to_dict()
    dice = flat(rolled["rolls"])
    if not dice:
        assert rules.resolve(proc.id, proc.example, []).to_dict()["result"] == rolled["result"]
        with pytest.raises(rules.DiceError):
            rules.resolve(proc.id, proc.example, [1])
        return
    last = rolled["rolls"][-1]["label"]
    with pytest.raises(rules.DiceError) as e:
        rules.resolve(proc.id, proc.example, dice[:-1])
    assert last.replace("_", " ") in str(e.value) or last in str(e.value)
    with pytest.raises(rules.DiceError):
        rules.resolve(proc.id, proc.example, [*dice, 1])
    sides = rolled["rolls"][0]["sides"]
    for wrong in (0, sides + 1, True, float(dice[0]), str(dice[0])):
        with pytest.raises(rules.DiceError):
            rules.resolve(proc.id, proc.example, [wrong, *dice[1:]])


def test_fixed_dice_are_consumed_in_order_and_recorded():
    dice = rules.FixedDice([3, 4, 5])
    assert dice.roll("a", 2) == (3, 4)
    assert dice.total("b", 1) == 5
    dice.finish()
    assert [r.to_dict() for r in dice.rolls] == [
        {"label": "a", "sides": 6, "values": [3, 4], "total": 7},
        {"label": "b", "sides": 6, "values": [5], "total": 5},
    ]
    with pytest.raises(rules.DiceError):
        rules.FixedDice([3, 4]).finish()
    for bad in ("34", [3, True], [3.0]):
        with pytest.raises(rules.DiceError):
            rules.FixedDice(bad)


def test_a_dice_source_is_used_as_given():
    source = rules.FixedDice([6, 6, 1, 1])
    outcome = rules.resolve(MALF, {}, source)
    assert outcome.to_dict()["result"]["mishap"] is True
    assert [r.label for r in source.rolls] == ["malfunction", "effect"]


def test_seeded_dice_are_reproducible():
    a, b, c = rules.SeededDice(42), rules.SeededDice(42), rules.SeededDice(43)
    rolls_a = [a.roll("x", 10) for _ in range(5)]
    assert rolls_a == [b.roll("x", 10) for _ in range(5)]
    assert rolls_a != [c.roll("x", 10) for _ in range(5)]
    assert rules.SeededDice("seed").roll("x", 20, 100) == rules.SeededDice("seed").roll("x", 20, 100)
    for proc in PROCEDURES:
        assert seeded(proc, 9).to_dict() == seeded(proc, 9).to_dict()


def test_the_server_dice_are_the_system_rng(monkeypatch):
    assert isinstance(rules.RandomDice().rng, random.SystemRandom)
    calls = []

    def highest(self, low, high):
        calls.append((low, high))
        return high

    monkeypatch.setattr(random.SystemRandom, "randint", highest)
    d = rules.resolve(MALF, {}, None).to_dict()
    # All sixes: mishap, then a natural 12 on the effect roll, so 11 + 1D6.
    assert flat(d["rolls"]) == [6] * 5
    assert [r["label"] for r in d["rolls"]] == ["malfunction", "effect", "effect_d6"]
    assert calls == [(1, 6)] * 5


# ---------------------------------------------------------------- C.6 odds


# A list of every roll of a re-roll loop, re-rolls included: too many values to list in time.
ESTIMATED_EXAMPLE_KEYS = {("boarding.bs_to_bt_damage", "location_rolls")}


@each_procedure
def test_odds_of_every_result_key_are_exact_and_sum_to_one(proc):
    seen = [seeded(proc, s).to_dict()["result"] for s in range(4)]
    for key in proc.result_keys:
        if (proc.id, key) in ESTIMATED_EXAMPLE_KEYS:
            dist = rules.odds(proc.id, proc.example, key)
            assert dist.exact is False and dist.margin > 0
            assert abs(sum(dist.values()) - 1) < 1e-9
            continue
        dist = rules.odds(proc.id, proc.example, key)
        assert dist
        assert all(isinstance(p, Fraction) and p > 0 for p in dist.values()), key
        assert sum(dist.values()) == 1, key
        assert dist.exact, key
        for value in dist:
            assert_plain_hashable(value)
        for result in seen:
            assert c6_key(result[key]) in dist, key
    assert rules.odds(proc.id, proc.example) == rules.odds(proc.id, proc.example, proc.headline)


def test_the_catalogue_odds_example():
    assert rules.odds(MALF, {}) == {False: Fraction(35, 36), True: Fraction(1, 36)}


def test_odds_without_dice_are_certain():
    outcome = rules.resolve("jump.basic_constants", {}, [])
    assert rules.odds("jump.basic_constants", {}) == {outcome.headline: 1}


def test_odds_keys_of_lists_and_objects_are_tuples():
    w1 = {"base_terrain": "heavy_woods", "conditions": ["mud"]}
    result = rules.resolve("terrain.hex_modifiers", w1, []).to_dict()["result"]
    assert rules.odds("terrain.hex_modifiers", w1, "prohibited") == {tuple(result["prohibited"]): 1}
    assert rules.odds("terrain.hex_modifiers", w1, "flags") == {tuple(sorted(result["flags"].items())): 1}
    proc = rules.get("booby_trap.fill_weapons")
    assert all(isinstance(k, tuple) for k in rules.odds(proc.id, proc.example))


def test_odds_validate_inputs_and_the_key():
    with pytest.raises(rules.InputError) as e:
        rules.odds(MALF, {"kf_integrity": True})
    assert e.value.field == "kf_integrity"
    with pytest.raises(rules.InputError) as e:
        rules.odds(MALF, {"no_such_input": 1})
    assert e.value.field == "no_such_input"
    with pytest.raises(rules.InputError) as e:
        rules.odds(MALF, {}, "no_such_key")
    assert e.value.field == "key"


def test_exact_only_odds_refuse_a_case_with_too_many_dice_paths():
    # A fall exposes all eight locations, each 2D6: 11^8 damage combinations.
    inputs = {"unit_type": "battlemech", "movement_path": ["crust"], "entry": "walk_run"}
    with pytest.raises(rules.OddsError):
        rules.odds("terrain.magma", inputs, "damage", exact_only=True)
    assert issubclass(rules.OddsError, ValueError)
    assert not rules.odds("terrain.magma", inputs, "damage").exact  # without it: an estimate


@pytest.mark.parametrize(
    ("pid", "key"),
    [
        (MALF, None),
        (MALF, "effect"),
        ("sensor.emergence_wave", None),
        ("boarding.landing", None),
        ("gforce.tactical", None),
        ("shipboard.over_penetration", None),
    ],
)
def test_odds_agree_with_rolling_the_dice_many_times(pid, key):
    proc = rules.get(pid)
    key = key or proc.headline
    runs = 8000
    dist = rules.odds(pid, proc.example, key)
    counts = Counter(
        c6_key(rules.resolve(pid, proc.example, rules.SeededDice(seed)).to_dict()["result"][key])
        for seed in range(runs)
    )
    assert set(counts) <= set(dist)
    for value, p in dist.items():
        freq = counts[value] / runs
        tolerance = 4.5 * math.sqrt(p * (1 - p) / runs) + 1 / runs
        assert abs(freq - p) <= tolerance, (value, freq, float(p))


# ---------------------------------------------------------------- titles, references, describe()


@each_procedure
def test_every_procedure_explains_itself(proc):
    assert isinstance(proc.title, str)
    assert proc.title.strip()
    seed = SEED_A if proc.family == "booby_trap" else SEED_B
    assert seed in proc.reference
    assert proc.reference.strip() != seed  # the section is named too
    d = proc.describe()
    json.dumps(d)
    assert (d["id"], d["title"], d["reference"]) == (proc.id, proc.title, proc.reference)
    assert [i["name"] for i in d["inputs"]] == [i.name for i in proc.contract.inputs]
    for spec, meta in zip(proc.contract.inputs, d["inputs"], strict=True):
        assert meta["type"] == base_type(spec.type).describe()["type"]
        assert isinstance(meta["help"], str)
        assert meta["required"] is spec.required
        assert meta["nullable"] is isinstance(spec.type, NullableType)
        if spec.required:
            assert "default" not in meta
        else:
            assert meta["default"] == spec.default
        if isinstance(base_type(spec.type), EnumType):
            assert meta["choices"] == list(base_type(spec.type).choices)
            assert meta["choices"]
    assert [k["name"] for k in d["result"]] == list(proc.result_keys)
    assert d["dice"] == proc.contract.dice


def test_input_help_comes_from_the_contract_comments():
    meta = {i["name"]: i for i in rules.get(MALF).describe()["inputs"]}
    assert meta["hours_since_last_jump"]["help"] == "null = never jumped"
    assert meta["hours_since_last_jump"]["type"] == "float"
    assert meta["hours_since_last_jump"]["default"] is None
    assert meta["hours_since_last_jump"]["min"] == 0
    assert meta["charged_from_reactor"]["default"] is False
    enum = {i["name"]: i for i in rules.get("drive.charge").describe()["inputs"]}["method"]
    assert enum["type"] == "enum"
    assert "reactor" in enum["choices"]
