"""``manage.py import_board CAMPAIGN_CODE FILE.board [--name NAME]``: a MegaMek board as a new battlefield.

Prints the battlefield it created and the log entry that can undo it; on a file it cannot read,
exits 2 naming the line and the problem, and creates nothing."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError

from referee.battles import board, services
from referee.battles.cli import UNREADABLE, campaign_of, gm_of, read_file
from referee.play.services import PlayError


class Command(BaseCommand):
    help = "Make a battlefield from a MegaMek .board file (logged; undoable from the log)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="The campaign's code (as in its address, /c/CODE/).")
        parser.add_argument("file", help="A MegaMek .board file")
        parser.add_argument(
            "--name", default="", help="The battlefield's name (the file's name if not given)."
        )

    def handle(self, *args, **options) -> None:
        campaign = campaign_of(options["campaign"])
        path = options["file"]
        raw = read_file(path, board.MAX_BOARD_BYTES)
        try:
            read = board.parse_board(raw)
            name = options["name"] or os.path.splitext(os.path.basename(path))[0]
            field, entry = services.board_import(
                campaign=campaign, read=read, name=name, actor=gm_of(campaign)
            )
        except (board.BoardError, PlayError) as error:
            raise CommandError(f"{path}: {error} Nothing was created.", returncode=UNREADABLE) from None
        self.stdout.write(f"Created the battlefield {field.name} ({field.columns} by {field.rows} hexes).")
        self.stdout.write(f"{entry.title}: log entry #{entry.seq}, which can undo it.")
