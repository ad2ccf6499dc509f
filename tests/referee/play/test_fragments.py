"""Panels kept per campaign version (``{% fragment %}``): never another role's or another
player's, never older than the campaign, and every visitor's forms carry their own token."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from referee.campaigns.models import Campaign
from referee.fleet.models import Ship
from referee.play import fragments
from referee.play.models import Visibility
from referee.play.selectors import LOG_PAGE_SIZE
from tests.factories import MembershipFactory, ShipFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def page(client: Client, campaign, **headers) -> str:
    response = client.get(reverse("campaigns:detail", args=[campaign.code]), headers=headers)
    assert response.status_code == 200
    return response.text


def status_panel(client: Client, campaign) -> str:
    url = reverse("play:status", args=[campaign.code])
    response = client.get(url, {"v": "0"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.text


def test_a_change_shows_on_the_next_page_not_the_cached_one(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    gm, player = cast.client("gm"), cast.client("player")
    assert "Waterloo" in page(gm, cast.campaign)
    assert "Waterloo" in page(player, cast.campaign)

    ship.name = "Austerlitz"
    ship.save()  # the database moves the campaign's version

    for client in (gm, player):
        text = page(client, cast.campaign)
        assert "Austerlitz" in text and "Waterloo" not in text
    assert "Austerlitz" in status_panel(player, cast.campaign)


def test_a_panel_refreshed_after_a_post_shows_the_change(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo")
    gm = cast.client("gm")
    assert f'id="ship-{ship.code}"' in page(gm, cast.campaign)
    url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
    response = gm.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    row = f'id="ship-{ship.code}"'
    assert row not in response.text  # rendered afresh, not the panel kept before the delete
    assert row not in page(gm, cast.campaign)


def test_a_player_never_gets_the_gms_panels_nor_gm_only_rolls(cast):
    ShipFactory(campaign=cast.campaign, name="Secret frigate", shared=False)
    jumper = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    ruled_jump(cast.campaign, cast.gm, jumper, dice=[3, 4], visibility=Visibility.GM)
    gm, player = cast.client("gm"), cast.client("player")

    gm_page = page(gm, cast.campaign)
    assert "Secret frigate" in gm_page and "GM only" in gm_page
    gm_status = status_panel(gm, cast.campaign)  # a GM polling the players' panel: GM-only rolls show

    player_page, player_status = page(player, cast.campaign), status_panel(player, cast.campaign)
    for text in (player_page, player_status):
        assert "Secret frigate" not in text
        assert "GM only" not in text
        assert "Delete" not in text
    assert player_status != gm_status


def test_one_players_panel_is_never_served_to_another(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    campaign = Campaign.objects.get(pk=cast.campaign.pk)
    keys = {
        fragments.key_for({"request": _request(user), "campaign": campaign, "role": role}, "status-panel")
        for user, role in ((cast.player, "player"), (other, "player"), (cast.gm, "gm"))
    }
    assert len(keys) == 3
    assert all(f":{campaign.state_version}:" in key for key in keys)


def _request(user):
    return type("Request", (), {"method": "GET", "user": user, "htmx": True})()


def test_the_key_names_the_version_role_and_user_and_a_post_is_never_cached(cast):
    campaign = Campaign.objects.get(pk=cast.campaign.pk)
    key = fragments.key_for({"request": _request(cast.player), "campaign": campaign, "role": "player"}, "p")
    moved = Campaign.objects.get(pk=campaign.pk)
    moved.state_version += 1
    assert key != fragments.key_for(
        {"request": _request(cast.player), "campaign": moved, "role": "player"}, "p"
    )
    assert key != fragments.key_for(
        {"request": _request(cast.player), "campaign": campaign, "role": "gm"}, "p"
    )
    post = type("Request", (), {"method": "POST", "user": cast.player, "htmx": True})()
    assert fragments.key_for({"request": post, "campaign": campaign, "role": "player"}, "p") is None
    assert fragments.key_for({"campaign": campaign, "role": "player"}, "p") is None  # no visitor: no cache


def test_each_visitor_posts_with_their_own_csrf_token_from_a_cached_panel(cast):
    ShipFactory(campaign=cast.campaign, name="Waterloo")
    ShipFactory(campaign=cast.campaign, name="Trafalgar")
    first = Client(enforce_csrf_checks=True)
    second = Client(enforce_csrf_checks=True)
    first.force_login(cast.gm)
    second.force_login(cast.gm)  # the same GM in another browser: another CSRF secret

    first_tokens = set(TOKEN.findall(page(first, cast.campaign)))
    text = page(second, cast.campaign)  # the ships panel now comes from the cache
    tokens = set(TOKEN.findall(text))
    assert tokens and not tokens & first_tokens
    assert "\x00" not in text

    ship = Ship.objects.get(name="Waterloo")
    url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
    delete_form = re.search(re.escape(url) + r'".*?' + TOKEN.pattern, text, re.S)
    assert delete_form, "the ship's delete form carries a token"
    response = second.post(url, {"csrfmiddlewaretoken": delete_form.group(1)})
    assert response.status_code in (200, 302)
    assert not Ship.objects.filter(pk=ship.pk).exists()


def log_page(client: Client, campaign, **params) -> str:
    response = client.get(reverse("play:log", args=[campaign.code]), params)
    assert response.status_code == 200
    return response.text


def test_the_log_page_kept_shows_the_next_roll_and_each_page_its_own_entries(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    for _ in range(LOG_PAGE_SIZE + 1):
        ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    gm = cast.client("gm")
    first, second = log_page(gm, cast.campaign), log_page(gm, cast.campaign, page="2")
    assert 'id="entry-1"' in second and 'id="entry-1"' not in first
    # Served again while nothing changed: the same page, but for this request's CSRF token.
    assert log_page(gm, cast.campaign).split('id="log-panel"')[1] == first.split('id="log-panel"')[1]

    ruled_jump(cast.campaign, cast.gm, ship, dice=[5, 6])
    newest = f'id="entry-{LOG_PAGE_SIZE + 2}"'
    assert newest in log_page(gm, cast.campaign) and newest not in first
    # A page far past the kept ones, and one past the end, are still the log's.
    assert 'id="entry-1"' in log_page(gm, cast.campaign, page="999999999")
    assert "Nothing has been rolled" not in log_page(gm, cast.campaign, page="21")


def test_a_player_never_gets_the_gms_kept_log_page(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=Visibility.GM)
    gm, player = cast.client("gm"), cast.client("player")
    assert "GM only" in log_page(gm, cast.campaign)
    assert "GM only" in log_page(gm, cast.campaign, embedded="1")
    for params in ({}, {"embedded": "1"}, {"page": "1"}):
        text = log_page(player, cast.campaign, **params)
        assert "GM only" not in text and 'data-testid="undo"' not in text
        assert "Nothing has been rolled yet" in text


def test_the_log_page_served_again_reads_nothing_of_the_log(cast, django_assert_max_num_queries):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    for _ in range(3):
        ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    gm = cast.client("gm")
    log_page(gm, cast.campaign)
    with django_assert_max_num_queries(4):  # session, user, membership with its campaign
        text = log_page(gm, cast.campaign)
    assert 'id="entry-3"' in text


def entry_page(client: Client, campaign, seq: int, **headers) -> str:
    response = client.get(reverse("play:entry", args=[campaign.code, seq]), headers=headers)
    assert response.status_code == 200
    return response.text


def test_an_entry_kept_shows_its_undo_and_a_player_never_gets_the_gms_card(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True, drive_charged=True)
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    gm, player = cast.client("gm"), cast.client("player")
    assert 'data-testid="undo"' in entry_page(gm, cast.campaign, entry.seq)
    assert 'data-testid="undo"' in entry_page(gm, cast.campaign, entry.seq, **{"HX-Request": "true"})
    for headers in ({}, {"HX-Request": "true"}):
        assert 'data-testid="undo"' not in entry_page(player, cast.campaign, entry.seq, **headers)

    response = gm.post(reverse("play:undo", args=[cast.campaign.code, entry.seq]))
    assert response.status_code in (200, 302)
    for client in (gm, player):
        text = entry_page(client, cast.campaign, entry.seq)
        assert "undone by #2" in text and 'data-testid="undo"' not in text


def test_the_cache_folder_stays_bounded_and_is_listed_only_now_and_then(tmp_path, monkeypatch):
    cache = fragments.FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 50}, "TIMEOUT": 3600})
    listings = []
    listed = cache._list_cache_files
    monkeypatch.setattr(cache, "_list_cache_files", lambda: listings.append(1) or listed())
    for n in range(1000):
        cache.set(f"fragment-{n}", f"<p>{n}</p>")
        assert len(list(tmp_path.glob("*.djcache"))) <= 50 + fragments.FileCache.CULL_EVERY
    assert len(listings) == 1000 // fragments.FileCache.CULL_EVERY
    assert cache.get("fragment-999") == "<p>999</p>"  # the newest is kept
