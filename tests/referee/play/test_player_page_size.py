"""The players' page at table scale: the first few shared ships, units and records of the
player's own, each list with a "Show all" that the live refresh keeps; and the log's size,
hidden entries and the player's numbering read in one statement that agrees with the ORM's."""

import re

import pytest
from django.db import connection
from django.urls import reverse

from referee.dashboard import selectors as page_selectors
from referee.play import players, selectors, services
from referee.play.models import LogEntry, Numbering, Visibility
from tests.factories import MembershipFactory, ShipFactory, UnitFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

SHOWN = page_selectors.PLAYER_RECORDS_SHOWN


def cards(html: str, kind: str) -> int:
    return len(re.findall(rf'class="card {kind}-status"', html))


@pytest.fixture
def fleet(cast):
    ShipFactory.create_batch(SHOWN + 6, campaign=cast.campaign, shared=True, owner=cast.player)
    ShipFactory.create_batch(3, campaign=cast.campaign, shared=False, name="Secret hull")
    UnitFactory.create_batch(SHOWN + 1, campaign=cast.campaign, shared=True)
    return cast


def test_the_page_shows_the_first_few_records_and_says_how_many_there_are(fleet):
    page = fleet.client("player").get(reverse("campaigns:detail", args=[fleet.campaign.code])).text
    assert cards(page, "ship") == SHOWN and cards(page, "unit") == SHOWN
    assert f"{SHOWN} of {SHOWN + 6} shared ships shown" in page
    assert f"{SHOWN} of {SHOWN + 1} shared units shown" in page
    assert 'href="?show=all#status-panel">Show all ships and units</a>' in page
    mine = len(re.findall(r'data-testid="my-', page))
    assert mine == page_selectors.MY_RECORDS_SHOWN + 1  # the records and the "Show all" line
    assert f"of your {SHOWN + 6} records shown" in page
    assert "Secret hull" not in page


def test_show_all_shows_every_shared_record_and_the_live_refresh_keeps_it(fleet):
    client = fleet.client("player")
    page = client.get(reverse("campaigns:detail", args=[fleet.campaign.code]), {"show": "all"}).text
    assert cards(page, "ship") == SHOWN + 6 and cards(page, "unit") == SHOWN + 1
    assert "shared ships shown" not in page and "Show the first few only" in page
    assert len(re.findall(r'data-testid="my-', page)) == SHOWN + 6
    assert "Secret hull" not in page
    poll = re.search(r'hx-get="([^"]+)"[^>]*data-show-all="1"', page).group(1).replace("&amp;", "&")
    assert poll.endswith("&show=all")
    ruled_jump(fleet.campaign, fleet.gm, ShipFactory(campaign=fleet.campaign, shared=True), dice=[3, 4])
    panel = client.get(poll.replace("?v=", "?v=0"), HTTP_HX_REQUEST="true").text
    assert cards(panel, "ship") == SHOWN + 7 and 'data-show-all="1"' in panel
    first_few = client.get(poll.replace("?v=", "?v=0").replace("&show=all", ""), HTTP_HX_REQUEST="true").text
    assert cards(first_few, "ship") == SHOWN and "data-show-all" not in first_few
    assert f"{SHOWN} of {SHOWN + 7} shared ships shown" in first_few  # counted, not all read
    assert f"{SHOWN} of {SHOWN + 1} shared units shown" in first_few


def test_an_odd_show_value_is_the_first_few(fleet):
    client = fleet.client("player")
    for value in ("ALL", "1", "all\x00", "x" * 5000):
        response = client.get(reverse("campaigns:detail", args=[fleet.campaign.code]), {"show": value})
        assert response.status_code == 200 and cards(response.text, "ship") == SHOWN


def test_one_statement_reads_the_log_as_the_orm_does(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    ship = ShipFactory(campaign=cast.campaign, shared=True)
    ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    secret = ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=Visibility.GM)
    ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=Visibility.GM)
    for to in ([cast.player.pk], [other.pk], [cast.player.pk, other.pk]):
        players.note_post(campaign=cast.campaign, actor=cast.gm, role="gm", text="psst", audience=to)
    for who, dice in ((cast.player, [3, 4]), (other, [3, 4])):
        ruled_jump(cast.campaign, cast.gm, ship, dice=dice, visibility=Visibility.BLIND, audience=[who.pk])
    services.log_entry_reveal(entry=secret, actor=cast.gm)
    kinds = set(LogEntry.objects.filter(campaign=cast.campaign).values_list("visibility", flat=True))
    assert kinds == {"everyone", "gm", "whisper", "blind"}
    for user in (cast.player, other, None):
        entries, hidden, numbering = selectors.log_reading(cast.campaign, user)
        assert (entries, hidden) == selectors.log_counts(cast.campaign, user)
        assert numbering.hidden == Numbering.for_campaign(cast.campaign, user).hidden
        assert hidden == LogEntry.objects.in_campaign(cast.campaign).hidden(user).count()


def test_the_page_reads_the_ships_it_shows_and_the_players_own_not_every_shared_one(cast):
    """Sixty shared ships, the player's own last by name: the page reads the first few and
    that one (in one query), not all sixty, and still lists it among the player's records."""
    ShipFactory.create_batch(60, campaign=cast.campaign, shared=True)
    ShipFactory(campaign=cast.campaign, shared=True, owner=cast.player, name="Zulu, the player's own")
    rows_read: dict[str, int] = {}

    def count_rows(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if 'FROM "fleet_ship"' in sql:
            rows_read[sql] = context["cursor"].rowcount
        return result

    client = cast.client("player")
    with connection.execute_wrapper(count_rows):
        page = client.get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert cards(page, "ship") == SHOWN and f"{SHOWN} of 61 shared ships shown" in page
    assert "Zulu, the player&#x27;s own" in page.split('id="my-records"')[1].split("</section>")[0]
    assert len(rows_read) == 1 and sum(rows_read.values()) == SHOWN + 1
    every = client.get(reverse("campaigns:detail", args=[cast.campaign.code]), {"show": "all"}).text
    assert cards(every, "ship") == 61
