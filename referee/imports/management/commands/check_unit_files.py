"""``manage.py check_unit_files DIR...``: how each unit file in a library would import, changing nothing.

For a GM with a library of their own: every .mtf and .blk file (and every unit file in a zip)
under the folders and files named is read exactly as the import page reads it, into a record
sheet and the record it would make, and one line says per file: imported, imported with
warnings (the lines that could not be read), or refused (and why). Nothing is written to any
campaign. Exits 1 when any file is refused, so a script can tell.
"""

from __future__ import annotations

import os
from collections import Counter

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from referee.imports import services
from referee.sheets import document
from referee.unitfiles import read_uploads
from referee.unitfiles.files import MAX_ZIP_BYTES, UNIT_SUFFIXES

REFUSED = 1
LISTED = (*UNIT_SUFFIXES, ".zip")


def _paths(given: list[str]) -> tuple[list[str], list[str]]:
    """The unit files and zips under what was named (folders walked in name order), and the
    names that are neither a folder nor a file."""
    found, missing = [], []
    for path in given:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                found += [os.path.join(folder, f) for f in sorted(files) if f.lower().endswith(LISTED)]
        elif os.path.isfile(path):
            found.append(path)
        else:
            missing.append(path)
    return found, missing


def _record_problem(doc: dict) -> str:
    """What keeps the sheet from becoming a record, or "" (the record's own checks, as on import)."""
    record = services.record_for(None, doc)
    try:
        record.full_clean(exclude=["campaign"], validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        return "; ".join(f"{message}" for messages in error.message_dict.values() for message in messages)
    return ""


class Command(BaseCommand):
    help = (
        "Read MegaMek unit files (.mtf, .blk, zips of them, or folders holding them) as the import "
        "page does and say per file whether it would be imported, with warnings, or refused. "
        "Changes nothing."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", help="folders, .mtf, .blk or .zip files")
        parser.add_argument(
            "--quiet", action="store_true", help="Only the files with warnings or refused, and the totals."
        )

    def handle(self, *args, **options) -> None:
        paths, missing = _paths(options["paths"])
        if missing:
            raise CommandError("Not a file or folder: " + ", ".join(missing[:10]))
        if not paths:
            raise CommandError("No .mtf, .blk or .zip file was found there.")
        tally: Counter[str] = Counter()
        for path in paths:
            shown = path
            if os.path.getsize(path) > MAX_ZIP_BYTES:
                self._say("refused", shown, f"larger than {MAX_ZIP_BYTES // (1024 * 1024)} MB", tally)
                continue
            with open(path, "rb") as handle:
                batch = read_uploads([(path, handle.read(MAX_ZIP_BYTES + 1))])
            for error in batch.failed:
                where = shown if error.source in shown else f"{shown}: {error.source}"
                self._say("refused", where, str(error.named("")), tally)
            for skipped in batch.skipped:
                if not options["quiet"]:
                    self.stdout.write(f"skipped  {shown}: {skipped.source}: {skipped.reason}")
            for unit in batch.units:
                where = shown if unit.source in shown else f"{shown}: {unit.source}"
                problem = _record_problem(unit.doc)
                if problem:
                    self._say("refused", where, problem, tally)
                    continue
                what = f"{document.display_name(unit.doc)} ({document.UNIT_TYPES[unit.doc['unit_type']]})"
                if unit.warnings:
                    self._say("warning", where, f"{what}; " + " | ".join(unit.warnings), tally)
                elif not options["quiet"]:
                    self._say("imported", where, what, tally)
                else:
                    tally["imported"] += 1
        total = sum(tally.values())
        self.stdout.write(
            f"{total} unit{'' if total == 1 else 's'}: {tally['imported']} imported, {tally['warning']} "
            f"imported with warnings, {tally['refused']} refused."
        )
        if tally["refused"]:
            raise SystemExit(REFUSED)

    def _say(self, outcome: str, where: str, message: str, tally: Counter) -> None:
        tally[outcome] += 1
        self.stdout.write(f"{outcome:<8} {where}: {message}")
