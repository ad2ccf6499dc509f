"""Hidden entries stay hidden: not through the chain, the status poll or entry numbers."""

import itertools
import json
import re

import pytest
from django.urls import reverse

import rules
from referee.play import services
from referee.play.integrity import payload_of
from referee.play.models import LogEntry, Visibility, chain_hash
from tests.factories import ShipFactory

pytestmark = pytest.mark.django_db

NO_MISHAP = [3, 4]
HIDDEN_DICE = [6, 6, 4, 5]


def jump(cast, ship, dice, visibility=Visibility.EVERYONE) -> LogEntry:
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.malfunction",
        inputs={},
        dice=dice,
        actor=cast.gm,
        subjects={"ship": ship.code},
        visibility=visibility,
    )


def quiet_secret(cast) -> LogEntry:
    """A GM-only resolution that changes nothing in the campaign."""
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.basic_constants",
        inputs={},
        dice=[],
        actor=cast.gm,
        visibility=Visibility.GM,
    )


def player_export(cast) -> tuple[str, dict]:
    response = cast.client("player").get(reverse("play:export", args=[cast.campaign.code, "json"]))
    text = b"".join(response.streaming_content).decode()
    return text, json.loads(text)


# --- the chain --------------------------------------------------------------------------------


def test_a_hidden_rolls_dice_cannot_be_recovered_from_a_players_export(cast):
    """The attack that worked on unsalted hashes: take the prev_hash of the entry after a
    GM-only one from a player's export and hash every candidate roll. Even given the
    server's log key and every other field of the hidden entry, the nonce the player
    never receives leaves no candidate matching; with the nonce, the same search finds it."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    jump(cast, ship, NO_MISHAP)
    hidden = jump(cast, ship, HIDDEN_DICE, Visibility.GM)
    jump(cast, ship, NO_MISHAP)
    text, document = player_export(cast)
    assert [e["seq"] for e in document["entries"]] == [1, 3]
    target = document["entries"][1]["prev_hash"]
    assert target == hidden.hash
    assert hidden.nonce and hidden.nonce not in text  # the player never gets it

    known = payload_of(
        LogEntry.objects.select_related("campaign", "reversal_of").get(pk=hidden.pk).hash_payload()
    )
    inputs = {k: v for k, v in known["inputs"].items() if not k.startswith("@")}

    def search(nonce: str) -> list[list[int]]:
        found = []
        for count in (2, 4):
            for dice in itertools.product(range(1, 7), repeat=count):
                try:
                    outcome = rules.resolve("jump.malfunction", inputs, list(dice)).to_dict()
                except (rules.DiceError, rules.InputError):
                    continue
                candidate = {
                    **known,
                    "rolls": outcome["rolls"],
                    "result": outcome["result"],
                    "summary": outcome["summary"],
                    "nonce": nonce,
                }
                if chain_hash(hidden.prev_hash, candidate) == target:
                    found.append(list(dice))
        return found

    assert search(nonce="") == []
    assert HIDDEN_DICE in search(nonce=hidden.nonce)  # the search itself works


def test_every_new_entry_has_its_own_nonce(cast):
    entries = [quiet_secret(cast) for _ in range(3)]
    nonces = {e.nonce for e in entries}
    assert len(nonces) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", n) for n in nonces)


# --- the status poll ---------------------------------------------------------------------------


def poll(cast, version: str):
    return cast.client("player").get(reverse("play:status", args=[cast.campaign.code]), {"v": version})


def current_version(cast) -> str:
    page = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    return re.search(r"status/\?v=([^\"&]+)", page).group(1)


def test_the_players_poll_does_not_move_for_a_gm_only_entry_that_changed_nothing_they_see(cast):
    version = current_version(cast)
    assert poll(cast, version).status_code == 204
    secret = quiet_secret(cast)
    assert poll(cast, version).status_code == 204
    services.log_entry_reveal(entry=secret, actor=cast.gm)
    response = poll(cast, version)
    assert response.status_code == 200 and "basic jump procedure constants" in response.text.lower()


def test_the_players_poll_moves_for_what_they_see(cast):
    version = current_version(cast)
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    jump(cast, ship, NO_MISHAP)
    assert poll(cast, version).status_code == 200
    version = current_version(cast)
    assert poll(cast, version).status_code == 204


def test_the_gms_poll_still_moves_for_everything(cast):
    client = cast.client("gm")
    url = reverse("play:status", args=[cast.campaign.code])
    cast.campaign.refresh_from_db()
    version = str(cast.campaign.state_version)
    assert client.get(url, {"v": version}).status_code == 204
    quiet_secret(cast)
    assert client.get(url, {"v": version}).status_code == 200


# --- entry numbers --------------------------------------------------------------------------------


@pytest.fixture
def undone_around_a_secret(cast):
    """#1 public, #2 GM-only, #3 public undo of #1, #4 GM-only, #5 public."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    first = jump(cast, ship, HIDDEN_DICE)
    quiet_secret(cast)
    services.log_entry_reverse(entry=first, actor=cast.gm)
    quiet_secret(cast)
    jump(cast, ship, NO_MISHAP)
    return cast


def headings(html: str) -> list[str]:
    return re.findall(r"<h2>#(\d+) ", html)


def test_players_see_numbers_without_gaps_and_undone_by_their_own_number(undone_around_a_secret):
    cast = undone_around_a_secret
    log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text
    assert headings(log) == ["3", "2", "1"]
    assert "undone by #2" in log and "undone by #3" not in log
    assert "undoes <a" in log and re.search(r'/log/1/">#1</a>', log)
    gm_log = cast.client("gm").get(reverse("play:log", args=[cast.campaign.code])).text
    assert headings(gm_log) == ["5", "4", "3", "2", "1"] and "undone by #3" in gm_log


def test_a_player_opens_entries_by_their_own_numbers(undone_around_a_secret):
    cast = undone_around_a_secret
    client = cast.client("player")
    third = client.get(reverse("play:entry", args=[cast.campaign.code, 3]))
    assert third.status_code == 200 and headings(third.text) == ["3"]
    assert "malfunction" in third.text.lower()  # the public jump, seq 5
    assert client.get(reverse("play:entry", args=[cast.campaign.code, 4])).status_code == 404


def test_players_readable_exports_number_without_gaps(undone_around_a_secret):
    cast = undone_around_a_secret
    client = cast.client("player")
    markdown = b"".join(
        client.get(reverse("play:export", args=[cast.campaign.code, "md"])).streaming_content
    ).decode()
    assert re.findall(r"\*\*#(\d+) ", markdown) == ["1", "2", "3"]
    csv_text = b"".join(
        client.get(reverse("play:export", args=[cast.campaign.code, "csv"])).streaming_content
    ).decode()
    assert sorted({line.split(",")[0] for line in csv_text.splitlines()[1:]}) == ["1", "2", "3"]


def test_a_gm_only_undo_of_a_revealed_entry_is_not_named_to_players(cast):
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    secret = jump(cast, ship, HIDDEN_DICE, Visibility.GM)
    services.log_entry_reverse(entry=secret, actor=cast.gm)  # a GM-only undo
    services.log_entry_reveal(entry=secret, actor=cast.gm)
    log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text
    assert headings(log) == ["1"] and "undone by" not in log
