"""Maps in a real browser: the GM drags a ship and works the map by keyboard; a player's map
shows only what is shared and follows the GM's moves by itself."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from referee.fleet.models import Ship, StarSystem
from referee.play.models import LogEntry
from referee.terrain.models import Battlefield, UnitPlacement
from tests.browser.conftest import expect_not_reloaded, mark_page

pytestmark = pytest.mark.browser


def ship(demo, name: str) -> Ship:
    return Ship.objects.get(campaign=demo, name=name)


def galax_url(campaign_url: str, demo) -> str:
    return f"{campaign_url}maps/systems/{StarSystem.objects.get(campaign=demo, name='Galax').code}/"


def ship_on_map(page: Page, demo, name: str):
    return page.locator(f"#ship-{ship(demo, name).code}")


def test_the_gm_drags_a_ship_and_the_move_is_logged(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    gm.goto(galax_url(campaign_url, demo))
    expect(gm.get_by_test_id("system-map").locator("svg")).to_contain_text("Zenith")
    john = ship_on_map(gm, demo, "John Wayne")
    box = john.bounding_box()
    start = (box["x"] + box["width"] / 4, box["y"] + box["height"] / 2)
    gm.mouse.move(*start)
    gm.mouse.down()
    gm.mouse.move(start[0] - 120, start[1] + 80, steps=8)
    gm.mouse.up()
    expect(gm.locator("#map-panel .notice")).to_contain_text("moved John Wayne")
    moved = ship(demo, "John Wayne")
    assert (moved.x_au, moved.y_au) != (3.0, 1.5)
    assert moved.x_au < 3.0 and moved.y_au < 1.5  # left and down, as dragged
    assert LogEntry.objects.filter(campaign=demo, procedure="map.move").count() == 1


def test_the_gm_works_the_map_by_keyboard(sign_in, campaign_url, demo):
    gm = sign_in("gm")
    gm.goto(galax_url(campaign_url, demo))
    forge = ship_on_map(gm, demo, "Valley Forge")
    forge.focus()
    gm.keyboard.press("Enter")
    distances = gm.get_by_test_id("distances")
    expect(distances).to_contain_text("From Valley Forge")
    expect(distances.locator("tr", has_text="Waterloo")).to_contain_text("3 AU")
    # The move form now names the chosen ship; the rest is typed.
    expect(gm.locator("#move-form select[name=ship]")).to_have_value(str(ship(demo, "Valley Forge").code))
    gm.get_by_label("Place").select_option(label="At the zenith jump point")
    gm.get_by_label("Offset (AU)").fill("0.25")
    gm.get_by_label("Offset (AU)").press("Enter")
    expect(gm.locator("#map-panel .notice")).to_contain_text("0.25 AU beyond the zenith jump point")
    assert ship(demo, "Valley Forge").y_au == pytest.approx(1.75)


def test_a_player_sees_only_what_is_shared_and_follows_moves(sign_in, campaign_url, demo):
    player = sign_in("player")
    player.goto(galax_url(campaign_url, demo))
    page_map = player.get_by_test_id("system-map")
    expect(page_map).to_contain_text("Waterloo")
    expect(player.locator("body")).not_to_contain_text("Valley Forge")
    expect(player.locator("body")).not_to_contain_text("Galax L4")
    expect(player.locator("#move-form")).to_have_count(0)
    mark_page(player)

    gm = sign_in("gm")
    gm.goto(galax_url(campaign_url, demo))
    gm.locator("#move-form select[name=ship]").select_option(label="Waterloo")
    gm.get_by_label("x (AU)").fill("-4")
    gm.get_by_label("y (AU)").fill("2")
    gm.get_by_test_id("move").click()
    expect(gm.locator("#map-panel .notice")).to_contain_text("moved Waterloo")
    waterloo = ship(demo, "Waterloo")
    expect(player.locator(f"#ship-{waterloo.code} title")).to_have_text(
        re.compile(r"at x -4, y 2 AU"), timeout=8000
    )
    expect_not_reloaded(player)
    expect(player.locator("body")).not_to_contain_text("Valley Forge")


def test_the_battlefield_by_keyboard_and_what_a_player_sees(sign_in, campaign_url, demo):
    field = Battlefield.objects.get(campaign=demo, name="Landing zone Alpha")
    url = f"{campaign_url}maps/battlefields/{field.code}/"
    gm = sign_in("gm")
    gm.goto(url)
    expect(gm.get_by_test_id("hex-map")).to_contain_text("weather: Light rain")
    gm.locator("#hex-0606").focus()
    gm.keyboard.press("Enter")
    expect(gm.get_by_role("heading", name="Hex 0606")).to_be_visible()
    hex_form, place_form = gm.locator("#hex-form"), gm.locator("#place-form")
    hex_form.get_by_label("Base terrain").select_option("heavy_woods")
    hex_form.get_by_label("Level").fill("2")
    gm.get_by_test_id("save-hex").click()
    expect(gm.get_by_test_id("hex-map").locator("#hex-0606")).to_have_attribute(
        "aria-label", re.compile("Heavy woods; level 2")
    )
    place_form.get_by_label("Unit").select_option(label="Victor VTR-9K")
    place_form.get_by_label("Hex").fill("0606")
    place_form.get_by_label("Facing").select_option(label="South")
    gm.get_by_test_id("place-unit").click()
    expect(gm.get_by_test_id("units-on-map")).to_contain_text("Victor VTR-9K: hex 0606")
    assert UnitPlacement.objects.get(unit__name="Victor VTR-9K").facing == "s"

    player = sign_in("player")
    player.goto(url)
    expect(player.get_by_test_id("hex-map")).to_contain_text("VV9")
    expect(player.locator("body")).not_to_contain_text("geyser")
    expect(player.locator("#hex-form")).to_have_count(0)
