"""The log cannot be cut, emptied or re-hashed under an older scheme and still verify: the
campaign's seal (its length, last hash and oldest scheme, signed by the server) says where
the log ends, and every export and backup is signed. The attacks run as the database's
owner role against the embedded server (the suite's connection), with the log's guard held
off as only the owner can."""

import json
from io import StringIO

import pgtrigger
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse

from referee.play import integrity, services, signing
from referee.play.models import GENESIS_HASH, LogEntry, LogSeal, chain_hash
from tests.factories import CampaignFactory, ShipFactory
from tests.referee.history import ruled_jump
from tests.referee.play.test_backup import wipe
from tests.referee.play.test_restore_trust import edit, restore

pytestmark = pytest.mark.django_db

NO_MISHAP = [3, 4]


def verify(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_log", *map(str, args), stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def as_owner(sql: str, params=()) -> None:
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute(sql, params)


def rewrite_as_unkeyed(campaign) -> None:
    """The owner rewrites #2 and re-hashes the whole log under plain SHA-256 (scheme 1)."""
    prev = GENESIS_HASH
    for entry in LogEntry.objects.filter(campaign=campaign).select_related("campaign", "reversal_of"):
        entry.hash_scheme, entry.nonce = 1, ""
        if entry.seq == 2:
            entry.summary = "Nothing happened."
        entry.prev_hash, entry.hash = prev, chain_hash(prev, entry.hash_payload())
        prev = entry.hash
        as_owner(
            "UPDATE play_logentry SET hash_scheme = 1, nonce = '', summary = %s, prev_hash = %s, hash = %s "
            "WHERE id = %s",
            [entry.summary, entry.prev_hash, entry.hash, entry.pk],
        )


# --- the database --------------------------------------------------------------------------


def test_a_new_campaign_is_sealed_empty_and_its_seal_follows_each_entry(six_entries):
    assert LogSeal.objects.get(campaign=CampaignFactory()).length == 0
    seal = LogSeal.objects.get(campaign=six_entries.campaign)
    last = LogEntry.objects.filter(campaign=six_entries.campaign).order_by("-seq").first()
    assert (seal.length, seal.head, seal.public_length) == (6, last.hash, 5)
    assert signing.valid(signing.public_key(), seal.statement(), seal.signature)
    assert verify(six_entries.campaign.code) == (0, "chain holds: 6 entries\n")


def test_a_log_rewritten_and_rehashed_under_the_unkeyed_scheme_does_not_verify(six_entries):
    rewrite_as_unkeyed(six_entries.campaign)
    status, out = verify(six_entries.campaign.code)
    assert status == 1
    assert out.startswith("chain broken at #1 ") and "unkeyed" in out and "re-hashed" in out


def test_an_entry_of_an_older_scheme_after_a_newer_one_does_not_verify(six_entries):
    entry = LogEntry.objects.select_related("campaign", "reversal_of").get(
        campaign=six_entries.campaign, seq=6
    )
    entry.hash_scheme = 3
    as_owner(
        "UPDATE play_logentry SET hash_scheme = 3, hash = %s WHERE id = %s",
        [chain_hash(entry.prev_hash, entry.hash_payload()), entry.pk],
    )
    status, out = verify(six_entries.campaign.code)
    assert status == 1 and out.startswith("chain broken at #6 ") and "older kind" in out


def test_an_emptied_log_does_not_verify(six_entries):
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s", [six_entries.campaign.pk])
    status, out = verify(six_entries.campaign.code)
    assert status == 1
    assert "the log is cut from its start: the log was emptied" in out and "(#1-#6)" in out


def test_a_log_cut_at_its_end_is_reported_as_cut_with_where(six_entries):
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s AND seq > 4", [six_entries.campaign.pk])
    status, out = verify(six_entries.campaign.code)
    assert status == 1
    assert (
        out.startswith("chain broken at #5: the log is cut after #4")
        and "2 entries are missing (#5-#6)" in out
    )


def test_a_removed_seal_or_a_seal_rewritten_by_the_owner_does_not_verify(six_entries):
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s AND seq > 4", [six_entries.campaign.pk])
    last = LogEntry.objects.get(campaign=six_entries.campaign, seq=4)
    LogSeal.objects.filter(campaign=six_entries.campaign).update(length=4, head=last.hash)
    status, out = verify(six_entries.campaign.code)
    assert status == 1 and "not the server's signature" in out
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s", [six_entries.campaign.pk])
    LogSeal.objects.filter(campaign=six_entries.campaign).delete()
    status, out = verify(six_entries.campaign.code)
    assert status == 1 and "has no seal" in out


def test_an_entry_appended_after_a_cut_leaves_the_cut_showing(six_entries):
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s AND seq > 4", [six_entries.campaign.pk])
    ship = ShipFactory(campaign=six_entries.campaign, kf_integrity=9, kf_integrity_max=9)
    entry = ruled_jump(six_entries.campaign, six_entries.gm, ship, dice=NO_MISHAP)
    assert entry.seq == 7 and LogSeal.objects.get(campaign=six_entries.campaign).length == 7
    status, out = verify(six_entries.campaign.code)
    assert status == 1 and out.startswith("chain broken at #7 ") and "seq 5 is missing" in out


def test_a_log_extended_or_unsealed_outside_the_app_takes_no_new_entry(six_entries):
    ship = ShipFactory(campaign=six_entries.campaign, kf_integrity=9, kf_integrity_max=9)
    LogSeal.objects.filter(campaign=six_entries.campaign).update(length=5)  # an entry added past the seal
    with pytest.raises(services.PlayError, match="does not end where the server last signed it"):
        ruled_jump(six_entries.campaign, six_entries.gm, ship, dice=NO_MISHAP)
    LogSeal.objects.filter(campaign=six_entries.campaign).delete()
    with pytest.raises(services.PlayError, match="does not end where the server last signed it"):
        ruled_jump(six_entries.campaign, six_entries.gm, ship, dice=NO_MISHAP)
    assert LogEntry.objects.filter(campaign=six_entries.campaign).count() == 6


def test_the_verify_page_reports_an_emptied_log(six_entries):
    as_owner("DELETE FROM play_logentry WHERE campaign_id = %s", [six_entries.campaign.pk])
    page = six_entries.client("gm").get(reverse("integrity:verify", args=[six_entries.campaign.code]))
    assert page.status_code == 200 and "the log was emptied" in page.content.decode()


# --- exports -------------------------------------------------------------------------------


def export(cast, who="gm") -> dict:
    response = cast.client(who).get(reverse("play:export", args=[cast.campaign.code, "json"]))
    return json.loads(b"".join(response.streaming_content))


def test_an_export_rehashed_as_unkeyed_with_its_signatures_dropped_is_reported_unsigned(
    six_entries, tmp_path
):
    document = export(six_entries)
    prev = GENESIS_HASH
    for entry in document["entries"]:
        entry.pop("hash_scheme"), entry.pop("nonce")
        entry["seq"] = entry["seq"]
        payload = integrity.payload_of(entry)
        entry["prev_hash"], entry["hash"] = prev, chain_hash(prev, payload)
        prev = entry["hash"]
    for key in ("signature", "signed"):
        document.pop(key)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    status, out = verify("--file", path)
    assert status == 1 and "the file is not signed" in out


def test_a_players_export_checks_against_the_public_key_alone_on_a_machine_without_the_secrets(
    six_entries, tmp_path, settings
):
    document = export(six_entries, "player")
    key = document["signed"]["public_key"]
    assert key == signing.public_key()
    path = tmp_path / "player.json"
    path.write_text(json.dumps(document))
    # Another machine: none of the server's secrets.
    settings.SECRET_KEY, settings.LOG_HMAC_KEY, settings.LOG_SIGNING_KEY = "a player's laptop", "", ""
    assert signing.public_key() != key
    status, out = verify("--file", path, "--public-key", key)
    assert status == 0 and out.startswith("chain holds for the 5 entries included") and key[:16] in out
    status, out = verify("--file", path)  # without the key it has no way to check the hashes
    assert status == 1
    document["entries"][1]["summary"] = "Nothing happened."
    path.write_text(json.dumps(document))
    status, out = verify("--file", path, "--public-key", key)
    assert status == 1 and "signature does not match its entries" in out
    other = "ab" * 32
    status, out = verify("--file", path, "--public-key", other)
    assert status == 1 and "not signed by the server key you checked it with" in out


def test_verify_log_refuses_a_public_key_that_is_not_one(six_entries, tmp_path):
    for args in (
        ["--file", tmp_path / "x.json", "--public-key", "xyz"],
        [six_entries.campaign.code, "--public-key", "ab" * 32],
    ):
        with pytest.raises(CommandError) as error:
            verify(*args)
        assert error.value.returncode == 2


# --- backups -------------------------------------------------------------------------------


@pytest.fixture
def backup_file(six_entries, tmp_path):
    path = tmp_path / "backup.json"
    call_command("backup_campaign", str(six_entries.campaign.code), "-o", str(path))
    wipe(six_entries.campaign)
    return path


def test_a_backup_restores_with_its_seal(backup_file, six_entries):
    restore(backup_file, "--same-accounts")
    seal = LogSeal.objects.get(campaign__code=six_entries.campaign.code)
    assert (seal.length, seal.scheme, seal.public_length) == (6, 4, 5)
    assert verify(six_entries.campaign.code) == (0, "chain holds: 6 entries\n")


def test_a_backup_whose_log_was_rehashed_as_unkeyed_and_left_unsigned_does_not_restore(backup_file):
    def rehash(document):
        prev = GENESIS_HASH
        for row in document["log"]:
            row["hash_scheme"], row["nonce"], row["prev_hash"] = 1, "", prev
            row["hash"] = prev = "1" * 64
        document["log_head"] = prev
        document.pop("log_signature")

    edit(backup_file, rehash)
    with pytest.raises(CommandError, match="the backup is not signed"):
        restore(backup_file, "--same-accounts")


def test_a_backup_with_its_whole_log_removed_does_not_restore(backup_file):
    def empty(document):
        document["log"], document["log_count"], document["log_head"] = [], 0, None

    edit(backup_file, empty)
    with pytest.raises(CommandError, match="does not end where it ended"):
        restore(backup_file, "--same-accounts")
    edit(backup_file, lambda d: d.pop("log_signature"))
    with pytest.raises(CommandError, match="the backup is not signed"):
        restore(backup_file, "--same-accounts")


def test_a_backup_cannot_lower_the_campaigns_scheme(backup_file):
    edit(backup_file, lambda d: d.update(log_scheme=1))
    with pytest.raises(CommandError, match="does not end where it ended"):
        restore(backup_file, "--same-accounts")
