"""The GM's dashboard at the table, in a real browser: a ship's form follows its kind, the
record menus (read when they first open) answer the keyboard and close as menus do, a long
list pages in place, and a phone reaches every action."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Ship
from tests.browser.conftest import expect_no_horizontal_scroll, ship_row
from tests.factories import ShipFactory
from tests.referee.boobytraps.factories import BoobyTrapFactory

pytestmark = pytest.mark.browser

KF = re.compile(r"^K-F integrity:?$")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_ship_form_redraws_for_the_kind_chosen_keeping_what_was_typed(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#ships-panel").get_by_role("link", name="Add ship").click()
    form = gm.locator("#form-slot")
    form.get_by_label("Name").fill("Blue Wing")
    expect(form.get_by_label(KF)).to_be_visible()
    form.get_by_label("Kind").select_option(label="Fighter squadron")
    expect(form.get_by_label("Fighters in the squadron")).to_have_value("6")
    expect(form.get_by_label(KF)).to_have_count(0)
    expect(form.get_by_label("Lithium-fusion battery fitted")).to_have_count(0)
    expect(form.get_by_label("Name")).to_have_value("Blue Wing")
    expect(form.get_by_label("Shared with players")).to_be_checked()
    form.get_by_role("button", name="Save").click()
    expect(gm.locator("#ships-panel")).to_contain_text("Blue Wing")


def test_a_record_menu_answers_the_keyboard_and_closes_as_a_menu_does(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    button = gm.get_by_role("button", name="Roll for Waterloo")
    panel = gm.locator(f"#{button.get_attribute('aria-controls')}")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(panel).to_be_hidden()

    # Keyboard: Enter opens, the arrows walk the procedures (most used first), Escape
    # closes and leaves the focus on the button.
    button.focus()
    gm.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(panel).to_be_visible()
    gm.keyboard.press("ArrowDown")
    expect(panel.get_by_role("link", name="Jump", exact=True)).to_be_focused()
    gm.keyboard.press("ArrowDown")
    expect(panel.get_by_role("link", name="Charge drive")).to_be_focused()
    gm.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_be_focused()

    # A click outside closes it; a click inside does not.
    button.click()
    expect(panel).to_be_visible()
    panel.get_by_text("Jump drives").click()
    expect(panel).to_be_visible()
    gm.get_by_role("heading", name="Ships").click()
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")

    # Opening another record's menu closes this one.
    button.click()
    gm.get_by_role("button", name="Roll for Garibaldi").click()
    expect(panel).to_be_hidden()
    expect(gm.get_by_role("button", name="Roll for Garibaldi")).to_have_attribute("aria-expanded", "true")


def test_on_a_phone_a_ships_roll_actions_are_in_reach_without_scrolling_sideways(sign_in, campaign_url, demo):
    BoobyTrapFactory(campaign=demo, name="Sleeper")
    gm = sign_in("gm", **PHONE)
    gm.goto(campaign_url)
    # Every record table is cards, each value under its column's heading, a family's too.
    expect(ship_row(gm, "Waterloo").locator("td").nth(1)).to_have_attribute("data-label", "Kind")
    trap = gm.locator("#boobytraps-panel tbody tr").filter(has=gm.get_by_text("Sleeper", exact=True))
    expect(trap.locator("td").nth(1)).to_have_attribute("data-label", "Speed")
    row = ship_row(gm, "Waterloo")
    button = row.get_by_role("button", name="Roll for Waterloo")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    button.click()
    panel = gm.locator(f"#{button.get_attribute('aria-controls')}")
    links = panel.get_by_role("link")
    assert links.count() >= 10
    for i in range(links.count()):
        link = links.nth(i)
        link.scroll_into_view_if_needed()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (link.inner_text(), box)
    # The ships are cards: neither the page nor the panel's table scrolls sideways.
    expect_no_horizontal_scroll(gm)
    table = gm.locator("#ships-panel .scroll")
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), "the ships table scrolls sideways"
    assert row.evaluate("el => getComputedStyle(el).display") == "block"  # a card, not a table row
    # The turn bar's clock menu opens inside the screen too, and Escape closes it.
    clock = gm.get_by_role("button", name="Advance clock…")
    clock.click()
    expect(gm.locator("#clock-menu")).to_be_visible()
    expect_no_horizontal_scroll(gm)
    gm.keyboard.press("Escape")
    expect(gm.locator("#clock-menu")).to_be_hidden()
    expect(panel).to_be_hidden()  # opening the clock's menu closed the ship's
    button.click()
    panel.get_by_role("link", name="Jump", exact=True).click()
    expect(gm.get_by_role("heading", level=1)).to_contain_text("Jump")


def test_a_long_list_pages_in_place_and_each_rows_menu_still_opens(sign_in, campaign_url, demo):
    for n in range(1, 31):
        ShipFactory(campaign=demo, name=f"Zulu {n:02}")
    total = Ship.objects.filter(campaign=demo).count()
    gm = sign_in("gm")
    gm.goto(campaign_url)
    pages = gm.get_by_test_id("ships-pages")
    expect(pages).to_contain_text(f"1–25 of {total} ships")
    expect(gm.locator("#ships-panel tbody tr")).to_have_count(25)
    last = min(50, total)
    pages.get_by_role("link", name=f"Next {last - 25} ships").click()
    expect(pages).to_contain_text(f"26–{last} of {total} ships")
    # The keyboard's place follows: the focus is on where the list now stands.
    expect(pages.get_by_text(f"26–{last} of {total} ships")).to_be_focused()
    # A row read in by the page's swap opens its Roll… menu as the first page's did.
    row = ship_row(gm, "Zulu 30")
    button = row.get_by_role("button", name="Roll for Zulu 30")
    button.click()
    expect(
        gm.locator(f"#{button.get_attribute('aria-controls')}").get_by_role("link", name="Jump", exact=True)
    ).to_be_visible()
    pages.get_by_role("link", name=f"Show all {total} ships").click()
    expect(gm.locator("#ships-panel tbody tr")).to_have_count(total)


def test_who_plays_and_the_invite_links_come_when_their_group_opens(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    group = gm.get_by_test_id("group-table")
    expect(group.locator("#invites-panel")).to_have_count(0)  # not read with the page
    group.locator("summary").click()
    expect(group.locator("#members-panel")).to_contain_text("player")
    group.get_by_role("button", name="New invite link").click()
    expect(group.get_by_test_id("invite")).to_have_count(1)
    expect(group.get_by_test_id("invite-terms")).to_contain_text("0 of 1 player joined")
