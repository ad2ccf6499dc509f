"""Reading uploads: one unit file, pasted text, or a zip of many; writing a sheet back to its format.

A zip is opened with bounds that a hostile archive cannot get past (members, bytes unpacked,
no zip inside a zip), whatever its headers claim; member names are only ever shown, never used
as paths.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.forms import too_large
from referee.sheets.document import SheetError, normalise

from .blk import read_blk, write_blk
from .errors import UnitFileError
from .mtf import read_mtf, write_mtf
from .text import MAX_FILE_BYTES, decode, split_lines

MAX_ZIP_BYTES = 16 * 1024 * 1024  # the zip as uploaded
MAX_MEMBERS = 2_000
MAX_UNPACKED_BYTES = 64 * 1024 * 1024  # everything read out of one zip
UNIT_SUFFIXES = (".mtf", ".blk")
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


@dataclass(frozen=True, slots=True)
class ReadUnit:
    source: str  # how the person knows the file: its name, or "pasted text"
    doc: dict[str, Any]
    warnings: tuple[str, ...] = ()  # lines that could not be read, the unit imported all the same


@dataclass(frozen=True, slots=True)
class Skipped:
    source: str
    reason: str


@dataclass(slots=True)
class Batch:
    units: list[ReadUnit] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    failed: list[UnitFileError] = field(default_factory=list)  # unit files that could not be read


def shown_name(name: str) -> str:
    """A file or zip member name fit to show: its last part, no control characters, not too long."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = re.sub(r"[\x00-\x1f\x7f-\x9f]", "", base).strip()
    return (base[:77] + "…" if len(base) > 80 else base) or "unnamed file"


def read_unit_text(data: bytes | str, *, name: str = "", warnings: list[str] | None = None) -> dict[str, Any]:
    """One unit file's sheet document; raises ``UnitFileError`` naming the line at fault when the
    unit cannot be read. Odd lines of a readable unit are added to ``warnings`` (when given)."""
    text = decode(data)
    lines = split_lines(text)
    kind = _kind(name, lines)
    warnings = [] if warnings is None else warnings
    return sheet_of(read_mtf(lines, warnings) if kind == "mtf" else read_blk(lines, warnings))


# Description text a unit file may carry at length; left out when the sheet would be too large.
_FLUFF = {
    "overview", "capabilities", "deployment", "history", "notes", "manufacturer", "primaryfactory",
    "systemmanufacturer", "systemmode", "fluffimage", "imagepath", "icon", "use",
}  # fmt: skip


def sheet_of(doc: dict[str, Any]) -> dict[str, Any]:
    """The read document as a record sheet (checked and in its canonical shape)."""
    try:
        return normalise(doc)
    except SheetError as error:
        extra = doc.get("source", {}).get("extra", {})
        trimmed = {
            **extra,
            "entries": [e for e in extra.get("entries", []) if e[0].lower() not in _FLUFF],
            "blocks": [b for b in extra.get("blocks", []) if b[0].lower() not in _FLUFF],
        }
        trimmed = {k: v for k, v in trimmed.items() if v or k not in ("entries", "blocks")}
        if trimmed != extra:
            try:
                return normalise({**doc, "source": {**doc["source"], "extra": trimmed}})
            except SheetError:
                pass
        raise UnitFileError(f"the unit cannot be kept as a record sheet: {error}") from None


def _kind(name: str, lines: list[str]) -> str:
    low = name.lower()
    if low.endswith(".mtf"):
        return "mtf"
    if low.endswith(".blk"):
        return "blk"
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("<"):
            return "blk"
        key = stripped.partition(":")[0].strip().lower()
        if key in ("version", "chassis", "model", "config", "mass", "techbase", "era"):
            return "mtf"
        break
    raise UnitFileError(
        "This is neither a 'Mech file (.mtf, lines such as “chassis:Atlas”) nor a building-block file "
        "(.blk, blocks such as “<UnitType>”)."
    )


def is_zip(name: str, data: bytes) -> bool:
    return name.lower().endswith(".zip") or data[:4] in _ZIP_MAGIC


def read_uploads(files: Iterable[tuple[str, bytes]]) -> Batch:
    """Every unit file in the uploads (zips opened); what could not be read is in ``failed``
    (unit files) or ``skipped`` (anything else), each with its reason."""
    batch = Batch()
    for name, data in files:
        if is_zip(name, data):
            _read_zip(shown_name(name), data, batch)
        else:
            _read_one(shown_name(name), data, batch)
    return batch


def read_pasted(text: str) -> Batch:
    batch = Batch()
    _read_one("pasted text", text, batch)
    return batch


def _read_one(source: str, data: bytes | str, batch: Batch) -> None:
    warnings: list[str] = []
    try:
        batch.units.append(
            ReadUnit(source, read_unit_text(data, name=source, warnings=warnings), tuple(warnings))
        )
    except UnitFileError as error:
        batch.failed.append(error.named(source))


def _read_zip(source: str, data: bytes, batch: Batch) -> None:
    if len(data) > MAX_ZIP_BYTES:
        batch.failed.append(UnitFileError(too_large(MAX_ZIP_BYTES, "a zip of unit files"), source=source))
        return
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        batch.failed.append(UnitFileError("this is not a zip archive that can be opened.", source=source))
        return
    if len(members) > MAX_MEMBERS:
        batch.failed.append(
            UnitFileError(
                f"the zip holds {len(members):,} entries; at most {MAX_MEMBERS:,} are read.", source=source
            )
        )
        return
    unpacked = 0
    for info in members:
        member = f"{source} › {shown_name(info.filename)}"
        if info.is_dir():
            continue
        low = info.filename.lower()
        if low.endswith(".zip"):
            batch.skipped.append(Skipped(member, "a zip inside a zip is not opened."))
            continue
        if not low.endswith(UNIT_SUFFIXES):
            batch.skipped.append(Skipped(member, "not a unit file (.mtf or .blk)."))
            continue
        if unpacked >= MAX_UNPACKED_BYTES:
            batch.skipped.append(
                Skipped(
                    member,
                    f"not read: the zip unpacks to more than {MAX_UNPACKED_BYTES // (1024 * 1024)} MB.",
                )
            )
            continue
        if info.flag_bits & 0x1:
            batch.failed.append(UnitFileError("it is encrypted.", source=member))
            continue
        try:
            with archive.open(info) as handle:
                content = handle.read(MAX_FILE_BYTES + 1)
        except (
            zipfile.BadZipFile,
            zlib.error,
            NotImplementedError,
            OSError,
            ValueError,
            EOFError,
            RuntimeError,
        ):
            batch.failed.append(UnitFileError("it could not be unpacked from the zip.", source=member))
            continue
        unpacked += len(content)
        if len(content) > MAX_FILE_BYTES:
            batch.failed.append(
                UnitFileError(
                    f"it unpacks to more than {MAX_FILE_BYTES // 1024} KB; a unit file is far smaller.",
                    source=member,
                )
            )
            continue
        if content[:4] in _ZIP_MAGIC:
            batch.skipped.append(Skipped(member, "a zip inside a zip is not opened."))
            continue
        _read_one(member, content, batch)


def write_unit_text(doc: dict[str, Any]) -> tuple[str, str]:
    """(file name, text) of a sheet in MegaMek's format: .mtf for 'Mechs, .blk for everything else."""
    if doc.get("unit_type") == "mech":
        return f"{export_stem(doc)}.mtf", write_mtf(doc)
    return f"{export_stem(doc)}.blk", write_blk(doc)


def export_stem(doc: dict[str, Any]) -> str:
    name = " ".join(part for part in (str(doc.get("chassis", "")), str(doc.get("model", ""))) if part.strip())
    name = re.sub(r'[\x00-\x1f\x7f<>:"/\\|?*]', "", name).strip(" .")
    return name[:100] or "unit"
