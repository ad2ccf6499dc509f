"""Odds: run the real procedure over every dice path and weight each path (exact), or,
where there are too many paths, over many simulated rolls (an estimate that says so).

The enumerating source hands a procedure one possible value for each group it draws.
Groups of several dice are enumerated as sorted multisets with their multinomial
weights (a 2D6 has 21 paths, not 36), which is exact because no procedure reads the
order of dice within one group; a group whose sum alone is read (``Dice.total``) is
enumerated by its total (11 paths for 2D6), and groups that are only added up
(``Dice.totals``) by their common sum. Dice a procedure marks as feeding other result
keys only (``feeds=``) do not branch at all for the key asked about.

Roll-again loops (``roll_until``) draw from the conditional distribution of the
accepted values, so they end (C.6). A key that counts the loop's rolls is counted over
every attempt, discarded ones included, up to the loop cap, the tail beyond the cap
lumped into the cap value (C.6):

- ``loop_counts={key: cap_input}``: the key grows by one per discarded roll; the number
  of discards of each loop is geometric, so their sum is convolved exactly per path.
- ``loop_counts={key: None}``: the key records the discarded rolls themselves (a list),
  so every discard is a branch, up to the ``max_rolls`` the procedure gives the loop.

A roll may also say what a key reads of its total (``reads=``, e.g. only the spaces a
chart entry needs): exact odds of that key then walk one total per reading.

A procedure may instead count a key's exact odds itself (``exact_odds=``, with
``rules.distributions``): a sum, a count or a list of independent draws is convolved, not
walked. Where such a key has more values than can be listed in the odds panel's wait, the
count gives a labelled estimate sampled from the same odds (``distributions.Sampled``):
fixed runs from a fixed seed, the same on any machine. ``walk_paths`` lists the dice
paths that can change a key, for a test to check such a count against.

For the walk: when the exact odds would take more than ``MAX_PATHS`` dice paths, or more than the
caller's ``time_limit`` (``DEFAULT_TIME_LIMIT`` when none is given; walks of at most
``ALWAYS_WALK_DRAWS`` are always made), :func:`odds` returns an estimate from seeded
runs of the procedure itself: an :class:`Odds` with ``exact`` false, the number of
``runs`` and the 95 % ``margin`` of every probability.
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

from .dice import Dice, RandomDice, Roll
from .distributions import Sampled, dice_sum_ways
from .errors import InputError, OddsError
from .registry import get

MAX_PATHS = 1_000_000
# Dice paths times the draws of each: a walk this small is made whatever the machine's load
# (the same exact answer every time; some tens of milliseconds at most).
ALWAYS_WALK_DRAWS = 4_000
PROBES = 200
QUICK_PROBES, QUICK_PATHS = 24, 2_000  # fewer probes when they find a small tree
PROBE_SHARE = 0.2  # of the time budget, at most, spent probing (after two probes)
SIMULATED_RUNS = 10_000  # an estimate's runs: a 95 % margin of at most ±1 percentage point
MIN_SIMULATED_RUNS = 400  # within a caller's time limit: a margin of at most ±5 points
# Without a caller's time limit, an answer within this many seconds: exact when the walk
# fits in it, else an estimate from as many runs as fit (its margin says how many).
DEFAULT_TIME_LIMIT = 0.045
Z95 = 1.96


class Odds(dict):
    """``{value: probability}`` (C.6). ``exact`` tells an exact distribution (Fractions)
    from an estimate (floats from ``runs`` simulated rolls, each probability within
    ``margin`` of the true one at 95 % confidence)."""

    exact: bool = True
    runs: int | None = None
    margin: float | None = None

    @classmethod
    def estimate(cls, probabilities: Mapping, runs: int, share: float = 1.0) -> Odds:
        """``share``: the probability the runs were drawn within (the rest known exactly)."""
        made = cls(probabilities)
        made.exact = False
        made.runs = runs
        # The widest 95 % interval of a proportion over ``runs`` trials (at p = 1/2).
        made.margin = share * Z95 * math.sqrt(0.25 / runs)
        return made


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

    Counted by convolution (``rules.distributions.dice_sum_ways``), not over every
    multiset of the group, which for 30D6 alone would be hundreds of thousands."""
    ways = dice_sum_ways(count, sides)
    den = sides**count
    return tuple(
        (_dice_with_total(total, count, sides), n, den)
        for total, n in enumerate(ways)
        if n and total >= count
    )


def _dice_with_total(total: int, count: int, sides: int) -> tuple[int, ...]:
    """The first sorted set of ``count`` dice with that total (as many 1s as possible)."""
    values = [1] * count
    extra = total - count
    for i in range(count - 1, -1, -1):
        add = min(extra, sides - 1)
        values[i] += add
        extra -= add
    return tuple(values)


@functools.lru_cache(maxsize=256)
def _split_sum_options(counts: tuple[int, ...], sides: int):
    """The distribution of the sum of several groups: (per-group totals adding up to
    it, num, den). The split is one canonical way to reach the sum."""
    dist = {0: 1}
    for count in counts:
        step: dict[int, int] = {}
        for acc, w in dist.items():
            for values, num, _den in _sum_options(count, sides):
                step[acc + sum(values)] = step.get(acc + sum(values), 0) + w * num
        dist = step
    den = sides ** sum(counts)
    options = []
    for grand, num in sorted(dist.items()):
        parts, left = [], grand
        for i, count in enumerate(counts):
            rest_min = sum(counts[i + 1 :])
            part = min(count * sides, left - rest_min)
            parts.append(part)
            left -= part
        options.append((tuple(parts), num, den))
    return tuple(options)


def _options(count: int, sides: int, by_total):
    """A group's options: multisets; totals (``by_total`` true); or, when ``by_total`` is
    a tuple (what the procedure reads of each total, ascending), one total per reading."""
    if isinstance(by_total, tuple):
        return _read_options(count, sides, by_total)
    return _sum_options(count, sides) if by_total else _group_options(count, sides)


@functools.lru_cache(maxsize=1024)
def _read_options(count: int, sides: int, readings: tuple):
    """Totals the procedure reads alike, merged: the first such total, their summed weight."""
    merged: dict = {}
    for (values, num, den), reading in zip(_sum_options(count, sides), readings, strict=True):
        if reading in merged:
            merged[reading][1] += num
        else:
            merged[reading] = [values, num, den]
    return tuple(tuple(option) for option in merged.values())


def _readings(count: int, sides: int, read) -> tuple:
    return tuple(read(sum(values)) for values, _, _ in _sum_options(count, sides))


@functools.lru_cache(maxsize=1024)
def _accepted_options(count: int, sides: int, by_total: bool, mask: tuple[bool, ...]):
    """The accepted values of a re-rolled group, with their conditional weights."""
    kept = [o for o, keep in zip(_options(count, sides, by_total), mask, strict=True) if keep]
    norm = sum(num for _, num, _ in kept)
    return tuple((values, num, norm) for values, num, _ in kept)


@functools.lru_cache(maxsize=1024)
def _attempt_options(count: int, sides: int, by_total: bool, mask: tuple[bool, ...]):
    """One attempt of a re-rolled group, discards included: the accepted values and
    one option per discarded total, all with their unconditional weights."""
    options = []
    discarded: dict[int, list] = {}
    for (values, num, den), keep in zip(_options(count, sides, by_total), mask, strict=True):
        if keep:
            options.append((values, num, den))
        else:
            entry = discarded.setdefault(sum(values), [values, 0, den])
            entry[1] += num
    return tuple(options) + tuple((v, n, d) for v, n, d in discarded.values())


class _EnumeratingDice(Dice):
    """Follows ``prefix`` (an option index per draw), choosing option 0 past its end.

    A path's weight is kept as an integer fraction ``num/den`` (products of ints are
    far cheaper than of Fractions); it is reduced once, when the odds are summed."""

    counts_odds = True

    def __init__(
        self,
        prefix: list[int],
        rng: random.Random | None = None,
        *,
        key: str | None = None,
        loop_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.prefix = prefix
        self.rng = rng
        self.key = key
        self.loop_mode = loop_mode  # None, "count" (geometric discards) or "list" (each discard)
        self.chosen: list[int] = []
        self.widths: list[int] = []
        self.num = 1
        self.den = 1
        self.discard_odds: list[Fraction] = []  # "count": each loop's chance to discard a roll

    def _idle(self, feeds) -> bool:
        """Dice that cannot change the key asked about: no branch, weight 1."""
        return feeds is not None and self.key is not None and self.key not in feeds

    def idle(self, feeds) -> bool:
        return self._idle(feeds)

    def roll(self, label, count, sides=6, *, feeds=None):
        if self._idle(feeds):
            values = (1,) * count
            self.rolls.append(Roll(label, sides, values))
            return values
        return super().roll(label, count, sides)

    def lookup(self, table, roll, field, *, feeds=None, missing=None):
        """A lookup for a key it cannot change: no entry needed (odds per key, C.9)."""
        if self._idle(feeds):
            return table.get(roll, missing)
        return super().lookup(table, roll, field, feeds=feeds)

    def _reading(self, count, sides, reads):
        """What the key asked about reads of a total, when the procedure says (``reads``)."""
        read = (reads or {}).get(self.key) if self.key is not None else None
        return None if read is None else _readings(count, sides, read)

    def total(self, label, count, sides=6, *, feeds=None, reads=None) -> int:
        """Only the sum is read: enumerate totals (11 for 2D6) instead of multisets (21),
        or, for a key that reads less of it (``reads``), one total per reading."""
        if self._idle(feeds):
            values = (1,) * count
        else:
            reading = self._reading(count, sides, reads)
            values = self._choose(
                _sum_options(count, sides) if reading is None else _options(count, sides, reading)
            )
        self.rolls.append(Roll(label, sides, values))
        return sum(values)

    def totals(self, groups, sides=6, *, feeds=None) -> list[int]:
        """Groups only added up: enumerate their common sum, split canonically."""
        if self._idle(feeds) or len(groups) < 2:
            return super().totals(groups, sides, feeds=feeds)
        parts = self._choose(_split_sum_options(tuple(c for _, c in groups), sides))
        for (label, count), part in zip(groups, parts, strict=True):
            values = _dice_with_total(part, count, sides)
            self.rolls.append(Roll(label, sides, values))
        return list(parts)

    def roll_until(
        self, label, count, sides, accept, *, max_rolls=None, cap_field="max_rolls", feeds=None, odds_cap=None
    ):
        cap = max_rolls if max_rolls is not None else odds_cap
        return self._until(label, count, sides, accept, False, cap, feeds)

    def total_until(
        self,
        label,
        count,
        sides,
        accept,
        *,
        max_rolls=None,
        cap_field="max_rolls",
        feeds=None,
        odds_cap=None,
        reads=None,
    ):
        """Only the total is read: enumerate totals, as ``total`` does."""
        cap = max_rolls if max_rolls is not None else odds_cap
        by_total = self._reading(count, sides, reads) or True
        return sum(self._until(label, count, sides, lambda v: accept(sum(v)), by_total, cap, feeds))

    def _until(self, label, count, sides, accept, by_total, max_rolls, feeds):
        options = _options(count, sides, by_total)
        mask = tuple(accept(values) for values, _, _ in options)
        if not any(mask):
            raise OddsError(f"the {label} roll can never be accepted")
        if self._idle(feeds):
            values = next(v for (v, _, _), keep in zip(options, mask, strict=True) if keep)
            self.rolls.append(Roll(label, sides, values))
            return values
        if self.loop_mode == "list" and self.rng is not None:
            # Probing: count the loop's whole subtree at once (a random descent would
            # rarely go deep and so underestimate it), then go on from one accepted value.
            accepted = _accepted_options(count, sides, by_total, mask)
            discards = len(_attempt_options(count, sides, by_total, mask)) - len(accepted)
            if max_rolls is None:
                size = len(accepted) if not discards else 10**18
            elif discards <= 1:
                size = len(accepted) * (max_rolls if discards else 1)
            else:
                size = len(accepted) * (discards**max_rolls - 1) // (discards - 1)
            self.chosen.append(0)
            self.widths.append(size)
            values = accepted[self.rng.randrange(len(accepted))][0]
            self.rolls.append(Roll(label, sides, values))
            return values
        if self.loop_mode == "list":
            # Every discarded roll is a branch of its own, up to the loop cap (C.6).
            attempts = 0
            while True:
                attempts += 1
                if max_rolls is not None and attempts >= max_rolls:
                    # The last roll the cap allows: the tail beyond it is lumped in here.
                    values = self._choose(_accepted_options(count, sides, by_total, mask))
                else:
                    values = self._choose(_attempt_options(count, sides, by_total, mask))
                self.rolls.append(Roll(label, sides, values))
                if accept(values):
                    return values
        if self.loop_mode == "count" and not all(mask):
            discarded = sum(num for (_, num, _), keep in zip(options, mask, strict=True) if not keep)
            self.discard_odds.append(Fraction(discarded, sides**count))
        values = self._choose(_accepted_options(count, sides, by_total, mask))
        self.rolls.append(Roll(label, sides, values))
        return values

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
        return self._choose(_group_options(count, sides))


def hashable(value: Any) -> Hashable:
    """Result values as odds keys (C.6): lists -> tuples, objects -> sorted item tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(hashable(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, hashable(v)) for k, v in value.items()))
    return value


def estimate_paths(proc, frozen, probes: int = PROBES, seed: int = 0, *, key=None, loop_mode=None) -> float:
    """Knuth's estimator of the number of dice paths: the mean, over random descents,
    of the product of the branch widths met on the way (unbiased for the leaf count)."""
    return _probe(proc, frozen, probes, seed, key, loop_mode)[0]


# A path count past any budget (a loop's every discard a branch): kept finite for floats.
HUGE = 10**30


def _probe(proc, frozen, probes, seed, key, loop_mode, budget=None) -> tuple[float, float, float]:
    """(estimated paths, seconds one path takes, draws one path makes). Stops early once
    it is clear the procedure has a single path, or once probing has taken its share of
    ``budget``."""
    rng = random.Random(seed)
    total = draws = 0
    start = time.perf_counter()
    for n in range(1, probes + 1):
        dice = _EnumeratingDice([], rng, key=key, loop_mode=loop_mode)
        proc.func(frozen, dice)
        total += min(math.prod(dice.widths), HUGE)
        draws += len(dice.rolls)
        if n == 1 and not dice.widths and loop_mode is None:
            break  # the first descent met no branch: no dice can be drawn at all
        if n == QUICK_PROBES and total / n < QUICK_PATHS:
            break  # a small tree: walking it is cheaper than probing it further
        if budget is not None and n >= 2 and time.perf_counter() - start > budget * PROBE_SHARE:
            break  # long descents: enough to tell a walk from an estimate
    return total / n, (time.perf_counter() - start) / n, draws / n


def odds(
    procedure_id: str,
    inputs: Mapping[str, Any] | None = None,
    key: str | None = None,
    *,
    time_limit: float | None = None,
    exact_only: bool = False,
    runs: int = SIMULATED_RUNS,
) -> Odds:
    """The probability of every value of the headline result (or ``key``).

    Exact (Fractions) whenever the dice paths can be walked within ``MAX_PATHS`` and
    ``time_limit`` seconds (``DEFAULT_TIME_LIMIT`` when none is given); otherwise an
    estimate from up to ``runs`` seeded runs of the procedure (``Odds.exact`` false, with
    its ``margin``), cut short at the time limit. ``exact_only`` walks every path however
    long it takes, and raises ``OddsError`` past ``MAX_PATHS`` instead of estimating."""
    proc = get(procedure_id)
    key = key or proc.headline
    if key not in proc.result_keys:
        raise InputError("key", "is not a result of this procedure")
    _, frozen = proc.normalise(inputs)
    try:
        counted = _counted(proc, frozen, key)
        if counted is not None and exact_only and not counted.exact:
            raise OddsError(
                f"exact odds of {key} for {procedure_id} with these inputs have more values than can be listed"
            )
        if counted is not None:
            return counted
        return _odds(proc, frozen, procedure_id, key, time_limit, exact_only, runs)
    except OverflowError:  # float arithmetic past 1.8e308 on inputs within the caps
        raise InputError("inputs", "these numbers are too large to compute with") from None


def _counted(proc, frozen, key) -> Odds | None:
    """The key's exact odds counted from the inputs (``exact_odds`` of the procedure), when
    it gives them: a sum or a count of independent draws, convolved instead of walked; or,
    for a key with more values than can be listed, an estimate sampled from those counted
    distributions (``distributions.Sampled``: fixed runs and seed, whatever the machine)."""
    count = proc.exact_odds.get(key)
    if count is None:
        return None
    # One path of the procedure first: the inputs it refuses are refused as by the walk.
    proc.func(frozen, _EnumeratingDice([], key=key))
    counted = count(frozen)
    if counted is None:
        return None
    if isinstance(counted, Sampled):  # more values than can be listed: a labelled estimate
        probabilities = {value: float(p) for value, p in counted.exact.items() if p}
        sampled = {value: counted.share * n / counted.runs for value, n in counted.counts.items()}
        for value in [value for value in probabilities if value in sampled]:
            sampled[value] += probabilities[value]
        probabilities = {**probabilities, **sampled}  # a merge that hashes no value again
        return Odds.estimate(probabilities, counted.runs, share=counted.share)
    ways, den = counted  # values already as odds keys (tuples for lists, sorted items for objects)
    return Odds({value: Fraction(num, den) for value, num in ways.items() if num})


def _odds(proc, frozen, procedure_id, key, time_limit, exact_only, runs) -> Odds:
    key_type = next(k.type for k in proc.contract.result if k.name == key)
    loop_cap = proc.loop_counts.get(key, False)
    loop_mode = None if loop_cap is False else ("list" if loop_cap is None else "count")
    started = time.monotonic()
    caller_limit = time_limit is not None
    if exact_only:
        time_limit = None
    elif time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    deadline = None if time_limit is None else started + time_limit
    estimate, per_path, draws = _probe(proc, frozen, PROBES, 0, key, loop_mode, time_limit)
    if estimate * (1 + draws) <= ALWAYS_WALK_DRAWS:
        # Few paths: exact whatever the machine's load (the same answer every time).
        return _exact(proc, frozen, key, key_type, loop_mode, loop_cap, None)
    # A key that lists every re-roll: a descent does not show how long its paths are.
    too_slow = deadline is not None and (estimate * per_path > time_limit / 2 or loop_mode == "list")
    if estimate <= MAX_PATHS and not too_slow:
        # Within a time limit, keep a share of it for an estimate should the walk run long.
        exact_deadline = None if deadline is None else started + time_limit * (0.5 if caller_limit else 0.6)
        try:
            return _exact(proc, frozen, key, key_type, loop_mode, loop_cap, exact_deadline)
        except _TooLong:
            pass
    if exact_only:
        raise OddsError(
            f"exact odds for {procedure_id} with these inputs would take about {int(estimate):,} dice "
            f"paths{'' if time_limit is None else f' or more than {time_limit:g} s'}"
        )
    cap = getattr(frozen, loop_cap) if loop_mode == "count" else None
    min_runs = MIN_SIMULATED_RUNS if caller_limit else 1
    return _simulate(proc, frozen, key, key_type, runs, deadline, min_runs, cap)


class _TooLong(Exception):
    pass


def _walk(proc, frozen, key, loop_mode=None):
    """Every dice path of the procedure, as (the dice that followed it, its resolution);
    dice that cannot change ``key`` do not branch (None: every die branches)."""
    prefix: list[int] = []
    while True:
        dice = _EnumeratingDice(prefix, key=key, loop_mode=loop_mode)
        resolution = proc.func(frozen, dice)
        yield dice, resolution
        # Odometer: advance the deepest draw that has options left.
        for depth in range(len(dice.chosen) - 1, -1, -1):
            if dice.chosen[depth] + 1 < dice.widths[depth]:
                prefix = [*dice.chosen[:depth], dice.chosen[depth] + 1]
                break
        else:
            return


def walk_paths(procedure_id: str, frozen, key: str, limit: int = 10_000):
    """The dice paths that can change ``key``, for a procedure's ``exact_odds`` to count
    what the other dice add: ``[(num, den, rolls)]``, the path taken ``num`` in ``den``
    and ``rolls`` every group drawn on it (a die that cannot change ``key`` drawn as 1s).
    ``None`` past ``limit`` paths."""
    found = []
    for dice, _resolution in _walk(get(procedure_id), frozen, key):
        found.append((dice.num, dice.den, tuple(dice.rolls)))
        if len(found) > limit:
            return None
    return found


def _exact(proc, frozen, key, key_type, loop_mode, loop_cap, deadline, *, idle_dice: bool = True) -> Odds:
    """Walk every dice path. ``idle_dice`` false branches on every die, ``feeds`` or not
    (slower; it shows the marks change no odds)."""
    # (value, denominator) -> summed numerators; reduced to Fractions at the end.
    sums: dict[tuple[Hashable, int], int] = {}
    # "count" loops: (value, discard odds per loop, discards left before the cap, den) -> num.
    counted: dict[tuple, int] = {}
    cap = getattr(frozen, loop_cap) if loop_mode == "count" else None
    for paths, (dice, resolution) in enumerate(_walk(proc, frozen, key if idle_dice else None, loop_mode), 1):
        value = hashable(key_type.validate(resolution.result[key], key))
        if dice.discard_odds:
            group = (value, tuple(sorted(dice.discard_odds)), cap - len(dice.rolls), dice.den)
            counted[group] = counted.get(group, 0) + dice.num
        else:
            sums[value, dice.den] = sums.get((value, dice.den), 0) + dice.num
        if paths > MAX_PATHS:  # the estimate was far off
            raise _TooLong
        if deadline is not None and paths % 8 == 0 and time.monotonic() > deadline:
            raise _TooLong
    dist = Odds()
    for (value, den), num in sums.items():
        dist[value] = dist.get(value, Fraction(0)) + Fraction(num, den)
    weights: dict[tuple, Fraction] = {}
    for (value, discard_odds, left, den), num in counted.items():
        group = (value, discard_odds, left)
        weights[group] = weights.get(group, Fraction(0)) + Fraction(num, den)
    # Each group shifts its value by its discards, in integers over one common denominator
    # (a thousand Fraction sums of numbers of a thousand digits would take a tenth of a second).
    shares = [
        (value, weight, _discards(discard_odds, left))
        for (value, discard_odds, left), weight in weights.items()
    ]
    common = math.lcm(1, *(weight.denominator * den for _, weight, (_, den) in shares))
    numerators: dict[Hashable, int] = {}
    for value, weight, (ways, den) in shares:
        scale = weight.numerator * (common // (weight.denominator * den))
        for extra, n in ways.items():
            numerators[value + extra] = numerators.get(value + extra, 0) + n * scale
    for value, num in numerators.items():
        dist[value] = dist[value] + Fraction(num, common) if value in dist else Fraction(num, common)
    return dist


@functools.lru_cache(maxsize=256)
def _discards(discard_odds: tuple[Fraction, ...], left: int) -> tuple[dict[int, int], int]:
    """The number of discarded rolls over loops that each discard with the given odds
    (a sum of geometric counts), exact below ``left``; the tail from ``left`` on is
    lumped into ``left`` (the loop cap, C.6). As ``({discards: ways}, den)``.

    With every chance written over one denominator q (p = r/q), the chance of k discards
    is prod(q - r) * h_k(r) / q**(m + k), h_k the sum of every product of k of the r
    (repeats allowed, the complete homogeneous polynomial), built one loop at a time."""
    if left <= 0:
        return {0: 1}, 1
    q = math.lcm(*(p.denominator for p in discard_odds))
    rs = [p.numerator * (q // p.denominator) for p in discard_odds]
    h = [1] + [0] * (left - 1)
    for r in rs:
        running = 0
        for k in range(left):
            running = running * r + h[k]
            h[k] = running
    keep = math.prod(q - r for r in rs)
    den = q ** (len(rs) + left)
    ways: dict[int, int] = {}
    spare = q  # q ** (left - k), from k = left - 1 down
    for k in range(left - 1, -1, -1):
        if h[k]:
            ways[k] = keep * h[k] * spare
        spare *= q
    tail = den - sum(ways.values())
    if tail:
        ways[left] = tail
    return ways, den


class _SimulatingDice(RandomDice):
    """Seeded dice for an estimate: a loop cap the caller chose does not stop a run (C.6)."""

    counts_odds = True


def _simulate(proc, frozen, key, key_type, runs: int, deadline, min_runs: int, cap: int | None) -> Odds:
    """Seeded runs of the procedure itself (the same seed and number of runs give the
    same estimate), until ``runs`` or, once ``min_runs`` are done, the deadline. ``cap``:
    the loop cap a count of the loop's rolls is lumped into."""
    rng = random.Random(f"odds:{proc.id}")
    counts: dict[Hashable, int] = {}
    done = 0
    for done in range(1, max(1, runs) + 1):
        resolution = proc.run(frozen, _SimulatingDice(rng))
        value = hashable(key_type.validate(resolution.result[key], key))
        if cap is not None:
            value = min(value, cap)
        counts[value] = counts.get(value, 0) + 1
        if (
            deadline is not None
            and done >= min_runs
            and (done % 16 == 0 or done < 64)
            and time.monotonic() > deadline
        ):
            break
    return Odds.estimate({value: n / done for value, n in counts.items()}, done)
