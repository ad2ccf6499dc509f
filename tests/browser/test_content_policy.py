"""The main pages break no rule of their Content-Security-Policy in a real browser: no
inline script, style or handler is refused, and htmx runs without eval (its polls, odds
and refreshes still work)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from referee.fleet.models import Ship, StarSystem

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def watched(page: Page) -> list[str]:
    messages: list[str] = []
    page.add_init_script(WATCH)
    page.on(
        "console",
        lambda m: (
            messages.append(m.text)
            if "Content Security Policy" in m.text or "unsafe-eval" in m.text
            else None
        ),
    )
    return messages


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations || []")


def test_the_main_pages_break_no_rule_of_their_policy(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    messages = watched(gm)
    system = StarSystem.objects.filter(campaign=demo).first()
    ship = Ship.objects.get(campaign=demo, name="Waterloo")
    pages = [
        campaign_url,
        f"{campaign_url}players/",
        f"{campaign_url}play/",
        f"{campaign_url}play/jump.malfunction/?ship={ship.code}",
        f"{campaign_url}log/",
        f"{campaign_url}maps/",
        f"{campaign_url}maps/systems/{system.code}/",
        f"{campaign_url}sheets/ships/{ship.code}/",
    ]
    for url in pages:
        response = gm.goto(url)
        assert response.ok, url
        assert response.headers.get("content-security-policy"), url
        gm.wait_for_timeout(300)
        assert violations(gm) == [], url
    # The odds bars are drawn without an inline style.
    gm.goto(f"{campaign_url}play/jump.malfunction/?ship={ship.code}")
    fill = gm.locator("#odds-panel .fill").first
    expect(fill).to_be_visible()
    assert gm.evaluate("document.querySelector('#odds-panel .fill').style.width").endswith("%")
    assert violations(gm) == [] and messages == []

    player = sign_in("player")
    player_messages = watched(player)
    player.goto(campaign_url)
    expect(player.get_by_test_id("log-check-result")).to_have_attribute("data-state", "ok")
    # The status panel still polls (htmx without eval): wait for one poll.
    with player.expect_request(lambda r: "/status/" in r.url, timeout=5_000):
        player.evaluate("window.refereeLive = false")
    assert violations(player) == [] and player_messages == []
