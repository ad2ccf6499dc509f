"""Inputs to exercise a procedure with: its example, then each input moved to the edges
of what it accepts (every enum choice, null, each stated bound and the input limits of
C.9), then seeded mixtures of those. The benchmark times the odds of every result key over
them, and the tests draw from the same pools.

Not every candidate is accepted (a mixture may describe a state that cannot exist);
:func:`accepted_inputs` keeps those the procedure takes.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from .dice import SeededDice
from .errors import DiceError, InputError
from .registry import Procedure, resolve
from .schema import (
    MAX_ITEMS,
    MAX_NUMBER,
    MAX_TEXT,
    BoolType,
    ChartType,
    EnumType,
    FloatType,
    Input,
    IntType,
    ListType,
    NullableType,
    RationalType,
    StrType,
)
from .tables.booby_trap import TORPEDO_CHART

SMALL_NUMBERS = (0, 1, 2, 3, 4, 6, 7, 10, 12, 20, 100)


def _numbers(spec: Input, integral: bool) -> list[Any]:
    low = -MAX_NUMBER if spec.min is None else spec.min
    high = MAX_NUMBER if spec.max is None else spec.max
    values = [low, high, *SMALL_NUMBERS, -1, -2]
    if spec.min is not None:
        values.append(spec.min + 1)
    if spec.max is not None:
        values.append(spec.max - 1)
    if not integral:
        values += [0.5, 1e-15, 2.5]
    picked = []
    for v in values:
        v = int(v) if integral and float(v).is_integer() else v
        if low <= v <= high and v not in picked:
            picked.append(v)
    return picked


def value_pool(spec: Input, current: Any) -> list[Any]:
    """Values worth trying for one input: valid-looking, edges first."""
    typ = spec.type
    pool: list[Any] = [current]
    inner = typ.inner if isinstance(typ, NullableType) else typ
    if isinstance(typ, NullableType):
        pool.append(None)
    if isinstance(inner, BoolType):
        pool += [True, False]
    elif isinstance(inner, EnumType):
        pool += list(inner.choices)
    elif isinstance(inner, IntType):
        pool += _numbers(spec, True)
    elif isinstance(inner, FloatType):
        pool += _numbers(spec, False)
    elif isinstance(inner, RationalType):
        pool += ["1/3", 0, 1, 2.5, "7/2"]
    elif isinstance(inner, StrType):
        pool += ["a", "x" * MAX_TEXT]
    elif isinstance(inner, ListType):
        pool += _lists(spec, inner, current)
    elif isinstance(inner, ChartType):
        pool.append(copy.deepcopy(TORPEDO_CHART))
    unique = []
    for value in pool:
        if value not in unique:
            unique.append(value)
    return unique


def _lists(spec: Input, typ: ListType, current: Any) -> list[Any]:
    lists: list[Any] = [[]]
    item = typ.item
    if isinstance(item, EnumType):
        lists += [[c] for c in item.choices] + [list(item.choices)]
        # As many entries as a list may hold: each choice throughout, and all of them in turn.
        lists += [[c] * MAX_ITEMS for c in item.choices]
        lists.append([item.choices[n % len(item.choices)] for n in range(MAX_ITEMS)])
    elif isinstance(item, (IntType, FloatType)):
        numbers = _numbers(spec, isinstance(item, IntType))
        lists += [[n] for n in numbers[:6]] + [[numbers[-1]] * MAX_ITEMS]
    elif isinstance(item, StrType):
        lists += [["a"], ["x" * MAX_TEXT]]
    if isinstance(current, list) and current:
        lists += [current[:1], current * 2]
    # As many records as a list may hold, each with its own id: copies of the example's
    # records and of the default's (the default may fill more of each record, such as a
    # ship's six facings).
    for source in (current, spec.default):
        if isinstance(source, list) and source and isinstance(source[0], dict) and "id" in source[0]:
            many = []
            for n in range(MAX_ITEMS):
                record = copy.deepcopy(source[n % len(source)])
                record["id"] = f"{record['id']}-{n}"
                many.append(record)
            lists.append(many)
    return lists


def candidate_inputs(proc: Procedure, mixtures: int = 40, seed: int = 0) -> Iterator[dict]:
    """The example, each input alone at every value of its pool, then seeded mixtures."""
    base = copy.deepcopy(dict(proc.example))
    for spec in proc.contract.inputs:
        if spec.name not in base and not spec.required:
            base[spec.name] = json.loads(json.dumps(spec.default))
    pools = {spec.name: value_pool(spec, base.get(spec.name)) for spec in proc.contract.inputs}
    yield base
    for name, pool in pools.items():
        for value in pool[1:]:
            yield {**base, name: copy.deepcopy(value)}
    # A list at its limit (C.9: 100 entries) beside every edge of each other input: the
    # largest inputs the limits allow, where the odds have the most to count.
    for name, pool in pools.items():
        for full in (v for v in pool if isinstance(v, list) and len(v) == MAX_ITEMS):
            for other, other_pool in pools.items():
                if other != name:
                    for value in other_pool[1:]:
                        yield {**base, name: copy.deepcopy(full), other: copy.deepcopy(value)}
    rng = random.Random(f"{proc.id}:{seed}")
    for _ in range(mixtures):
        mixed = dict(base)
        for name, pool in pools.items():
            if rng.random() < 0.5:
                mixed[name] = copy.deepcopy(rng.choice(pool))
        yield mixed


def accepted(proc: Procedure, inputs: dict) -> bool:
    """The procedure takes these inputs: a seeded resolve gives a result."""
    try:
        resolve(proc.id, inputs, SeededDice(0))
    except (InputError, DiceError):
        return False
    return True


def accepted_inputs(proc: Procedure, mixtures: int = 40, seed: int = 0) -> list[dict]:
    """Distinct candidate inputs the procedure accepts."""
    seen: set[str] = set()
    kept = []
    for inputs in candidate_inputs(proc, mixtures, seed):
        text = json.dumps(inputs, sort_keys=True)
        if text in seen:
            continue
        seen.add(text)
        if accepted(proc, inputs):
            kept.append(inputs)
    return kept
