"""C.5 / C.9: every effect a procedure emits names a target and field its contract lists.

Checked over the seeds' worked examples, each procedure's example with many dice, and a
spread of generated inputs (those the engine refuses are skipped; enough must pass)."""

import copy
import json
import random
import re
from pathlib import Path

import pytest

import rules
from rules.schema import (
    BoolType,
    ChartType,
    EnumType,
    FloatType,
    IntType,
    ListType,
    MapType,
    NullableType,
    ObjectType,
    RationalType,
    StrType,
    Table2d6Type,
)

EXAMPLES = json.loads((Path(__file__).resolve().parent / "data" / "public_examples.json").read_text())
PROCEDURES = rules.all_procedures()
WORDS = ("A", "B", "LL", "RL", "CT", "HD", "nose", "aft", "minor", "major", "x")


def contract_effects(proc) -> list[dict]:
    """The ``effects:`` lines of a contract as dicts (``as <id>`` borrows another's)."""
    text = proc.contract.effects.strip()
    if text in ("", "none"):
        return []
    found = []
    for line in text.splitlines():
        line = line.strip().removeprefix("- ").strip()
        if line.startswith("as "):
            found += contract_effects(rules.get(line[3:].strip()))
            continue
        effect, _ = json.JSONDecoder().raw_decode(line)
        found.append(effect)
    return found


def field_pattern(field: str) -> re.Pattern:
    """``armor.<facing>`` -> one path segment in place of the placeholder; ``a|b`` -> either."""
    options = []
    for option in field.split("|"):
        parts = re.split(r"(<[^>]+>)", option)
        options.append("".join(r"[^.\[\]]+" if p.startswith("<") else re.escape(p) for p in parts))
    return re.compile("|".join(f"(?:{o})" for o in options))


def allowed(proc):
    return [(e["target"], field_pattern(e["field"]), e["op"]) for e in contract_effects(proc)]


def check_effects(proc, outcome) -> None:
    patterns = allowed(proc)
    for effect in outcome.to_dict()["effects"]:
        assert any(
            effect["target"] == target and pattern.fullmatch(effect["field"]) and effect["op"] == op
            for target, pattern, op in patterns
        ), f"{proc.id} emitted {effect}, which its contract's effects do not list"


def test_the_patterns_read_the_catalogue_notation():
    assert field_pattern("armor.<facing>").fullmatch("armor.nose")
    assert not field_pattern("armor.<facing>").fullmatch("dropships_carried.u1.armor.nose")
    assert field_pattern("drone_racks[<i>].loaded").fullmatch("drone_racks[0].loaded")
    assert field_pattern("drive_charged|lf_battery_charged").fullmatch("lf_battery_charged")
    assert field_pattern("<system>_disabled").fullmatch("life_support_disabled")
    assert len(contract_effects(rules.get("ram.deliberate"))) == len(
        contract_effects(rules.get("ram.accidental"))
    )


def value_for(typ, rng: random.Random, depth: int = 0):
    """A random value of a contract type, mostly small and plausible."""
    if isinstance(typ, NullableType):
        return None if rng.random() < 0.3 else value_for(typ.inner, rng, depth)
    if isinstance(typ, BoolType):
        return rng.random() < 0.5
    if isinstance(typ, IntType):
        return rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12))
    if isinstance(typ, (FloatType, RationalType)):
        return rng.choice((0, 0.5, 1, 2, 3.5, 5, 10, 30, 100, 1000))
    if isinstance(typ, EnumType):
        return rng.choice(typ.choices)
    if isinstance(typ, StrType):
        return rng.choice(WORDS)
    if isinstance(typ, ListType):
        return [value_for(typ.item, rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if isinstance(typ, ObjectType):
        return {f.name: value_for(f.type, rng, depth + 1) for f in typ.fields}
    if isinstance(typ, MapType):
        return {loc: value_for(typ.value_type, rng, depth + 1) for loc in rng.sample(["LL", "RL", "CT"], 2)}
    if isinstance(typ, Table2d6Type):
        return {str(k): value_for(typ.item, rng, depth + 1) for k in range(2, 13)}
    if isinstance(typ, ChartType):
        return None
    raise AssertionError(f"no generator for {typ!r}")


def generated_inputs(proc, rng: random.Random) -> dict:
    """The example with some inputs replaced by random values of their types."""
    inputs = copy.deepcopy(proc.example)
    for spec in proc.contract.inputs:
        if rng.random() < 0.5:
            inputs[spec.name] = value_for(spec.type, rng)
    return inputs


@pytest.mark.parametrize("vector", EXAMPLES, ids=[v["id"] for v in EXAMPLES])
def test_the_worked_examples_emit_only_contract_fields(vector):
    if "expect" not in vector:
        return
    proc = rules.get(vector["procedure"])
    check_effects(proc, rules.resolve(proc.id, vector["inputs"], vector["dice"]))


@pytest.mark.parametrize("proc", PROCEDURES, ids=[p.id for p in PROCEDURES])
def test_every_emitted_effect_is_one_the_contract_lists(proc):
    rng = random.Random(proc.id)
    resolved = 0
    for seed in range(60):
        check_effects(proc, rules.resolve(proc.id, proc.example, rules.SeededDice(seed)))
        resolved += 1
    generated = 0
    for seed in range(400):
        inputs = generated_inputs(proc, rng)
        try:
            outcome = rules.resolve(proc.id, inputs, rules.SeededDice(seed))
        except rules.InputError:
            continue  # refused inputs emit nothing
        check_effects(proc, outcome)
        generated += 1
    assert resolved == 60
    assert generated >= 20, f"only {generated} generated inputs were accepted"


def test_a_failed_arrival_with_carried_dropships_names_only_the_arriving_ships_fields():
    proc = rules.get("jump.nonstandard_arrival")
    ships = [
        {"id": "invader", "facings": ["nose", "aft"]},
        {"id": "union-1", "facings": ["nose", "aft"]},
        {"id": "leopard", "facings": ["nose"]},
    ]
    # Roll 3 vs TN 5: MoF 2, so 2D6 on each of the five facings.
    outcome = rules.resolve(
        proc.id, {"navigation_tn": 5, "kf_integrity": 9, "ships": ships}, [1, 2] + [1] * 10
    )
    check_effects(proc, outcome)
    assert [e["field"] for e in outcome.effects] == ["kf_integrity", "armor.nose", "armor.aft"]
    assert [d["ship"] for d in outcome.result["facing_damage"]] == ["invader"] * 2 + ["union-1"] * 2 + [
        "leopard"
    ]
    assert "union-1" in outcome.summary
    assert "leopard" in outcome.summary
