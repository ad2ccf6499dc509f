"""Every refusal the input generators can provoke reads as a form's help text does ("must
be a whole number", "must be 20 or fewer"): no code notation in the message, which a GM
reads beside the field. The field is carried apart from the message (``InputError.field``;
the command line prints ``InputError: <field>: <message>``)."""

from __future__ import annotations

import copy
import math

import pytest

import rules
from rules import samples
from rules.schema import (
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_NUMBER,
    MAX_TEXT,
    ChartType,
    EnumType,
    FloatType,
    IntType,
    ListType,
    NullableType,
    ObjectType,
    Table2d6Type,
)
from tests.plain_words import refusal_notation

HOSTILE = [
    "abc",
    "",
    "a\x00b",
    "x" * (MAX_TEXT + 1),
    True,
    False,
    None,
    1.5,
    -1,
    0,
    MAX_NUMBER + 1,
    -MAX_NUMBER - 1,
    math.inf,
    -math.inf,
    math.nan,
    [],
    [1, 2],
    ["abc"],
    [None],
    {},
    {"a": 1},
    {"bogus_field": 1},
    [0] * (MAX_ITEMS + 1),
    {str(n): n for n in range(MAX_ITEMS + 1)},
]


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def bad_values(spec, current):
    """Values the input should refuse, or that push it past an edge."""
    values = [*HOSTILE, nested(MAX_DEPTH + 1)]
    if spec.min is not None:
        values += [spec.min - 1, spec.min - 0.5]
    if spec.max is not None:
        values += [spec.max + 1, spec.max + 0.5]
    inner = spec.type.inner if isinstance(spec.type, NullableType) else spec.type
    if isinstance(inner, ListType):
        item = inner.item
        values += [[v] for v in HOSTILE[:16]]
        if isinstance(item, ObjectType) and isinstance(current, list) and current:
            record = current[0]
            values += [[{**record, "bogus_field": 1}], [record, record], [{}]]
            values += [[{**record, name: v}] for name in record for v in ("abc", None, -1, [], True)]
        if isinstance(item, (IntType, FloatType)) and spec.min is not None:
            values.append([spec.min - 1])
    if isinstance(inner, (Table2d6Type, ChartType)) or isinstance(current, dict):
        base = current if isinstance(current, dict) else {}
        values += [{"1": "x"}, {"13": 1}, {"2": None}, {"2": "abc"}, {"2": -1}]
        if base:
            first = next(iter(base))
            values += [{**base, first: v} for v in ("abc", None, -1, [], True, {"bogus": 1})]
            values.append(dict(list(base.items())[1:]))
    if isinstance(inner, ChartType):
        from rules.tables.booby_trap import TORPEDO_CHART

        chart = copy.deepcopy(TORPEDO_CHART)
        chart["7"] = {"weapon": "Mauler", "spaces": 1}
        values.append(chart)
        values.append({k: {**v, "spaces": 2} for k, v in TORPEDO_CHART.items()})
        values.append({**TORPEDO_CHART, "2": {"weapon": "Light", "spaces": 1}})
    if isinstance(inner, EnumType):
        values += [c.upper() for c in inner.choices] + [c + " " for c in inner.choices]
    return values


def provoked_refusals():
    """(procedure, field, message) for every refusal the generators provoke."""
    seen = set()
    for proc in rules.all_procedures():
        base = samples.accepted_inputs(proc, mixtures=0)[0]
        trials = [{**base, "bogus_input": 1}]
        trials += [{k: v for k, v in base.items() if k != s.name} for s in proc.contract.inputs if s.required]
        for spec in proc.contract.inputs:
            trials += [{**base, spec.name: v} for v in bad_values(spec, base.get(spec.name))]
        trials += list(samples.candidate_inputs(proc, mixtures=40, seed=1))
        for inputs in trials:
            for call in (_resolve, _odds):
                try:
                    call(proc, inputs)
                except rules.InputError as error:
                    if (proc.id, error.field, error.message) not in seen:
                        seen.add((proc.id, error.field, error.message))
                        yield proc.id, error.field, error.message
                except (rules.DiceError, rules.OddsError):
                    pass


def _resolve(proc, inputs):
    rules.resolve(proc.id, inputs, rules.SeededDice(0))


def _odds(proc, inputs):
    rules.odds(proc.id, inputs, time_limit=0.02)


REFUSALS = list(provoked_refusals())


def test_the_generators_provoke_refusals_of_every_procedure():
    assert {pid for pid, _, _ in REFUSALS} == set(rules.PROCEDURE_IDS)
    assert len(REFUSALS) > 1000


def test_every_refusal_reads_in_plain_words():
    found = {}
    for pid, field, message in REFUSALS:
        if problems := refusal_notation(message):
            found.setdefault(f"{pid} {field}: {message}", problems)
    assert found == {}, f"{len(found)} of {len(REFUSALS)} refusals:\n" + "\n".join(list(found)[:60])


def test_the_refusal_pattern_catches_code_and_passes_words():
    code = [
        "must be a whole number (got 'abc')",
        "must be null",
        "must be text (got None)",
        "must be true or false (got True)",
        "unknown field 'bogus' (expected id, facings)",
        "is not an input of jump.malfunction",
        "must be one of none, deep_space, planet_with_moon",
        "more than 5 fill rolls would be needed [A15]",
        'keys must be 2D6 totals "2".."12" (got 13)',
    ]
    assert [c for c in code if not refusal_notation(c)] == []
    words = [
        "must be a whole number",
        "must be 20 or fewer",
        "must be at least 1",
        "the 'Mech's Control Roll needs Piloting",
        "must be yes or no",
        "a chart needs an entry for every roll from 2 to 12",
    ]
    assert {w: refusal_notation(w) for w in words} == {w: [] for w in words}


@pytest.mark.parametrize(
    "args",
    [
        ["--input", "mode=mechwarrior", "--input", "thrust_points=abc"],
        ["--input", "mode=mechwarrior", "--input", "thrust_points=31"],
        ["--input", "mode=scramble"],
    ],
)
def test_the_command_line_keeps_the_field_name_in_front_of_the_plain_message(args):
    from io import StringIO

    from django.core.management import call_command

    err = StringIO()
    with pytest.raises(SystemExit):
        call_command("resolve", "gforce.tactical", *args, stdout=StringIO(), stderr=err)
    field, message = err.getvalue().strip().removeprefix("InputError: ").split(": ", 1)
    assert field in ("thrust_points", "mode")
    assert refusal_notation(message) == []
