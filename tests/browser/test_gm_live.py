"""A GM page served as deployed with the live view (uvicorn) follows the campaign by push:
its stream opens, the version poll stops, and a change made elsewhere reaches the log panel."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from referee.demo.campaign import DEMO_LOGINS
from referee.fleet.models import Ship
from tests.browser.conftest import expect_not_reloaded, mark_page
from tests.referee.history import ruled_jump
from tests.referee.play.test_concurrent_http import signed_in_session
from tests.referee.play.test_live import asgi_server  # noqa: F401

pytestmark = pytest.mark.browser


def test_a_gm_dashboard_under_the_live_view_updates_by_push_not_by_poll(
    demo,
    asgi_server,  # noqa: F811
    new_context,
):
    gm = get_user_model().objects.get(username=DEMO_LOGINS["gm"][0])
    base = f"http://127.0.0.1:{asgi_server}"
    context = new_context()
    context.add_cookies([{"name": "sessionid", "value": signed_in_session(gm), "url": base}])
    page = context.new_page()
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "/status/" in r.url else None)
    page.goto(f"{base}/c/{demo.code}/")
    expect(page.locator("[data-campaign-watch]")).to_have_attribute("data-live", "open")
    expect(page.locator("#log-panel")).to_contain_text("Nothing has been rolled yet")
    mark_page(page)
    polls.clear()
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    ruled_jump(demo, gm, waterloo, dice=[3, 4], visibility="everyone")
    expect(page.locator("#log-panel").get_by_test_id("result-card")).to_have_count(1, timeout=5000)
    expect_not_reloaded(page)
    page.wait_for_timeout(2500)  # longer than one round of the version poll
    assert polls == []  # while the stream is open, the page does not poll
