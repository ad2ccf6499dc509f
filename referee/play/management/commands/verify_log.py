"""``manage.py verify_log``: recompute a turn log's hash chain, from the database or an export."""

from __future__ import annotations

import json
import sys
import uuid

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.campaigns.models import Campaign
from referee.play import integrity


class Command(BaseCommand):
    help = (
        "Verify a campaign's turn log (its hash chain) from the database, or a JSON export with --file. "
        "Exits 0 when the chain holds, 1 at the first entry that does not match, 2 on bad arguments."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", nargs="?", help="the campaign's code (UUID)")
        parser.add_argument("--file", metavar="EXPORT.json", help="verify a JSON export instead")

    def handle(self, *args, code: str | None = None, file: str | None = None, **opts) -> None:
        if bool(code) == bool(file):
            raise CommandError("give a campaign code or --file EXPORT.json (one of them)", returncode=2)
        report = self._from_file(file) if file else integrity.verify_campaign(self._campaign(code))
        self.stdout.write(report.message())
        if not report.holds:
            sys.exit(1)

    def _campaign(self, code: str) -> Campaign:
        try:
            return Campaign.objects.get(code=uuid.UUID(code))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"no campaign with code {code}", returncode=2) from None

    def _from_file(self, path: str) -> integrity.ChainReport:
        try:
            with open(path, encoding="utf-8") if path != "-" else sys.stdin as fh:
                document = json.load(fh)
            return integrity.verify_export(document)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        except ValueError as error:  # invalid JSON, or integrity.IntegrityError
            raise CommandError(f"{path}: {error}", returncode=2) from None
