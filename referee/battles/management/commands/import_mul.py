"""``manage.py import_mul CAMPAIGN_CODE FILE.mul [--apply]``: a battle's result from MegaMek.

Without ``--apply`` it prints which record each entity lands on and what changes, and writes
nothing; with it, the changes land on the sheets as one logged entry (undoable). Exits 2 on a
file it cannot read or an entity it cannot match, naming the line and the problem."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from referee.battles import mul, services
from referee.battles.cli import UNREADABLE, campaign_of, gm_of, read_file
from referee.play.services import PlayError


class Command(BaseCommand):
    help = "Preview (or with --apply, apply) the unit list MegaMek saved after a battle."

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="The campaign's code (as in its address, /c/CODE/).")
        parser.add_argument("file", help="The .mul file MegaMek saved")
        parser.add_argument("--apply", action="store_true", help="Write the result onto the sheets.")

    def handle(self, *args, **options) -> None:
        campaign = campaign_of(options["campaign"])
        path = options["file"]
        raw = read_file(path, mul.MAX_MUL_BYTES)
        try:
            entities = mul.parse_mul(raw)
            preview = services.result_preview(campaign, entities)
        except (mul.MulError, PlayError) as error:
            raise CommandError(f"{path}: {error} Nothing was written.", returncode=UNREADABLE) from None
        unmatched = [row for row in preview.rows if row.record is None]
        for row in preview.rows:
            how = {"id": "by its id", "name": "by chassis, model and crew"}.get(row.how, "")
            if row.record is None:
                continue
            self.stdout.write(f"{row.entity.name} (line {row.entity.line}) is {row.record}, matched {how}:")
            for line in row.lines or ["no change"]:
                self.stdout.write(f"  {line}")
        if unmatched:
            for row in unmatched:
                self.stderr.write(
                    f"{path}: Line {row.entity.line}: the {row.entity.name} matches no record of {campaign} "
                    "(or several alike); match it on the battle page."
                )
            raise CommandError("Nothing was written.", returncode=UNREADABLE)
        self.stdout.write(f"Report: {services.battle_report(preview.rows)}.")
        if not options["apply"]:
            self.stdout.write("Nothing was written (give --apply to write it).")
            return
        try:
            entry = services.result_apply(
                campaign=campaign, entities=entities, chosen={}, actor=gm_of(campaign)
            )
        except PlayError as error:
            raise CommandError(f"{path}: {error} Nothing was written.", returncode=UNREADABLE) from None
        self.stdout.write(f"{entry.title}: log entry #{entry.seq}, which can undo it.")
