"""``manage.py restore_campaign``: recreate a campaign from its backup (an admin act)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.play import backup


class Command(BaseCommand):
    help = (
        "Recreate a campaign from a backup_campaign file, with the same codes and the same log, "
        "in one transaction. Refuses (exit 2) when a campaign with that code exists."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help='the backup file ("-" for stdin)')

    def handle(self, *args, file: str, **opts) -> None:
        try:
            with open(file, encoding="utf-8") if file != "-" else sys.stdin as fh:
                document = json.load(fh)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}", returncode=2) from None
        except ValueError as error:
            raise CommandError(f"{file} is not JSON: {error}", returncode=2) from None
        try:
            campaign, created = backup.restore(document)
        except backup.RestoreError as error:
            raise CommandError(f"not restored: {error}", returncode=2) from None
        entries = campaign.log.count()
        self.stdout.write(
            f"restored {campaign.name} ({campaign.code}): {entries} log entries, chain verified"
        )
        if created:
            self.stdout.write(
                f"created users without a usable password: {', '.join(created)} "
                "(set one with manage.py changepassword)"
            )
