"""Write a map to a file: SVG as the page draws it, or PNG (for a forum post) rendered by
the machine's Chromium, headless, from that same SVG.

    manage.py export_map CAMPAIGN --system Galax -o galax.png
    manage.py export_map CAMPAIGN --battlefield "Landing zone Alpha" --players -o lz.svg
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from referee.campaigns.models import Campaign
from referee.fleet.models import StarSystem
from referee.maps import geometry, selectors
from referee.terrain.models import Battlefield

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome")


def _chromium() -> str:
    for candidate in (os.environ.get("REFEREE_CHROMIUM", ""), *CHROMIUMS):
        if candidate and (found := shutil.which(candidate) or (Path(candidate).exists() and candidate)):
            return str(found)
    raise CommandError("PNG needs Chromium (Debian's chromium package); write an .svg instead.")


def svg_to_png(svg: str, width: int, height: int, out: Path) -> None:
    """Chromium screenshots a page holding only the drawing, at the drawing's own size."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "map.html"
        page.write_text(
            f'<!doctype html><meta charset="utf-8"><style>html,body{{margin:0;background:#fff}}</style>{svg}',
            encoding="utf-8",
        )
        shot = Path(tmp) / "map.png"
        command = [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp}/profile",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            page.as_uri(),
        ]
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=60)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            raise CommandError(f"Chromium could not render the map ({error}).") from None
        if not shot.exists():
            raise CommandError("Chromium wrote no picture.")
        shutil.copyfile(shot, out)


class Command(BaseCommand):
    help = "Write a star system's or a battlefield's map as SVG or PNG."

    def add_arguments(self, parser):
        parser.add_argument("campaign", help="The campaign's code.")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--system", help="A star system's name.")
        where.add_argument("--battlefield", help="A battlefield's name.")
        parser.add_argument("--at", type=int, help="As it stood after this log entry.")
        parser.add_argument("--players", action="store_true", help="Only what players see.")
        parser.add_argument("--scale", choices=sorted(selectors.MODES), default="fit")
        parser.add_argument("-o", "--output", required=True, help="A file ending in .svg or .png.")

    def handle(self, *args, **options):
        out = Path(options["output"])
        if out.suffix.lower() not in (".svg", ".png"):
            raise CommandError("Name an .svg or a .png file.")
        try:
            campaign = Campaign.objects.get(code=options["campaign"])
        except (Campaign.DoesNotExist, ValidationError, ValueError):
            raise CommandError("No campaign with that code.") from None
        reader = "player" if options["players"] else "gm"
        if options["system"]:
            system = StarSystem.objects.in_campaign(campaign).filter(name=options["system"]).first()
            if system is None:
                raise CommandError(f"No star system {options['system']!r} in {campaign}.")
            drawn = selectors.system_map(campaign, system, reader, mode=options["scale"], at=options["at"])
            svg, size = drawn.svg, (geometry.WIDTH, geometry.HEIGHT)
        else:
            field = Battlefield.objects.in_campaign(campaign).filter(name=options["battlefield"]).first()
            if field is None or (reader != "gm" and not field.shared):
                raise CommandError(f"No battlefield {options['battlefield']!r} in {campaign}.")
            svg, _, _ = selectors.battlefield_map(campaign, field, reader, at=options["at"])
            width, height = geometry.hex_sheet_size(field.columns, field.rows)
            size = (int(width) + 1, int(height) + 27)
        if out.suffix.lower() == ".svg":
            out.write_text(svg, encoding="utf-8")
        else:
            svg_to_png(svg, *size, out)
        self.stdout.write(f"Wrote {out}")
