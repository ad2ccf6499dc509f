"""The status poll's quick "nothing changed": one statement before the middleware stack, for
signed-in members only; everyone and everything else gets the usual path's answer."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from referee.campaigns.models import Membership
from referee.play import door as poll
from referee.play.models import Visibility
from tests.factories import CampaignFactory, MembershipFactory
from tests.referee.history import quiet_roll

pytestmark = pytest.mark.django_db


def status_url(campaign) -> str:
    return reverse("play:status", args=[campaign.code])


def version_of(client: Client, campaign) -> str:
    panel = client.get(status_url(campaign), {"v": "x"}, HTTP_HX_REQUEST="true").text
    return re.search(r"status/\?v=(\d+)", panel).group(1)


def quiet_secret(cast, visibility=Visibility.GM, audience=()):
    return quiet_roll(cast.campaign, cast.gm, visibility=visibility, audience=audience)


def test_a_members_unchanged_poll_is_one_statement_and_writes_nothing(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    session = Session.objects.get()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(status_url(cast.campaign), {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["X-Campaign-Version"] == version
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"
    assert len(queries) == 1 and "django_session" in queries[0]["sql"]
    assert not response.cookies  # no session saved, no CSRF cookie set
    assert Session.objects.get().expire_date == session.expire_date


def test_a_change_players_see_moves_the_version_and_brings_the_panel(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    quiet_secret(cast, visibility=Visibility.EVERYONE)
    response = client.get(status_url(cast.campaign), {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="status-panel"' in response.text
    assert version_of(client, cast.campaign) != version


def test_the_version_a_player_reads_never_counts_what_is_kept_from_them(cast):
    """A GM-only entry and a whisper to another player move nothing a player can read, the
    quick answer's header included; a whisper to them does."""
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    quiet_secret(cast)
    quiet_secret(cast, visibility=Visibility.WHISPER, audience=[other.pk])
    response = client.get(status_url(cast.campaign), {"v": version})
    assert response.status_code == 204 and response["X-Campaign-Version"] == version
    watched = client.get(status_url(cast.campaign), {"watch": "1", "v": ""})
    assert watched.status_code == 204 and watched["X-Campaign-Version"] == version
    quiet_secret(cast, visibility=Visibility.WHISPER, audience=[cast.player.pk])
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 200


def test_a_gm_pages_watch_reads_the_version_in_one_statement(cast):
    client = cast.client("gm")
    cast.campaign.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(status_url(cast.campaign), {"watch": "1", "v": "0"})
    assert response.status_code == 204 and len(queries) == 1
    assert response["X-Campaign-Version"] == str(cast.campaign.state_version)
    quiet_secret(cast)
    assert client.get(status_url(cast.campaign), {"watch": "1", "v": "0"})["X-Campaign-Version"] == str(
        cast.campaign.state_version + 1
    )


@pytest.mark.parametrize(
    "cookie",
    [
        "",
        "sessionid=nonsense",
        "sessionid=" + "x" * 41,
        "sessionid=" + "x" * 4000,
        'sessionid="abc\\000defghij"',  # a quoted cookie's octal escape: a NUL in the key
        "sessionid=" + "é" * 10,
        "sessionid=' OR 1=1 --",
        "sessionid=a; sessionid=b; =; ;;",
    ],
    ids=["none", "unknown", "too long", "huge", "nul byte", "not ascii", "sql", "mangled"],
)
def test_no_session_or_a_bad_cookie_gets_404_as_before(cast, cookie):
    client = Client(HTTP_COOKIE=cookie) if cookie else Client()
    for query in ({"v": "1"}, {"watch": "1"}):
        assert client.get(status_url(cast.campaign), query).status_code == 404
    assert client.get(reverse("campaigns:detail", args=[cast.campaign.code])).status_code == 404


def test_outsiders_and_other_campaigns_get_404(cast):
    outsider = cast.client("outsider")
    assert outsider.get(status_url(cast.campaign), {"v": "0"}).status_code == 404
    elsewhere = CampaignFactory()
    player = cast.client("player")
    cast.campaign.refresh_from_db()
    for v in ("0", str(elsewhere.state_version), str(cast.campaign.state_version)):
        assert player.get(status_url(elsewhere), {"v": v}).status_code == 404
        assert player.get(status_url(elsewhere), {"v": v, "watch": "1"}).status_code == 404


def test_a_removed_member_is_refused_at_their_next_poll(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    Membership.objects.filter(user=cast.player).delete()
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 404


def test_a_deactivated_user_or_a_changed_password_ends_the_quick_answer(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    cast.player.is_active = False
    cast.player.save()
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 404
    cast.player.is_active = True
    cast.player.save()
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    cast.player.set_password("another long password")
    cast.player.save()  # every session signed with the old password ends
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 404


@pytest.mark.parametrize(
    "v", ["", "-1", "1e9", "9" * 400, "0x10", "\x00", "1\x00", "٣"], ids=lambda v: repr(v)[:12]
)
def test_odd_versions_get_the_panel_never_an_error(cast, v):
    response = cast.client("player").get(status_url(cast.campaign), {"v": v}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="status-panel"' in response.text


def test_only_a_plain_get_is_answered_quickly(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    assert client.post(status_url(cast.campaign), {"v": version}).status_code in (403, 405)
    assert client.head(status_url(cast.campaign) + f"?v={version}").status_code == 204
    assert client.get(status_url(cast.campaign) + f"x?v={version}").status_code == 404


def test_a_host_not_allowed_is_refused_as_the_stack_refuses_it(cast):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    assert client.get(status_url(cast.campaign), {"v": version}, HTTP_HOST="evil.example").status_code == 400


def test_a_plain_http_poll_is_sent_to_https_when_the_site_asks_it(cast, settings):
    settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS = True, 3600
    client = cast.client("player")  # a new client: its stack reads the settings
    response = client.get(status_url(cast.campaign), {"v": "1"})
    assert response.status_code == 301 and response["Location"].startswith("https://")
    secure = cast.client("player")
    found = secure.get(status_url(cast.campaign), {"v": "x"}, secure=True, HTTP_HX_REQUEST="true").text
    version = re.search(r"status/\?v=(\d+)", found).group(1)
    with CaptureQueriesContext(connection) as queries:
        response = secure.get(status_url(cast.campaign), {"v": version}, secure=True)
    assert response.status_code == 204 and len(queries) == 1
    assert response["Strict-Transport-Security"].startswith("max-age=3600")


def test_without_prepared_statements_the_answers_are_the_same(cast, settings):
    settings.DATABASE_PREPARED_STATEMENTS = False
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    assert len(queries) == 1
    assert cast.client("outsider").get(status_url(cast.campaign), {"v": version}).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_connection_that_lost_its_prepared_statement_still_answers(cast, monkeypatch, settings):
    """A pooler that gives a connection's prepared statements to another client: the poll
    says so once in the log and answers the usual way from then on. (Every poll asks the
    database here: the door's cache would answer the second without the statement.)"""
    settings.DOOR_CACHE = False
    monkeypatch.setattr(poll, "_lost_prepared", [])
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    connection.connection.pgconn.exec_(b"DEALLOCATE ALL")  # behind psycopg's back, as a pooler would
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    assert poll._lost_prepared
    with CaptureQueriesContext(connection) as queries:
        assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    assert len(queries) == 1


def test_the_user_handed_to_the_stack_is_the_user_as_django_loads_them(cast):
    """After a change the poll and the page go on with the user the statement read, not
    reading session and user again: field for field the user ``auth.get_user`` loads."""
    cast.player.last_login = timezone.now()
    cast.player.first_name = 'Zoë "Quotes" \\ O\'Neil'
    cast.player.save()
    client = cast.client("player")
    request = RequestFactory().get("/", HTTP_COOKIE=f"sessionid={client.cookies['sessionid'].value}")
    row = poll.member(request, str(cast.campaign.code))
    found, stored = poll.user_of(row), get_user_model().objects.get(pk=cast.player.pk)
    for field in get_user_model()._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(stored, field.attname), field.name
    assert found.is_authenticated and not found._state.adding


def test_a_new_secret_key_ends_the_quick_answer_as_it_ends_the_session(cast, settings):
    client = cast.client("player")
    version = version_of(client, cast.campaign)
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    settings.SECRET_KEY = "another-secret-key-" + "k" * 40
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 404


def test_the_statement_reads_the_askers_row_alone_once_the_door_knows_whose_session_it_is(cast):
    for _ in range(3):
        MembershipFactory(campaign=cast.campaign, role="player")
    client = cast.client("player")
    key = client.cookies["sessionid"].value
    version = version_of(client, cast.campaign)
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    with connection.cursor() as cursor:
        cursor.execute(poll.member_sql(), poll.member_params(str(cast.campaign.code), key))
        rows = poll.named(cursor.fetchall())
    assert [row["user_id"] for row in rows] == [cast.player.pk]


def test_a_wrong_user_remembered_for_a_session_costs_a_slower_answer_never_a_wrong_one(cast, monkeypatch):
    client = cast.client("player")
    key = client.cookies["sessionid"].value
    version = version_of(client, cast.campaign)
    monkeypatch.setitem(poll.session_users, key, cast.gm.pk)
    response = client.get(status_url(cast.campaign), {"v": version})
    assert response.status_code == 204 and response["X-Campaign-Version"] == version
    assert poll.session_users.get(key) is None  # forgotten: the next poll reads every member's row
    assert client.get(status_url(cast.campaign), {"v": version}).status_code == 204
    assert poll.session_users[key] == cast.player.pk
    assert cast.client("outsider").get(status_url(cast.campaign), {"v": version}).status_code == 404
