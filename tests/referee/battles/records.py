"""Records with the sheets MegaMek unit files give, for the battle tests."""

from __future__ import annotations

from pathlib import Path

from referee.imports.services import record_for
from referee.unitfiles import read_uploads

ROOT = Path(__file__).resolve().parents[3]
UNIT_SAMPLES = ROOT / "referee" / "unitfiles" / "samples"
SAMPLES = ROOT / "referee" / "battles" / "samples"


def sheet(file_name: str) -> dict:
    batch = read_uploads([(file_name, (UNIT_SAMPLES / file_name).read_bytes())])
    assert not batch.failed, batch.failed
    return batch.units[0].doc


def record(campaign, file_name: str, *, name: str = "", pilot: str = "", **fields):
    """A saved unit or ship carrying the unit file's sheet, as an import makes it."""
    doc = sheet(file_name)
    if pilot and "pilot" in doc:
        doc["pilot"]["name"] = pilot
    obj = record_for(campaign, doc)
    if name:
        obj.name = name
    for key, value in fields.items():
        setattr(obj, key, value)
    obj.save()
    return obj
