"""The GM's Accept or Reject of a player's roll, as each reader reads it: a GM-only ruling of
a blind roll is no ruling to the player, whose roll still waits for the GM wherever they look;
a ruling they may read says "accepted by #N" with N as they number entries, the same on every
page and in every export."""

import json

import pytest
from django.urls import reverse

from referee.play import players
from referee.play.models import LogEntry, Numbering
from tests.factories import MembershipFactory
from tests.referee.conftest import htmx
from tests.referee.play.test_players import export, landing_post, landing_setup, roll_url

pytestmark = pytest.mark.django_db


def _blind_roll_accepted_in_secret(cast):
    """A whisper to another player (so the players' numbers differ from the GM's), the player's blind roll,
    the GM's Accept of it (GM-only, like the roll's result), then the roll revealed alone."""
    mech, ship = landing_setup(cast)
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    players.note_post(
        campaign=cast.campaign, actor=cast.gm, role="gm", text="The pirates wait", audience=[other.pk]
    )
    assert (
        cast.client("player")
        .post(roll_url(cast), landing_post(mech, ship, visibility="blind"), **htmx())
        .status_code
        == 200
    )
    roll = LogEntry.objects.get(procedure="boarding.landing")
    gm = cast.client("gm")
    assert gm.post(reverse("play:accept", args=[cast.campaign.code, roll.seq]), **htmx()).status_code == 200
    ruling = LogEntry.objects.get(procedure="roll.accept")
    assert ruling.visibility == "gm"
    assert gm.post(reverse("play:reveal", args=[cast.campaign.code, roll.seq])).status_code == 302
    return roll, ruling


def _player_reads(cast, roll) -> dict[str, str]:
    client = cast.client("player")
    code = cast.campaign.code
    number = Numbering.for_campaign(cast.campaign, cast.player).number(roll.seq)
    pages = {
        "entry": client.get(reverse("play:entry", args=[code, number])),
        "log": client.get(reverse("play:log", args=[code])),
        "players' page": client.get(reverse("campaigns:detail", args=[code])),
        "status": client.get(reverse("play:status", args=[code]), {"v": "0"}),
        "diary": client.get(reverse("diary:evening", args=[code])),
    }
    read = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        read[name] = response.text
    for fmt in ("csv", "json", "md"):
        read[fmt] = export(client, cast.campaign, fmt)
    return read


def test_a_gm_only_ruling_leaves_the_players_blind_roll_waiting_everywhere(cast):
    roll, ruling = _blind_roll_accepted_in_secret(cast)
    read = _player_reads(cast, roll)
    for name, text in read.items():
        assert "accepted" not in text.lower(), name
        assert "roll.accept" not in text, name
        assert "The pirates wait" not in text, name
    for name in ("entry", "log", "players' page", "status"):
        assert 'data-testid="awaiting"' in read[name] and "Waiting for the GM" in read[name], name
    for name in ("entry", "log", "players' page", "diary", "csv", "md"):
        assert "waiting for the GM to accept it." in read[name], name
    document = json.loads(read["json"])
    assert [e["seq"] for e in document["entries"]] == list(range(1, len(document["entries"]) + 1))
    assert [e["procedure"] for e in document["entries"]] == ["boarding.landing"]
    # The GM reads the ruling, by seq, and has no Accept button left.
    gm_page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, roll.seq])).text
    assert f"Accepted by #{ruling.seq}" in gm_page
    assert 'data-testid="awaiting"' not in gm_page and 'data-testid="accept"' not in gm_page


def test_a_ruling_the_player_may_read_is_numbered_as_they_number_entries_everywhere(cast):
    roll, ruling = _blind_roll_accepted_in_secret(cast)
    cast.client("gm").post(reverse("play:reveal", args=[cast.campaign.code, ruling.seq]))
    number = Numbering.for_campaign(cast.campaign, cast.player).number(ruling.seq)
    assert number == ruling.seq - 1  # the whisper to another player has no place in the players' numbering
    read = _player_reads(cast, roll)
    for name in ("entry", "log", "players' page", "diary", "csv", "md"):
        assert f"accepted by #{number}" in read[name].lower(), name
        assert f"accepted by #{ruling.seq}" not in read[name].lower(), name
    for name in ("entry", "log", "players' page", "status"):
        assert 'data-testid="awaiting"' not in read[name], name
    gm = cast.client("gm")
    gm_entry = gm.get(reverse("play:entry", args=[cast.campaign.code, roll.seq])).text
    gm_diary = gm.get(reverse("diary:evening", args=[cast.campaign.code])).text
    gm_md = export(gm, cast.campaign, "md")
    for text in (gm_entry, gm_diary, gm_md):
        assert f"accepted by #{ruling.seq}" in text.lower()
