"""The table tells the truth, in a real browser: a secret jump stays secret, forms show the
state as it is, GM pages follow changes, undo and refusals answer where they were asked."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from referee.demo.campaign import DEMO_LOGINS
from referee.fleet.models import Ship
from referee.play import services
from tests.browser.conftest import expect_not_reloaded, mark_page

pytestmark = pytest.mark.browser

MICRO_FRACTURES = "6 6 4 5"  # K-F integrity -1
NO_MISHAP = "3 4"
KF = re.compile(r"^K-F integrity:?$")


def ship(demo, name: str) -> Ship:
    return Ship.objects.get(campaign=demo, name=name)


def jump_in_the_database(demo, name: str, dice: list[int], **extra):
    gm = get_user_model().objects.get(username=DEMO_LOGINS["gm"][0])
    return services.procedure_resolve(
        campaign=demo,
        procedure_id="jump.malfunction",
        inputs={},
        dice=dice,
        actor=gm,
        subjects={"ship": ship(demo, name).code},
        visibility="everyone",
        **extra,
    )


def open_form(gm: Page, campaign_url: str, procedure_id: str, **roles) -> None:
    query = "&".join(f"{k}={v}" for k, v in roles.items())
    gm.goto(f"{campaign_url}play/{procedure_id}/?{query}")
    expect(gm.get_by_role("heading", level=1)).to_be_visible()


def test_the_valley_forge_jump_the_player_never_sees(sign_in, campaign_url, demo):
    player = sign_in("player")
    player.goto(campaign_url)
    mark_page(player)
    gm = sign_in("gm")
    open_form(gm, campaign_url, "jump.malfunction", ship=ship(demo, "Valley Forge").code)
    expect(gm.get_by_test_id("unshared-warning")).to_contain_text("Valley Forge")
    expect(gm.get_by_label("Visibility").locator("option:checked")).to_contain_text("As shared")
    with gm.expect_response(lambda r: "refresh=1" in r.url):
        gm.get_by_label("Destination").select_option(label="Unnamed system EC-4471")
    gm.get_by_label("Dice rolled at the table").fill(NO_MISHAP)
    gm.get_by_test_id("enter-dice").click()
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    expect(card).to_contain_text("GM only")
    assert ship(demo, "Valley Forge").star_system.name == "Unnamed system EC-4471"
    player.wait_for_timeout(2500)  # more than two of the player page's polls
    expect_not_reloaded(player)
    expect(player.locator("body")).not_to_contain_text("Valley Forge")
    for fmt in ("md", "csv", "json"):
        export = player.request.get(f"{campaign_url}log/export.{fmt}")
        assert export.ok and "Valley Forge" not in export.text()


def test_the_form_refills_after_a_roll_and_on_a_change_of_target(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    open_form(gm, campaign_url, "jump.malfunction", ship=ship(demo, "Waterloo").code)
    expect(gm.get_by_label(KF)).to_have_value("4")
    gm.get_by_label("Dice rolled at the table").fill(MICRO_FRACTURES)
    gm.get_by_test_id("enter-dice").click()
    expect(gm.locator("#result-slot").get_by_test_id("result-card")).to_be_visible()
    expect(gm.get_by_label(KF)).to_have_value("3")  # the state the roll left

    forge = ship(demo, "Valley Forge")
    open_form(
        gm,
        campaign_url,
        "sensor.emergence_wave",
        detector=ship(demo, "John Wayne").code,
        target=ship(demo, "Waterloo").code,
    )
    kf_max = gm.get_by_label(re.compile(r"^K-F integrity max"))
    expect(kf_max).to_have_value("4")
    gm.get_by_label("Target").select_option(label="Valley Forge")
    expect(kf_max).to_have_value(str(forge.kf_integrity_max))


def test_the_gm_dashboard_updates_by_itself(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    expect(gm.locator("#log-panel")).to_contain_text("Nothing has been rolled yet")
    mark_page(gm)
    other_tab = gm.context.new_page()
    open_form(other_tab, campaign_url, "jump.malfunction", ship=ship(demo, "Waterloo").code)
    other_tab.get_by_label("Dice rolled at the table").fill(MICRO_FRACTURES)
    other_tab.get_by_test_id("enter-dice").click()
    expect(other_tab.locator("#result-slot").get_by_test_id("result-card")).to_be_visible()
    expect(gm.locator("#log-panel").get_by_test_id("result-card")).to_have_count(1, timeout=8000)
    expect_not_reloaded(gm)


def test_undo_from_the_entry_page(sign_in, campaign_url, demo):
    entry = jump_in_the_database(demo, "Waterloo", [6, 6, 4, 5])
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}log/{entry.seq}/")
    gm.on("dialog", lambda dialog: dialog.accept())
    gm.get_by_test_id("undo").click()
    expect(gm.get_by_test_id("result-card")).to_contain_text("undone by #2")
    assert ship(demo, "Waterloo").kf_integrity == 4


def test_refusals_are_told_in_view_beside_the_button(sign_in, campaign_url, demo):
    jump_in_the_database(demo, "Waterloo", [6, 6, 4, 5])
    jump_in_the_database(demo, "Waterloo", [6, 6, 4, 5], gm_ruling=True)
    gm = sign_in("gm", viewport={"width": 900, "height": 500})
    gm.goto(f"{campaign_url}log/")
    gm.on("dialog", lambda dialog: dialog.accept())
    gm.locator("#entry-1").get_by_test_id("undo").click()
    refusal = gm.locator("#entry-1").get_by_test_id("card-error")
    expect(refusal).to_contain_text("changed again by #2")
    expect(refusal).to_be_in_viewport()

    # An uncharged JumpShip: said before the roll, refused beside the buttons.
    open_form(gm, campaign_url, "jump.malfunction", ship=ship(demo, "Garibaldi").code)
    expect(gm.get_by_test_id("preconditions")).to_contain_text("is charged")
    gm.get_by_label("Dice rolled at the table").fill(NO_MISHAP)
    gm.get_by_test_id("enter-dice").click()
    refused = gm.get_by_test_id("roll-refusal")
    expect(refused).to_contain_text("The rules do not allow this now")
    expect(refused).to_be_in_viewport()
