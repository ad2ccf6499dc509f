"""Free names for new records: the name wanted, or it numbered until no record has it."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import count

NAME_LENGTH = 120  # the records' name fields


def free_name(wanted: str, taken: Iterable[str], *, suffix: str = " {}", bare: bool = True) -> str:
    """``wanted`` when no name in ``taken`` is it (letter case aside; ``bare``), else the
    first of it numbered from 2 by ``suffix`` (``" {}"``: Door 2, ``" #{}"``: Atlas #2,
    ``" ({})"``: Ridge (2)) that none is; cut to a name field's length, the number kept
    whole."""
    used = {name.casefold() for name in taken}
    if bare and wanted[:NAME_LENGTH].casefold() not in used:
        return wanted[:NAME_LENGTH]
    for number in count(2):
        end = suffix.format(number)
        candidate = wanted[: NAME_LENGTH - len(end)] + end
        if candidate.casefold() not in used:
            return candidate
    raise AssertionError("unreachable")  # count() never ends
