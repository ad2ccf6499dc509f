"""A refused submit is never out of sight: its message is scrolled into view, focused and
announced (an alert), on a phone-sized screen where the form is long."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_loop import open_jump_from_dashboard

pytestmark = pytest.mark.browser

IN_VIEW = """(el) => {
  const box = el.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_a_refused_roll_shows_its_message_focused_and_in_view(sign_in, campaign_url):
    gm = sign_in("gm", viewport={"width": 390, "height": 700})
    open_jump_from_dashboard(gm, campaign_url)
    gm.get_by_label("Dice rolled at the table").fill("6")  # too few dice for a jump
    gm.evaluate("window.scrollTo(0, 0)")
    gm.get_by_test_id("enter-dice").click()

    message = gm.get_by_test_id("error-dice")
    expect(message).to_be_visible()
    expect(message).to_be_focused()
    expect(message).to_have_attribute("role", "alert")
    assert message.evaluate(IN_VIEW), "the refusal is outside the viewport"
