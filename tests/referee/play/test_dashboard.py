"""The GM's dashboard as a GM reads it: records in groups (space, ground, shipboard,
logistics, traps), a group with nothing in it folded away but still offering its Add
button, and each record's Roll… menu ordered by what a GM reaches for most."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.play import families
from referee.play.management.commands import bench_export
from referee.play.selectors import dashboard_context, gm_newest_page, log_page
from tests.factories import CharacterFactory, MembershipFactory, ShipFactory, UserFactory
from tests.referee.boobytraps.factories import BoobyTrapFactory

pytestmark = pytest.mark.django_db


def groups(html: str) -> dict[str, str]:
    """Each group's opening <details> tag, by slug, in page order."""
    found = re.findall(r'(<details class="group[^"]*" id="group-([a-z]+)"[^>]*>)', html)
    return {slug: tag for tag, slug in found}


def group_body(html: str, slug: str) -> str:
    start = html.index(f'id="group-{slug}"')
    return html[start : html.index("</details>", start)]


def menu_of(client, campaign, code) -> list[tuple[str, list[str]]]:
    """A record's Roll… menu as (heading, labels), the first section without a heading:
    fetched as the dashboard's button fetches it when it first opens (its link, by HTMX)."""
    html = client.get(reverse("campaigns:detail", args=[campaign.code])).text
    button = re.search(rf'<a [^>]*aria-controls="menu-{code}"[^>]*data-menu-button[^>]*>', html).group(0)
    url = re.search(r'href="([^"]+)"', button).group(1)
    panel = client.get(url, headers={"HX-Request": "true"}).text
    assert "<html" not in panel, "HTMX gets the menu alone"
    sections = []
    for heading, items in re.findall(
        r'(?:<span class="menu-heading"[^>]*>([^<]*)</span>)?<ul[^>]*>(.*?)</ul>', panel, re.S
    ):
        sections.append((heading, re.findall(r"<a [^>]*>([^<]*)</a>", items)))
    return sections


def test_every_family_panel_sits_in_a_known_group():
    assert {p.group for p in families.panels()} <= set(families.GROUPS)
    by_name = {p.name: p.group for p in families.panels()}
    assert by_name["ships"] == "space" and by_name["units"] == "ground"
    assert by_name["compartments"] == "shipboard" and by_name["supplies"] == "logistics"
    assert by_name["boobytraps"] == "traps"


def test_groups_with_records_are_open_and_empty_ones_are_folded_saying_nothing_yet(cast):
    ShipFactory(campaign=cast.campaign, name="Waterloo")
    CharacterFactory(campaign=cast.campaign, name="Kari Holm")
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    tags = groups(html)
    assert list(tags)[:5] == ["space", "ground", "shipboard", "logistics", "traps"]
    assert " open" in tags["space"] and " open" in tags["shipboard"]
    for slug in ("ground", "logistics", "traps"):
        assert " open" not in tags[slug] and "empty" in tags[slug], slug
        assert "nothing yet" in group_body(html, slug)
    # Folded, a group still lets the GM add the first record.
    assert "Add booby trap" in group_body(html, "traps")
    assert "Add unit" in group_body(html, "ground")
    assert "nothing yet" not in group_body(html, "space")
    assert "Waterloo" in group_body(html, "space") and "Kari Holm" in group_body(html, "shipboard")


def dashboard_groups(campaign) -> dict[str, dict]:
    found = dashboard_context(campaign)["groups"]
    return {g["slug"]: g for g in (found() if callable(found) else found)}  # read when rendered


def test_a_group_opens_once_it_holds_a_record(cast):
    before = dashboard_groups(cast.campaign)
    assert before["traps"]["empty"] and before["traps"]["records"] == 0
    BoobyTrapFactory(campaign=cast.campaign)
    after = dashboard_groups(cast.campaign)
    assert not after["traps"]["empty"] and after["traps"]["records"] == 1


def test_a_ships_menu_opens_with_jump_charge_drive_and_detect_then_the_rest_under_headings(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", kind="jumpship", military=True)
    menu = menu_of(cast.client("gm"), cast.campaign, ship.code)
    assert menu[0] == ("", ["Jump", "Charge drive", "Detect emergence"])
    headings = [heading for heading, _ in menu[1:]]
    assert headings[:2] == ["Jump drives", "Sensors"]
    assert all(headings), "every section after the first has a heading"
    labels = [label for _, labels in menu for label in labels]
    assert len(labels) == len(set(labels)) == len(families.bindings_for(ship))
    assert dict(menu[1:])["Jump drives"] == [
        "Non-standard jump plot",
        "Objects in the K-F field",
        "Non-standard arrival",
    ]


def test_a_fighter_squadrons_menu_opens_with_its_overburn_and_has_no_jump(cast):
    squadron = ShipFactory(
        campaign=cast.campaign, kind="fighter_squadron", kf_integrity=0, kf_integrity_max=0
    )
    menu = menu_of(cast.client("gm"), cast.campaign, squadron.code)
    assert menu[0][1][0] == "Overburn (End Phase)"
    assert "Jump" not in [label for _, labels in menu for label in labels]


def test_the_menu_is_a_button_that_says_whether_it_is_open_and_what_it_controls(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo")
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    button = re.search(r'<a [^>]*aria-label="Roll for Waterloo"[^>]*>', html).group(0)
    assert 'role="button"' in button and "data-menu-button" in button
    assert 'aria-expanded="false"' in button and f'aria-controls="menu-{ship.code}"' in button
    # Without JavaScript the button is a link to the page listing what to roll.
    assert (
        f'href="{reverse("campaigns:object-roll", args=[cast.campaign.code, "ships", ship.code])}"' in button
    )
    # Its panel is there, empty and hidden, until it first opens.
    assert re.search(rf'<div class="menu-panel" id="menu-{ship.code}" data-menu-panel hidden></div>', html)


def test_the_dashboard_does_not_build_every_records_menu(cast):
    ShipFactory.create_batch(3, campaign=cast.campaign, kind="jumpship")
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert html.count("data-menu-src") >= 3
    assert reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"]) not in html


def test_menu_ranks_are_declared_once_and_name_real_procedures():
    import rules

    ranked = [pid for f in families.FAMILIES for pid in f.menu_first]
    assert len(ranked) == len(set(ranked))
    for procedure_id in ranked:
        rules.get(procedure_id)  # an unknown id raises


def test_the_feed_numbers_its_pages_as_the_log_page_does_without_counting_the_log(cast):
    bench_export._fill_log(cast.campaign, 60, 60)
    cast.campaign.refresh_from_db()
    gm = cast.client("gm")
    feed = gm.get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    log = gm.get(reverse("play:log", args=[cast.campaign.code])).text
    pages = re.compile(r"Page 1 of (\d+)")
    assert pages.search(feed).group(1) == pages.search(log).group(1) == "3"
    newest = log_page(cast.campaign, "gm", 1)
    assert (
        [e.seq for e in gm_newest_page(cast.campaign)] == [e.seq for e in newest] == list(range(60, 35, -1))
    )


def test_a_record_without_a_sheet_offers_no_unit_file(cast):
    ShipFactory(campaign=cast.campaign, name="Bare", sheet={})
    ShipFactory(campaign=cast.campaign, name="Sheeted", sheet={"kind": "ship", "name": "Sheeted"})
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert "Download Sheeted as a MegaMek unit file" in html
    assert "Download Bare as a MegaMek unit file" not in html


def test_the_table_is_kept_whole_per_version_and_each_visitors_forms_carry_their_own_token(cast):
    ShipFactory(campaign=cast.campaign, name="Waterloo")
    url = reverse("campaigns:detail", args=[cast.campaign.code])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(cast.gm)
    second.force_login(cast.gm)
    assert "Waterloo" in first.get(url).text
    with CaptureQueriesContext(connection) as queries:
        page = second.get(url).text
    # Who is asking (session, user, membership), and nothing of what the campaign holds.
    assert len(queries) <= 3, [q["sql"][:80] for q in queries]
    assert not any('"fleet_' in q["sql"] or '"play_logentry"' in q["sql"] for q in queries)
    assert "Waterloo" in page and "\x00" not in page
    # The kept page's forms carry this visitor's token: the clock's form posts with it.
    token = re.search(r'id="clock-menu".*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S).group(1)
    clock = reverse("play:clock", args=[cast.campaign.code])
    form = {"amount": 1, "unit": "hours", "reason": "", "csrfmiddlewaretoken": token}
    before = cast.campaign.clock
    assert second.post(clock, form).status_code in (200, 302)
    cast.campaign.refresh_from_db()
    assert cast.campaign.clock == before + timedelta(hours=1)


def test_the_gms_note_can_be_whispered_to_each_player_and_to_no_one_else(cast):
    """The note form on the dashboard offers each player of the campaign, by name, and
    neither the GM nor anyone outside it."""
    second = MembershipFactory(campaign=cast.campaign, role="player").user
    UserFactory(username="stranger")
    text = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    for player in (cast.player, second):
        assert f'data-testid="whisper-{player.username}"' in text
        assert f'name="audience" value="{player.pk}"' in text
    assert f'data-testid="whisper-{cast.gm.username}"' not in text
    assert 'data-testid="whisper-stranger"' not in text
