"""``manage.py bench_import``: the time to import a zip of 1,000 unit files, as figures.

Builds the zip in memory from the project's own sample files (every unit type), imports it
into a throwaway campaign the way the web import does (read every member, then one
transaction and one log entry) and rolls everything back. The machine may be shared: run it
when it is quiet, and read the figures as an upper bound.
"""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from referee.campaigns.models import Campaign, Membership, Role
from referee.imports import services
from referee.imports.services import MAX_IMPORT
from referee.unitfiles import read_uploads

SAMPLES = Path(__file__).resolve().parents[3] / "unitfiles" / "samples"


def sample_zip(count: int) -> bytes:
    samples = sorted(SAMPLES.iterdir())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(count):
            path = samples[i % len(samples)]
            archive.writestr(f"units/{i:04d} {path.name}", path.read_bytes())
    return buffer.getvalue()


class Command(BaseCommand):
    help = "Time importing a zip of unit files (1,000 by default) built from the samples; rolled back after."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--files", type=int, default=MAX_IMPORT, help=f"How many files (1 to {MAX_IMPORT:,})."
        )

    def handle(self, *args, **options) -> None:
        count = options["files"]
        if not 1 <= count <= MAX_IMPORT:
            raise CommandError(f"--files runs from 1 to {MAX_IMPORT:,}.")
        started = time.perf_counter()
        data = sample_zip(count)
        built = time.perf_counter()
        batch = read_uploads([("bench.zip", data)])
        read = time.perf_counter()
        if batch.failed or len(batch.units) != count:
            raise CommandError(f"The samples did not all read: {[str(e) for e in batch.failed][:3]}")
        with transaction.atomic():
            user, _ = get_user_model().objects.get_or_create(username="bench-import-gm")
            campaign = Campaign.objects.create(name="Import benchmark (rolled back)")
            Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
            imported = services.unit_files_import(campaign=campaign, units=batch.units, actor=user)
            done = time.perf_counter()
            transaction.set_rollback(True)
        kinds = sorted({item.what for item in imported.created})
        self.stdout.write(
            f"Zip of {count:,} unit files ({len(data) / 1024:,.0f} KB), {len(kinds)} unit types: {', '.join(kinds)}"
        )
        self.stdout.write(f"  build the zip          {built - started:8.2f} s")
        self.stdout.write(f"  read and check sheets  {read - built:8.2f} s")
        self.stdout.write(f"  create records and log {done - read:8.2f} s  (one transaction, one log entry)")
        self.stdout.write(f"  import in all          {done - built:8.2f} s  (goal: under 30 s)")
        self.stdout.write(
            f"  {count / (done - built):,.0f} files a second; everything created was rolled back."
        )
        self.stdout.write("  The machine is shared with other work: figures are an upper bound.")
