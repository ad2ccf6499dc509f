"""The campaign's foundations in a real browser: the GM keeps ships through the HTMX
forms, players see only what is shared, and the pages fit a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import expect_not_reloaded, horizontal_overflow, mark_page, ship_row

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DEMO_SHIPS = ["Garibaldi", "John Wayne", "Lightning squadron", "Valley Forge", "Waterloo"]
DEMO_SHARED = ["Garibaldi", "John Wayne", "Lightning squadron", "Waterloo"]  # not the Valley Forge
KF = re.compile(r"^K-F integrity:?$")
KF_MAX = re.compile(r"^K-F integrity \(undamaged\):?$")


def player_ship_names(page: Page) -> list[str]:
    """The ship cards' names on the player's page, as the headings show them."""
    return page.locator("article.ship-status h2").evaluate_all(
        "hs => hs.map(h => h.firstChild.textContent.trim()).sort()"
    )


def add_ship(gm: Page, name: str, kf: str, kf_max: str, *, shared: bool = True) -> None:
    """Open the dashboard's Add ship form and submit a JumpShip."""
    gm.locator("#ships-panel").get_by_role("link", name="Add ship").click()
    form = gm.locator("#form-slot")
    expect(form.get_by_role("heading", name="New ship")).to_be_visible()
    # Choosing the kind redraws the form: wait for the redraw before typing, as a GM
    # typing into a field that is being replaced could lose a keystroke.
    form.get_by_label("Kind").select_option(label="JumpShip")
    gm.wait_for_function("() => !document.querySelector('#form-slot .htmx-request, #form-slot.htmx-request')")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Class").fill("Scout")
    form.get_by_label(KF).fill(kf)
    form.get_by_label(KF_MAX).fill(kf_max)
    form.get_by_label("Shared with players" if shared else "GM only").check()
    form.get_by_role("button", name="Save").click()


def test_gm_adds_a_ship_through_the_inline_form(sign_in, campaign_url):
    player = sign_in("player")
    player.goto(campaign_url)
    expect(player.get_by_test_id("kf-waterloo")).to_have_text("4/4")
    mark_page(player)

    gm = sign_in("gm")
    gm.goto(campaign_url)
    ships = gm.locator("#ships-panel")
    expect(ships.locator("tbody tr")).to_have_count(len(DEMO_SHIPS))
    mark_page(gm)

    add_ship(gm, "Lodestar", kf="5", kf_max="3")

    # Refused inline: the field says why, and everything typed is still there.
    form = gm.locator("#form-slot")
    bad_field = form.locator(".field.has-error")
    expect(bad_field).to_have_count(1)
    expect(bad_field.get_by_role("alert")).to_have_text(
        "K-F integrity cannot exceed its undamaged maximum (3)."
    )
    expect(bad_field.get_by_label(KF)).to_have_value("5")
    expect(form.get_by_label("Name")).to_have_value("Lodestar")
    expect(form.get_by_label("Class")).to_have_value("Scout")
    expect(form.get_by_label("Kind").locator("option:checked")).to_have_text("JumpShip")
    expect(form.get_by_label(KF_MAX)).to_have_value("3")
    expect(form.get_by_label("Shared with players")).to_be_checked()
    expect(ship_row(gm, "Lodestar")).to_have_count(0)

    form.get_by_label(KF).fill("3")
    form.get_by_role("button", name="Save").click()

    # Saved: the form is gone and the Ships panel lists the new ship, on the same page.
    expect(gm.get_by_role("heading", name="New ship")).to_have_count(0)
    row = ship_row(gm, "Lodestar")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("kf-lodestar")).to_have_text("3/3")
    expect(row).to_contain_text("JumpShip")
    expect(ships.locator("tbody tr")).to_have_count(len(DEMO_SHIPS) + 1)
    expect_not_reloaded(gm)

    # The player, watching all along, sees the newly shared ship arrive.
    expect(player.get_by_test_id("kf-lodestar")).to_have_text("3/3")
    expect_not_reloaded(player)


def test_a_player_sees_only_shared_ships(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    add_ship(gm, "Black Box", kf="2", kf_max="2", shared=False)
    expect(ship_row(gm, "Black Box").get_by_test_id("kf-black-box")).to_have_text("2/2")

    player = sign_in("player")
    player.goto(campaign_url)
    expect(player.locator(".badge.player")).to_have_text("Player")
    expect(player.locator("article.ship-status")).to_have_count(len(DEMO_SHARED))
    assert player_ship_names(player) == DEMO_SHARED
    expect(player.get_by_text("Valley Forge")).to_have_count(0)
    expect(player.get_by_text("Black Box")).to_have_count(0)
    # Nor any of the GM's tools.
    expect(player.get_by_role("link", name="Add ship")).to_have_count(0)
    expect(player.get_by_text("Roll…")).to_have_count(0)


def test_the_pages_fit_a_phone(sign_in, campaign_url):
    """On a 390 x 844 phone nothing makes the page scroll sideways, and the GM can still
    add a ship and roll; every page that overflows is reported, not just the first."""
    overflows: list[str] = []

    def check(page: Page) -> None:
        if problem := horizontal_overflow(page):
            overflows.append(problem)

    gm = sign_in("gm", **PHONE)
    check(gm)
    gm.goto(campaign_url)
    expect(gm.get_by_test_id("kf-waterloo")).to_have_text("4/4")
    check(gm)

    add_ship(gm, "Pocket", kf="1", kf_max="1")
    expect(ship_row(gm, "Pocket").get_by_test_id("kf-pocket")).to_have_text("1/1")
    check(gm)

    row = ship_row(gm, "Waterloo")
    row.get_by_text("Roll…").click()
    row.get_by_role("link", name="Jump", exact=True).click()
    gm.get_by_label("Dice rolled at the table").fill("6 6 4 5")
    gm.get_by_test_id("enter-dice").click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_be_visible()
    check(gm)

    player = sign_in("player", **PHONE)
    player.goto(campaign_url)
    expect(player.get_by_test_id("kf-waterloo")).to_have_text("3/4")
    expect(player.get_by_test_id("kf-pocket")).to_have_text("1/1")
    # Two entries: the GM's adding of the shared Pocket, and the jump.
    expect(player.locator("#log-panel").get_by_test_id("result-card")).to_have_count(2)
    check(player)

    assert not overflows, "\n".join(overflows)
