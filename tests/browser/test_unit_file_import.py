"""The GM imports MegaMek unit files from the dashboard in a real browser: the form opens in
place, a zip's readable files become records (the panels follow), what was skipped is listed,
and a bad file alone comes back refused with its line."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ship_row

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


FILES = Path(__file__).resolve().parent / "files"
FOUR = ("Atlas AS7-K.mtf", "Stuka STU-K5.blk", "Merchant Jumpship (2602).blk", "Union (2708).blk")


def _open_sheet(page, name: str):
    page.get_by_role("link", name=f"Record sheet of {name}").first.click()
    expect(page.get_by_role("heading", name=name, exact=False).first).to_be_visible()


def test_four_unit_files_as_megamek_writes_them_import_and_read_right(sign_in, campaign_url):
    """An Atlas AS7-K, a Stuka, a Merchant JumpShip and a Union, as MegaMek's library writes
    them: the Atlas's rear lasers are rear, the Stuka's engine is fusion, the Union's armour is
    its file's 644, and the Union docks on the Merchant's collars."""
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#units-panel").get_by_role("link", name="Import unit files").click()
    card = gm.locator("#form-slot")
    card.get_by_label("Unit files").set_input_files([str(FILES / name) for name in FOUR])
    card.get_by_role("button", name="Import").click()
    created = gm.get_by_test_id("import-created")
    expect(created).to_contain_text("The GM imported 4 records from unit files")
    for name in ("Atlas AS7-K", "Stuka STU-K5", "Merchant Jumpship (2602)", "Union (2708)"):
        expect(created).to_contain_text(name)
    expect(gm.get_by_test_id("import-problems")).to_have_count(0)

    # "2 ISMediumPulseLaser, Center Torso (R)": two rear-firing lasers in the centre torso
    _open_sheet(gm, "Atlas AS7-K")
    lasers = gm.get_by_test_id("weapons").locator("tr").filter(has_text="ISMediumPulseLaser")
    expect(lasers).to_contain_text("Center Torso (rear)")
    expect(lasers.locator("td").first).to_have_text("2")
    expect(gm.get_by_test_id("engine")).to_have_text("300 XL")
    expect(gm.get_by_test_id("heat-sinks")).to_have_text("20 single")

    gm.goto(campaign_url)
    _open_sheet(gm, "Stuka STU-K5")
    expect(gm.get_by_test_id("engine")).to_have_text("300 Fusion")  # engine code 0: fusion

    gm.goto(campaign_url)
    _open_sheet(gm, "Union (2708)")
    expect(gm.get_by_test_id("armour-total")).to_have_text("644")  # 180 + 180 + 180 + 104
    facings = gm.get_by_test_id("facing-values")
    expect(facings.locator("tr")).to_have_count(4)
    expect(facings.get_by_test_id("values-left-side")).to_contain_text("180 / 180")

    gm.goto(campaign_url)
    _open_sheet(gm, "Merchant Jumpship (2602)")
    expect(gm.get_by_test_id("docking-collars")).to_have_text("2")

    gm.goto(campaign_url)
    ship_row(gm, "Union (2708)").get_by_role("link", name="Edit Union (2708)").click()
    form = gm.locator("#form-slot")
    form.get_by_label("Docked on").select_option(label="Merchant Jumpship (2602)")
    form.get_by_role("button", name="Save").click()
    expect(ship_row(gm, "Union (2708)")).to_contain_text("docked on Merchant Jumpship (2602)")
