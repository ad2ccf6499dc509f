"""Players at the table in a real browser: a player's own landing roll with their own dice,
accepted by the GM; a whisper that reaches only its player; a blind roll; a player's note
reaching the GM; a shared compartment's damage reaching its player, live."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from referee.campaigns.models import Membership
from referee.fleet.models import Ship, Unit
from referee.play import services
from referee.shipboard.models import Compartment, Surface
from rules.tables import shipboard as tables

pytestmark = pytest.mark.browser


def second_player(demo) -> tuple[str, str]:
    user = get_user_model().objects.create_user("second", password="second-player-pw")
    Membership.objects.create(campaign=demo, user=user, role="player")
    return "second", "second-player-pw"


def export_text(page: Page, campaign_url: str, fmt: str) -> str:
    response = page.request.get(f"{campaign_url}log/export.{fmt}")
    assert response.ok
    return response.text()


def open_landing(player: Page, campaign_url: str) -> None:
    player.goto(campaign_url)
    mine = player.get_by_test_id("my-victor-vtr-9k")
    mine.get_by_role("link", name="Board a ship").click()
    expect(player.get_by_role("heading", level=1)).to_contain_text("Boarding")
    with player.expect_response(lambda r: "target=" in r.url and r.request.method == "GET"):
        player.get_by_label("Target ship").select_option(label="John Wayne")
    # Choosing the target fills in what it says (its kind), from the server.
    expect(player.get_by_label(re.compile("Target kind"))).to_have_value("dropship")
    expect(player.get_by_label(re.compile("^Piloting"))).to_be_disabled()


def test_a_player_lands_their_own_mech_with_their_own_dice_and_the_gm_accepts(sign_in, campaign_url):
    player = sign_in("player")
    open_landing(player, campaign_url)
    player.get_by_label("Dice rolled at the table").fill("6 5")
    player.get_by_test_id("enter-dice").click()
    card = player.locator("#result-slot").get_by_test_id("result-card")
    expect(card.get_by_test_id("awaiting")).to_have_text("Waiting for the GM")
    expect(card.locator(".rolls li").first).to_contain_text("6 5")
    assert Unit.objects.get(name="Victor VTR-9K").landed_on is None  # nothing until the GM says so

    gm = sign_in("gm")
    gm.goto(campaign_url)
    waiting = gm.locator("#log-panel").get_by_test_id("result-card").filter(has=gm.get_by_test_id("awaiting"))
    expect(waiting).to_contain_text("Board")
    waiting.get_by_test_id("accept").click()
    expect(gm.locator("#log-panel")).to_contain_text("GM accepted")
    assert Unit.objects.get(name="Victor VTR-9K").landed_on.name == "John Wayne"

    player.goto(campaign_url)
    expect(player.locator("#status-ship-" + str(Ship.objects.get(name="John Wayne").code))).to_be_visible()
    expect(player.locator("#log-panel")).to_contain_text("GM accepted")
    expect(player.locator(".unit-status").filter(has_text="Victor")).to_contain_text("John Wayne")


def test_a_whisper_reaches_only_its_player(sign_in, campaign_url, demo):
    other_login = second_player(demo)
    player = sign_in("player")
    player.goto(campaign_url)
    other = sign_in(other_login)
    other.goto(campaign_url)

    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#note-text").fill("The hatch code is 4471.")
    gm.get_by_test_id("whisper-player").check()
    gm.get_by_test_id("post-note").click()
    expect(gm.locator("#log-panel")).to_contain_text("The hatch code is 4471.")

    # Live, on the page of the player it is for; never on the other's.
    expect(player.locator("#log-panel")).to_contain_text("The hatch code is 4471.")
    expect(player.locator("#log-panel")).to_contain_text("Whispered to you")
    other.wait_for_timeout(2500)  # several polls
    expect(other.locator("#log-panel")).not_to_contain_text("hatch code")
    for fmt in ("csv", "json", "md"):
        assert "4471" in export_text(player, campaign_url, fmt)
        assert "4471" not in export_text(other, campaign_url, fmt)
    status = other.request.get(f"{campaign_url}status/?v=0")
    assert "4471" not in status.text()
    document = json.loads(export_text(other, campaign_url, "json"))
    assert all(e["visibility"] == "everyone" for e in document["entries"])


def test_a_blind_roll_shows_the_player_that_they_rolled_and_nothing_more(sign_in, campaign_url):
    player = sign_in("player")
    open_landing(player, campaign_url)
    player.get_by_label("Who reads the result").select_option(label="Only the GM (you see that you rolled)")
    player.get_by_label("Dice rolled at the table").fill("2 1")
    player.get_by_test_id("enter-dice").click()
    card = player.locator("#result-slot").get_by_test_id("blind-card")
    expect(card).to_contain_text("You rolled")
    expect(card).to_contain_text("Only the GM sees the result")
    player.goto(campaign_url)
    mine = player.locator("#log-panel").get_by_test_id("blind-card")
    expect(mine).to_have_count(1)
    for hidden in ("2 1", "Rolls", "Result", "fail"):
        expect(player.locator("#log-panel")).not_to_contain_text(hidden)
    assert "boarding" not in export_text(player, campaign_url, "csv").lower()

    gm = sign_in("gm")
    gm.goto(campaign_url)
    full = gm.locator("#log-panel").get_by_test_id("result-card").filter(has_text="Blind roll by player")
    expect(full.locator(".rolls li").first).to_contain_text("2 1")


def test_a_note_posted_by_a_player_appears_for_the_gm_within_two_seconds(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    player = sign_in("player")
    player.goto(campaign_url)
    player.locator("#note-text").fill("We *hold* the **bridge**. <script>window.pwned = 1</script>")
    player.get_by_test_id("post-note").click()
    expect(player.locator("#log-panel")).to_contain_text("We hold the bridge.")
    note = gm.locator("#log-panel").get_by_test_id("note-text").first
    expect(note).to_contain_text("We hold the bridge.", timeout=2000)
    expect(note.locator("strong")).to_have_text("bridge")
    assert gm.evaluate("window.pwned") is None and player.evaluate("window.pwned") is None


def test_a_shared_compartments_damage_reaches_its_player_live(sign_in, campaign_url, demo):
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    compartment = Compartment.objects.create(campaign=demo, ship=waterloo, name="Cargo bay 2")
    row = tables.DAMAGE_CAPACITIES["door"]
    door = Surface.objects.create(
        campaign=demo,
        compartment=compartment,
        name="Bay door",
        surface_type="door",
        capacity=row.capacity,
        capacity_left=row.capacity,
        threshold=row.threshold,
        surface_kind=row.kind,
    )
    player = sign_in("player")
    player.goto(campaign_url)
    surface = player.get_by_test_id("surface-bay-door")
    expect(surface).to_contain_text(f"{row.capacity}/{row.capacity}")
    player.evaluate("window.__noReload = 'still here'")

    gm = get_user_model().objects.get(username="gm")
    entry = services.procedure_resolve(
        campaign=demo,
        procedure_id="shipboard.bulkhead_hit",
        inputs={"surface": "door", "damage_dice": 2, "damage_bonus": 3},
        dice=[6, 6],
        actor=gm,
        subjects={"struck_surface": door.code},
    )
    left = Surface.objects.get(pk=door.pk).capacity_left
    assert left < row.capacity and entry.effects
    expect(surface).to_contain_text(f"{left}/{row.capacity}")
    assert player.evaluate("window.__noReload") == "still here"


def test_a_new_entry_announces_itself_marks_the_last_visit_and_can_be_followed(sign_in, campaign_url, demo):
    player = sign_in("player")
    player.goto(campaign_url)
    expect(player.get_by_test_id("notice-sound")).not_to_be_checked()  # sound is off until asked for
    toasts = player.get_by_test_id("notice-toasts")
    expect(toasts).to_have_attribute("aria-live", "polite")

    gm_user = get_user_model().objects.get(username="gm")
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    services.procedure_resolve(
        campaign=demo,
        procedure_id="drive.charge",
        inputs={"method": "reactor", "target_hours": 100},
        dice=[1],
        actor=gm_user,
        subjects={"ship": waterloo.code},
        visibility="everyone",
        gm_ruling=True,
    )
    toast = toasts.get_by_test_id("toast").first
    expect(toast).to_contain_text("New in the log")
    expect(player.locator("#log-panel .result-card.fresh").first).to_be_visible()

    # Back later: what came since is marked, with a line where the last visit ended.
    player.goto(campaign_url)
    from referee.play import players as player_entries

    player_entries.note_post(campaign=demo, actor=gm_user, role="gm", text="While you were away.")
    player.goto(campaign_url)
    expect(player.get_by_test_id("since-last-visit")).to_be_visible()
    expect(player.locator("#log-panel .since-last-visit").first).to_contain_text("While you were away.")

    # Following the Waterloo leaves only the entries about it.
    player.get_by_test_id("notice-follow").select_option(label="Waterloo")
    cards = player.locator("#log-panel [data-entry-number]")
    expect(cards.filter(has_text="While you were away.")).to_be_hidden()
    expect(cards.filter(has_text="charge").first).to_be_visible()
