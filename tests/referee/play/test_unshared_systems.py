"""Star systems the GM has not shared stay unnamed to players: a jump's entry says "a system
not shared with you" where it would name one, and a player's procedure form lists only the
systems shared with them."""

import pytest
from django.urls import reverse

from referee.play import players
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.history import ruled_jump
from tests.referee.play.test_players import export

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden Haven"
SHARED = "Open Port"


@pytest.fixture
def systems(cast):
    here = StarSystemFactory(campaign=cast.campaign, name=SHARED, shared=True)
    hidden = StarSystemFactory(campaign=cast.campaign, name=HIDDEN, shared=False)
    ship = ShipFactory(
        campaign=cast.campaign,
        name="Wanderer",
        kind="jumpship",
        star_system=here,
        shared=True,
        owner=cast.player,
        drive_charged=True,
        kf_integrity=9,
        kf_integrity_max=9,
    )
    return here, hidden, ship


def _player_reads(cast) -> dict[str, str]:
    client = cast.client("player")
    code = cast.campaign.code
    read = {
        "log": client.get(reverse("play:log", args=[code])).text,
        "players' page": client.get(reverse("campaigns:detail", args=[code])).text,
        "entry": client.get(reverse("play:entry", args=[code, 1])).text,
        "diary": client.get(reverse("diary:evening", args=[code])).text,
        "status": client.get(reverse("play:status", args=[code]), {"v": "0"}).text,
    }
    for fmt in ("csv", "json", "md"):
        read[fmt] = export(client, cast.campaign, fmt)
    return read


def test_a_jump_from_an_unshared_system_names_it_to_no_player(cast, systems):
    here, hidden, ship = systems
    ship.star_system = hidden  # a shared ship, in a system the GM keeps to themselves
    ship.save()
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=[6, 6, 4, 5], extras={"destination": here})
    assert entry.visibility == "everyone"  # the ship and where it goes are shared
    read = _player_reads(cast)
    for name, text in read.items():
        assert HIDDEN not in text, name
        assert "a record not shared with players" not in text, name
    for name in ("log", "entry", "csv", "md"):
        assert "a system not shared with you" in read[name], name
    gm_entry = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).text
    assert HIDDEN in gm_entry


def test_a_players_procedure_form_lists_only_shared_systems(cast, systems):
    _here, _hidden, ship = systems
    third = StarSystemFactory(campaign=cast.campaign, name="Far Shore", shared=True)
    ship.star_system = third
    ship.save()
    client = cast.client("player")
    seen = 0
    for binding in players.player_bindings():
        if not any(e.name == "destination" for e in binding.extras):
            continue
        url = reverse("play:player-roll", args=[cast.campaign.code, binding.procedure_id])
        # The GM's form, read first, keeps its choices for the campaign's version.
        cast.client("gm").get(
            reverse("play:procedure", args=[cast.campaign.code, binding.procedure_id]), {"ship": ship.code}
        )
        page = client.get(url, {"ship": ship.code})
        assert page.status_code == 200
        assert SHARED in page.text and HIDDEN not in page.text, binding.procedure_id
        seen += 1
    assert seen
