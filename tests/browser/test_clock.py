"""The campaign runs on its clock, as a GM and a player see it: a drive charge that takes
its hours, the jump refused before it is done, the charge completed when the clock passes
it (the player sees it live), and a transit whose time the GM reads before setting off."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Ship, StarSystem
from tests.browser.conftest import expect_not_reloaded, mark_page, ship_row

pytestmark = pytest.mark.browser


def test_a_charge_completes_when_the_clock_passes_and_the_jump_is_refused_before(sign_in, campaign_url, demo):
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    Ship.objects.filter(pk=waterloo.pk).update(drive_charged=False)
    due = f"{demo.clock + timedelta(hours=160):%Y-%m-%d %H:%M}"

    player = sign_in("player")
    player.goto(campaign_url)
    drive = player.get_by_test_id(f"drive-{waterloo.code}")
    expect(drive).to_have_text("uncharged")
    mark_page(player)

    gm = sign_in("gm")
    gm.goto(f"{campaign_url}play/drive.charge/?ship={waterloo.code}")
    gm.get_by_label("Method").select_option("reactor")
    gm.get_by_label("Target hours (h)").fill("160")
    gm.get_by_test_id("roll").click()
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card.get_by_test_id("summary")).to_contain_text(f"Charging (160 h from the reactor): done {due}.")
    expect(card.get_by_test_id("next-step")).to_have_count(0)

    # Whoever sees the ship sees it charging, live.
    expect(drive).to_have_text(f"charging, done {due}")
    expect(player.get_by_test_id("under-way-item")).to_have_text(f"Waterloo: charging, done {due}")
    expect_not_reloaded(player)

    # The jump is refused while it charges.
    gm.goto(f"{campaign_url}play/jump.malfunction/?ship={waterloo.code}")
    gm.get_by_test_id("roll").click()
    expect(gm.get_by_role("alert").filter(has_text="is charged")).to_be_visible()

    # The agenda lists it; Advance to the next event completes it.
    gm.goto(campaign_url)
    agenda = gm.get_by_test_id("agenda")
    expect(agenda.get_by_test_id("agenda-item")).to_contain_text(f"Waterloo, charging, done {due}")
    expect(ship_row(gm, "Waterloo").get_by_test_id(f"drive-{waterloo.code}")).to_have_text(
        f"charging, done {due}"
    )
    agenda.get_by_test_id("next-event").click()
    expect(gm.get_by_text("Waterloo's K-F drive charge is done.")).to_be_visible()
    expect(gm.get_by_test_id("clock")).to_have_text(re.compile(due))
    expect(ship_row(gm, "Waterloo").get_by_test_id(f"drive-{waterloo.code}")).to_have_text("charged")
    expect(drive).to_have_text("charged")
    expect(player.get_by_test_id("under-way-item")).to_have_count(0)

    # Now the jump goes ahead without a ruling.
    gm.goto(f"{campaign_url}play/jump.malfunction/?ship={waterloo.code}")
    gm.get_by_label("Dice rolled at the table").fill("1 1")
    gm.get_by_test_id("enter-dice").click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_be_visible()
    waterloo.refresh_from_db()
    assert waterloo.drive_charged is False and waterloo.last_jump_at is not None


def test_the_gm_reads_a_transits_time_before_setting_off_and_the_ship_arrives(sign_in, campaign_url, demo):
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    system = StarSystem.objects.get(pk=waterloo.star_system_id)
    StarSystem.objects.filter(pk=system.pk).update(jump_point_au=10)
    Ship.objects.filter(pk=waterloo.pk).update(x_au=0.0, y_au=10.0, position="zenith jump point")
    player = sign_in("player")
    player.goto(campaign_url)

    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.get_by_test_id("agenda").get_by_role("link", name="Send a ship…").click()
    gm.get_by_test_id("transit-ship").select_option(label=f"Waterloo ({system.name})")
    gm.get_by_role("button", name="Show its places").click()
    gm.get_by_label("To").select_option(label=f"{system.name} (the star)")
    gm.get_by_label("Thrust (G)").fill("1")
    gm.get_by_test_id("transit-work").click()
    arrives = f"{demo.clock + timedelta(seconds=781150):%Y-%m-%d %H:%M}"
    expect(gm.get_by_test_id("transit-plan")).to_have_text(
        f"10 AU: 9 days 59 min at 1 G, arriving {arrives}."
    )
    gm.get_by_test_id("transit-go").click()
    expect(gm.get_by_test_id("agenda-item")).to_contain_text(
        f"in transit to {system.name} (the star), done {arrives}"
    )
    expect(player.get_by_test_id("under-way-item")).to_contain_text(
        f"Waterloo: in transit to {system.name} (the star)"
    )
    gm.get_by_test_id("next-event").click()
    expect(gm.get_by_text(f"Waterloo arrives at {system.name} (the star).")).to_be_visible()
    waterloo.refresh_from_db()
    assert (waterloo.x_au, waterloo.y_au) == (0.0, 0.0)
