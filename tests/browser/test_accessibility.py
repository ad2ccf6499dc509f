"""Every page of the demo, as the GM and as a player: one h1, landmarks, a skip link, and
no axe-core violations (axe-core is bundled with axe-playwright-python: no network)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from referee.fleet.models import Ship, StarSystem, Unit
from referee.play.models import LogEntry
from referee.sheets.models import Design
from referee.terrain.models import Battlefield
from tests.browser.test_play_loop import open_jump_from_dashboard

pytestmark = pytest.mark.browser

AXE = Axe()


def check(page: Page, url: str, expected: int = 200) -> list[str]:
    response = page.goto(url)
    page.wait_for_load_state("networkidle")
    problems = [] if response.status == expected else [f"{url}: answered {response.status}"]
    if page.locator("h1").count() != 1:
        problems.append(f"{url}: {page.locator('h1').count()} h1 headings")
    for landmark in ("header", "main", "nav"):
        if page.locator(landmark).count() < 1:
            problems.append(f"{url}: no {landmark}")
    if page.locator("a.skip-link[href='#main']").count() != 1:
        problems.append(f"{url}: no skip link")
    results = AXE.run(page)
    for violation in results.response["violations"]:
        targets = [", ".join(n["target"]) for n in violation["nodes"][:3]]
        problems.append(f"{url}: {violation['id']} ({violation['impact']}) at {targets}")
    return problems


def sheet_pages(campaign_url: str, demo) -> list[str]:
    """Record sheets: a 'Mech's, a ship's, battle armour's (shared) and a design's."""
    victor = Unit.objects.get(campaign=demo, name="Victor VTR-9K")
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    point = Unit.objects.get(campaign=demo, kind="battle_armor")
    design = Design.objects.get(campaign=demo, name="Lightning LTN-G15")
    return [
        f"{campaign_url}sheets/units/{victor.code}/",
        f"{campaign_url}sheets/ships/{waterloo.code}/",
        f"{campaign_url}sheets/units/{point.code}/",
        f"{campaign_url}sheets/designs/{design.code}/",
    ]


def test_the_demo_pages_pass_axe_as_gm_and_as_player(sign_in, campaign_url, live_server, demo):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    # Row actions say whose they are, not only "Roll…", "Edit", "Delete".
    for name in ("Roll for Waterloo", "Edit Waterloo", "Delete Waterloo"):
        expect(gm.get_by_label(name, exact=True)).to_be_visible()
    # A Roll… menu read when it opened is checked as the page around it.
    gm.get_by_role("button", name="Roll for Waterloo").click()
    expect(gm.get_by_role("link", name="Charge drive")).to_be_visible()
    open_menu = [
        f"{campaign_url} (Roll… open): {v['id']} ({v['impact']}) at {[', '.join(n['target']) for n in v['nodes'][:3]]}"
        for v in AXE.run(gm).response["violations"]
    ]
    # A result to read: one roll of the jump procedure.
    open_jump_from_dashboard(gm, campaign_url)
    gm.get_by_test_id("roll").click()
    gm.locator("#result-slot").get_by_test_id("result-card").wait_for()
    seq = LogEntry.objects.filter(campaign=demo).order_by("-seq").values_list("seq", flat=True).first()
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    gm_pages = [
        f"{live_server.url}/",
        campaign_url,
        f"{campaign_url}play/",
        f"{campaign_url}play/jump.malfunction/",
        f"{campaign_url}log/",
        f"{campaign_url}log/{seq}/",
        f"{campaign_url}settings/",
        f"{campaign_url}log/verify/",
        f"{campaign_url}ships/new/",
        *sheet_pages(campaign_url, demo),
        f"{campaign_url}designs/new/unit/",
        # Without JavaScript: what a ship can roll, and the question before a delete.
        *(f"{campaign_url}ships/{waterloo.code}/{page}/" for page in ("roll", "delete")),
        f"{campaign_url}records/ships/?page=all",  # a dashboard list, whole
        f"{campaign_url}players/",
    ]
    problems = open_menu + [p for url in gm_pages for p in check(gm, url)]
    problems += check(gm, f"{live_server.url}/no/such/page/", 404)

    player = sign_in("player")
    player_pages = [f"{live_server.url}/", campaign_url, f"{campaign_url}log/", f"{campaign_url}log/{seq}/"]
    player_pages += sheet_pages(campaign_url, demo)[:2]
    problems += [p for url in player_pages for p in check(player, url)]
    problems += check(player, f"{campaign_url}play/", 403)  # the GM's pages: a page that helps
    assert problems == [], "\n".join(problems)


def test_the_maps_the_import_and_a_players_own_roll_pass_axe(sign_in, campaign_url, live_server, demo):
    """The pages that came with maps, unit files and players' own rolls, checked the same way."""
    galax = StarSystem.objects.get(campaign=demo, name="Galax")
    field = Battlefield.objects.get(campaign=demo, name="Landing zone Alpha")
    maps = [f"{campaign_url}maps/systems/{galax.code}/", f"{campaign_url}maps/battlefields/{field.code}/"]
    # The star map with two systems placed, a ship chosen and a route planned.
    StarSystem.objects.filter(pk=galax.pk).update(x_ly=0, y_ly=0)
    survey = StarSystem.objects.get(campaign=demo, name="Unnamed system EC-4471")
    StarSystem.objects.filter(pk=survey.pk).update(x_ly=18, y_ly=24)
    waterloo = Ship.objects.get(campaign=demo, name="Waterloo")
    maps.append(f"{campaign_url}maps/stars/?from=ship-{waterloo.code}")
    route = f"{campaign_url}maps/stars/?ship={waterloo.code}&route={survey.code}"
    gm = sign_in("gm")
    problems = [
        p for url in [f"{campaign_url}maps/", *maps, route, f"{campaign_url}import/"] for p in check(gm, url)
    ]

    player = sign_in("player")
    player.goto(campaign_url)
    own_roll = player.locator("a[href*='/my/roll/']").first
    expect(own_roll).to_be_attached()
    roll_url = f"{live_server.url}{own_roll.get_attribute('href')}"
    problems += [p for url in [*maps, roll_url] for p in check(player, url)]
    assert problems == []
