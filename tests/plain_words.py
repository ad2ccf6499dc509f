"""What people read is in plain words: the patterns of contract and code notation that must
not reach a page, a result card, an export or a refusal beside a form field.

Importable without Django: the engine's own tests (``tests/rules``) use it too."""

from __future__ import annotations

import re

NOTATION = {
    "null": re.compile(r"\bnull\b", re.I),
    "a catalogue tag": re.compile(r"\[[A-Z]\d+\]"),
    "a snake_case key": re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b"),
    "a UUID": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    "a Python repr": re.compile(r"\{'|\['|\bNone\b"),
    "True/False": re.compile(r"\b(True|False)\b"),
    "a file name": re.compile(r"\.txt\b"),
}

# A refusal beside a form field also says nothing in the engine's own terms: what was
# posted is not echoed back as code, and no procedure id or quoted repr appears.
REFUSAL_NOTATION = {
    **NOTATION,
    "a '(got ...)' echo": re.compile(r"\(got\b", re.I),
    "a procedure id": re.compile(r"\b[a-z]+\.[a-z]+(?:_[a-z]+)*\b(?<!\be\.g)"),
    "a quoted repr": re.compile(r"(?<![A-Za-z])'[^']{0,80}'(?![A-Za-z])"),
    "a JSON or Python bracket": re.compile(r"[\[\]{}]"),
}


def notation_in(text: str, patterns: dict[str, re.Pattern] | None = None) -> list[str]:
    """Each piece of notation found, with a little of the text around it."""
    found = []
    for what, pattern in (NOTATION if patterns is None else patterns).items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 40)
            found.append(f"{what}: …{text[start : match.end() + 40]}…")
    return found


def refusal_notation(message: str) -> list[str]:
    """The notation in a refusal's message (what follows ``<field>:``)."""
    return notation_in(message, REFUSAL_NOTATION)
