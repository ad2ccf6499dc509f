"""The one error a unit file can raise: what is wrong, in plain words, and on which line."""

from __future__ import annotations


class UnitFileError(ValueError):
    """A unit file that cannot be read. ``line`` is 1-based, or None when no one line is at fault."""

    def __init__(self, message: str, *, line: int | None = None, source: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.source = source

    def named(self, source: str) -> UnitFileError:
        """The same error, naming the file (or zip member) it came from."""
        return UnitFileError(self.message, line=self.line, source=source)

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        text = f"{where}{self.message}"
        if self.source and self.line:
            return f"{self.source}: {text}"
        text = text[:1].upper() + text[1:]  # a sentence of its own, after the file's name too
        return f"{self.source}: {text}" if self.source else text
