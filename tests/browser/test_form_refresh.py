"""A procedure form that refreshes itself when a record is chosen: the refresh carries
neither the page's CSRF token nor its request key in its URL, and dice typed while it is
on its way are still there when it lands."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from referee.fleet.models import Ship

pytestmark = pytest.mark.browser


def test_a_refresh_sends_no_token_or_key_and_keeps_what_was_typed_meanwhile(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    gm.goto(f"{campaign_url}play/jump.malfunction/")
    expect(gm.get_by_role("heading", level=1)).to_contain_text("Jump")

    held: list[Route] = []
    gm.route("**/play/jump.malfunction/?refresh=1*", lambda route: held.append(route))
    gm.get_by_label("Ship").select_option(value=str(waterloo.code))
    gm.wait_for_timeout(300)
    assert len(held) == 1, "choosing a ship refreshes the form"
    url = held[0].request.url
    assert "csrfmiddlewaretoken" not in url and "request_key" not in url, url
    assert f"ship={waterloo.code}" in url

    gm.get_by_label("Dice rolled at the table").fill("3 4")  # typed while the refresh is away
    with gm.expect_response(lambda r: "refresh=1" in r.url):
        held[0].continue_()
    # The refreshed form holds what the ship says (its K-F integrity) and the dice typed.
    expect(gm.get_by_label("Dice rolled at the table")).to_have_value("3 4")
    expect(gm.locator("#resolve-form select[name=ship]")).to_have_value(str(waterloo.code))
    gm.unroute("**/play/jump.malfunction/?refresh=1*")
    gm.get_by_test_id("enter-dice").click()
    if gm.get_by_test_id("preconditions").count():
        gm.get_by_label("GM ruling").check()
        gm.get_by_test_id("enter-dice").click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_be_visible(timeout=15_000)
