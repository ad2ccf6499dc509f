"""The GM imports MegaMek unit files from the dashboard in a real browser: the form opens in
place, a zip's readable files become records (the panels follow), what was skipped is listed,
and a bad file alone comes back refused with its line."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "referee" / "unitfiles" / "samples"


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("Union.blk", (SAMPLES / "Union (3067).blk").read_bytes())
        archive.writestr("Tortuga.mtf", (SAMPLES / "Tortuga TRT-2Q.mtf").read_bytes())
        broken = (SAMPLES / "Victor VTR-9K.mtf").read_text().replace("mass:80", "mass:heavy")
        archive.writestr("Broken.mtf", broken.encode())
    return buffer.getvalue()


def test_the_gm_imports_a_zip_from_the_dashboard(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#units-panel").get_by_role("link", name="Import unit files").click()
    card = gm.locator("#form-slot")
    expect(card.get_by_role("heading", name="Import unit files")).to_be_visible()
    card.get_by_label("Unit files").set_input_files(
        [{"name": "fleet.zip", "mimeType": "application/zip", "buffer": _zip()}]
    )
    card.get_by_role("button", name="Import").click()
    created = gm.get_by_test_id("import-created")
    expect(created).to_contain_text("The GM imported 2 records from unit files")
    expect(created).to_contain_text("Tortuga TRT-2Q")
    expect(gm.get_by_test_id("import-problems")).to_contain_text(
        "fleet.zip › Broken.mtf: line 11: The mass should be a whole number"
    )
    expect(gm.locator("#units-panel")).to_contain_text("Tortuga TRT-2Q")
    expect(gm.locator("#ships-panel")).to_contain_text("Union (3067)")


def test_a_bad_pasted_file_is_refused_in_place(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#ships-panel").get_by_role("link", name="Import unit files").click()
    card = gm.locator("#form-slot")
    card.get_by_label("Or paste a unit file").fill(
        (SAMPLES / "Union (3067).blk").read_text().replace("</armor>", "")
    )
    card.get_by_role("button", name="Import").click()
    problems = gm.get_by_test_id("import-problems")
    expect(problems).to_contain_text("Nothing was imported.")
    expect(problems).to_contain_text("never closed")
