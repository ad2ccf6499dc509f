"""The clock's pages for each kind of visitor, and what a clumsy or hostile GM types."""

import re

import pytest
from django.urls import reverse

from referee.clock.models import EventStatus, TimedEvent
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ship(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", jump_point_au=10)
    return ShipFactory(campaign=cast.campaign, name="Waterloo", star_system=system, x_au=0.0, y_au=10.0)


def url(cast, name):
    return reverse(f"clock:{name}", args=[cast.campaign.code])


@pytest.mark.parametrize(("name", "method"), [("agenda", "get"), ("next-event", "post"), ("transit", "get")])
@pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_reaches_the_clock(cast, ship, name, method, who, status):
    response = getattr(cast.client(who), method)(url(cast, name))
    assert response.status_code == status
    assert TimedEvent.objects.count() == 0


def test_the_gm_works_out_a_transit_before_setting_off(cast, ship):
    client = cast.client("gm")
    page = client.get(url(cast, "transit") + f"?ship={ship.code}")
    assert page.status_code == 200 and "zenith jump point" in page.text and "Tharkad (the star)" in page.text
    data = {"ship": str(ship.code), "place": "0", "thrust_g": "1", "work": "1"}
    worked = client.post(url(cast, "transit"), data)
    assert worked.status_code == 200
    assert "10 AU: 9 days 59 min at 1 G, arriving" in worked.text
    assert TimedEvent.objects.count() == 0 and not LogEntry.objects.exists()
    gone = client.post(url(cast, "transit"), {**data, "go": "1"})
    assert gone.status_code == 302
    event = TimedEvent.objects.get()
    assert event.status == EventStatus.WAITING and event.to_position == "Tharkad (the star)"
    agenda = client.get(url(cast, "agenda"))
    assert "in transit to Tharkad (the star), done" in agenda.text and "started by #1" in agenda.text
    assert client.post(url(cast, "next-event")).status_code == 302
    ship.refresh_from_db()
    assert (ship.x_au, ship.y_au) == (0.0, 0.0)


@pytest.mark.parametrize(
    "bad",
    [
        {"thrust_g": "nan"},
        {"thrust_g": "inf"},
        {"thrust_g": "-1"},
        {"thrust_g": "0"},
        {"thrust_g": "1e309"},
        {"thrust_g": "21"},
        {"place": "99"},
        {"place": "", "x_au": "1"},
        {"place": "", "x_au": "1e12", "y_au": "0"},
        {"place": "", "x_au": "nan", "y_au": "0"},
        {"place": "\x00"},
        {"ship": "not-a-code"},
        {"ship": "00000000-0000-0000-0000-000000000000"},
    ],
)
def test_bad_transits_are_refused_in_words_and_write_nothing(cast, ship, bad):
    data = {"ship": str(ship.code), "place": "0", "thrust_g": "1", "go": "1", **bad}
    response = cast.client("gm").post(url(cast, "transit") + f"?ship={ship.code}", data)
    assert response.status_code in (200, 422)
    assert response.status_code == 422 or "choose" in response.text
    assert not TimedEvent.objects.exists() and not LogEntry.objects.exists()


def test_a_second_transit_while_under_way_is_refused(cast, ship):
    client = cast.client("gm")
    data = {"ship": str(ship.code), "place": "0", "thrust_g": "1", "go": "1"}
    client.post(url(cast, "transit"), data)
    again = client.post(url(cast, "transit"), data)
    assert again.status_code == 422 and "already in transit" in again.text
    assert TimedEvent.objects.count() == 1


def test_next_event_with_nothing_under_way_says_so(cast):
    response = cast.client("gm").post(url(cast, "next-event"), follow=True)
    assert "Nothing is under way" in response.text
    assert not LogEntry.objects.exists()


def test_a_transit_to_a_place_kept_from_players_never_names_it_to_them(cast, ship):
    """A shared ship sent to an unshared pirate point: the players read coordinates."""
    from referee.maps.models import PiratePoint

    ship.shared = True
    ship.save(update_fields=["shared"])
    PiratePoint.objects.create(
        campaign=cast.campaign, star_system=ship.star_system, name="Smugglers' L5", x_au=3, y_au=4
    )
    client = cast.client("gm")
    page = client.get(url(cast, "transit") + f"?ship={ship.code}").text
    assert "Smugglers&#x27; L5" in page  # the GM chooses it by name
    data = {"ship": str(ship.code), "place": _option(page, "Smugglers"), "thrust_g": "1"}
    assert client.post(url(cast, "transit"), {**data, "go": "1"}).status_code == 302
    event = TimedEvent.objects.get()
    assert event.to_position == "x 3, y 4 AU"
    player = cast.client("player")
    for page in (
        player.get(reverse("campaigns:detail", args=[cast.campaign.code])).text,
        b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "csv"])).streaming_content
        ).decode(),
    ):
        assert "Smugglers" not in page


def _option(page: str, words: str) -> str:
    return next(
        v for v, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', page) if words in label
    )


def test_the_transit_page_costs_the_same_queries_for_two_ships_or_twenty(cast, ship):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = cast.client("gm")
    page = url(cast, "transit") + f"?ship={ship.code}"
    client.get(page)  # the session and the caches warmed once
    with CaptureQueriesContext(connection) as few:
        assert client.get(page).status_code == 200
    for n in range(19):
        other = StarSystemFactory(campaign=cast.campaign, name=f"System {n}")
        ShipFactory(campaign=cast.campaign, name=f"Ship {n}", star_system=other, x_au=0.0, y_au=1.0)
    with CaptureQueriesContext(connection) as many:
        text = client.get(page).text
    assert "Ship 18 (System 18)" in text
    assert len(many) == len(few)
