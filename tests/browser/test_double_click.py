"""A double click on Roll, in a real browser: one roll, and Roll is disabled while it is sent."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from referee.play.models import LogEntry
from tests.browser.test_play_loop import open_jump_from_dashboard

pytestmark = pytest.mark.browser

# Remember, at the moment each request leaves, whether the Roll button could be pressed again.
WATCH_ROLL = """() => {
  window.__rollEnabledWhileSending = [];
  document.body.addEventListener("htmx:beforeSend", (event) => {
    if (event.detail.elt.id !== "resolve-form") return;
    const roll = document.querySelector("[data-testid=roll]");
    window.__rollEnabledWhileSending.push(!roll.disabled);
  });
}"""


def test_double_clicking_roll_makes_one_roll_and_the_next_click_another(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    open_jump_from_dashboard(gm, campaign_url)
    before = LogEntry.objects.filter(campaign=demo).count()
    gm.evaluate(WATCH_ROLL)
    roll = gm.get_by_test_id("roll")

    roll.dblclick()
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card).to_be_visible()
    expect(roll).to_be_enabled()
    assert gm.evaluate("window.__rollEnabledWhileSending") == [False], "Roll stayed pressable while sending"
    assert LogEntry.objects.filter(campaign=demo).count() == before + 1

    # A deliberate second Roll after the answer is a new resolution. The jump discharged
    # the drive, so the refreshed form says so and only a GM ruling lets it jump again.
    first_card = card.get_attribute("id")
    ruling = gm.get_by_label(re.compile("GM ruling"))
    expect(ruling).to_be_visible()
    ruling.check()
    roll.click()
    expect(card).not_to_have_attribute("id", first_card)
    assert LogEntry.objects.filter(campaign=demo).count() == before + 2
