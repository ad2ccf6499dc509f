"""Nothing answers before the stack: a middleware appended to ``MIDDLEWARE`` is on every
kept page, the status poll and a rendered page, for the GM and a player alike; and a
player's version moves only with what they can see."""

import pytest
from django.urls import reverse

from referee.play.models import Visibility
from tests.factories import ShipFactory
from tests.referee.fleet.test_views import form_data
from tests.referee.history import quiet_roll

pytestmark = pytest.mark.django_db

STAMP = "X-Stamped-By-The-Stack"


class Stamp:
    """A middleware below all the project's, setting a header (as a CSP middleware would)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response[STAMP] = "yes"
        return response


@pytest.fixture
def stamped(settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.Stamp"]


def _urls(cast, who: str) -> dict[str, str]:
    code = cast.campaign.code
    urls = {
        "page": reverse("campaigns:detail", args=[code]),
        "log": reverse("play:log", args=[code]),
        "poll": reverse("play:status", args=[code]) + "?watch=1",
    }
    if who == "gm":
        urls["procedure"] = reverse("play:procedure", args=[code, "jump.basic_constants"])
    else:
        urls["show all"] = reverse("campaigns:detail", args=[code]) + "?show=all"
    return urls


@pytest.mark.parametrize("who", ["gm", "player"])
def test_every_kind_of_answer_passes_a_middleware_added_below_the_rest(cast, stamped, who):
    client = cast.client(who)
    for name, url in _urls(cast, who).items():
        first, again = client.get(url), client.get(url)  # rendered (and kept), then served kept
        assert first.status_code in (200, 204) and again.status_code == first.status_code, name
        assert first[STAMP] == again[STAMP] == "yes", name
    version = client.get(reverse("play:status", args=[cast.campaign.code]) + "?watch=1")["X-Campaign-Version"]
    unchanged = client.get(reverse("play:status", args=[cast.campaign.code]), {"v": version})
    assert unchanged.status_code == 204 and unchanged[STAMP] == "yes"


@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_reload_of_a_kept_page_is_a_304_through_the_stack(cast, stamped, who):
    client = cast.client(who)
    url = reverse("campaigns:detail", args=[cast.campaign.code])
    client.get(url)
    kept = client.get(url)
    assert kept.has_header("ETag") and "private" in kept["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=kept["ETag"])
    # Django's ConditionalGetMiddleware answers 304 with the caching headers of the page it
    # stands for; the middlewares above it (security) add theirs.
    assert again.status_code == 304 and again["X-Content-Type-Options"] == "nosniff"
    assert again["ETag"] == kept["ETag"] and not again.content
    quiet_roll(cast.campaign, cast.gm, visibility=Visibility.EVERYONE)
    assert client.get(url, HTTP_IF_NONE_MATCH=kept["ETag"]).status_code == 200  # the page changed


def test_a_kept_procedure_page_is_never_a_304_its_request_key_is_new_each_time(cast):
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.basic_constants"])
    client.get(url)
    kept = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=kept.get("ETag", '"none"')).status_code == 200


def ship_form(*, shared: bool, **fields) -> dict:
    """A whole ship form, shared with players or not."""
    data = {**form_data("ships", kf_integrity=2, **fields)}
    data.pop("shared", None)
    return {**data, "shared": "True"} if shared else data


def _player_version(client, cast) -> str:
    response = client.get(reverse("play:status", args=[cast.campaign.code]), {"watch": "1"})
    assert response.status_code == 204
    return response["X-Campaign-Version"]


def test_a_gm_edit_of_an_unshared_record_moves_nothing_a_player_polls(cast):
    hidden = ShipFactory(campaign=cast.campaign, name="Hidden", shared=False)
    shown = ShipFactory(campaign=cast.campaign, name="Shown", shared=True)
    player, gm = cast.client("player"), cast.client("gm")
    before = _player_version(player, cast)
    edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", hidden.code])
    assert gm.post(edit, ship_form(name="Hidden II", shared=False)).status_code == 302
    quiet_roll(cast.campaign, cast.gm, visibility=Visibility.GM)  # a GM-only roll besides
    poll = player.get(reverse("play:status", args=[cast.campaign.code]), {"v": before})
    assert poll.status_code == 204 and poll["X-Campaign-Version"] == before
    gm_version = gm.get(reverse("play:status", args=[cast.campaign.code]), {"watch": "1"})[
        "X-Campaign-Version"
    ]
    assert int(gm_version) > int(before)  # the GM's own pages moved on
    edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", shown.code])
    assert gm.post(edit, ship_form(name="Shown II", shared=True)).status_code == 302
    moved = player.get(reverse("play:status", args=[cast.campaign.code]), {"v": before})
    assert moved.status_code == 200 and "Shown II" in moved.text
    assert moved["X-Campaign-Version"] != before


def test_sharing_or_unsharing_a_record_moves_the_players_version(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Coy", shared=False)
    player, gm = cast.client("player"), cast.client("gm")
    edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
    before = _player_version(player, cast)
    assert gm.post(edit, ship_form(name="Coy", shared=True)).status_code == 302
    shared = _player_version(player, cast)
    assert shared != before
    assert gm.post(edit, ship_form(name="Coy", shared=False)).status_code == 302
    assert _player_version(player, cast) != shared


def test_a_players_reload_stays_a_304_when_the_gm_changes_only_what_they_cannot_see(cast, stamped):
    """The ETag names what the page says: a GM-only roll moves the campaign's version, and a
    player's reload must not learn of it."""
    client = cast.client("player")
    url = reverse("campaigns:detail", args=[cast.campaign.code])
    client.get(url)
    kept = client.get(url)
    quiet_roll(cast.campaign, cast.gm, visibility=Visibility.GM)
    assert client.get(url, HTTP_IF_NONE_MATCH=kept["ETag"]).status_code == 304
