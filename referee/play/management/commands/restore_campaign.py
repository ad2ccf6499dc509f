"""``manage.py restore_campaign``: recreate a campaign from its backup (an admin act)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.play import backup
from referee.play.jsonfile import FileError, read_json


class Command(BaseCommand):
    help = (
        "Recreate a campaign from a backup_campaign file, with the same codes and the same log, "
        "in one transaction. Only the campaign's own records are restored. A user the backup names "
        "who has an account here must be mapped with --user NAME=ACCOUNT (or --same-accounts); free "
        "names become new accounts without a usable password. Refuses (exit 2, nothing written) when "
        "a campaign with that code exists or the file is not a sound backup."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help='the backup file ("-" for stdin)')
        parser.add_argument(
            "--user",
            action="append",
            default=[],
            metavar="NAME=ACCOUNT",
            help="give the backup's user NAME's place (memberships, log entries) to ACCOUNT here",
        )
        parser.add_argument(
            "--same-accounts",
            action="store_true",
            help="the backup's users are the accounts of the same names here (the same server)",
        )

    def handle(self, *args, file: str, user: list[str], same_accounts: bool, **opts) -> None:
        mapping = {}
        for pair in user:
            name, sep, account = pair.partition("=")
            if not sep or not name or not account:
                raise CommandError(f"--user takes NAME=ACCOUNT, not {pair!r}", returncode=2)
            mapping[name] = account
        try:
            document = read_json(file)
        except FileError as error:
            raise CommandError(str(error), returncode=2) from None
        try:
            campaign, created = backup.restore(document, users=mapping, same_accounts=same_accounts)
        except backup.RestoreError as error:
            hint = f" ({error.command_hint})" if error.command_hint else ""
            raise CommandError(f"not restored: {error}{hint}", returncode=2) from None
        entries = campaign.log.count()
        self.stdout.write(
            f"restored {campaign.name} ({campaign.code}): {entries} log entries, chain verified"
        )
        if created:
            self.stdout.write(
                f"created users without a usable password: {', '.join(created)} "
                "(set one with manage.py changepassword)"
            )
