"""The maps' live refresh: "nothing changed" costs the status poll's one statement, and the
version a player reads on a map never tells of an entry kept from them."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.campaigns.models import Membership
from referee.play.models import Visibility
from tests.factories import MembershipFactory, ShipFactory, StarSystemFactory
from tests.referee.history import quiet_roll
from tests.referee.terrain.factories import BattlefieldFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def maps(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Galax")
    ShipFactory(campaign=cast.campaign, name="Waterloo", star_system=system, x_au=0, y_au=1.5, shared=True)
    shared = BattlefieldFactory(campaign=cast.campaign, name="Ridge", shared=True)
    hidden = BattlefieldFactory(campaign=cast.campaign, name="Kept", shared=False)
    return {"system": system, "field": shared, "hidden": hidden}


def page_and_panel(cast, who, kind, record):
    page = reverse(f"maps:{kind}", args=[cast.campaign.code, record.code])
    return page, reverse(f"maps:{kind}-panel", args=[cast.campaign.code, record.code])


def version_on(client, page) -> str:
    return re.search(r"panel/\?v=(\d+)", client.get(page).text).group(1)


def quiet(cast, visibility, audience=()):
    return quiet_roll(cast.campaign, cast.gm, visibility=visibility, audience=audience)


@pytest.mark.parametrize("kind, name", [("system", "system"), ("battlefield", "field")])
def test_nothing_changed_is_one_statement(cast, maps, kind, name):
    for who in ("player", "gm"):
        client = cast.client(who)
        page, panel = page_and_panel(cast, who, kind, maps[name])
        version = version_on(client, page)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(panel, {"v": version}, HTTP_HX_REQUEST="true")
        assert response.status_code == 204 and len(queries) == 1, who
        assert "django_session" in queries[0]["sql"]


@pytest.mark.parametrize("kind, name", [("system", "system"), ("battlefield", "field")])
def test_a_players_map_version_never_moves_for_what_is_kept_from_them(cast, maps, kind, name):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    client = cast.client("player")
    page, panel = page_and_panel(cast, "player", kind, maps[name])
    version = version_on(client, page)
    status = client.get(reverse("play:status", args=[cast.campaign.code]), {"v": version})
    assert status.status_code == 204  # the map and the status panel read the same version
    quiet(cast, Visibility.GM)
    quiet(cast, Visibility.WHISPER, audience=[other.pk])
    assert client.get(panel, {"v": version}).status_code == 204
    assert version_on(client, page) == version
    quiet(cast, Visibility.WHISPER, audience=[cast.player.pk])
    assert client.get(panel, {"v": version}).status_code == 200
    assert version_on(client, page) == str(int(version) + 1)


def test_a_map_kept_from_a_player_answers_as_one_that_does_not_exist(cast, maps):
    client = cast.client("player")
    version = version_on(client, page_and_panel(cast, "player", "battlefield", maps["field"])[0])
    kept = page_and_panel(cast, "player", "battlefield", maps["hidden"])[1]
    nowhere = kept.replace(str(maps["hidden"].code), "00000000-0000-4000-8000-000000000000")
    for v in (version, "0", "x"):
        answers = {client.get(url, {"v": v}).status_code for url in (kept, nowhere)}
        assert len(answers) == 1 and answers <= {204, 404}, v
    assert client.get(kept, {"v": "0"}).status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_outsiders_get_404(cast, maps, who):
    version = version_on(cast.client("player"), page_and_panel(cast, "player", "system", maps["system"])[0])
    for kind, name in (("system", "system"), ("battlefield", "field")):
        panel = page_and_panel(cast, who, kind, maps[name])[1]
        assert cast.client(who).get(panel, {"v": version}).status_code == 404


def test_a_removed_member_gets_404_at_the_next_refresh(cast, maps):
    client = cast.client("player")
    page, panel = page_and_panel(cast, "player", "system", maps["system"])
    version = version_on(client, page)
    assert client.get(panel, {"v": version}).status_code == 204
    Membership.objects.filter(user=cast.player).delete()
    assert client.get(panel, {"v": version}).status_code == 404


def test_odd_values_are_refused_or_drawn_never_an_error(cast, maps):
    client = cast.client("gm")
    page, panel = page_and_panel(cast, "gm", "system", maps["system"])
    version = version_on(client, page)
    assert client.get(panel, {"v": version, "mode": "nope"}).status_code == 400
    assert client.get(panel, {"v": version, "from": "x" * 500}).status_code == 400
    assert client.get(panel, {"v": version, "at": "1"}).status_code in (200, 400)
    assert client.get(panel, {"v": version, "at": "9" * 50}).status_code == 400
    for v in ("-1", "9" * 300, "\x00", ""):
        assert client.get(panel, {"v": v}).status_code == 200
