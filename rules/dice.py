"""Dice sources behind one interface.

A procedure asks its source for labelled groups of dice (``dice.roll("effect", 2, 6)``);
every group drawn is recorded as a :class:`Roll`, whichever source supplied it:

- :class:`RandomDice`: the server's dice (``random.SystemRandom``, seeded by the OS).
- :class:`SeededDice`: a reproducible run from a seed.
- :class:`FixedDice`: a fixed sequence: tests, or the physical dice the table rolled.
- ``rules.odds`` drives the same procedures with an enumerating source.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Mapping, Sequence

from .errors import DiceError, InputError

Accept = Callable[[tuple[int, ...]], bool]
Feeds = tuple[str, ...] | None
Reads = Mapping[str, Callable[[int], Hashable]] | None


def describe_roll(label: str) -> str:
    """``effect`` -> ``the effect roll``; ``start_LL`` -> ``the start LL roll``."""
    return f"the {label.replace('_', ' ')} roll"


def table_entry(table, roll: int, field: str):
    """A GM table's entry for a roll; a gap is the GM's to fill (C.2)."""
    try:
        return table[roll]
    except KeyError:
        raise InputError(field, f"has no entry for a roll of {roll}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Roll:
    label: str
    sides: int
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.values)

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "sides": self.sides,
            "values": list(self.values),
            "total": self.total,
        }


class Dice:
    """Base class: records every group drawn. Subclasses implement ``_draw``."""

    # True for the source ``rules.odds`` walks the dice paths with: a loop cap the caller
    # chose does not stop it (C.6 counts past it, lumping the tail into the cap).
    counts_odds = False

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def _draw(self, label: str, count: int, sides: int, accept: Accept | None) -> tuple[int, ...]:
        raise NotImplementedError

    def roll(self, label: str, count: int, sides: int = 6, *, feeds: Feeds = None) -> tuple[int, ...]:
        """Draw ``count`` dice of ``sides`` sides, recorded under ``label``.

        ``feeds`` names the only result keys these dice can change (None: any). Rolling
        ignores it; exact odds of another key then need not branch on them."""
        if count < 1 or sides < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        values = self._draw(label, count, sides, None)
        self.rolls.append(Roll(label, sides, values))
        return values

    def total(
        self, label: str, count: int, sides: int = 6, *, feeds: Feeds = None, reads: Reads = None
    ) -> int:
        """Draw and return the sum (e.g. ``dice.total("malfunction", 2)`` for 2D6).

        ``reads`` maps a result key to what of the total it depends on (``lambda t:
        SPACES[t][column]``): totals read alike give that key the same value, so exact
        odds of it walk one total per reading. Rolling ignores it."""
        return sum(self.roll(label, count, sides, feeds=feeds))

    def totals(self, groups: Sequence[tuple[str, int]], sides: int = 6, *, feeds: Feeds = None) -> list[int]:
        """Several groups rolled one after another, each recorded under its own label,
        whose totals the caller only adds up: ``[(label, count), ...]`` -> their totals.
        Exact odds enumerate the sum of them all, not every combination."""
        return [self.total(label, count, sides, feeds=feeds) for label, count in groups]

    def idle(self, feeds: Feeds) -> bool:
        """True while exact odds of a key ``feeds`` does not name are worked out: what only
        those keys read (a GM entry, a GM-entered count) may then be missing (C.9)."""
        return False

    def lookup(self, table, roll: int, field: str, *, feeds: Feeds = None, missing=None):
        """A GM table's entry for a roll; a gap is the GM's to fill (C.2), an ``InputError``
        naming the table. ``feeds`` as for ``roll``: exact odds of a key the entry cannot
        change do not read the table, so they need no entry (C.9, odds per key), and a gap
        reads as ``missing`` there."""
        return table_entry(table, roll, field)

    def pick(self, label: str, n: int, *, feeds: Feeds = None) -> int:
        """A random pick among ``n`` candidates (1dN); returns a 0-based index."""
        return self.roll(label, 1, n, feeds=feeds)[0] - 1

    def roll_until(
        self,
        label: str,
        count: int,
        sides: int,
        accept: Accept,
        *,
        max_rolls: int | None = None,
        cap_field: str = "max_rolls",
        feeds: Feeds = None,
        odds_cap: int | None = None,
    ) -> tuple[int, ...]:
        """Roll again while ``accept`` refuses the dice (a discarded roll is still recorded).

        ``max_rolls`` caps the attempts with an ``InputError`` naming ``cap_field``: only
        for a cap the caller chose (an input); without it the loop never gives up (C.9),
        so ``accept`` must take some value. Exact odds of what the loop produces use the
        conditional distribution and ignore the cap; odds of a key that counts the
        attempts count them up to ``max_rolls`` or, for a loop without one, ``odds_cap``,
        the tail beyond lumped into it (C.6).
        """
        attempts = 0
        while True:
            values = self._draw(label, count, sides, accept)
            self.rolls.append(Roll(label, sides, values))
            attempts += 1
            if accept(values):
                return values
            if max_rolls is not None and attempts >= max_rolls and not self.counts_odds:
                raise InputError(cap_field, f"no acceptable {describe_roll(label)} in {max_rolls} tries")

    def total_until(
        self,
        label: str,
        count: int,
        sides: int,
        accept: Callable[[int], bool],
        *,
        max_rolls: int | None = None,
        cap_field: str = "max_rolls",
        feeds: Feeds = None,
        odds_cap: int | None = None,
        reads: Reads = None,
    ) -> int:
        """``roll_until`` for a caller that reads only the total: ``accept(total)``.
        ``reads`` as for ``total`` (``accept`` must read at most as much)."""
        values = self.roll_until(
            label,
            count,
            sides,
            lambda values: accept(sum(values)),
            max_rolls=max_rolls,
            cap_field=cap_field,
            feeds=feeds,
            odds_cap=odds_cap,
        )
        return sum(values)

    def finish(self) -> None:
        """Called when the procedure returns: a fixed source refuses leftovers."""


class RandomDice(Dice):
    """The server's dice: ``random.SystemRandom`` unless another RNG is given."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = rng or random.SystemRandom()

    def _draw(self, label, count, sides, accept):
        return tuple(self.rng.randint(1, sides) for _ in range(count))


class SeededDice(RandomDice):
    """Reproducible dice: the same seed gives the same rolls."""

    def __init__(self, seed: int | str) -> None:
        super().__init__(random.Random(seed))


class FixedDice(Dice):
    """Consumes a given list of dice, in order, validating each against the roll it feeds."""

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__()
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise DiceError("dice must be a list of whole numbers")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int):
                raise DiceError("every die must be a whole number")
        self.values = list(values)
        self.used = 0

    def _draw(self, label, count, sides, accept):
        left = len(self.values) - self.used
        if left < count:
            missing = count - left
            raise DiceError(f"{describe_roll(label)} needs {missing} more d{sides}")
        values = tuple(self.values[self.used : self.used + count])
        for v in values:
            if not 1 <= v <= sides:
                raise DiceError(f"{describe_roll(label)} is rolled on d{sides}: {v} is not 1..{sides}")
        self.used += count
        return values

    def finish(self) -> None:
        extra = len(self.values) - self.used
        if extra:
            left = ", ".join(str(v) for v in self.values[self.used :])
            raise DiceError(
                f"{extra} {'die was' if extra == 1 else 'dice were'} left over ({left}): "
                "this case rolls fewer dice"
            )


def as_dice(dice: Dice | Sequence[int] | None) -> Dice:
    """Accept a source, a list of physical dice, or ``None`` for the server's dice."""
    if dice is None:
        return RandomDice()
    if isinstance(dice, Dice):
        return dice
    return FixedDice(dice)
