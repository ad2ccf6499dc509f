"""Exact odds: run the real procedure over every dice path and weight each path.

The enumerating source hands a procedure one possible value for each group it draws.
Groups of several dice are enumerated as sorted multisets with their multinomial
weights (a 2D6 has 21 paths, not 36), which is exact because no procedure reads the
order of dice within one group. Re-roll loops (``roll_until``) draw from the
conditional distribution of the accepted values, so they end (C.6).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Any

from .dice import Dice, Roll
from .errors import InputError, OddsError
from .registry import get

MAX_PATHS = 1_000_000
PROBES = 200


def estimate_paths(proc, frozen, probes: int = PROBES, seed: int = 0) -> float:
    """Knuth's estimator of the number of dice paths: the mean, over random descents,
    of the product of the branch widths met on the way (unbiased for the leaf count)."""
    rng = random.Random(seed)
    total = 0
    for _ in range(probes):
        dice = _EnumeratingDice([], rng)
        proc.func(frozen, dice)
        total += math.prod(dice.widths)
    return total / probes


@functools.lru_cache(maxsize=256)
def _group_options(count: int, sides: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every sorted multiset of ``count`` dice of ``sides`` sides: (values, num, den)."""
    total = sides**count
    options = []
    for combo in itertools.combinations_with_replacement(range(1, sides + 1), count):
        arrangements = math.factorial(count)
        for v in set(combo):
            arrangements //= math.factorial(combo.count(v))
        options.append((combo, arrangements, total))
    return tuple(options)


@functools.lru_cache(maxsize=256)
def _sum_options(count: int, sides: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The distribution of a group's total, for procedures that read only the sum: each
    option is (one canonical set of dice with that total, num, den), totals ascending.

    Counted by convolution, one die at a time (count x totals x sides steps), not over
    every multiset of the group, which for 30D6 alone would be hundreds of thousands."""
    ways = {0: 1}
    for _ in range(count):
        step: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                step[total + face] = step.get(total + face, 0) + n
        ways = step
    den = sides**count
    return tuple((_dice_with_total(total, count, sides), n, den) for total, n in sorted(ways.items()))


def _dice_with_total(total: int, count: int, sides: int) -> tuple[int, ...]:
    """The first sorted set of ``count`` dice with that total (as many 1s as possible)."""
    values = [1] * count
    extra = total - count
    for i in range(count - 1, -1, -1):
        add = min(extra, sides - 1)
        values[i] += add
        extra -= add
    return tuple(values)


@functools.lru_cache(maxsize=1024)
def _accepted_options(count: int, sides: int, mask: tuple[bool, ...]):
    """The accepted values of a re-rolled group, with their conditional weights."""
    kept = [o for o, keep in zip(_group_options(count, sides), mask, strict=True) if keep]
    norm = sum(num for _, num, _ in kept)
    return tuple((values, num, norm) for values, num, _ in kept)


class _EnumeratingDice(Dice):
    """Follows ``prefix`` (an option index per draw), choosing option 0 past its end.

    A path's weight is kept as an integer fraction ``num/den`` (products of ints are
    far cheaper than of Fractions); it is reduced once, when the odds are summed."""

    def __init__(self, prefix: list[int], rng: random.Random | None = None) -> None:
        super().__init__()
        self.prefix = prefix
        self.rng = rng
        self.chosen: list[int] = []
        self.widths: list[int] = []
        self.num = 1
        self.den = 1

    def total(self, label: str, count: int, sides: int = 6) -> int:
        """Only the sum is read: enumerate totals (11 for 2D6) instead of multisets (21)."""
        values = self._choose(_sum_options(count, sides))
        self.rolls.append(Roll(label, sides, values))
        return sum(values)

    def _choose(self, options):
        i = len(self.chosen)
        if self.rng is not None:
            index = self.rng.randrange(len(options))
        else:
            index = self.prefix[i] if i < len(self.prefix) else 0
        self.chosen.append(index)
        self.widths.append(len(options))
        values, num, den = options[index]
        self.num *= num
        self.den *= den
        return values

    def _draw(self, label, count, sides, accept):
        options = _group_options(count, sides)
        if accept is not None:
            mask = tuple(accept(values) for values, _, _ in options)
            if not any(mask):
                raise OddsError(f"the {label} roll can never be accepted")
            options = _accepted_options(count, sides, mask)
        return self._choose(options)


def hashable(value: Any) -> Hashable:
    """Result values as odds keys (C.6): lists -> tuples, objects -> sorted item tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(hashable(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, hashable(v)) for k, v in value.items()))
    return value


def odds(
    procedure_id: str,
    inputs: Mapping[str, Any] | None = None,
    key: str | None = None,
    *,
    time_limit: float | None = None,
) -> dict:
    """Exact probability of every value of the headline result (or ``key``).

    ``time_limit`` (seconds) bounds the work, for callers that must answer quickly
    (a web page); past it, ``OddsError`` says so instead of guessing."""
    proc = get(procedure_id)
    key = key or proc.headline
    if key not in proc.result_keys:
        raise InputError("key", f"{procedure_id} has no result {key!r}")
    _, frozen = proc.normalise(inputs)
    try:
        return _enumerate(proc, frozen, procedure_id, key, time_limit)
    except OverflowError:  # float arithmetic past 1.8e308 on inputs within the caps
        raise InputError("inputs", "these numbers are too large to compute with") from None


def _enumerate(proc, frozen, procedure_id: str, key: str, time_limit: float | None) -> dict:
    # (value, denominator) -> summed numerators; reduced to Fractions at the end.
    key_type = next(k.type for k in proc.contract.result if k.name == key)
    estimate = estimate_paths(proc, frozen)
    if estimate > MAX_PATHS:
        raise OddsError(_too_many(procedure_id, int(estimate)))
    # (value, denominator) -> summed numerators; reduced to Fractions at the end.
    sums: dict[tuple[Hashable, int], int] = {}
    prefix: list[int] = []
    paths = 0
    deadline = None if time_limit is None else time.monotonic() + time_limit
    while True:
        dice = _EnumeratingDice(prefix)
        resolution = proc.func(frozen, dice)
        value = hashable(key_type.validate(resolution.result[key], key))
        sums[value, dice.den] = sums.get((value, dice.den), 0) + dice.num
        paths += 1
        if paths > 3 * MAX_PATHS:  # the estimate was far off: stop rather than run on
            raise OddsError(_too_many(procedure_id, paths))
        if deadline is not None and paths % 256 == 0 and time.monotonic() > deadline:
            raise OddsError(
                f"exact odds for {procedure_id} with these inputs take longer than {time_limit:g} s "
                f"({paths:,} of about {int(estimate):,} dice paths done); roll it instead"
            )
        # Odometer: advance the deepest draw that has options left.
        for depth in range(len(dice.chosen) - 1, -1, -1):
            if dice.chosen[depth] + 1 < dice.widths[depth]:
                prefix = [*dice.chosen[:depth], dice.chosen[depth] + 1]
                break
        else:
            break
    dist: dict[Hashable, Fraction] = {}
    for (value, den), num in sums.items():
        dist[value] = dist.get(value, Fraction(0)) + Fraction(num, den)
    return dist


def _too_many(procedure_id: str, paths: int) -> str:
    return (
        f"exact odds for {procedure_id} with these inputs would take about {paths:,} dice "
        f"paths (more than {MAX_PATHS:,}); roll it instead"
    )
