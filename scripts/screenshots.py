"""Screenshots of the product for docs/screenshots/, made afresh by anyone: `make screenshots`.

Starts the app on loopback (127.0.0.1, a free port) on the embedded PostgreSQL (or the
server DATABASE_URL names), in a database of its own that it creates with the demo campaign
and drops at the end, so a local campaign is never touched. Debian's Chromium, driven by
Playwright, signs in as the demo's GM, rolls one jump with the table's dice (so the result
card, the log and the player page have something to show), and photographs the GM
dashboard, a procedure page, the result card, the log and the player page at 1366 and 390
pixels wide. Each picture is the top of its page as a person first sees it (one and a half
screens tall at most), written as PNG with a reduced palette to keep it small.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop here

WIDTHS = {"wide": (1366, 900), "phone": (390, 844)}
DATABASE = "referee_screenshots"
JUMP_DICE = "6 6 4 5"  # a mishap with micro-fractures: a result with changes to show


def start_app():
    """The app in a thread on 127.0.0.1, on a fresh database holding the demo campaign."""
    import django

    if not os.environ.get("DATABASE_URL"):
        from referee import embedded_pg

        embedded_pg.ensure_running(BASE_DIR / "var" / "pg")
    django.setup()
    from django.conf import settings
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.db import connections
    from django.test.testcases import LiveServerThread

    from referee.demo.campaign import demo_campaign_load

    # As the test suite does: the database is created and filled by its owner role.
    owner = settings.MIGRATE_DATABASE
    default = settings.DATABASES["default"]
    if owner:
        default.update({key: owner[key] for key in ("USER", "PASSWORD", "HOST", "PORT") if owner.get(key)})
    default.setdefault("TEST", {})["NAME"] = DATABASE
    connection = connections["default"]
    connection.close()
    original = default["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    campaign, _ = demo_campaign_load()
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error

    def stop() -> None:
        server.terminate()
        connection.creation.destroy_test_db(original, verbosity=0)

    return f"http://127.0.0.1:{server.port}", campaign, stop


def shoot(base: str, campaign, out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    from referee.demo.campaign import DEMO_LOGINS

    written: list[Path] = []
    home = f"{base}/c/{campaign.code}/"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )

        def person(who: str, size: str):
            width, height = WIDTHS[size]
            phone = size == "phone"
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=1,
                is_mobile=phone,
                has_touch=phone,
                reduced_motion="reduce",
            )
            page = context.new_page()
            username, password = DEMO_LOGINS[who]
            page.goto(f"{base}/accounts/login/")
            page.get_by_label("Username").fill(username)
            page.get_by_label("Password").fill(password)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(f"{base}/")
            return page

        def ship_row(page):
            return page.locator("#ships-panel tbody tr").filter(has=page.get_by_text("Waterloo", exact=True))

        def save(page, name: str, size: str) -> None:
            page.wait_for_load_state("networkidle")
            width, height = WIDTHS[size]
            path = out / f"{name}-{width}.png"
            top = page.evaluate("window.scrollY")
            full = page.evaluate("document.documentElement.scrollHeight")
            clip = {"x": 0, "y": top, "width": width, "height": min(full - top, int(height * 1.5))}
            page.screenshot(path=str(path), clip=clip, full_page=True, animations="disabled")
            written.append(path)

        # The jump is rolled once, on the wide screen; the phone then shows the same campaign.
        for size in ("wide", "phone"):
            gm = person("gm", size)
            gm.goto(home)
            ship_row(gm).get_by_role("button", name="Roll for Waterloo").click()
            ship_row(gm).get_by_role("link", name="Jump", exact=True).click()
            gm.wait_for_load_state("networkidle")
            save(gm, "procedure", size)
            if size == "wide":
                gm.get_by_label("Dice rolled at the table").fill(JUMP_DICE)
                gm.get_by_test_id("enter-dice").click()
                gm.locator("#result-slot").get_by_test_id("result-card").wait_for()
                gm.evaluate("window.scrollTo(0, 0)")
                save(gm, "result", size)
            else:
                gm.goto(f"{home}log/1/")
                save(gm, "result", size)
            gm.goto(home)
            menu = ship_row(gm).get_by_role("button", name="Roll for Waterloo")
            menu.click()
            ship_row(gm).get_by_role("link", name="Jump", exact=True).wait_for()  # read when it opens
            if size == "wide":
                gm.evaluate("window.scrollTo(0, 0)")
            save(gm, "dashboard", size)
            gm.goto(f"{home}log/")
            save(gm, "log", size)
            gm.context.close()
            player = person("player", size)
            player.goto(home)
            save(player, "player", size)
            player.context.close()
        browser.close()
    return written


def shrink(paths: list[Path]) -> None:
    """Fewer colours, same look: a dark interface fits a 256-colour palette well."""
    try:
        from PIL import Image
    except ImportError:
        return
    for path in paths:
        with Image.open(path) as image:
            small = image.convert("RGB").quantize(
                colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
            )
        small.save(path, optimize=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BASE_DIR / "docs" / "screenshots")
    parser.add_argument("--chromium", default=os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    if not os.access(args.chromium, os.X_OK):
        print(f"No Chromium at {args.chromium}: run `make chromium` (or apt-get install chromium) first.")
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    base, campaign, stop = start_app()
    try:
        written = shoot(base, campaign, args.out, args.chromium)
    finally:
        stop()
    shrink(written)
    for path in written:
        print(
            f"{path.relative_to(BASE_DIR) if path.is_relative_to(BASE_DIR) else path}  {path.stat().st_size // 1024} KB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
