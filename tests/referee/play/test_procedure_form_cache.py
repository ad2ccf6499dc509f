"""The GM's procedure form is kept whole for the campaign's version, the GM and the query
string: shown again, it must still be the campaign's state, the GM's alone, and carry the
visitor's own CSRF token and a request key of its own."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from referee.play.models import LogEntry
from tests.factories import MembershipFactory, ShipFactory
from tests.referee.conftest import htmx
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
KEY = re.compile(r'name="request_key" value="([0-9a-f-]{36})"')


def jump_url(campaign) -> str:
    return reverse("play:procedure", args=[campaign.code, "jump.malfunction"])


def form_page(client: Client, campaign, ship, **params) -> str:
    response = client.get(jump_url(campaign), {"ship": str(ship.code), **params})
    assert response.status_code == 200
    return response.text


def field_value(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert found, name
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def gm_client(user, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def roll(client: Client, campaign, ship, page: str):
    data = {
        "ship": str(ship.code),
        "kf_integrity": field_value(page, "kf_integrity"),
        "kf_integrity_max": field_value(page, "kf_integrity_max"),
        "visibility": "everyone",
        "gm_ruling": "on",
        "action": "roll",
        "request_key": KEY.search(page).group(1),
        "csrfmiddlewaretoken": TOKEN.search(page).group(1),
    }
    return client.post(jump_url(campaign), data, **htmx())


@pytest.fixture
def waterloo(cast):
    return ShipFactory(
        campaign=cast.campaign,
        name="Waterloo",
        kind="jumpship",
        kf_integrity=9,
        kf_integrity_max=10,
        shared=True,
    )


def test_the_page_shown_again_is_the_same_form_with_its_own_key(cast, waterloo):
    gm = cast.client("gm")
    first, again = form_page(gm, cast.campaign, waterloo), form_page(gm, cast.campaign, waterloo)
    assert KEY.search(first).group(1) != KEY.search(again).group(1)
    tokens = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"')
    assert tokens.sub("", KEY.sub("", first)) == tokens.sub("", KEY.sub("", again))
    assert "\x00" not in again  # no placeholder left for a key or a token


def test_a_change_to_a_record_shows_in_the_next_form(cast, waterloo):
    gm = cast.client("gm")
    assert field_value(form_page(gm, cast.campaign, waterloo), "kf_integrity") == "9"
    waterloo.kf_integrity = 4
    waterloo.name = "Austerlitz"
    waterloo.save()
    page = form_page(gm, cast.campaign, waterloo)
    assert field_value(page, "kf_integrity") == "4"
    assert "Austerlitz" in page and "Waterloo" not in page


def test_another_ship_in_the_query_string_gets_its_own_form(cast, waterloo):
    other = ShipFactory(campaign=cast.campaign, name="Trafalgar", kind="jumpship", kf_integrity=2)
    gm = cast.client("gm")
    assert field_value(form_page(gm, cast.campaign, waterloo), "kf_integrity") == "9"
    assert field_value(form_page(gm, cast.campaign, other), "kf_integrity") == "2"
    assert field_value(form_page(gm, cast.campaign, waterloo), "kf_integrity") == "9"


def test_a_roll_shows_in_the_next_form(cast, waterloo):
    waterloo.drive_charged = True
    waterloo.save()
    gm = cast.client("gm")
    page = form_page(gm, cast.campaign, waterloo)
    assert 'data-testid="preconditions"' not in page  # charged: the jump may go ahead
    assert roll(gm, cast.campaign, waterloo, page).status_code == 200
    page = form_page(gm, cast.campaign, waterloo)
    assert 'data-testid="preconditions"' in page  # the jump spent the charge
    assert "charged" in page


def test_a_player_never_gets_the_gms_kept_form(cast, waterloo):
    ShipFactory(campaign=cast.campaign, name="Secret frigate", kind="jumpship", shared=False)
    gm_page = form_page(cast.client("gm"), cast.campaign, waterloo)
    assert "Secret frigate" in gm_page
    for who in ("player", "outsider", "anonymous"):
        response = cast.client(who).get(jump_url(cast.campaign), {"ship": str(waterloo.code)})
        assert response.status_code in (302, 403, 404), who
        assert "Secret frigate" not in response.text and "request_key" not in response.text, who


def test_two_gms_each_post_with_their_own_token_and_roll_their_own_rolls(cast, waterloo):
    second_gm = MembershipFactory(campaign=cast.campaign, role="gm").user
    first, second = gm_client(cast.gm, enforce_csrf=True), gm_client(second_gm, enforce_csrf=True)
    first_page = form_page(first, cast.campaign, waterloo)
    second_page = form_page(second, cast.campaign, waterloo)
    again = form_page(second, cast.campaign, waterloo)  # kept for the second GM now
    assert TOKEN.search(second_page).group(1) != TOKEN.search(first_page).group(1)
    assert len({KEY.search(page).group(1) for page in (first_page, second_page, again)}) == 3

    assert roll(first, cast.campaign, waterloo, first_page).status_code == 200
    assert roll(second, cast.campaign, waterloo, again).status_code == 200
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 2
    # The first GM's kept page answers with the first GM's token, not the second's.
    third_page = form_page(first, cast.campaign, waterloo)
    assert roll(first, cast.campaign, waterloo, third_page).status_code == 200
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 3


@pytest.mark.parametrize("which", ["another campaign's ship", "a ship that cannot jump", "no code at all"])
def test_a_roll_for_a_ship_the_campaign_does_not_hold_for_the_role_is_refused_plainly(cast, waterloo, which):
    gm = cast.client("gm")
    page = form_page(gm, cast.campaign, waterloo)
    stranger = {
        "another campaign's ship": lambda: ShipFactory(kind="jumpship").code,
        "a ship that cannot jump": lambda: ShipFactory(campaign=cast.campaign, kind="dropship").code,
        "no code at all": lambda: "not-a-code",
    }[which]()
    data = {
        "ship": str(stranger),
        "kf_integrity": "9",
        "kf_integrity_max": "10",
        "visibility": "everyone",
        "gm_ruling": "on",
        "action": "roll",
        "request_key": KEY.search(page).group(1),
    }
    response = gm.post(jump_url(cast.campaign), data, **htmx())
    assert response.status_code == 422
    text = re.sub(r"\s+", " ", response.text)
    said = "Select a valid choice" if which == "no code at all" else "No such jumping ship in this campaign"
    assert said in text
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


def test_a_record_added_or_renamed_shows_in_the_next_forms_choices(cast, waterloo):
    other = ShipFactory(campaign=cast.campaign, name="Trafalgar", kind="jumpship")
    gm = cast.client("gm")
    assert "Trafalgar" in form_page(gm, cast.campaign, waterloo)  # the choices are kept now
    ShipFactory(campaign=cast.campaign, name="Jutland", kind="jumpship")
    other.name = "Copenhagen"
    other.save()
    for ship in (waterloo, other):  # a page kept before, and one not shown yet
        page = form_page(gm, cast.campaign, ship)
        assert "Jutland" in page and "Copenhagen" in page and "Trafalgar" not in page
    assert re.search(rf'<option value="{other.code}" selected>Copenhagen</option>', page)


def test_the_odds_follow_the_inputs_and_the_same_inputs_give_the_same_odds(cast, waterloo):
    gm = cast.client("gm")
    url = reverse("play:odds", args=[cast.campaign.code, "jump.malfunction"])

    def odds(integrity: int) -> str:
        data = {"kf_integrity": integrity, "kf_integrity_max": 10, "odds_key": "jump_proceeds"}
        response = gm.post(url, data, **htmx())
        assert response.status_code == 200
        return re.sub(r"\s+", " ", response.text)

    whole, again, worn = odds(10), odds(10), odds(1)
    assert whole == again
    assert worn != whole
    assert odds(10) == whole


def test_a_kept_form_is_served_in_one_statement_with_its_own_token_and_key(cast, waterloo):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    gm = gm_client(cast.gm, enforce_csrf=True)
    first = form_page(gm, cast.campaign, waterloo)  # rendered and kept
    with CaptureQueriesContext(connection) as queries:
        again = form_page(gm, cast.campaign, waterloo)
    assert len(queries) == 1
    assert KEY.search(again).group(1) != KEY.search(first).group(1)
    assert "\x00" not in again
    assert roll(gm, cast.campaign, waterloo, again).status_code == 200  # its token and key hold


def test_a_message_waiting_is_shown_on_the_form_not_swallowed_by_the_kept_one(cast, waterloo):
    jump = ruled_jump(cast.campaign, cast.gm, waterloo, dice=[3, 4])
    gm = cast.client("gm")
    form_page(gm, cast.campaign, waterloo)  # kept
    undo = reverse("play:undo", args=[cast.campaign.code, jump.seq])
    gm.post(undo)
    form_page(gm, cast.campaign, waterloo)  # kept again, at the version the undo left
    assert gm.post(undo).status_code == 302  # a plain post refused: the reason waits as a message
    page = re.sub(r"\s+", " ", form_page(gm, cast.campaign, waterloo))
    assert "was already undone" in page
    assert "was already undone" not in form_page(gm, cast.campaign, waterloo)  # shown once
