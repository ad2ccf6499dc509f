"""In real Chromium: the evening's diary as a page to print (as the GM and as a player, who
never reads what the GM kept back), and the "New …" pages opened on their own, by their
address, whose Save is a plain post that lands back on the dashboard with the new record."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Ship
from referee.play import services as play
from referee.play.models import Visibility
from tests.browser.conftest import ship_row

pytestmark = pytest.mark.browser


def _evening(demo):
    """Two rolls at the table this evening: one for everyone, one the GM keeps to themself."""
    gm = demo.memberships.get(role="gm").user
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    demo.refresh_from_db()
    for visibility, crew in ((Visibility.EVERYONE, 20), (Visibility.GM, 7)):
        play.procedure_resolve(
            campaign=demo,
            procedure_id="cargo.food",
            inputs={"crew": crew, "passengers": 0, "days": 1},
            dice=None,
            actor=gm,
            subjects={"ship": waterloo.code},
            visibility=visibility,
        )
    demo.refresh_from_db()
    return demo.turn


def test_the_diary_prints_an_evening_as_a_story(sign_in, campaign_url, demo):
    turn = _evening(demo)
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}diary/")
    gm.get_by_role("group", name="Turns").get_by_label("From").fill(str(turn))
    gm.get_by_role("group", name="Turns").get_by_label("to").fill(str(turn))
    gm.get_by_role("button", name="Show").click()
    expect(gm.get_by_role("heading", level=1)).to_have_text(f"{demo.name}: turn {turn}")
    lines = gm.get_by_test_id("diary").locator(".diary-line")
    expect(lines).to_have_count(2)
    gm_text = gm.get_by_test_id("diary").inner_text()
    for word in ("null", "&lt;", "&amp;", "None", "_"):
        assert word not in gm_text
    # On paper: the diary alone, without the range form, the top bar or the buttons.
    gm.evaluate("window.__printed = 0; window.print = () => { window.__printed += 1; }; true")
    gm.get_by_test_id("diary-print").click()
    assert gm.evaluate("window.__printed") == 1  # one print dialog for one click
    gm.emulate_media(media="print")
    expect(gm.get_by_test_id("diary")).to_be_visible()
    expect(gm.get_by_role("form", name="Which evening")).to_be_hidden()
    expect(gm.get_by_test_id("diary-print")).to_be_hidden()
    gm.emulate_media(media="screen")
    with gm.expect_download() as download:
        gm.get_by_test_id("diary-markdown").click()
    markdown = Path(download.value.path()).read_text(encoding="utf-8")
    assert markdown.startswith("#") and f"turn {turn}" in markdown and "&lt;" not in markdown

    player = sign_in("player")
    player.goto(f"{campaign_url}diary/?from_turn={turn}&to_turn={turn}")
    expect(player.get_by_test_id("diary").locator(".diary-line")).to_have_count(1)
    shown = player.get_by_test_id("diary").inner_text()
    assert "20 crew" in shown and "7 crew" not in shown  # what the GM kept back is not there
    assert "7 crew" in gm_text


def test_a_new_ship_page_opened_on_its_own_saves_and_lands_on_the_new_ship(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}ships/new/")
    expect(gm.locator("#ships-panel")).to_have_count(0)  # the form alone
    gm.get_by_label("Kind").select_option(label="DropShip")  # the form is redrawn for a DropShip
    expect(gm.get_by_label("Kind")).to_have_attribute("data-kind", "dropship")
    gm.get_by_label("Name:", exact=True).fill("Marauder's Pride")
    gm.get_by_role("button", name="Save").click()
    gm.wait_for_url(campaign_url)
    expect(ship_row(gm, "Marauder's Pride")).to_be_visible()


def test_a_new_unit_page_opened_on_its_own_saves_and_lands_on_the_new_unit(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}units/new/")
    expect(gm.locator("#units-panel")).to_have_count(0)
    gm.get_by_label("Kind").select_option(label="Vehicle")
    gm.get_by_label("Name:", exact=True).fill("Black Knight")
    gm.get_by_role("button", name="Save").click()
    gm.wait_for_url(campaign_url)
    row = gm.locator("#units-panel tbody tr").filter(has=gm.get_by_text("Black Knight", exact=True))
    expect(row).to_be_visible()
