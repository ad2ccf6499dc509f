"""Hidden entries stay hidden: not through the chain, the status poll or entry numbers."""

import itertools
import json
import re

import pgtrigger
import pytest
from django.urls import reverse

import rules
from referee.play import services
from referee.play.integrity import payload_of
from referee.play.models import HASH_SCHEME, LogEntry, LogSeal, Visibility, chain_hash
from tests.factories import ShipFactory
from tests.referee.history import quiet_roll, ruled_jump

pytestmark = pytest.mark.django_db

NO_MISHAP = [3, 4]
HIDDEN_DICE = [6, 6, 4, 5]


def jump(cast, ship, dice, visibility=Visibility.EVERYONE) -> LogEntry:
    return ruled_jump(cast.campaign, cast.gm, ship, dice=dice, visibility=visibility)


def quiet_secret(cast) -> LogEntry:
    """A GM-only resolution that changes nothing in the campaign."""
    return quiet_roll(cast.campaign, cast.gm, visibility=Visibility.GM)


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
    assert [e["seq"] for e in document["entries"]] == [1, 2]  # the player's own numbers
    target = document["entries"][1]["prev_hash"]
    assert target == hidden.hash
    assert hidden.nonce and hidden.nonce not in text  # the player never gets it

    known = payload_of(
        LogEntry.objects.select_related("campaign", "reversal_of").get(pk=hidden.pk).hash_payload()
    )
    inputs = {k: v for k, v in known["inputs"].items() if not k.startswith("@")}
    ruling = (
        known["summary"][known["summary"].find(" GM ruling by") :] if "GM ruling" in known["summary"] else ""
    )

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
                    "summary": outcome["summary"] + ruling,
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


# --- the chain resists the database's owner ---------------------------------------------------


@pytest.fixture
def two_turns(cast):
    """A turn with a public and a hidden roll, its end (publishing the fingerprint), more play."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    jump(cast, ship, NO_MISHAP)
    jump(cast, ship, HIDDEN_DICE, Visibility.GM)
    for _ in range(4):
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    jump(cast, ship, NO_MISHAP)
    return cast


def published_fingerprint(cast) -> str:
    """What a player reads at the end of a turn, in their own export."""
    _, document = player_export(cast)
    [end] = [e for e in document["entries"] if "log_fingerprint" in e["result"]]
    assert end["result"]["log_fingerprint"] in end["summary"]
    return end["result"]["log_fingerprint"]


def verify(*args) -> tuple[int, str]:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    try:
        call_command("verify_log", *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_each_turns_end_publishes_the_logs_fingerprint_to_players(two_turns):
    cast = two_turns
    fingerprint = published_fingerprint(cast)
    end = LogEntry.objects.get(campaign=cast.campaign, result__has_key="log_fingerprint")
    assert end.visibility == Visibility.EVERYONE and end.turn == 2
    assert fingerprint == end.prev_hash  # the head of the log as turn 1 ended
    markdown = b"".join(
        cast.client("player").get(reverse("play:export", args=[cast.campaign.code, "md"])).streaming_content
    ).decode()
    assert fingerprint in markdown


def test_an_export_is_checked_against_the_fingerprint_a_player_kept(two_turns, tmp_path):
    cast = two_turns
    fingerprint = published_fingerprint(cast)
    path = tmp_path / "log.json"
    path.write_text(player_export(cast)[0])
    assert verify("--file", str(path), "--head", fingerprint)[0] == 0
    assert verify(str(cast.campaign.code), "--head", fingerprint)[0] == 0
    status, out = verify("--file", str(path), "--head", "ab" * 32)
    assert status == 1 and "fingerprint you kept" in out


def _rewrite_as_unkeyed(campaign) -> None:
    """The database's owner rewrites the whole log with plain SHA-256 (they lack the key):
    the hidden roll becomes a failure and every hash after it is recomputed."""
    from django.db import connection

    entries = list(LogEntry.objects.filter(campaign=campaign).select_related("campaign", "reversal_of"))
    prev = "0" * 64
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        for entry in entries:
            entry.hash_scheme, entry.nonce = 1, ""
            if entry.seq == 2:
                entry.summary = "Nothing happened."
            entry.prev_hash, entry.hash = prev, chain_hash(prev, entry.hash_payload())
            prev = entry.hash
            cursor.execute(
                "UPDATE play_logentry SET hash_scheme = 1, nonce = '', summary = %s, prev_hash = %s, "
                "hash = %s WHERE id = %s",
                [entry.summary, entry.prev_hash, entry.hash, entry.pk],
            )


def test_a_rewrite_of_the_whole_log_by_the_databases_owner_fails_against_a_kept_fingerprint(two_turns):
    cast = two_turns
    fingerprint = published_fingerprint(cast)
    _rewrite_as_unkeyed(cast.campaign)
    status, out = verify(str(cast.campaign.code), "--head", fingerprint)
    assert status == 1 and "chain broken at #1 " in out and "re-hashed to get round the key" in out


def _tamper(sql: str, params: list) -> None:
    from django.db import connection

    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_a_rewritten_entry_cannot_be_rehashed_without_the_servers_key(two_turns, settings):
    cast = two_turns
    entry = LogEntry.objects.select_related("campaign", "reversal_of").get(campaign=cast.campaign, seq=2)
    entry.summary = "Nothing happened."
    settings.LOG_HMAC_KEY = "a key guessed by whoever rewrites the log"
    forged = chain_hash(entry.prev_hash, entry.hash_payload())
    settings.LOG_HMAC_KEY = ""
    _tamper(
        "UPDATE play_logentry SET summary = %s, hash = %s WHERE id = %s", [entry.summary, forged, entry.pk]
    )
    status, out = verify(str(cast.campaign.code))
    assert status == 1 and out.startswith("chain broken at #2 ") and "does not match its contents" in out


def test_an_entry_rewritten_with_the_old_unkeyed_hash_is_refused(two_turns):
    cast = two_turns
    entry = LogEntry.objects.select_related("campaign", "reversal_of").get(campaign=cast.campaign, seq=3)
    entry.hash_scheme, entry.nonce = 1, ""
    unkeyed = chain_hash(entry.prev_hash, entry.hash_payload())
    _tamper(
        "UPDATE play_logentry SET hash_scheme = 1, nonce = '', hash = %s WHERE id = %s", [unkeyed, entry.pk]
    )
    status, out = verify(str(cast.campaign.code))
    assert status == 1 and out.startswith("chain broken at #3 ") and "unkeyed" in out


def test_logs_written_before_keyed_hashes_still_verify_and_go_on_keyed(cast):
    """Entries of scheme 1 (plain SHA-256, no nonce), as the first versions wrote them,
    verify as they are; entries appended after them are keyed."""
    from django.db import connection

    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    old = [jump(cast, ship, NO_MISHAP) for _ in range(2)]
    prev = "0" * 64
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        for entry in old:
            entry = LogEntry.objects.select_related("campaign", "reversal_of").get(pk=entry.pk)
            entry.hash_scheme, entry.nonce, entry.prev_hash = 1, "", prev
            entry.hash = chain_hash(prev, entry.hash_payload())
            prev = entry.hash
            cursor.execute(
                "UPDATE play_logentry SET hash_scheme = 1, nonce = '', prev_hash = %s, hash = %s WHERE id = %s",
                [entry.prev_hash, entry.hash, entry.pk],
            )
    # As the migration that sealed the logs found them: begun unkeyed.
    seal = LogSeal.objects.get(campaign=cast.campaign)
    seal.head, seal.scheme = prev, 1
    seal.sign(str(cast.campaign.code), public=False)
    seal.save()
    new = jump(cast, ship, NO_MISHAP)
    assert new.hash_scheme == HASH_SCHEME >= 2 and new.prev_hash == prev
    assert verify(str(cast.campaign.code)) == (0, "chain holds: 3 entries\n")


def test_a_players_json_export_numbers_an_undo_after_a_secret_without_the_gms_numbers(cast, tmp_path):
    """#1 public, #2 GM-only, #3 public, #4 its undo: the player's copy numbers them 1, 2, 3,
    the undo names what it undoes by hash and title, never by the GM's number, and the
    copy verifies, showing only that something was left out before the player's #2."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    jump(cast, ship, NO_MISHAP)
    jump(cast, ship, HIDDEN_DICE, Visibility.GM)
    third = jump(cast, ship, HIDDEN_DICE)  # a mishap: it changes the ship, so it can be undone
    services.log_entry_reverse(entry=third, actor=cast.gm)
    text, document = player_export(cast)
    entries = document["entries"]
    assert [e["seq"] for e in entries] == [1, 2, 3]
    assert entries[2]["reversal_of_hash"] == entries[1]["hash"] == third.hash
    assert not re.search(r"#\d", entries[2]["title"] + entries[2]["summary"])
    assert '"seq": 4' not in text and "reversal_of_seq" not in text
    path = tmp_path / "player.json"
    path.write_text(text)
    assert verify("--file", str(path)) == (
        0,
        "chain holds for the 3 entries included (partial export); entries were left out before #2\n",
    )
    gm = json.loads(
        b"".join(
            cast.client("gm").get(reverse("play:export", args=[cast.campaign.code, "json"])).streaming_content
        )
    )
    assert [e["seq"] for e in gm["entries"]] == [1, 2, 3, 4]
    path.write_text(json.dumps(gm))
    assert verify("--file", str(path)) == (0, "chain holds: 4 entries\n")
