"""A GM who types the dice and presses Enter dice at once is not ignored: the odds panel
refreshing after the last keystroke (a request of its own) never disables the Roll and
Enter dice buttons, which only the roll's own request does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from tests.browser.conftest import ship_row

pytestmark = pytest.mark.browser


def test_enter_dice_while_the_odds_are_still_loading_rolls(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    row = ship_row(gm, "Waterloo")
    row.get_by_text("Roll…").click()
    row.get_by_role("link", name="Jump", exact=True).click()
    expect(gm.get_by_role("heading", level=1)).to_contain_text("Jump")

    held: list[Route] = []
    gm.route("**/odds/", lambda route: held.append(route))  # the odds answer is held back
    gm.get_by_label("Dice rolled at the table").fill("3 4")
    # an input the odds read changes (as when the GM leaves it for the dice box)
    gm.locator("#resolve-form fieldset.inputs :is(input, select):visible").first.dispatch_event("change")
    gm.wait_for_timeout(400)  # past the odds trigger's delay: its request is in flight
    assert held, "changing an input asks for the odds"

    enter = gm.get_by_test_id("enter-dice")
    expect(enter).to_be_enabled()
    if gm.get_by_test_id("preconditions").count():
        gm.get_by_label("GM ruling").check()
    enter.click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_be_visible(timeout=15_000)
    for route in held:
        route.continue_()
