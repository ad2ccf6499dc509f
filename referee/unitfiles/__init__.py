"""MegaMek unit files (.mtf 'Mechs, .blk everything else) to record-sheet documents and back.

Pure Python: no database, no request. ``referee.unitfiles.services`` turns the documents into records.
"""

from .errors import UnitFileError
from .files import (
    Batch,
    ReadUnit,
    Skipped,
    export_stem,
    read_pasted,
    read_unit_text,
    read_uploads,
    shown_name,
    write_unit_text,
)

__all__ = [
    "Batch",
    "ReadUnit",
    "Skipped",
    "UnitFileError",
    "export_stem",
    "read_pasted",
    "read_unit_text",
    "read_uploads",
    "shown_name",
    "write_unit_text",
]
