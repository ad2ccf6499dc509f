"""The log as a diary in a real browser: what a reader opened stays open when the live
refresh brings a new entry, and the log page's filters answer in place."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_not_reloaded, mark_page
from tests.browser.test_table_truth import jump_in_the_database

pytestmark = pytest.mark.browser


def test_an_entry_a_player_opened_stays_open_after_a_live_refresh(sign_in, campaign_url, demo):
    jump_in_the_database(demo, "Waterloo", [3, 4], gm_ruling=True)
    player = sign_in("player")
    player.goto(campaign_url)
    mark_page(player)
    cards = player.locator("#log-panel").get_by_test_id("result-card")
    expect(cards).to_have_count(1)
    result = cards.first.locator("details")
    expect(result).not_to_have_attribute("open", "")
    result.locator("summary").click()
    expect(result).to_have_attribute("open", "")

    jump_in_the_database(demo, "Waterloo", [3, 5], gm_ruling=True)  # the GM rolls again: the panel is swapped
    expect(cards).to_have_count(2, timeout=8000)
    expect(cards.nth(1).locator("details")).to_have_attribute("open", "")
    expect_not_reloaded(player)

    # Closed again by the reader, it stays closed through the next refresh.
    cards.nth(1).locator("summary").click()
    jump_in_the_database(demo, "Waterloo", [2, 2], gm_ruling=True)
    expect(cards).to_have_count(3, timeout=8000)
    expect(cards.nth(2).locator("details")).not_to_have_attribute("open", "")


def test_the_log_page_filters_in_place(sign_in, campaign_url, demo):
    jump_in_the_database(demo, "Waterloo", [3, 4], gm_ruling=True)
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}log/")
    mark_page(gm)
    filters = gm.get_by_test_id("log-filters")
    filters.get_by_label("Words").fill("nothing like this")
    filters.get_by_role("button", name="Show").click()
    expect(gm.locator("#log-panel")).to_contain_text("No entry matches.")
    filters = gm.get_by_test_id("log-filters")
    filters.get_by_label("Words").fill("mishap")
    filters.get_by_role("button", name="Show").click()
    expect(gm.locator("#log-panel").get_by_test_id("result-card")).to_have_count(1)
    assert "q=mishap" in gm.url
    expect_not_reloaded(gm)
