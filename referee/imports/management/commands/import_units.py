"""``manage.py import_units CAMPAIGN_CODE FILE...``: MegaMek unit files into a campaign, all or nothing.

Every unit file named, and every unit file inside a zip named, must read; otherwise nothing is
created and the command exits 2, naming each file, line and problem. (The web import instead
takes what it can from a zip and lists the rest.) Members of a zip that are not unit files
(a readme, a zip inside the zip) are listed as skipped and do not stop the import.
"""

from __future__ import annotations

import os
import uuid

from django.core.management.base import BaseCommand, CommandError

from referee.campaigns.models import Campaign, Membership, Role
from referee.imports import services
from referee.play.services import PlayError
from referee.unitfiles import read_uploads
from referee.unitfiles.files import MAX_ZIP_BYTES

UNREADABLE = 2


class Command(BaseCommand):
    help = "Import MegaMek unit files (.mtf, .blk, or zips of them) into a campaign: all of them, or none."

    def add_arguments(self, parser) -> None:
        parser.add_argument("campaign", help="The campaign's code (as in its address, /c/CODE/).")
        parser.add_argument("files", nargs="+", help=".mtf, .blk or .zip files")
        parser.add_argument(
            "--designs", action="store_true", help="Keep them as the campaign's designs instead of records."
        )
        parser.add_argument(
            "--existing",
            choices=[services.COPY, services.UPDATE],
            help="When a unit's chassis and model are already in the campaign: import a second copy "
            "(named #2), or update the existing record's sheet (a logged change that can be undone). "
            "Without it such a unit stops the import.",
        )

    def handle(self, *args, **options) -> None:
        try:
            campaign = Campaign.objects.get(code=uuid.UUID(options["campaign"]))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"There is no campaign with the code {options['campaign'][:60]}.") from None
        uploads, problems = [], []
        for path in options["files"]:
            try:
                if os.path.getsize(path) > MAX_ZIP_BYTES:
                    problems.append(f"{path}: larger than {MAX_ZIP_BYTES // (1024 * 1024)} MB.")
                    continue
                with open(path, "rb") as handle:
                    uploads.append((path, handle.read(MAX_ZIP_BYTES + 1)))
            except OSError as error:
                problems.append(f"{path}: cannot be opened ({error.strerror or error}).")
        batch = read_uploads(uploads)
        for skipped in batch.skipped:
            self.stderr.write(f"Skipped {skipped.source}: {skipped.reason}")
        problems += [str(error) for error in batch.failed]
        if not problems and not batch.units:
            problems.append("No unit file was found in what was given.")
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError("Nothing was imported.", returncode=UNREADABLE)
        gm = Membership.objects.filter(campaign=campaign, role=Role.GM).select_related("user").first()
        try:
            imported = services.unit_files_import(
                campaign=campaign,
                units=batch.units,
                actor=gm.user if gm else None,
                as_designs=options["designs"],
                skipped=len(batch.skipped),
                existing=options["existing"] or services.ASK,
            )
        except services.AlreadyInCampaign as error:
            raise CommandError(
                f"{error} Nothing was imported: run again with --existing copy or --existing update.",
                returncode=UNREADABLE,
            ) from None
        except PlayError as error:
            raise CommandError(f"{error} Nothing was imported.", returncode=UNREADABLE) from None
        for unit in batch.units:
            for note in unit.warnings:
                self.stderr.write(f"Warning, {unit.source}: {note}")
        for item in imported.created:
            self.stdout.write(f"Created {item.name} ({item.what})")
        for item in imported.updated:
            self.stdout.write(f"Updated the record sheet of {item.name} ({item.what})")
        for entry in imported.update_entries:
            self.stdout.write(f"{entry.title}: log entry #{entry.seq}, which can undo it.")
        if imported.entry is not None:
            self.stdout.write(f"{imported.entry.title}: log entry #{imported.entry.seq}, which can undo it.")
