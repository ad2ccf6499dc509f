"""``manage.py export_mul CAMPAIGN_CODE (--battlefield NAME | --record NAME ...) -o FILE.mul``:
forces as a MegaMek unit list, each unit with its record's id (which comes back after the battle)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from referee.battles import services
from referee.battles.cli import battlefield_named, campaign_of, record_named, write_file
from referee.play.services import PlayError


class Command(BaseCommand):
    help = "Write units and ships (a battlefield's, or named ones) as a MegaMek .mul unit list."

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="The campaign's code (as in its address, /c/CODE/).")
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument("--battlefield", help="Every unit on this battlefield's map (its name).")
        group.add_argument(
            "--record", action="append", help="A unit or ship by name; give it again for more."
        )
        parser.add_argument("-o", "--output", required=True, help="The .mul file to write.")

    def handle(self, *args, **options) -> None:
        campaign = campaign_of(options["campaign"])
        if options["battlefield"]:
            records = services.battlefield_forces(battlefield_named(campaign, options["battlefield"]))
        else:
            records = [record_named(campaign, name) for name in options["record"]]
        try:
            text, notes = services.mul_export(records)
        except PlayError as error:
            raise CommandError(str(error)) from None
        write_file(options["output"], text)
        for note in notes:
            self.stderr.write(note)
        self.stdout.write(
            f"Wrote {len(records)} unit{'s' if len(records) != 1 else ''} to {options['output']}."
        )
