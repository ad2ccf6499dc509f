"""The play loop in a real browser: the GM rolls a jump from the dashboard, the table sees
it live, the GM undoes it, and the log exports what was rolled."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import expect_not_reloaded, mark_page, ship_row

pytestmark = pytest.mark.browser

MICRO_FRACTURES = "6 6 4 5"  # malfunction 12 (mishap), effect 9: micro-fractures


def open_jump_from_dashboard(gm: Page, campaign_url: str, ship: str = "Waterloo") -> None:
    gm.goto(campaign_url)
    row = ship_row(gm, ship)
    row.get_by_text("Roll…").click()
    jump = row.get_by_role("link", name="Jump", exact=True)
    expect(jump).to_be_visible()
    jump.click()
    expect(gm.get_by_role("heading", level=1)).to_contain_text("Jump")
    expect(gm.get_by_label("Jumping ship").locator("option:checked")).to_have_text(ship)


def test_gm_jump_shows_live_for_the_player_then_undo_and_export(sign_in, campaign_url):
    # The player is already watching the campaign before the GM acts.
    player = sign_in("player")
    player.goto(campaign_url)
    expect(player.locator(".badge.player")).to_have_text("Player")
    player_kf = player.get_by_test_id("kf-waterloo")
    expect(player_kf).to_have_text("4/4")
    mark_page(player)

    gm = sign_in("gm")
    open_jump_from_dashboard(gm, campaign_url)
    expect(gm.get_by_label(re.compile(r"^K-F integrity:?$"))).to_have_value("4")

    gm.get_by_label("Dice rolled at the table").fill(MICRO_FRACTURES)
    gm.get_by_test_id("enter-dice").click()

    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("summary")).to_contain_text(re.compile("micro-fractures", re.I))
    expect(card.locator(".rolls li").first).to_contain_text("6 6")
    expect(card.get_by_test_id("change").filter(has_text="K-F integrity")).to_have_text(
        "Waterloo K-F integrity: 4 → 3"
    )

    # The player sees the damage without reloading: the status panel polls every second.
    expect(player_kf).to_have_text("3/4")
    expect(player.locator("#log-panel").get_by_test_id("result-card").first).to_contain_text(
        re.compile("micro-fractures", re.I)
    )
    expect_not_reloaded(player)

    # The GM undoes the jump from the log panel, accepting the confirmation.
    log = gm.locator("#log-panel")
    entry = log.locator("#entry-1")
    expect(entry).to_be_visible()
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    gm.once("dialog", accept)
    entry.get_by_role("button", name="Undo").click()
    expect(log.locator("#entry-1")).to_contain_text("undone by #2")
    assert dialogs == ["Undo #1?"]
    reversal = log.locator("#entry-2")
    expect(reversal.get_by_test_id("change").filter(has_text="K-F integrity")).to_have_text(
        "Waterloo K-F integrity: 3 → 4"
    )
    expect(log.get_by_role("button", name="Undo")).to_have_count(0)

    expect(player_kf).to_have_text("4/4")
    expect(player.locator("#log-panel #entry-1")).to_contain_text("undone by #2")
    expect_not_reloaded(player)

    gm.goto(campaign_url)
    expect(gm.get_by_test_id("kf-waterloo")).to_have_text("4/4")

    # The CSV export holds the malfunction roll as the table rolled it.
    with gm.expect_download() as download_info:
        gm.locator("#log-panel").get_by_test_id("export-csv").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    with Path(download.path()).open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    malfunction = [r for r in rows if r["Roll"] == "Malfunction"]
    assert [(r["Entry"], r["Dice"], r["Total"]) for r in malfunction] == [("1", "6 6", "12")]
    assert "micro-fractures" in malfunction[0]["Outcome"].lower()
    assert malfunction[0]["Dice source"] == "the table's dice"


def odds_of(page: Page, value: str):
    """The percentage the odds panel shows for ``value`` of the headline result."""
    bar = page.get_by_test_id("odds").get_by_role("listitem").filter(has=page.get_by_text(value, exact=True))
    return bar.locator("span").last


def test_the_odds_follow_the_form(sign_in, campaign_url):
    gm = sign_in("gm")
    open_jump_from_dashboard(gm, campaign_url)
    odds = gm.get_by_test_id("odds")
    expect(odds.get_by_role("heading")).to_have_text("Odds of mishap")
    # A mishap on a natural 12 only: 1/36.
    expect(odds_of(gm, "yes")).to_have_text("2.8%")
    expect(odds_of(gm, "no")).to_have_text("97.2%")

    gm.get_by_label("Charged from reactor").check()
    # +2 from the reactor: a mishap on 10+, 6/36.
    expect(odds_of(gm, "yes")).to_have_text("16.7%")
    expect(odds_of(gm, "no")).to_have_text("83.3%")

    gm.get_by_label("Charged from reactor").uncheck()
    expect(odds_of(gm, "yes")).to_have_text("2.8%")
