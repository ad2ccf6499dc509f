"""Reading a JSON file given on the command line (an export or a backup), with a plain
message for each way it can be unreadable, never a traceback."""

from __future__ import annotations

import json
import sys
from typing import Any


class FileError(ValueError):
    """The file cannot be read as JSON; the message says why, in plain words."""


def read_json(path: str) -> Any:
    """The parsed document at ``path`` ("-" for stdin). Numbers that JSON does not have
    (NaN, Infinity) are refused like any other malformed text."""
    name = "the input" if path == "-" else path
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
    except OSError as error:
        raise FileError(f"cannot read {name}: {error.strerror}") from None
    return parse_json(raw, name)


def parse_json(raw: bytes, name: str = "the file") -> Any:
    """The parsed document of ``raw`` (an upload or a file's bytes), or FileError saying
    in plain words why it is not JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileError(f"{name} is not UTF-8 text (a bad byte at position {error.start})") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise FileError(f"{name} is nested too deeply to be read") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated"):
            raise FileError(f"{name} is not JSON: it ends too early, as if cut short ({where})") from None
        raise FileError(f"{name} is not JSON: {error.msg} ({where})") from None
    except ValueError:  # a whole number of thousands of digits: Python will not read it
        raise FileError(f"{name} holds a number too long to read") from None


def _refuse_constant(name: str):
    raise json.JSONDecodeError(f"{name} is not a number JSON allows", name, 0)
