"""``manage.py export_board CAMPAIGN_CODE BATTLEFIELD -o FILE.board``: a battlefield as a MegaMek board."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from referee.battles import services
from referee.battles.cli import battlefield_named, campaign_of, write_file


class Command(BaseCommand):
    help = "Write a battlefield's hex map as a MegaMek .board file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="The campaign's code (as in its address, /c/CODE/).")
        parser.add_argument("battlefield", help="The battlefield's name, as the GM wrote it.")
        parser.add_argument("-o", "--output", required=True, help="The .board file to write.")

    def handle(self, *args, **options) -> None:
        campaign = campaign_of(options["campaign"])
        field = battlefield_named(campaign, options["battlefield"])
        text, notes = services.board_export(field)
        write_file(options["output"], text, newline="")
        for note in notes:
            self.stderr.write(note)
        self.stdout.write(
            f"Wrote {field.name} ({field.columns} by {field.rows} hexes) to {options['output']}."
        )
