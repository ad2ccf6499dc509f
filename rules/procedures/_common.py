"""Small helpers shared by the procedure modules."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import InputError


def lookup_band(bands: Sequence[tuple[float | None, Any]], value: float) -> Any:
    """Look ``value`` up in ``((upper_bound, result), ...)`` bands, ascending;
    the last band may have ``None`` as its bound (no upper limit)."""
    for upper, result in bands:
        if upper is None or value <= upper:
            return result
    raise ValueError(f"{value} is above every band")


def table_entry(table: Mapping[int, Any], roll: int, field: str) -> Any:
    """A GM table's entry for a 2D6 total; a gap is the GM's to fill (C.2)."""
    try:
        return table[roll]
    except KeyError:
        raise InputError(field, f"has no entry for a roll of {roll}") from None


def rhu(x: float) -> int:
    """Round half up: floor(x + 0.5)."""
    return math.floor(x + 0.5)


def success(total: int, target: int) -> bool:
    """Roll after modifiers >= target number (catalogue section 0)."""
    return total >= target
