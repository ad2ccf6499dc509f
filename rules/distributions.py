"""Exact distributions by counting, for odds that need not walk every dice path.

A distribution here is ``(ways, den)``: ``ways`` maps a value to an integer count and
``den`` is the common denominator (the counts add up to ``den``). Integers, not
Fractions, because products and sums of ints are far cheaper; ``rules.odds`` reduces
them once. Everything here is exact; a function returns ``None`` where the answer would
have more than ``limit`` values, so the caller falls back to another way.

Procedures give these to ``rules.odds`` per result key (``exact_odds=`` of
``rules.registry.procedure``) where a key is a sum or a count of independent draws: a
binomial of 46 boxes has 47 values, while walking the boxes' dice has 11**46 paths.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterator, Mapping

Ways = dict  # value -> integer count
Distribution = tuple[Ways, int]

DEFAULT_LIMIT = 200_000  # values a distribution may have before counting it is refused


@functools.lru_cache(maxsize=256)
def dice_sum_ways(count: int, sides: int) -> tuple[int, ...]:
    """``ways[t]``: throws of ``count`` dice of ``sides`` sides with total ``t`` (from 0).

    Counted by convolution, one die at a time (a sliding window over the previous
    counts), so 100D6 takes 100 x 600 steps, not 6**100 throws."""
    ways = [1]
    for _ in range(count):
        step = [0] * (len(ways) + sides)
        window = 0
        for t in range(1, len(step)):
            window += ways[t - 1] if t - 1 < len(ways) else 0
            if t - 1 - sides >= 0:
                window -= ways[t - 1 - sides]
            step[t] = window
        ways = step
    return tuple(ways)


def dice_sum(count: int, sides: int = 6) -> Distribution:
    """The total of ``count`` dice: ``({total: ways}, sides**count)``."""
    ways = dice_sum_ways(count, sides)
    return {t: n for t, n in enumerate(ways) if n}, sides**count


def convolve(a: Distribution, b: Distribution, limit: int = DEFAULT_LIMIT) -> Distribution | None:
    """The sum of two independent numeric values; ``None`` past ``limit`` values."""
    (wa, da), (wb, db) = a, b
    if len(wa) * len(wb) > limit * 8 and len(wa) > 1 and len(wb) > 1:
        return None  # the pairs alone would take too long, whatever the sums collapse to
    out: Ways = {}
    for va, na in wa.items():
        for vb, nb in wb.items():
            out[va + vb] = out.get(va + vb, 0) + na * nb
        if len(out) > limit:
            return None
    return out, da * db


def power(dist: Distribution, n: int, limit: int = DEFAULT_LIMIT) -> Distribution | None:
    """The sum of ``n`` independent copies of ``dist`` (by repeated squaring)."""
    result: Distribution | None = ({0: 1}, 1)
    base: Distribution | None = dist
    while n:
        if n & 1:
            result = convolve(result, base, limit)
            if result is None:
                return None
        n >>= 1
        if n:
            base = convolve(base, base, limit)
            if base is None:
                return None
    return result


def scale(dist: Distribution, factor: int) -> Distribution:
    ways, den = dist
    return {v * factor: n for v, n in ways.items()}, den


def binomial(n: int, hit: int, den: int) -> Distribution:
    """Successes in ``n`` independent draws, each a success in ``hit`` of ``den`` ways."""
    miss = den - hit
    ways = {k: math.comb(n, k) * hit**k * miss ** (n - k) for k in range(n + 1)}
    return {k: w for k, w in ways.items() if w}, den**n


def count_vectors(n: int, kinds: int) -> int:
    """How many ways ``n`` draws split into counts over ``kinds`` outcomes."""
    return math.comb(n + kinds - 1, kinds - 1) if kinds else (1 if n == 0 else 0)


def multinomial(
    n: int, weights: Mapping[Hashable, int], limit: int = DEFAULT_LIMIT
) -> Iterator[tuple[dict, int]] | None:
    """How ``n`` independent draws split over outcomes drawn with the given integer
    ``weights`` (denominator ``sum(weights) ** n``): ``(counts of the outcomes drawn at
    least once, ways)`` per split, or ``None`` when there are more than ``limit`` splits."""
    kinds = [(k, w) for k, w in weights.items() if w]
    if count_vectors(n, len(kinds)) > limit:
        return None

    def splits(i: int, left: int, counts: dict, ways: int) -> Iterator[tuple[dict, int]]:
        if i == len(kinds) - 1:
            key, w = kinds[i]
            yield ({**counts, key: left} if left else counts), ways * w**left
            return
        key, w = kinds[i]
        for c in range(left + 1):
            # Choose which c of the ``left`` remaining draws land here.
            chosen = {**counts, key: c} if c else counts
            yield from splits(i + 1, left - c, chosen, ways * math.comb(left, c) * w**c)

    if not kinds:
        return iter([({}, 1)]) if n == 0 else iter(())
    return splits(0, n, {}, 1)


def sequences(n: int, weights: Mapping[Hashable, int], limit: int = DEFAULT_LIMIT) -> Distribution | None:
    """The ordered outcomes of ``n`` independent draws (tuples), or ``None`` past ``limit``."""
    kinds = [(k, w) for k, w in weights.items() if w]
    if len(kinds) ** n > limit:
        return None
    dist: Ways = {(): 1}
    for _ in range(n):
        dist = {(*seq, k): ways * w for seq, ways in dist.items() for k, w in kinds}
    return dist, sum(weights.values()) ** n
