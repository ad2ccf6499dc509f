"""Getting around as a GM: Maps and the diary in the top bar, All procedures by search,
and the invite link copied with one click."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_maps_sit_in_the_gms_top_bar_and_procedures_are_found_by_search(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    maps = gm.locator("nav.tools").get_by_role("link", name="Maps")
    box = maps.bounding_box()
    assert box is not None and box["y"] < 400, box
    gm.locator("nav.tools").get_by_role("link", name="All procedures").click()
    gm.get_by_test_id("procedure-search").fill("radar")
    gm.get_by_role("button", name="Find").click()
    expect(gm.get_by_role("link", name="Sensors: active-radar detection roll")).to_be_visible()
    expect(
        gm.get_by_role("link", name="Drive: charge the K-F drive or lithium-fusion battery")
    ).to_have_count(0)
    expect(gm.get_by_text("sensor.active_radar", exact=True)).to_have_count(0)


def test_the_invite_link_copies_with_one_click(sign_in, campaign_url):
    gm = sign_in("gm", permissions=["clipboard-read", "clipboard-write"])
    gm.goto(f"{campaign_url}players/")
    gm.get_by_role("button", name="New invite link").click()
    link = gm.get_by_test_id("invite").first.get_by_label("Invite link")
    gm.get_by_test_id("copy-invite").first.click()
    expect(gm.get_by_test_id("copy-invite").first).to_have_text("Copied")
    assert gm.evaluate("navigator.clipboard.readText()") == link.input_value()
    assert "/join/" in link.input_value()
