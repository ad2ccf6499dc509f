"""In a real browser: a 'Mech imported from its unit file feeds the rolls. Heat Phase,
BattleSpace conversion and a landed attack open with the sheet's heat sinks and weapons,
each marked as from the sheet; the weapons are rows of fields (a row added in place, the odds
still following); and a terrain roll on a hex the GM has not ruled on asks for the ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Ship, Unit
from referee.terrain.models import Battlefield, Hex

pytestmark = pytest.mark.browser

# A quad with double heat sinks and a rear-mounted laser; the demo holds no Tortuga yet.
TORTUGA = Path(__file__).resolve().parents[2] / "referee" / "unitfiles" / "samples" / "Tortuga TRT-2Q.mtf"


def _import_mech(gm, campaign_url) -> Unit:
    before = set(Unit.objects.values_list("code", flat=True))
    gm.goto(campaign_url)
    gm.locator("#units-panel").get_by_role("link", name="Import unit files").click()
    card = gm.locator("#form-slot")
    card.get_by_label("Unit files").set_input_files(
        [{"name": TORTUGA.name, "mimeType": "text/plain", "buffer": TORTUGA.read_bytes()}]
    )
    card.get_by_role("button", name="Import").click()
    expect(gm.get_by_test_id("import-created")).to_contain_text("Tortuga TRT-2Q")
    [mech] = Unit.objects.exclude(code__in=before)
    return mech


def test_an_imported_mechs_sheet_fills_heat_conversion_and_landed_attack(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    victor = _import_mech(gm, campaign_url)
    sinks = victor.sheet["heat_sinks"]
    assert sinks == {"count": 10, "type": "double"}  # the file's "10 IS Double"
    names = [w["name"] for w in victor.sheet["weapons"]]

    gm.goto(f"{campaign_url}play/heat.expanded/?unit={victor.code}")
    expect(gm.locator('input[name="double_sinks_operational"]')).to_have_value("10")
    expect(gm.locator('input[name="single_sinks_operational"]')).to_have_value("0")
    expect(gm.get_by_test_id("source-double_sinks_operational")).to_have_text("From the sheet")
    weapons_note = gm.get_by_test_id("missing-weapon_heat")
    for weapon in ("Large Laser", "Medium Laser"):
        expect(weapons_note).to_contain_text(weapon)
    expect(gm.locator('input[name="weapon_heat"]')).to_have_value("")  # which fire is the GM's to say
    gm.locator('input[name="weapon_heat"]').fill("26")
    expect(gm.get_by_test_id("odds")).not_to_contain_text("Fill in")

    gm.goto(f"{campaign_url}play/groundspace.convert/?unit={victor.code}")
    expect(gm.get_by_test_id("source-weapons")).to_have_text("From the sheet")
    expect(gm.get_by_test_id("source-heat_sinks")).to_have_text("From the sheet")
    expect(gm.locator('input[name="heat_sinks"]')).to_have_value("10")
    rows = gm.get_by_test_id("rows-weapons")
    for i, name in enumerate(names):
        expect(rows.locator(f'input[name="weapons-{i}-type"]')).to_have_value(name)
    expect(rows.locator('select[name="weapons-0-location"]')).to_have_value("LT")  # Large Laser, Left Torso
    rear = next(i for i, w in enumerate(victor.sheet["weapons"]) if w["rear"])  # the Medium Laser (R)
    expect(rows.locator(f'input[name="weapons-{rear}-rear"]')).to_be_checked()
    assert gm.locator("textarea").count() == 0
    # A row added in place (HTMX), what was typed kept, and the odds still read the rows.
    before = rows.locator('input[name$="-type"]').count()
    gm.get_by_test_id("add-row-weapons").click()
    expect(gm.get_by_test_id("rows-weapons").locator('input[name$="-type"]')).to_have_count(before + 1)
    expect(gm.get_by_test_id("rows-weapons").locator('input[name="weapons-0-type"]')).to_have_value(names[0])
    gm.locator('input[name="weapons-0-heat"]').fill("1")
    expect(gm.get_by_test_id("odds")).not_to_contain_text("Complete the form")
    gm.get_by_test_id("roll").click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_contain_text("Large Laser")

    ship = Ship.objects.filter(kind="dropship").first()
    victor.landed_on = ship
    victor.save()
    gm.goto(f"{campaign_url}play/boarding.landed_attack/?unit={victor.code}")
    expect(gm.get_by_test_id("missing-nose_s")).to_contain_text("Convert to BattleSpace gives them")
    expect(gm.locator('input[name="nose_s"]')).to_have_value("")


def test_a_terrain_roll_on_an_unruled_hex_asks_for_the_ruling(sign_in, campaign_url, demo):
    field = Battlefield.objects.filter(campaign=demo).first()
    jungle = Hex.objects.create(
        campaign=demo, battlefield=field, name="0909", terrain="heavy_jungle", shared=True
    )
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}play/terrain.hex_modifiers/?hex={jungle.code}")
    ruling = gm.get_by_test_id("rulings")
    expect(ruling).to_contain_text("Heavy jungle")
    expect(ruling).to_contain_text("Explorer Corps: Expanded Movement Cost and Terrain Table")
    gm.get_by_test_id("roll").click()
    expect(gm.locator("#procedure-form")).to_contain_text("is required when the base terrain is custom")
    expect(gm.locator("body")).not_to_contain_text("got null")
    ruling.get_by_role("link", name="Fill in its row").click()
    expect(gm.get_by_label("Name")).to_have_value("Heavy jungle")
