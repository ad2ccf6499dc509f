"""A player's page kept whole while the campaign has not changed: served again in one
statement, to that player only, with the visitor's own CSRF token; anything it cannot vouch
for is rendered as before."""

import re

import pytest
from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.campaigns.models import Campaign, Membership
from referee.play import fragments, players, services
from referee.play.models import Visibility
from tests.factories import MembershipFactory, ShipFactory

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


def page_url(cast) -> str:
    return reverse("campaigns:detail", args=[cast.campaign.code])


def kept_twice(client, url, **extra):
    """The page rendered (and kept), then served again: (first, second, queries of the second)."""
    first = client.get(url, **extra)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url, **extra)
    return first, second, queries


def mark_kept(cast, who: str, name: str) -> str:
    """Replace the kept page ``name`` of ``who`` with a marker, and return it: a page that
    shows the marker was served kept; one that does not was rendered afresh."""
    user = getattr(cast, who)
    campaign = Campaign.objects.get(pk=cast.campaign.pk)
    key = fragments.key(campaign, "gm" if who == "gm" else "player", user, "page", name)
    assert fragments.get(key) is not None, "the page was not kept"
    marker = f"kept page {name} of {user.username}"
    fragments.put(key, marker)
    return marker


def without_tokens(html: str) -> str:
    return re.sub(r'(X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)


def test_the_page_is_served_again_in_one_statement_as_it_was_rendered(cast):
    ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True, owner=cast.player)
    first, second, queries = kept_twice(cast.client("player"), page_url(cast))
    assert first.status_code == second.status_code == 200
    assert len(queries) == 1 and "django_session" in queries[0]["sql"]
    assert "Waterloo" in second.text and without_tokens(second.text) == without_tokens(first.text)
    assert "\x00" not in second.text
    assert second["Content-Type"] == first["Content-Type"] and "Cookie" in second["Vary"]
    assert second["X-Frame-Options"] == "DENY"
    assert int(second["Content-Length"]) == len(second.content)


def test_each_visitor_posts_with_their_own_token_from_the_kept_page(cast):
    first = Client(enforce_csrf_checks=True)
    first.force_login(cast.player)
    first.get(page_url(cast))  # kept
    second = Client(enforce_csrf_checks=True)
    second.force_login(cast.player)  # the same player in another browser, without a CSRF cookie yet
    page = second.get(page_url(cast))
    assert "csrftoken" in page.cookies  # set as the stack sets it
    token = TOKEN.search(page.text).group(1)
    assert token not in first.get(page_url(cast)).text
    note = reverse("play:note", args=[cast.campaign.code])
    assert second.post(note, {"text": "Hello", "to": "everyone"}, HTTP_X_CSRFTOKEN=token).status_code in (
        200,
        302,
    )
    assert (
        second.post(note, {"text": "Hello", "to": "everyone"}, HTTP_X_CSRFTOKEN="x" * 64).status_code == 403
    )


def test_a_change_is_on_the_next_page(cast):
    client = cast.client("player")
    client.get(page_url(cast))
    ShipFactory(campaign=cast.campaign, name="Newcomer", shared=True)
    assert "Newcomer" in client.get(page_url(cast)).text


def test_one_players_page_is_never_served_to_another(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    players.note_post(
        campaign=cast.campaign, actor=cast.gm, role="gm", text="For your eyes only", audience=[cast.player.pk]
    )
    mine = cast.client("player")
    assert "For your eyes only" in mine.get(page_url(cast)).text
    theirs = Client()
    theirs.force_login(other)
    for _ in range(2):
        page = theirs.get(page_url(cast)).text
        assert "For your eyes only" not in page and other.username in page


def test_a_gm_only_entry_never_reaches_the_kept_page(cast):
    client = cast.client("player")
    client.get(page_url(cast))
    services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.basic_constants",
        inputs={},
        dice=[],
        actor=cast.gm,
        visibility=Visibility.GM,
    )
    for _ in range(2):
        assert "constants" not in client.get(page_url(cast)).text.lower()


def test_the_gm_gets_the_dashboard_not_a_players_kept_page(cast):
    cast.client("player").get(page_url(cast))
    page = cast.client("gm").get(page_url(cast)).text
    assert "data-campaign-watch" in page and 'id="notice-controls"' not in page


def test_the_gms_dashboard_is_served_again_in_one_statement_and_never_to_a_player(cast):
    ShipFactory(campaign=cast.campaign, name="Secret frigate", shared=False)
    gm = cast.client("gm")
    first, second, queries = kept_twice(gm, page_url(cast))
    assert first.status_code == second.status_code == 200
    assert len(queries) == 1 and "django_session" in queries[0]["sql"]
    assert "Secret frigate" in second.text and "data-campaign-watch" in second.text
    assert without_tokens(second.text) == without_tokens(first.text)
    assert second["X-Frame-Options"] == "DENY" and "Cookie" in second["Vary"]
    # The GM's page, kept, is never what a player gets; another GM gets their own.
    assert "Secret frigate" not in cast.client("player").get(page_url(cast)).text
    other_gm = MembershipFactory(campaign=cast.campaign, role="gm").user
    client = Client()
    client.force_login(other_gm)
    assert "Secret frigate" in client.get(page_url(cast)).text


def test_a_change_shows_on_the_gms_next_dashboard(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo")
    gm = cast.client("gm")
    kept_twice(gm, page_url(cast))
    ship.name = "Austerlitz"
    ship.save()
    text = gm.get(page_url(cast)).text
    assert "Austerlitz" in text and "Waterloo" not in text


def test_the_gm_posts_from_the_kept_dashboard_with_their_own_token(cast):
    gm = Client(enforce_csrf_checks=True)
    gm.force_login(cast.gm)
    gm.get(page_url(cast))  # kept
    other = Client(enforce_csrf_checks=True)
    other.force_login(cast.gm)  # the GM in another browser, without a CSRF cookie yet
    page = other.get(page_url(cast))
    token = TOKEN.search(page.text).group(1)
    response = other.post(
        reverse("play:clock", args=[cast.campaign.code]),
        {"amount": "1", "unit": "hours"},
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code in (200, 302)
    refused = other.post(reverse("play:clock", args=[cast.campaign.code]), {"amount": "1", "unit": "hours"})
    assert refused.status_code == 403


@pytest.mark.parametrize("query", ["?page=2", "?show=all", "?x=1"])
def test_a_gms_dashboard_with_any_query_is_rendered_not_served_kept(cast, query):
    gm = cast.client("gm")
    gm.get(page_url(cast))
    marker = mark_kept(cast, "gm", "dashboard")
    assert gm.get(page_url(cast)).text == marker
    response = gm.get(page_url(cast) + query)
    assert response.status_code == 200 and marker not in response.text


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_outsiders_get_404(cast, who):
    cast.client("player").get(page_url(cast))
    assert cast.client(who).get(page_url(cast)).status_code == 404


def test_a_removed_or_deactivated_player_gets_404_though_the_page_is_kept(cast):
    client = cast.client("player")
    client.get(page_url(cast))
    cast.player.is_active = False
    cast.player.save()
    assert client.get(page_url(cast)).status_code == 404
    cast.player.is_active = True
    cast.player.save()
    client.force_login(cast.player)
    assert client.get(page_url(cast)).status_code == 200
    Membership.objects.filter(user=cast.player).delete()
    assert client.get(page_url(cast)).status_code == 404


def test_a_waiting_message_is_shown_not_a_kept_page(cast):
    """Messages wait in a cookie (and, past its size, in the session, which the cookie then
    points to): either way the page is rendered afresh and shows them once."""
    client = cast.client("player")
    client.get(page_url(cast))
    cookie = CookieStorage(RequestFactory().get("/"))
    marker = mark_kept(cast, "player", "first")
    client.cookies["messages"] = cookie._encode([Message(messages.INFO, "You joined the table.")])
    shown = client.get(page_url(cast)).text
    assert "You joined the table." in shown and marker not in shown
    assert client.get(page_url(cast)).text == marker  # shown once; then the kept page again


def test_show_all_is_kept_apart_and_odd_queries_are_rendered_afresh(cast):
    ShipFactory.create_batch(30, campaign=cast.campaign, shared=True)
    client = cast.client("player")
    _, again, queries = kept_twice(client, page_url(cast) + "?show=all")
    assert len(queries) == 1 and again.text.count("ship-status") == 30
    assert client.get(page_url(cast)).text.count("ship-status") == 24
    marker = mark_kept(cast, "player", "all")
    assert client.get(page_url(cast) + "?show=all").text == marker
    for query in ("?show=all&x=1", "?show=ALL", "?show=" + "a" * 3000, "?%00=%00"):
        response = client.get(page_url(cast) + query)
        assert response.status_code == 200 and marker not in response.text, query
    client.get(page_url(cast))
    marker = mark_kept(cast, "player", "first")
    response = client.get(page_url(cast), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and marker not in response.text


def test_a_host_not_allowed_is_refused(cast):
    client = cast.client("player")
    client.get(page_url(cast))
    assert client.get(page_url(cast), HTTP_HOST="evil.example").status_code == 400
