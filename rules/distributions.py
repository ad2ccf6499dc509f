"""Exact distributions by counting, for odds that need not walk every dice path.

A distribution here is ``(ways, den)``: ``ways`` maps a value to an integer count and
``den`` is the common denominator (the counts add up to ``den``). Integers, not
Fractions, because products and sums of ints are far cheaper; ``rules.odds`` reduces
them once. Everything here is exact; a function returns ``None`` where the answer would
have more than ``limit`` values, so the caller falls back to another way (at the end of
the module: a labelled estimate, sampled from the same counted distributions).

Procedures give these to ``rules.odds`` per result key (``exact_odds=`` of
``rules.registry.procedure``) where a key is a sum or a count of independent draws: a
binomial of 46 boxes has 47 values, while walking the boxes' dice has 11**46 paths.
"""

from __future__ import annotations

import array
import bisect
import collections
import dataclasses
import functools
import itertools
import math
import random
import sys
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


def at_least(count: int, sides: int, target: int) -> int:
    """Throws of ``count`` dice of ``sides`` sides whose total is ``target`` or more."""
    ways = dice_sum_ways(count, sides)
    return sum(ways[max(0, target) :])


@functools.lru_cache(maxsize=64)
def dice_product_ways(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    """The product of ``count`` dice (a ram's 1D6 x 1D6), as ``((product, ways), ...)``
    over ``sides**count`` throws, products ascending."""
    ways: Ways = {1: 1}
    for _ in range(count):
        step: Ways = {}
        for value, n in ways.items():
            for face in range(1, sides + 1):
                step[value * face] = step.get(value * face, 0) + n
        ways = step
    return tuple(sorted(ways.items()))


def mix(branches, limit: int = DEFAULT_LIMIT) -> Distribution | None:
    """A value drawn by first picking a branch: ``branches`` is ``[(ways, den, dist)]``,
    each branch taken ``ways`` in ``den`` (the same ``den`` for all, adding up to it) and
    then giving a value by its own distribution. ``None`` past ``limit`` values."""
    branches = [(w, d, dist) for w, d, dist in branches if w]
    if not branches:
        return {}, 1
    common = math.lcm(*(dist[1] for _, _, dist in branches))
    out: Ways = {}
    for w, _den, (ways, den) in branches:
        scale = w * (common // den)
        for value, n in ways.items():
            out[value] = out.get(value, 0) + n * scale
        if len(out) > limit:
            return None
    return out, branches[0][1] * common


def independent(parts, limit: int = DEFAULT_LIMIT) -> Distribution | None:
    """The tuple of independent values, one drawn from each of ``parts`` (Distributions),
    in order; ``None`` when there would be more than ``limit`` tuples."""
    if math.prod(len(ways) for ways, _ in parts) > limit:
        return None
    dist: Ways = {(): 1}
    den = 1
    for ways, part_den in parts:
        dist = {(*seq, v): n * m for seq, n in dist.items() for v, m in ways.items()}
        den *= part_den
    return dist, den


# --- Labelled estimates, for keys with more values than can be listed ---------------------
#
# A list of 46 box locations has 7**46 possible values and the damage of 46 boxes splits
# twenty million ways: no exact answer can even be written out within the odds panel's
# wait. Such a key's odds are a sample of independent draws from the key's own counted
# distributions: a fixed number of runs from a fixed seed, so the same inputs give the same
# estimate on any machine, however loaded (never cut at a time limit).

SAMPLE_PICKS = 60_000  # single draws an estimate may make (some milliseconds)
RUN_PICKS = 25  # what a run costs beyond its draws, in draws (building its value)
MAX_SAMPLE_RUNS = 2_000  # a 95 % margin of ±2.2 percentage points
MIN_SAMPLE_RUNS = 100  # ±10 points, for keys whose every run draws a thousand dice or more


@dataclasses.dataclass(frozen=True)
class Sampled:
    """An estimate: how often each value came up in ``runs`` sampled runs. When only part
    of the odds is sampled, ``exact`` holds the values known exactly (with their
    probabilities) and ``share`` is the probability the sampled runs stand for."""

    counts: dict
    runs: int
    exact: Mapping = dataclasses.field(default_factory=dict)
    share: float = 1.0


class Picker:
    """Draws values of one distribution: ``picker(rng, k)`` gives ``k`` independent draws."""

    def __init__(self, dist: Distribution, bits: int = 12) -> None:
        """``bits``: the size of the quick draws' table (2**bits slots, at most 16)."""
        ways, _den = dist
        self.values = list(ways)
        self.cumulative = list(itertools.accumulate(ways.values()))
        self.bits = min(bits, 16)
        self.slots = 1 << self.bits

    def __call__(self, rng: random.Random, k: int = 1) -> list:
        return rng.choices(self.values, cum_weights=self.cumulative, k=k)

    # Quick draws (``pick``, ``picks``) look a random number of ``bits`` up in a table of slots:
    # a slot that lies wholly within one value's share gives that value; the few slots that
    # straddle two values (at most one per value) place the point exactly with a further
    # random number, as ``__call__`` does. So each value keeps its odds (to a float's
    # precision), at a fraction of the cost of ``random.choices`` per draw.
    @functools.cached_property
    def _slots(self) -> tuple[list, frozenset]:
        """(the value of each slot, the slots that straddle two values)."""
        total = self.cumulative[-1]
        table: list = []
        straddling = []
        for value, reach in zip(self.values, self.cumulative, strict=True):
            # Slot s is [s, s + 1) x total / slots: the slots before ``end`` lie below ``reach``.
            end = reach * self.slots // total
            if end > len(table):
                table.extend([value] * (end - len(table)))
            if len(table) == end and reach * self.slots % total:
                straddling.append(end)  # this value's share ends inside slot ``end``
                table.append(_STRADDLES)
        return table, frozenset(straddling)

    @functools.cached_property
    def _wide(self) -> list:
        """The table repeated to take any 16-bit number (its low ``bits`` name the slot)."""
        return self._slots[0] * (1 << (16 - self.bits))

    def _placed(self, rng: random.Random, slot: int):
        """The value at a uniform point within a slot that straddles two values."""
        point = (slot + rng.random()) / self.slots
        return self.values[min(bisect.bisect(self._reaches, point), len(self.values) - 1)]

    @functools.cached_property
    def _reaches(self) -> list[float]:
        """Each value's cumulative share as a float (the counts of 200 dice have 150 digits)."""
        total = self.cumulative[-1]
        return [reach / total for reach in self.cumulative]

    def pick(self, rng: random.Random):
        """One quick draw."""
        slot = rng.getrandbits(self.bits)
        table, straddling = self._slots
        return self._placed(rng, slot) if slot in straddling else table[slot]

    def picks(self, rng: random.Random, k: int) -> list:
        """``k`` quick independent draws (the same on any machine for the same generator)."""
        slots = array.array("H", rng.randbytes(2 * k))
        if sys.byteorder == "big":
            slots.byteswap()
        drawn = list(map(self._wide.__getitem__, slots))
        at = 0
        while True:  # each straddling slot drawn, found by a scan that starts where the last ended
            try:
                at = drawn.index(_STRADDLES, at)
            except ValueError:
                return drawn
            drawn[at] = self._placed(rng, slots[at] % self.slots)


_STRADDLES = object()  # a table slot that two values share


def geometric_odds(p: float, most: int) -> tuple[dict[int, float], float]:
    """Failures before the first success, each try failing with chance ``p`` (< 1), as
    float weights for sampling; counts past ``most`` are lumped into ``most``."""
    weights = {}
    left = 1.0
    for k in range(most):
        weights[k] = left * (1 - p)
        left *= p
        if left < 1e-300:
            break
    if left >= 1e-300:
        weights[most] = left
    return weights, 1.0


def sample_runs(picks_per_run: float) -> int:
    """Runs an estimate makes: as many as the pick budget allows, within the bounds."""
    runs = int(SAMPLE_PICKS // (RUN_PICKS + picks_per_run))
    return max(MIN_SAMPLE_RUNS, min(MAX_SAMPLE_RUNS, runs))


def sample(
    draw, picks_per_run: float, seed: str, exact: Mapping | None = None, share: float = 1.0
) -> Sampled:
    """Runs ``draw(rng)`` (one value per run) from a seeded generator. ``exact`` and
    ``share``: the part of the odds known exactly, and what is left for the runs."""
    rng = random.Random(seed)
    runs = sample_runs(picks_per_run)
    # Counted in one pass (each value hashed once: a list of 600 rows takes some time to hash).
    counts: Ways = dict(collections.Counter(draw(rng) for _ in range(runs)))
    return Sampled(counts, runs, dict(exact or {}), share)
