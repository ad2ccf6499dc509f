"""Record sheets in a real browser: the seed's boarding damage lands on the Victor's
locations, the GM sees it on the result card and the sheet, the player's sheet follows live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_not_reloaded, mark_page

pytestmark = pytest.mark.browser

# The catalogue's example of boarding.bs_to_bt_damage: one BattleSpace box on a 'Mech, a
# head hit re-rolled (it would end a 'Mech still working in BattleSpace). 6+6 is the head,
# re-rolled; 1+2 is the right arm.
DICE = "6 6 1 2"


def test_boarding_damage_lands_on_the_victors_locations(sign_in, campaign_url):
    player = sign_in("player")
    player.goto(campaign_url)
    player.locator("#status-panel article").filter(has_text="Victor VTR-9K").get_by_test_id(
        "sheet-link"
    ).click()
    expect(player.get_by_role("heading", level=1)).to_contain_text("Victor VTR-9K")
    right_arm = player.get_by_test_id("values-right-arm")
    expect(right_arm).to_contain_text("18 / 18")
    expect(player.get_by_test_id("loc-right-arm")).to_have_class("loc intact")
    mark_page(player)

    gm = sign_in("gm")
    gm.goto(campaign_url)
    row = gm.locator("#units-panel tbody tr").filter(has=gm.get_by_text("Victor VTR-9K", exact=True))
    row.get_by_text("Roll…").click()
    row.get_by_role("link", name="BattleSpace damage to BattleTech").click()
    expect(gm.get_by_label("Damaged unit").locator("option:checked")).to_have_text("Victor VTR-9K")
    gm.get_by_label(re.compile(r"^Boxes:?$")).fill("1")
    gm.get_by_label("Row 1: Locations rolled again").fill("HD")  # a row each, no JSON
    gm.get_by_label("Dice rolled at the table").fill(DICE)
    gm.get_by_test_id("enter-dice").click()

    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card).to_be_visible(timeout=15_000)  # a resolve on a busy machine can take seconds
    expect(card.get_by_test_id("change").filter(has_text="record sheet")).to_contain_text(
        "Right Arm armour 18 → 8"
    )
    expect(card.get_by_test_id("change").filter(has_text="factor")).to_contain_text("200 → 190")

    # The GM's sheet: the arm is drawn damaged, its values read as text too.
    gm.goto(campaign_url)
    row = gm.locator("#units-panel tbody tr").filter(has=gm.get_by_text("Victor VTR-9K", exact=True))
    row.get_by_test_id("sheet-link").click()
    arm = gm.get_by_test_id("loc-right-arm")
    expect(arm).to_have_class("loc damaged")
    expect(arm).to_have_attribute("aria-label", "Right Arm: armour 8 of 18; structure 13 of 13")
    expect(gm.get_by_test_id("values-right-arm")).to_contain_text("8 / 18")
    expect(gm.get_by_test_id("armour-total")).to_have_text("190")

    # The player's sheet follows without a reload.
    expect(right_arm).to_contain_text("8 / 18")
    expect(player.get_by_test_id("loc-right-arm")).to_have_class("loc damaged")
    expect_not_reloaded(player)


def test_the_sheet_prints_without_its_controls(sign_in, campaign_url, demo):
    from referee.fleet.models import Unit

    gm = sign_in("gm")
    victor = Unit.objects.get(campaign=demo, name="Victor VTR-9K")
    gm.goto(f"{campaign_url}sheets/units/{victor.code}/")
    expect(gm.get_by_text("Adjust the sheet")).to_be_visible()
    gm.emulate_media(media="print")
    expect(gm.get_by_text("Adjust the sheet")).to_be_hidden()
    expect(gm.locator(".topbar")).to_be_hidden()
    expect(gm.get_by_test_id("loc-right-arm")).to_be_visible()
