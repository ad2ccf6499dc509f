"""Free names for new records: the name wanted, or it numbered until no record has it."""

from __future__ import annotations

import re
from collections.abc import Iterable

NAME_LENGTH = 120  # the records' name fields
_TRAILING_DIGITS = re.compile(r"[0-9]+\Z")


def free_name(wanted: str, taken: Iterable[str], *, suffix: str = " {}", bare: bool = True) -> str:
    """``wanted`` when no name in ``taken`` is it (letter case aside; ``bare``), else the
    first of it numbered from 2 by ``suffix`` (``" {}"``: Door 2, ``" #{}"``: Atlas #2,
    ``" ({})"``: Ridge (2)) that none is; cut to a name field's length, the number kept
    whole.

    ``taken`` is read once, each name read back to the number it carries, so a campaign with
    hundreds of copies costs one pass, not one try per number."""
    head, tail = suffix.split("{}")
    around = len(head) + len(tail)  # the suffix's length but for its number
    head, tail = head.casefold(), tail.casefold()
    whole = wanted[:NAME_LENGTH]
    whole_folded = whole.casefold()
    prefixes: dict[int, str] = {}  # a number's digit count -> the wanted name cut to fit it

    def prefix(digits: int) -> str:
        if digits not in prefixes:
            prefixes[digits] = wanted[: NAME_LENGTH - around - digits].casefold()
        return prefixes[digits]

    bare_taken, numbers = False, set()
    for name in taken:
        folded = name.casefold()
        if folded == whole_folded:
            bare_taken = True
        if not folded.endswith(tail):
            continue
        body = folded[: len(folded) - len(tail)]
        run = _TRAILING_DIGITS.search(body)
        if run is None:
            continue
        # The digits could start anywhere in the run when the suffix itself ends in one.
        for start in range(run.start(), run.end()):
            digits = body[start:]
            if digits[0] != "0" and body[:start] == prefix(len(digits)) + head:
                numbers.add(int(digits))
    if bare and not bare_taken:
        return whole
    number = 2
    while number in numbers:
        number += 1
    end = suffix.format(number)
    return wanted[: NAME_LENGTH - len(end)] + end
