"""The GM's desk in a real browser: a player's waiting roll counted at the top of the
dashboard, accepted there in place, and from then on reading "accepted by #N" for the GM
and the player, on the log, the entry page and the exports; never "waiting" again."""

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Unit
from referee.play.models import LogEntry
from tests.browser.conftest import expect_not_reloaded, mark_page
from tests.browser.test_players_at_the_table import export_text, open_landing

pytestmark = pytest.mark.browser


def test_an_accepted_roll_no_longer_reads_waiting_anywhere(sign_in, campaign_url):
    player = sign_in("player")
    open_landing(player, campaign_url)
    player.get_by_label("Dice rolled at the table").fill("6 5")
    player.get_by_test_id("enter-dice").click()
    expect(player.locator("#result-slot").get_by_test_id("awaiting")).to_have_text("Waiting for the GM")
    roll = LogEntry.objects.get(procedure="boarding.landing")

    gm = sign_in("gm")
    gm.goto(campaign_url)
    mark_page(gm)
    desk = gm.get_by_test_id("desk")
    expect(desk.get_by_test_id("desk-rolls")).to_have_text("1 roll to accept")
    item = desk.get_by_test_id("desk-roll")
    expect(item.get_by_role("link")).to_have_attribute("href", f"/c/{roll.campaign.code}/log/{roll.seq}/")
    item.get_by_test_id("desk-accept").click()
    expect(desk.get_by_test_id("desk-rolls")).to_have_text("0 rolls to accept")
    expect(desk.get_by_test_id("desk-done")).to_contain_text("GM accepted")
    expect_not_reloaded(gm)
    assert Unit.objects.get(name="Victor VTR-9K").landed_on.name == "John Wayne"
    accepted = LogEntry.objects.get(procedure="roll.accept")
    words = f"accepted by #{accepted.seq}"

    # The GM's log panel says who ruled, live.
    card = gm.locator("#log-panel").locator(f"[data-entry-number='{roll.seq}']")
    expect(card).to_contain_text(words)
    expect(card.get_by_test_id("awaiting")).to_have_count(0)

    for page in (gm, player):
        page.goto(f"{campaign_url}log/{roll.seq}/")
        expect(page.get_by_test_id("ruled")).to_have_text(words.capitalize())
        expect(page.get_by_test_id("summary")).to_contain_text(words)
        page.goto(campaign_url)
        expect(page.locator("#log-panel")).to_contain_text(words)
        expect(page.locator("#log-panel")).not_to_contain_text("waiting for the GM")
        for fmt in ("md", "csv"):
            text = export_text(page, campaign_url, fmt)
            assert words in text and "waiting for the GM" not in text, (fmt, text[:400])
