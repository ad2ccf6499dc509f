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


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_on_a_phone_the_player_opens_on_the_status_with_their_procedures_one_tap_away(sign_in, campaign_url):
    player = sign_in("player", **PHONE)
    player.goto(campaign_url)
    status = player.locator("#status-panel").bounding_box()
    records = player.locator("#my-records").bounding_box()
    assert status["y"] < records["y"] and status["y"] < 400, (status, records)
    player.get_by_test_id("your-procedures-link").click()
    expect(player.locator("#my-records").get_by_role("link", name="Board a ship")).to_be_in_viewport()


def test_on_a_phone_a_procedure_shows_its_form_and_result_first_with_the_log_folded(
    sign_in, campaign_url, demo
):
    gm = sign_in("gm", **PHONE)
    gm.goto(f"{campaign_url}play/jump.basic_constants/")
    fold = gm.get_by_test_id("log-fold")
    expect(fold).not_to_have_attribute("open", "")
    gm.get_by_test_id("roll").click()
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card).to_be_visible()
    assert card.bounding_box()["y"] < gm.locator("#odds-panel").bounding_box()["y"]
    fold.locator("> summary").click()
    expect(gm.locator("#log-panel")).to_be_visible()
