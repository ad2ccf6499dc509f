"""Restore trusts nothing in the file, the log's end is verifiable, and the command-line
tools answer a malformed file with a message and exit 2, never a traceback or a write."""

import copy
import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from referee.campaigns.models import Campaign, Membership
from referee.fleet.models import Ship
from referee.play import services
from referee.play.models import LogEntry, Visibility
from tests.factories import ShipFactory, UserFactory
from tests.referee.play.test_backup import wipe

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]
User = get_user_model()


@pytest.fixture
def logged(cast):
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    resolve = {
        "campaign": cast.campaign,
        "procedure_id": "jump.malfunction",
        "inputs": {},
        "actor": cast.gm,
        "gm_ruling": True,
    }
    for visibility in (Visibility.EVERYONE, Visibility.EVERYONE, Visibility.GM, Visibility.EVERYONE):
        services.procedure_resolve(
            **resolve, dice=MICRO_FRACTURES, subjects={"ship": ship.code}, visibility=visibility
        )
    return cast


def counts() -> tuple:
    return (
        User.objects.count(),
        User.objects.filter(is_superuser=True).count(),
        Session.objects.count(),
        Campaign.objects.count(),
        Membership.objects.count(),
        Ship.objects.count(),
        LogEntry.objects.count(),
    )


@pytest.fixture
def backup_file(logged, tmp_path):
    """The campaign's backup, the campaign then lost (as after a crash)."""
    path = tmp_path / "backup.json"
    call_command("backup_campaign", str(logged.campaign.code), "-o", str(path))
    wipe(logged.campaign)
    return path


def restore(path, *args) -> str:
    out = StringIO()
    call_command("restore_campaign", str(path), *args, stdout=out)
    return out.getvalue()


def refused(path, match: str, *args) -> None:
    before = counts()
    with pytest.raises(CommandError, match=match) as error:
        restore(path, *args)
    assert error.value.returncode == 2
    assert counts() == before


def edit(path, change) -> dict:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return document


# --- restore only the campaign's own records ------------------------------------------------


def test_an_edited_backup_cannot_create_a_superuser(backup_file):
    edit(
        backup_file,
        lambda d: d["tables"].update(
            {"auth.user": [{"username": "mallory", "is_superuser": True, "is_staff": True, "password": "x"}]}
        ),
    )
    refused(backup_file, "holds users, which are not records a campaign keeps", "--same-accounts")
    assert not User.objects.filter(username="mallory").exists()


def test_an_edited_backup_cannot_write_a_session(backup_file):
    row = {"session_key": "k" * 32, "session_data": "x", "expire_date": "2999-01-01T00:00:00+00:00"}
    edit(backup_file, lambda d: d["tables"].update({"sessions.session": [row]}))
    refused(backup_file, "holds sessions, which are not records a campaign keeps", "--same-accounts")


def test_an_edited_backup_cannot_create_a_second_campaign(backup_file, logged):
    def second(document):
        other = copy.deepcopy(document["campaign"])
        other["code"] = "11111111-1111-1111-1111-111111111111"
        document["tables"]["campaigns.campaign"] = [other]

    edit(backup_file, second)
    refused(backup_file, "holds campaigns, which are not records a campaign keeps", "--same-accounts")
    edit(backup_file, lambda d: d.update({"campaigns": [d["campaign"]]}))
    refused(
        backup_file, "holds parts named campaigns, which a campaign backup never holds", "--same-accounts"
    )


def test_an_edited_backup_cannot_give_an_existing_account_gm_rights(backup_file, logged):
    admin = UserFactory(username="site_admin")

    def grant(document):
        document["users"].append("site_admin")
        document["tables"]["campaigns.membership"].append(
            {"user": "site_admin", "role": "gm", "joined_at": "2026-01-01T00:00:00+00:00"}
        )

    edit(backup_file, grant)
    # The file's own users are named here too: nothing maps any of them implicitly.
    refused(
        backup_file,
        r"names .*site_admin.* who already have accounts here.*\(--user NAME=ACCOUNT, or --same-accounts",
    )
    assert not Membership.objects.filter(user=admin).exists()


def test_a_membership_for_a_user_the_backup_does_not_name_is_refused(backup_file, logged):
    UserFactory(username="bystander")
    edit(
        backup_file,
        lambda d: d["tables"]["campaigns.membership"].append(
            {"user": "bystander", "role": "gm", "joined_at": "2026-01-01T00:00:00+00:00"}
        ),
    )
    refused(backup_file, "names user bystander, which the backup does not hold", "--same-accounts")


def test_a_row_pointing_at_another_campaigns_record_is_refused(backup_file, logged, cast):
    elsewhere = ShipFactory()  # another campaign's ship
    edit(backup_file, lambda d: d["tables"]["fleet.ship"][0].update({"docked_on": str(elsewhere.code)}))
    refused(backup_file, "which the backup does not hold", "--same-accounts")


def test_users_are_mapped_explicitly(backup_file, logged):
    gm_name = logged.gm.username
    document = json.loads(backup_file.read_text())
    names = document["users"]
    refused(backup_file, "already .*here; say which account takes each one's place")
    stand_in = UserFactory(username="stand_in")
    mapping = [f"--user={n}={'stand_in' if n == gm_name else n}" for n in names]
    out = restore(backup_file, *mapping)
    assert "chain verified" in out
    campaign = Campaign.objects.get(code=document["campaign"]["code"])
    assert campaign.memberships.get(role="gm").user == stand_in
    assert not campaign.memberships.filter(user=logged.gm).exists()


# --- the log's end is verifiable -------------------------------------------------------------


def test_a_backup_with_entries_cut_from_its_end_does_not_restore(backup_file):
    def cut(document):
        del document["log"][-1]
        document["log_count"] -= 1
        document["log_head"] = document["log"][-1]["hash"]

    edit(backup_file, cut)
    refused(backup_file, "does not end where it ended", "--same-accounts")


def test_a_backup_without_its_signature_does_not_restore(backup_file):
    edit(backup_file, lambda d: d.pop("log_signature"))
    refused(backup_file, "the backup is not signed", "--same-accounts")


def export(cast, who="gm") -> dict:
    response = cast.client(who).get(reverse("play:export", args=[cast.campaign.code, "json"]))
    return json.loads(b"".join(response.streaming_content))


def verify_file(path, *args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_log", "--file", str(path), *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_an_export_cut_at_its_end_does_not_pass(logged, tmp_path):
    document = export(logged)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    assert verify_file(path) == (0, "chain holds: 4 entries\n")
    del document["entries"][-1]
    document["count"], document["head"] = 3, document["entries"][-1]["hash"]
    path.write_text(json.dumps(document))
    status, out = verify_file(path)
    assert status == 1 and "signature does not match" in out
    document.pop("signature"), document.pop("signed")
    path.write_text(json.dumps(document))
    status, out = verify_file(path)
    assert status == 1 and "the file is not signed" in out


def test_a_full_export_with_a_middle_entry_removed_and_marked_partial_does_not_pass(logged, tmp_path):
    document = export(logged)
    del document["entries"][1]
    document["partial"], document["count"] = True, 3
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    status, out = verify_file(path)
    assert status == 1 and "signature does not match" in out


def test_a_players_export_with_an_entry_removed_does_not_pass(logged, tmp_path):
    document = export(logged, "player")
    assert document["partial"] is True and len(document["entries"]) == 3
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    assert verify_file(path)[0] == 0
    del document["entries"][1]
    document["count"] = 2
    path.write_text(json.dumps(document))
    assert verify_file(path)[0] == 1


# --- malformed files: a message, exit 2, nothing written ------------------------------------


def _export_with(change):
    def build(cast):
        document = export(cast)
        change(document)
        return document

    return build


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


MALFORMED_EXPORTS = {
    "a null entry": (
        _export_with(lambda d: d["entries"].insert(1, None)),
        "entry 2 of the file is not an entry",
    ),
    "a null hash": (_export_with(lambda d: d["entries"][0].update(hash=None)), "hash that is not a hash"),
    "a numeric hash": (_export_with(lambda d: d["entries"][0].update(hash=12)), "hash that is not a hash"),
    "a numeric prev_hash": (
        _export_with(lambda d: d["entries"][0].update(prev_hash=0)),
        "prev_hash that is not a hash",
    ),
    "entries not a list": (_export_with(lambda d: d.update(entries={"a": 1})), "no list of entries"),
    "NaN in an entry": (
        lambda cast: json.dumps(export(cast)).replace('"turn": 1', '"turn": NaN', 1),
        "not JSON",
    ),
    "deeply nested entry": (
        lambda cast: json.dumps(export(cast)).replace(
            '"inputs": {', f'"deep": {_deep(100_000)}, "inputs": {{', 1
        ),
        "nested too deeply",
    ),
    "deeply nested file": (lambda cast: _deep(100_000), "nested too deeply"),
    "truncated JSON": (lambda cast: json.dumps(export(cast))[:-40], "ends too early"),
    "non-UTF-8": (
        lambda cast: json.dumps(export(cast)).encode().replace(b"Jump", b"J\xffmp", 1),
        "not UTF-8",
    ),
    "a list": (lambda cast: [], "not a turn-log JSON export"),
    "an unknown hash scheme": (
        _export_with(lambda d: d["entries"][0].update(hash_scheme=7)),
        "hash scheme this version does not know",
    ),
}


def _write(path, content) -> None:
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")


@pytest.mark.parametrize("case", sorted(MALFORMED_EXPORTS))
def test_verify_log_on_a_malformed_export_says_why_and_exits_2(logged, tmp_path, case):
    build, message = MALFORMED_EXPORTS[case]
    path = tmp_path / "log.json"
    _write(path, build(logged))
    with pytest.raises(CommandError, match=message) as error:
        call_command("verify_log", "--file", str(path), stdout=StringIO())
    assert error.value.returncode == 2
    assert "Traceback" not in str(error.value)


def _backup_with(change):
    def build(path):
        document = json.loads(path.read_text(encoding="utf-8"))
        change(document)
        return document

    return build


MALFORMED_BACKUPS = {
    "a null log entry": (_backup_with(lambda d: d["log"].insert(0, None)), "log is not a list of entries"),
    "a null hash": (_backup_with(lambda d: d["log"][0].update(hash=None)), "no proper seq and hash"),
    "a numeric hash": (_backup_with(lambda d: d["log"][0].update(hash=5)), "no proper seq and hash"),
    "a tables list": (_backup_with(lambda d: d.update(tables=[])), "not a group of named tables"),
    "a label without a dot": (
        _backup_with(lambda d: d["tables"].update(ship=[])),
        "holds records of an unknown kind, which are not records a campaign keeps",
    ),
    "a row that is not a record": (
        _backup_with(lambda d: d["tables"]["fleet.ship"].append([1, 2])),
        "the backup's ships are not a list of records",
    ),
    "a campaign that is a list": (_backup_with(lambda d: d.update(campaign=[])), "holds no campaign"),
    "a bad campaign code": (
        _backup_with(lambda d: d["campaign"].update(code="not-a-code")),
        "cannot read",
    ),
    "a null user": (_backup_with(lambda d: d["users"].append(None)), "users are not a list of usernames"),
    "deep nesting": (lambda path: _deep(100_000), "nested too deeply"),
    "deep nesting inside a row": (
        # The first entry's inputs, however the backup spaces its keys and values.
        lambda path: re.sub(
            r'"inputs"\s*:\s*\{',
            lambda _m: f'"deep": {_deep(100_000)}, "inputs": {{',
            path.read_text(),
            count=1,
        ),
        "nested too deeply",
    ),
    "truncated JSON": (lambda path: path.read_text()[:-100], "ends too early"),
    "non-UTF-8": (
        lambda path: path.read_bytes().replace(b"referee-backup", b"referee\xff-backup"),
        "not UTF-8",
    ),
    "not a backup": (lambda path: {"format": "referee-log/1", "entries": []}, "not a campaign backup"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED_BACKUPS))
def test_restore_on_a_malformed_backup_says_why_exits_2_and_writes_nothing(backup_file, case):
    build, message = MALFORMED_BACKUPS[case]
    _write(backup_file, build(backup_file))
    refused(backup_file, message, "--same-accounts")
