"""The door's cache of who is asking: a poll asked again while nothing changed costs no
statement, and every change that could alter the answer (a roll players see, a member
removed, a session ended, a password changed, a user deactivated, a session expired)
reaches it through PostgreSQL's notifications from other connections, committed for real."""

import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models.functions import Now
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.campaigns.models import Membership
from referee.play import door_cache
from referee.play.models import Visibility
from tests.referee.play.test_quick_poll import quiet_secret, status_url, version_of

pytestmark = pytest.mark.django_db(transaction=True)


def listening() -> None:
    """Wait until this process's cache listens (it starts with the first request that may use it)."""
    door_cache.cache.usable("GET")
    deadline = time.monotonic() + 10
    while not door_cache.cache._trusted():
        assert time.monotonic() < deadline, "the door's cache never began to listen"
        time.sleep(0.02)


def statements(client, url, data) -> tuple[int, int]:
    """(status, statements run) of one GET."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url, data).status_code
    return status, len(queries)


def eventually(answer, expected, seconds=5.0):
    """The answer a client polling again and again gets once the news arrived."""
    deadline = time.monotonic() + seconds
    while (got := answer()) != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    return got


def cached_poll(cast, role="player"):
    listening()
    client = cast.client(role)
    version = version_of(client, cast.campaign)
    url, data = status_url(cast.campaign), {"v": version}
    assert client.get(url, data).status_code == 204  # read by the statement, and kept
    return client, url, data


def test_a_poll_asked_again_while_nothing_changed_asks_the_database_nothing(cast):
    client, url, data = cached_poll(cast)
    assert statements(client, url, data) == (204, 0)
    assert statements(cast.client("gm"), url, {"watch": "1"})[0] == 204


def test_a_roll_players_see_brings_the_panel_at_the_next_poll_after_the_news(cast):
    client, url, data = cached_poll(cast)
    quiet_secret(cast, visibility=Visibility.EVERYONE)  # committed on this connection: notified
    assert eventually(lambda: client.get(url, data).status_code, 200) == 200


def test_a_gm_only_roll_makes_the_cache_ask_again_and_the_player_still_sees_nothing_changed(cast):
    client, url, data = cached_poll(cast)
    quiet_secret(cast, visibility=Visibility.GM)
    # The news of a change reaches the cache: it asks the database once, and the player's
    # version has not moved.
    assert eventually(lambda: statements(client, url, data), (204, 1)) == (204, 1)
    assert statements(client, url, data) == (204, 0)


@pytest.mark.parametrize(
    "end",
    [
        pytest.param(lambda cast: Membership.objects.filter(user=cast.player).delete(), id="member removed"),
        pytest.param(lambda cast: Session.objects.all().delete(), id="signed out"),
        pytest.param(
            lambda cast: type(cast.player).objects.filter(pk=cast.player.pk).update(is_active=False),
            id="user deactivated",
        ),
        pytest.param(
            lambda cast: (cast.player.set_password("another long password"), cast.player.save()),
            id="password changed",
        ),
        pytest.param(lambda cast: cast.campaign.delete(), id="campaign deleted"),
    ],
)
def test_what_ends_a_members_access_ends_the_cached_answer(cast, end):
    client, url, data = cached_poll(cast)
    end(cast)
    assert eventually(lambda: client.get(url, data).status_code, 404) == 404


def test_a_session_that_expires_is_not_answered_from_the_cache(cast):
    client, url, data = cached_poll(cast)
    Session.objects.update(expire_date=Now() + timedelta(seconds=1.5))
    assert eventually(lambda: statements(client, url, data), (204, 1)) == (204, 1)
    assert statements(client, url, data) == (204, 0)  # kept again, until it expires
    time.sleep(1.6)
    assert client.get(url, data).status_code == 404


def test_an_action_a_member_takes_is_seen_by_the_next_page_this_process_serves(cast, monkeypatch):
    """No waiting for the news: after a form sent to a campaign page, this process asks the
    database again (the news itself is stopped here, so only that can tell the poll)."""
    client, url, data = cached_poll(cast)
    monkeypatch.setattr(door_cache.cache, "_heard", lambda channel, payload: None)
    response = cast.client("gm").post(reverse("play:next-phase", args=[cast.campaign.code]))
    assert response.status_code == 302  # back to the dashboard
    assert client.get(url, data).status_code == 200  # the panel, with the new phase


def test_inside_a_transaction_the_cache_is_not_used(cast):
    client, url, data = cached_poll(cast)
    with transaction.atomic():
        assert statements(client, url, data) == (204, 1)


def test_a_form_sent_is_never_answered_from_the_cache(cast):
    client, url, data = cached_poll(cast)
    with CaptureQueriesContext(connection) as queries:
        client.post(url, data)
    assert queries  # asked the database (and refused the method)


def test_a_lost_listening_connection_means_every_poll_asks_until_it_listens_again(cast, monkeypatch):
    client, url, data = cached_poll(cast)
    monkeypatch.setattr(door_cache, "RETRY_S", (0.2,))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND query LIKE 'LISTEN referee_door%%'"
        )
        assert cursor.fetchone() == (True,)
    deadline = time.monotonic() + 5
    while door_cache.cache._trusted():  # until the listener notices
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert statements(client, url, data) == (204, 1)
    listening()
    assert statements(client, url, data) == (204, 1)  # read afresh: nothing older is trusted
    assert statements(client, url, data) == (204, 0)


def test_off_every_poll_asks_the_database(cast, settings):
    client, url, data = cached_poll(cast)
    settings.DOOR_CACHE = False
    assert statements(client, url, data) == (204, 1)


def test_a_quiet_listener_is_not_trusted(cast, monkeypatch):
    client, url, data = cached_poll(cast)
    monkeypatch.setattr(door_cache, "HEARTBEAT_S", 0.0)
    assert statements(client, url, data) == (204, 1)
