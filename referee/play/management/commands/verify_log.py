"""``manage.py verify_log``: recompute a turn log's hash chain, from the database or an export."""

from __future__ import annotations

import sys
import uuid

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.campaigns.models import Campaign
from referee.play import integrity, signing
from referee.play.jsonfile import FileError, read_json


class Command(BaseCommand):
    help = (
        "Verify a campaign's turn log (its hash chain) from the database, or a JSON export with --file. "
        "With --head, the log must also pass through a fingerprint kept from an earlier turn's end. "
        "A player checks their own copy on their own machine, without the server's secrets: "
        "download the JSON export from the players' export page, note the server's public key the "
        "players' page shows, and run verify_log --file EXPORT.json --public-key KEY "
        "(--head FINGERPRINT too, for a fingerprint kept from an earlier turn). "
        "A file that is not signed is refused. "
        "Exits 0 when the chain holds, 1 at the first entry that does not match, 2 on bad arguments "
        "or a file that is not a turn-log export."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", nargs="?", help="the campaign's code (UUID)")
        parser.add_argument("--file", metavar="EXPORT.json", help="verify a JSON export instead")
        parser.add_argument(
            "--head",
            metavar="FINGERPRINT",
            help="a log fingerprint published at the end of a turn, which the log must still hold",
        )
        parser.add_argument(
            "--public-key",
            metavar="KEY",
            help="with --file: check the export against the server's public key alone (64 hex digits, "
            "as the players' page shows it), on a machine without the server's secrets",
        )

    def handle(
        self,
        *args,
        code: str | None = None,
        file: str | None = None,
        head: str | None = None,
        public_key: str | None = None,
        **opts,
    ) -> None:
        if bool(code) == bool(file):
            raise CommandError("give a campaign code or --file EXPORT.json (one of them)", returncode=2)
        if head is not None:
            head = head.strip().lower()
            if not integrity.HASH_TEXT.fullmatch(head):
                raise CommandError("--head takes a log fingerprint: 64 characters 0-9 and a-f", returncode=2)
        if public_key is not None:
            public_key = "".join(public_key.split()).lower()
            if not file or not signing.is_public_key(public_key):
                raise CommandError(
                    "--public-key goes with --file and takes the server's public key: 64 characters 0-9 and a-f",
                    returncode=2,
                )
        if file:
            report = self._from_file(file, head, public_key)
        else:
            report = integrity.database_verdict(self._campaign(code), head=head)
        self.stdout.write(report.message())
        if not report.holds:
            sys.exit(1)

    def _campaign(self, code: str) -> Campaign:
        try:
            return Campaign.objects.get(code=uuid.UUID(code))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"no campaign with code {code}", returncode=2) from None

    def _from_file(self, path: str, head: str | None, public_key: str | None) -> integrity.ChainReport:
        try:
            return integrity.verify_export(read_json(path), head=head, public_key=public_key)
        except FileError as error:
            raise CommandError(str(error), returncode=2) from None
        except integrity.NotAnExport as error:
            raise CommandError(f"{path}: {error}", returncode=2) from None
        except RecursionError:
            raise CommandError(f"{path}: nested too deeply to be a turn-log export", returncode=2) from None
