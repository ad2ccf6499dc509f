"""``manage.py backup_campaign``: one campaign, log and all, as a JSON document."""

from __future__ import annotations

import os
import sys
import uuid

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.campaigns.models import Campaign
from referee.play import backup


class Command(BaseCommand):
    help = "Write a campaign's backup (every row it keeps and its whole turn log) to FILE or stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="the campaign's code (UUID)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args, code: str, output: str | None = None, **opts) -> None:
        try:
            campaign = Campaign.objects.get(code=uuid.UUID(code))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"no campaign with code {code}", returncode=2) from None
        try:
            chunks = backup.backup_chunks(campaign)
            if not output or output == "-":
                for chunk in chunks:
                    self.stdout.write(chunk, ending="")
                return
            # Written beside the target and renamed, so a failed run never leaves half a backup.
            partial = f"{output}.partial"
            with open(partial, "w", encoding="utf-8") as fh:
                for chunk in chunks:
                    fh.write(chunk)
            os.replace(partial, output)
        except backup.BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}", returncode=2) from None
        sys.stderr.write(f"backed up {campaign.name} ({campaign.code}) to {output}\n")
