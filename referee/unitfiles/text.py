"""From the bytes someone uploaded to lines of text, refusing what is not a unit file.

Bounds keep a hostile file cheap to refuse: a unit file is a few kilobytes (a WarShip
with its fluff text rarely reaches 60 KB), so anything past ``MAX_FILE_BYTES`` or
``MAX_LINES`` is not one.
"""

from __future__ import annotations

import re

from referee.forms import too_large

from .errors import UnitFileError

MAX_FILE_BYTES = 512 * 1024
MAX_LINES = 10_000
MAX_LINE_CHARS = 20_000

# C0 and C1 controls except tab; carriage returns are taken off line ends before the check.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def decode(data: bytes | str) -> str:
    """The file's text: UTF-8, else Windows-1252 (what older unit files were saved in), else Latin-1."""
    if isinstance(data, str):
        if len(data) > MAX_FILE_BYTES:
            raise UnitFileError(f"The text is longer than a unit file can be ({MAX_FILE_BYTES // 1024} KB).")
        text = data
    else:
        if len(data) > MAX_FILE_BYTES:
            raise UnitFileError(too_large(MAX_FILE_BYTES, "a unit file"))
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                text = data.decode("latin-1")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise UnitFileError("The file is empty.")
    return text


def split_lines(text: str) -> list[str]:
    """The lines, each checked to be text; line numbers are the index plus one."""
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise UnitFileError(
            f"The file has {len(lines):,} lines; a unit file has far fewer (at most {MAX_LINES:,})."
        )
    out = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if "\x00" in line:
            raise UnitFileError("it holds a NUL byte: this is not a text file.", line=number)
        if _CONTROL.search(line):
            raise UnitFileError("it holds control characters: this is not a text file.", line=number)
        if len(line) > MAX_LINE_CHARS:
            raise UnitFileError(
                f"it is {len(line):,} characters long (at most {MAX_LINE_CHARS:,}).", line=number
            )
        out.append(line)
    return out


_INT = re.compile(r"[+-]?\d{1,12}")
_NUMBER = re.compile(r"[+-]?\d{1,12}(\.\d{1,6})?")


def parse_int(value: str, *, what: str, low: int, high: int, line: int | None) -> int:
    """A whole number between ``low`` and ``high``; anything else is refused, naming ``what``."""
    text = value.strip()
    if text.endswith(".0"):
        text = text[:-2]
    if not _INT.fullmatch(text):
        raise UnitFileError(f"{what} should be a whole number, not “{_shown(value)}”.", line=line)
    number = int(text)
    if not low <= number <= high:
        raise UnitFileError(f"{what} is {number:,}; it must be between {low:,} and {high:,}.", line=line)
    return number


def parse_number(value: str, *, what: str, low: float, high: float, line: int | None) -> int | float:
    """A number (whole numbers come back as int) between ``low`` and ``high``."""
    text = value.strip()
    if not _NUMBER.fullmatch(text):
        raise UnitFileError(f"{what} should be a number, not “{_shown(value)}”.", line=line)
    number = float(text)
    if not low <= number <= high:
        raise UnitFileError(f"{what} is {text}; it must be between {low:,} and {high:,}.", line=line)
    return int(number) if number.is_integer() else number


def _shown(value: str) -> str:
    value = value.strip()
    return value if len(value) <= 40 else value[:37] + "…"


def shown(value: str) -> str:
    return _shown(value)
