"""Small helpers shared by the procedure modules."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.dice import table_entry  # noqa: F401  (the procedures' lookup of a GM table)


def lookup_band(bands: Sequence[tuple[float | None, Any]], value: float) -> Any:
    """Look ``value`` up in ``((upper_bound, result), ...)`` bands, ascending;
    the last band may have ``None`` as its bound (no upper limit)."""
    for upper, result in bands:
        if upper is None or value <= upper:
            return result
    raise ValueError(f"{value} is above every band")


def rhu(x: float) -> int:
    """Round half up: floor(x + 0.5)."""
    return math.floor(x + 0.5)


def success(total: int, target: int) -> bool:
    """Roll after modifiers >= target number (catalogue section 0)."""
    return total >= target
