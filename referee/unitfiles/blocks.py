"""The building-block layout of MegaMek's .blk files: ``<Tag>`` lines, values one per line, ``</Tag>``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import UnitFileError
from .text import parse_int, parse_number, shown

_OPEN = re.compile(r"<([^<>/][^<>]{0,99})>")
MAX_VALUES = 2_000  # lines inside one block


@dataclass(frozen=True, slots=True)
class Block:
    tag: str
    values: tuple[tuple[str, int], ...]  # (text, line number), blank lines left out
    line: int


def parse_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        match = _OPEN.fullmatch(stripped)
        if not match:
            raise UnitFileError(f"“{shown(stripped)}” stands outside any <tag> … </tag> block.", line=i + 1)
        tag, start = match.group(1).strip(), i + 1
        closing = f"</{tag}>".lower()
        values: list[tuple[str, int]] = []
        i += 1
        while i < n and lines[i].strip().lower() != closing:
            value = lines[i].strip()
            if value:
                if len(values) == MAX_VALUES:
                    raise UnitFileError(
                        f"the <{tag}> block holds more than {MAX_VALUES:,} lines.", line=i + 1
                    )
                values.append((value, i + 1))
            i += 1
        if i >= n:
            raise UnitFileError(
                f"the <{tag}> block that opens here is never closed with </{tag}>.", line=start
            )
        blocks.append(Block(tag, tuple(values), start))
        i += 1
    return blocks


class Blocks:
    """The file's blocks, looked up by tag (any case). What the reader uses is marked, so that
    whatever is left over can be kept, in order, and written back."""

    def __init__(self, blocks: list[Block]) -> None:
        self._blocks = blocks
        self._used: set[int] = set()

    def _find(self, tag: str) -> list[int]:
        low = tag.lower()
        return [i for i, block in enumerate(self._blocks) if block.tag.lower() == low]

    def has(self, tag: str) -> bool:
        found = self._find(tag)
        self._used.update(found)
        return bool(found)

    def peek(self, tag: str) -> list[tuple[str, int]]:
        """Values of every block with this tag, without taking them."""
        return [value for i in self._find(tag) for value in self._blocks[i].values]

    def values(self, tag: str) -> list[tuple[str, int]]:
        found = self._find(tag)
        self._used.update(found)
        return [value for i in found for value in self._blocks[i].values]

    def line_of(self, tag: str) -> int | None:
        found = self._find(tag)
        return self._blocks[found[0]].line if found else None

    def text(self, tag: str, *, required: str | None = None, default: str | None = None) -> str | None:
        found = self._find(tag)
        if not found:
            if required:
                raise UnitFileError(f"The file has no <{tag}> block ({required}).")
            return default
        self._used.update(found)
        values = self._blocks[found[0]].values
        return values[0][0] if values else ""

    def _single(self, tag: str, what: str, required: bool) -> tuple[str, int] | None:
        found = self._find(tag)
        if not found:
            if required:
                raise UnitFileError(f"The file has no <{tag}> block ({what}).")
            return None
        self._used.update(found)
        block = self._blocks[found[0]]
        if not block.values:
            raise UnitFileError(f"the <{tag}> block is empty; it should hold {what}.", line=block.line)
        return block.values[0]

    def int(self, tag: str, *, what: str, low: int, high: int, required: bool = False) -> int | None:
        found = self._single(tag, what, required)
        if found is None:
            return None
        return parse_int(found[0], what=what[:1].upper() + what[1:], low=low, high=high, line=found[1])

    def number(
        self, tag: str, *, what: str, low: float, high: float, required: bool = False
    ) -> int | float | None:
        found = self._single(tag, what, required)
        if found is None:
            return None
        return parse_number(found[0], what=what[:1].upper() + what[1:], low=low, high=high, line=found[1])

    def leftover(self) -> list[list]:
        return [
            [block.tag, [value for value, _line in block.values]]
            for i, block in enumerate(self._blocks)
            if i not in self._used
        ]


def write_block(out: list[str], tag: str, values: list[str] | tuple[str, ...]) -> None:
    out.append(f"<{tag}>")
    out.extend(_one_line(str(value)) for value in values)
    out.append(f"</{tag}>")
    out.append("")


def _one_line(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ").strip()
