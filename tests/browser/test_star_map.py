"""The star map in a real browser: the GM places a system (the form redrawn for each system
picked), chooses a ship by keyboard, plans a route and reads its arrival date; a player sees
only the systems shared with them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.fleet.models import Ship, StarSystem
from referee.play.models import LogEntry
from tests.browser.conftest import expect_not_reloaded, mark_page

pytestmark = pytest.mark.browser


@pytest.fixture
def sky(demo):
    StarSystem.objects.filter(campaign=demo, name="Galax").update(x_ly=0, y_ly=0)
    StarSystem.objects.create(campaign=demo, name="Hidden Reach", x_ly=40, y_ly=24, shared=False)
    return demo


def pick_system_to_place(page, name: str) -> None:
    """Pick a system in the place form, and wait for the form to be redrawn for it before
    typing (a field being replaced could lose a keystroke)."""
    page.locator("#place-form").get_by_label("System").select_option(label=name)
    page.wait_for_function(
        "() => !document.querySelector('#place-form .htmx-request, #place-form.htmx-request')"
    )


def test_the_gm_places_a_system_and_plans_a_route_with_its_arrival_date(sign_in, campaign_url, sky):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.get_by_test_id("star-map-link").click()
    expect(gm.get_by_role("heading", name="Star map", exact=True)).to_be_visible()
    survey = StarSystem.objects.get(campaign=sky, name="Unnamed system EC-4471")
    place = gm.locator("#place-form")
    # Picking a system redraws the form in place with where that system lies now.
    mark_page(gm)
    pick_system_to_place(gm, "Hidden Reach")
    expect(place.get_by_label("System")).to_have_value(
        str(StarSystem.objects.get(campaign=sky, name="Hidden Reach").code)
    )
    expect(place.get_by_label("x (light-years)")).to_have_value("40.0")
    expect(place.get_by_label("y (light-years)")).to_have_value("24.0")
    expect(place.get_by_label("Players see it")).not_to_be_checked()
    pick_system_to_place(gm, survey.name)
    expect(place.get_by_label("x (light-years)")).to_have_value("")
    expect(place.get_by_label("Players see it")).to_be_checked()
    expect_not_reloaded(gm)
    place.get_by_label("x (light-years)").fill("18")
    place.get_by_label("y (light-years)").fill("24")
    place.get_by_test_id("place-system").click()
    expect(gm.get_by_text("The GM edited the star system Unnamed system EC-4471")).to_be_visible()
    survey.refresh_from_db()
    assert (survey.x_ly, survey.y_ly) == (18.0, 24.0)
    assert LogEntry.objects.filter(campaign=sky, procedure="record.edit").count() == 1

    # Tab to the Waterloo on the map and press Enter: its distances and jump radius.
    waterloo = Ship.objects.get(campaign=sky, name="Waterloo")
    mark = gm.locator(f'svg.star-map [data-code="ship-{waterloo.code}"]')
    mark.focus()
    gm.keyboard.press("Enter")
    distances = gm.get_by_test_id("star-distances")
    expect(distances).to_contain_text("From Waterloo (in Galax)")
    expect(distances.locator("tr", has_text="EC-4471")).to_contain_text("30within reach")
    expect(distances.locator("tr", has_text="Hidden Reach")).to_contain_text("too far")
    expect(gm.locator("svg.star-map circle.reach")).to_have_count(1)

    # Two jumps: the drive is charged for the first; the second waits a 150 h charge.
    route = gm.locator("#route-form")
    expect(route.get_by_label("Ship")).to_have_value(str(waterloo.code))
    route.get_by_label("Next jump to").select_option(label=survey.name)
    route.get_by_test_id("add-jump").click()
    expect(gm.get_by_test_id("arrival")).to_contain_text(
        "Arrives in Unnamed system EC-4471 on 3067-03-14 08:00"
    )
    gm.locator("#route-form").get_by_label("Next jump to").select_option(label="Hidden Reach")
    gm.locator("#route-form").get_by_test_id("add-jump").click()
    expect(gm.get_by_test_id("arrival")).to_contain_text("Arrives in Hidden Reach on 3067-03-20 14:00")
    expect(gm.get_by_test_id("route")).to_contain_text("6 days 6 h")
    expect(gm.locator("svg.star-map line.route")).to_have_count(2)
    # One jump too far is refused in words, and nothing is planned past it.
    gm.locator("#route-form").get_by_label("Next jump to").select_option(label="Galax")
    gm.locator("#route-form").get_by_test_id("add-jump").click()
    expect(gm.get_by_test_id("route-error")).to_contain_text(
        "Jump 3, Hidden Reach to Galax, is 46.65 light-years: a K-F drive jumps at most 30"
    )
    expect(gm.get_by_test_id("arrival")).to_have_count(0)
    href = gm.get_by_text("Clear the route").get_attribute("href")
    assert href and "route" not in href


def test_a_player_sees_only_the_shared_systems(sign_in, campaign_url, sky):
    StarSystem.objects.filter(campaign=sky, name="Unnamed system EC-4471").update(x_ly=18, y_ly=24)
    player = sign_in("player")
    player.goto(campaign_url)
    player.get_by_test_id("maps-link").click()
    player.get_by_test_id("star-map-link").click()
    star = player.get_by_test_id("star-map")
    expect(star).to_contain_text("Galax")
    expect(star).to_contain_text("Unnamed system EC-4471")
    expect(star).to_contain_text("Waterloo")
    galax = player.locator("svg.star-map g.system", has_text="Galax")
    galax.focus()
    player.keyboard.press("Enter")
    expect(player.get_by_test_id("star-distances")).to_contain_text("From Galax")
    expect(player.get_by_test_id("star-distances")).to_contain_text("within reach")
    body = player.locator("body")
    expect(body).not_to_contain_text("Hidden Reach")
    expect(body).not_to_contain_text("Plan a route")
    expect(body).not_to_contain_text("Place a star system")


def test_a_players_star_map_follows_the_gms_placing_by_itself(sign_in, campaign_url, sky):
    player = sign_in("player")
    player.goto(f"{campaign_url}maps/stars/")
    expect(player.get_by_test_id("star-map")).to_contain_text("Galax")
    expect(player.get_by_test_id("star-map")).not_to_contain_text("EC-4471")
    mark_page(player)
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}maps/stars/")
    place = gm.locator("#place-form")
    pick_system_to_place(gm, "Unnamed system EC-4471")
    place.get_by_label("x (light-years)").fill("-9")
    place.get_by_label("y (light-years)").fill("4")
    place.get_by_test_id("place-system").click()
    expect(gm.get_by_text("The GM edited the star system Unnamed system EC-4471")).to_be_visible()
    expect(player.get_by_test_id("star-map")).to_contain_text("EC-4471", timeout=8000)
    expect_not_reloaded(player)
    expect(player.locator("body")).not_to_contain_text("Hidden Reach")


def test_the_gm_saves_a_route_as_a_plan_reads_it_on_the_agenda_and_drops_it(sign_in, campaign_url, sky):
    survey = StarSystem.objects.get(campaign=sky, name="Unnamed system EC-4471")
    StarSystem.objects.filter(pk=survey.pk).update(x_ly=18, y_ly=24)
    gm = sign_in("gm")
    waterloo = Ship.objects.get(campaign=sky, name="Waterloo")
    gm.goto(f"{campaign_url}maps/stars/?ship={waterloo.code}")
    gm.locator("#route-form").get_by_label("Next jump to").select_option(label=survey.name)
    gm.locator("#route-form").get_by_test_id("add-jump").click()
    expect(gm.get_by_test_id("arrival")).to_contain_text("Arrives in Unnamed system EC-4471")
    gm.get_by_test_id("save-plan").get_by_role("button", name="Save as a plan").click()
    plans = gm.get_by_test_id("plans")
    expect(plans).to_contain_text("Waterloo: Galax → Unnamed system EC-4471, arriving")
    gm.goto(campaign_url)
    expect(gm.get_by_test_id("agenda-plan")).to_contain_text("Waterloo: Galax → Unnamed system EC-4471")
    gm.goto(f"{campaign_url}maps/stars/")
    gm.get_by_test_id("plans").get_by_role("link", name="Show").click()
    expect(gm.get_by_test_id("arrival")).to_contain_text("Arrives in Unnamed system EC-4471")
    gm.get_by_test_id("plans").get_by_role("button", name="Drop").click()
    expect(gm.get_by_test_id("plans")).to_have_count(0)
    gm.goto(campaign_url)
    expect(gm.get_by_test_id("agenda-plan")).to_have_count(0)
