"""A campaign's backup carries everything it keeps, and restoring it (into an empty
database, in another process) gives back the same rows, codes and log hashes."""

import json
import os
import subprocess
import sys
import uuid
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pgtrigger
import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse

from referee.campaigns.models import Campaign, Membership
from referee.fleet.models import Character, Marker, Ship, Unit
from referee.play import backup, services
from referee.play.models import LogEntry, Visibility
from tests.factories import (
    CharacterFactory,
    InviteFactory,
    ShipFactory,
    StarSystemFactory,
    UnitFactory,
    UserFactory,
)
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
MICRO_FRACTURES = [6, 6, 4, 5]


@pytest.fixture
def campaign(cast):
    """A campaign with one of everything, and a log with a secret, a reveal and an undo."""
    c = cast.campaign
    c.name = "Opération Lyran"  # non-ASCII survives the round trip
    c.turn_length_s = 90
    c.save()
    second = UserFactory(username="second_player")
    Membership.objects.create(campaign=c, user=second, role="player")
    InviteFactory(campaign=c, created_by=cast.gm)
    system = StarSystemFactory(campaign=c, name="Outreach", notes="Mercenary world")
    carrier = ShipFactory(
        campaign=c, name="Waterloo", kf_integrity=30, kf_integrity_max=30, star_system=system, x_au=1.25
    )
    dropship = ShipFactory(
        campaign=c, name="Overlord", kind="dropship", kf_integrity=0, kf_integrity_max=0, docked_on=carrier
    )
    unit = UnitFactory(campaign=c, name="Atlas", landed_on=dropship, owner=cast.player, shared=True)
    CharacterFactory(campaign=c, name="Kai", ship=carrier)
    CharacterFactory(campaign=c, name="Grayson", unit=unit, role="mechwarrior")
    Marker.objects.create(
        campaign=c, name="Watch", kind="neutrino_watch", ship=carrier, tracking={"Overlord": 2.5}
    )
    resolve = {
        "campaign": c,
        "procedure_id": "jump.malfunction",
        "inputs": {},
        "actor": cast.gm,
        "gm_ruling": True,
    }
    services.procedure_resolve(**resolve, dice=MICRO_FRACTURES, subjects={"ship": carrier.code})
    secret = services.procedure_resolve(
        **resolve, dice=MICRO_FRACTURES, subjects={"ship": carrier.code}, visibility=Visibility.GM
    )
    services.log_entry_reveal(entry=secret, actor=cast.gm)
    services.campaign_phase_advance(campaign=c, actor=cast.gm)
    services.campaign_clock_advance(campaign=c, seconds=7200, reason="recharging", actor=cast.gm)
    services.procedure_resolve(**resolve, dice=MICRO_FRACTURES, subjects={"ship": carrier.code})
    services.log_entry_reverse(entry=LogEntry.objects.get(campaign=c, seq=5), actor=cast.gm)
    services.procedure_resolve(
        **resolve, dice=MICRO_FRACTURES, subjects={"ship": carrier.code}, visibility=Visibility.GM
    )
    assert c.log.count() == 7
    return c


def write_backup(campaign, path: Path) -> dict:
    call_command("backup_campaign", str(campaign.code), "-o", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def comparable(document: dict) -> dict:
    """The document without what a restore rightly changes: when it was taken and the
    database-kept change counter."""
    doc = json.loads(json.dumps(document))
    del doc["created_at"]
    del doc["campaign"]["state_version"]
    return doc


def wipe(campaign) -> None:
    """Delete a campaign, log included (the append-only trigger held off), as a lost
    database would."""
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute("DELETE FROM play_logentry WHERE campaign_id = %s", [campaign.pk])
    campaign.delete()


# --- what a backup holds -------------------------------------------------------------


def test_the_backup_holds_every_row_the_campaign_keeps(campaign, tmp_path):
    document = write_backup(campaign, tmp_path / "b.json")
    assert document["format"] == "referee-backup/1"
    assert document["campaign"]["code"] == str(campaign.code)
    tables = document["tables"]
    assert {
        "campaigns.membership",
        "campaigns.invite",
        "fleet.starsystem",
        "fleet.ship",
        "fleet.unit",
    } <= set(tables)
    assert {"fleet.character", "fleet.marker"} <= set(tables)
    assert sorted(m["user"] for m in tables["campaigns.membership"]) == sorted(
        [campaign.memberships.get(role="gm").user.username, "second_player", *_players(campaign)]
    )
    ships = {s["name"]: s for s in tables["fleet.ship"]}
    assert ships["Overlord"]["docked_on"] == ships["Waterloo"]["code"]
    assert ships["Waterloo"]["star_system"] == tables["fleet.starsystem"][0]["code"]
    assert tables["fleet.unit"][0]["landed_on"] == ships["Overlord"]["code"]
    characters = {c["name"]: c for c in tables["fleet.character"]}
    assert characters["Kai"]["ship"] == ships["Waterloo"]["code"] and characters["Kai"]["unit"] is None
    assert characters["Grayson"]["unit"] == tables["fleet.unit"][0]["code"]
    assert tables["fleet.marker"][0]["tracking"] == {"Overlord": 2.5}


def _players(campaign) -> list[str]:
    return [
        m.user.username
        for m in campaign.memberships.select_related("user").filter(role="player")
        if m.user.username != "second_player"
    ]


def test_rows_carry_every_concrete_field_so_new_fields_need_no_edit(campaign, tmp_path):
    document = write_backup(campaign, tmp_path / "b.json")
    for model, label in ((Ship, "fleet.ship"), (Unit, "fleet.unit"), (Character, "fleet.character")):
        expected = {f.name for f in model._meta.concrete_fields} - {"id", "campaign"}
        assert all(set(row) == expected for row in document["tables"][label]), label
    expected = {f.name for f in LogEntry._meta.concrete_fields} - {"id", "campaign"}
    assert all(set(row) == expected for row in document["log"])


def test_log_entries_are_kept_whole_with_actor_by_username_and_undo_by_seq(campaign, tmp_path):
    document = write_backup(campaign, tmp_path / "b.json")
    log = document["log"]
    assert [e["seq"] for e in log] == list(range(1, 8))
    assert document["log_count"] == 7 and document["log_head"] == log[-1]["hash"]
    stored = LogEntry.objects.get(campaign=campaign, seq=6)
    assert log[5]["reversal_of"] == 5
    assert log[5]["actor"] == stored.actor.username
    assert log[5]["created_at"] == stored.created_at.isoformat()
    assert log[1]["revealed_at"] is not None and log[6]["revealed_at"] is None
    assert [e["hash"] for e in log] == list(
        LogEntry.objects.filter(campaign=campaign).order_by("seq").values_list("hash", flat=True)
    )


# --- restoring ------------------------------------------------------------------------------


def test_a_restore_gives_back_exactly_what_was_backed_up(campaign, tmp_path):
    path = tmp_path / "b.json"
    document = write_backup(campaign, path)
    hashes = list(LogEntry.objects.filter(campaign=campaign).order_by("seq").values_list("hash", flat=True))
    old_ids = set(Ship.objects.filter(campaign=campaign).values_list("pk", flat=True))
    wipe(campaign)
    assert not Campaign.objects.filter(code=campaign.code).exists()

    out = StringIO()
    call_command("restore_campaign", str(path), "--same-accounts", stdout=out)
    assert "7 log entries, chain verified" in out.getvalue()
    restored = Campaign.objects.get(code=campaign.code)
    assert comparable(backup.backup_document(restored)) == comparable(document)
    assert list(restored.log.order_by("seq").values_list("hash", flat=True)) == hashes
    assert not old_ids & set(Ship.objects.filter(campaign=restored).values_list("pk", flat=True))
    verify = StringIO()
    call_command("verify_log", str(restored.code), stdout=verify)
    assert verify.getvalue() == "chain holds: 7 entries\n"


def test_restore_creates_missing_users_without_a_usable_password(campaign, tmp_path):
    path = tmp_path / "b.json"
    write_backup(campaign, path)
    wipe(campaign)
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="second_player").delete()
    out = StringIO()
    call_command("restore_campaign", str(path), "--same-accounts", stdout=out)
    assert "created users without a usable password: second_player" in out.getvalue()
    user = get_user_model().objects.get(username="second_player")
    assert not user.has_usable_password()
    assert Membership.objects.get(campaign__code=campaign.code, user=user).role == "player"


def test_restore_refuses_an_existing_code_and_writes_nothing(campaign, tmp_path):
    path = tmp_path / "b.json"
    write_backup(campaign, path)
    before = (Campaign.objects.count(), LogEntry.objects.count(), Ship.objects.count())
    with pytest.raises(CommandError, match="already exists") as error:
        call_command("restore_campaign", str(path), "--same-accounts")
    assert error.value.returncode == 2
    assert (Campaign.objects.count(), LogEntry.objects.count(), Ship.objects.count()) == before


def test_restore_refuses_a_backup_whose_log_was_edited_and_writes_nothing(campaign, tmp_path):
    path = tmp_path / "b.json"
    document = write_backup(campaign, path)
    wipe(campaign)
    document["log"][2]["summary"] = "Nothing happened."
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match=r"does not verify: chain broken at #3 ") as error:
        call_command("restore_campaign", str(path), "--same-accounts")
    assert error.value.returncode == 2
    assert not Campaign.objects.filter(code=campaign.code).exists()
    assert not Ship.objects.filter(code=document["tables"]["fleet.ship"][0]["code"]).exists()


def test_restore_refuses_fields_this_version_does_not_know(campaign, tmp_path):
    path = tmp_path / "b.json"
    document = write_backup(campaign, path)
    wipe(campaign)
    document["tables"]["fleet.ship"][0]["warp_factor"] = 9
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match="its ships hold 1 field this version of the app does not know"):
        call_command("restore_campaign", str(path), "--same-accounts")
    assert not Campaign.objects.filter(code=campaign.code).exists()


def test_a_field_missing_from_an_older_backup_takes_its_default(campaign, tmp_path):
    path = tmp_path / "b.json"
    document = write_backup(campaign, path)
    wipe(campaign)
    for row in document["tables"]["fleet.ship"]:
        del row["heat_sinks"]
    path.write_text(json.dumps(document), encoding="utf-8")
    call_command("restore_campaign", str(path), "--same-accounts", stdout=StringIO())
    assert set(Ship.objects.filter(campaign__code=campaign.code).values_list("heat_sinks", flat=True)) == {0}


def test_restore_refuses_what_is_not_a_backup(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "referee-log/1", "entries": []}')
    with pytest.raises(CommandError, match="not a campaign backup") as error:
        call_command("restore_campaign", str(path))
    assert error.value.returncode == 2
    path.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("restore_campaign", str(path))


# --- into an empty database, through real processes --------------------------------------


@pytest.fixture
def empty_database():
    """A brand-new database on the test server; yields its DATABASE_URL and a connect()."""
    db = settings.DATABASES["default"]
    name = f"referee_restore_{uuid.uuid4().hex[:10]}"
    params = {"host": db["HOST"], "user": db["USER"], "port": db.get("PORT") or None}
    if db.get("PASSWORD"):
        params["password"] = db["PASSWORD"]
    params = {k: v for k, v in params.items() if v}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgres://{quote(db['USER'], safe='')}@/{name}?host={quote(db['HOST'], safe='')}"
    if db.get("PORT"):
        url += f"&port={db['PORT']}"
    if db.get("PASSWORD"):
        url += f"&password={quote(db['PASSWORD'], safe='')}"
    try:
        yield url, lambda: psycopg.connect(dbname=name, **params)
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def test_a_backup_restores_into_an_empty_database(campaign, tmp_path, empty_database):
    url, connect = empty_database
    path = tmp_path / "backup.json"
    document = write_backup(campaign, path)

    migrated = manage(url, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    restored = manage(url, "restore_campaign", str(path))
    assert restored.returncode == 0, restored.stderr
    assert "created users without a usable password" in restored.stdout
    verified = manage(url, "verify_log", str(campaign.code))
    assert (verified.returncode, verified.stdout) == (0, "chain holds: 7 entries\n"), verified.stderr

    with connect() as conn:
        rows = conn.execute(
            "SELECT e.seq, e.prev_hash, e.hash, e.created_at, u.username, r.seq FROM play_logentry e "
            "JOIN campaigns_campaign c ON c.id = e.campaign_id LEFT JOIN auth_user u ON u.id = e.actor_id "
            "LEFT JOIN play_logentry r ON r.id = e.reversal_of_id WHERE c.code = %s ORDER BY e.seq",
            [campaign.code],
        ).fetchall()
        ships = dict(
            conn.execute(
                "SELECT s.code::text, d.code::text FROM fleet_ship s LEFT JOIN fleet_ship d ON d.id = s.docked_on_id"
            ).fetchall()
        )
        passwords = {r[0] for r in conn.execute("SELECT left(password, 1) FROM auth_user").fetchall()}
    stored = LogEntry.objects.filter(campaign=campaign).select_related("actor", "reversal_of").order_by("seq")
    assert rows == [
        (e.seq, e.prev_hash, e.hash, e.created_at, e.actor.username, e.reversal_of and e.reversal_of.seq)
        for e in stored
    ]
    assert ships == {s["code"]: s["docked_on"] for s in document["tables"]["fleet.ship"]}
    assert passwords == {"!"}  # every user was created there, none can sign in yet

    again = manage(url, "restore_campaign", str(path))
    assert again.returncode == 2 and "already exists" in again.stderr


# --- the GM's download ---------------------------------------------------------------------


def backup_url(c) -> str:
    return reverse("integrity:backup", args=[c.code])


def test_the_gm_downloads_the_backup_streamed(campaign, cast):
    response = cast.client("gm").get(backup_url(campaign))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="operation-lyran-backup-')
    document = json.loads(b"".join(response.streaming_content))
    assert comparable(document) == comparable(backup.backup_document(campaign))


@pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_downloads_the_backup(cast, who, status):
    assert cast.client(who).get(backup_url(cast.campaign)).status_code == status


def test_the_backup_url_only_answers_get(cast):
    assert cast.client("gm").post(backup_url(cast.campaign)).status_code == 405


@pytest.mark.django_db(transaction=True)
def test_the_command_reads_one_repeatable_read_snapshot_outside_a_transaction(tmp_path, monkeypatch):
    """Run as a command (no transaction around it), the backup opens its own
    repeatable-read transaction, so the rows and the log it writes agree."""
    from tests.factories import CampaignFactory, MembershipFactory

    c = CampaignFactory()
    gm = MembershipFactory(campaign=c, role="gm").user
    ship = ShipFactory(campaign=c, kf_integrity=5, kf_integrity_max=5)
    ruled_jump(c, gm, ship, dice=MICRO_FRACTURES)
    levels = []
    real_rows = backup._rows

    def spy(*args, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SHOW transaction_isolation")
            levels.append(cursor.fetchone()[0])
        yield from real_rows(*args, **kwargs)

    monkeypatch.setattr(backup, "_rows", spy)
    assert not connection.in_atomic_block
    document = write_backup(c, tmp_path / "b.json")
    assert set(levels) == {"repeatable read"}
    assert [s["kf_integrity"] for s in document["tables"]["fleet.ship"]] == [4]
    assert document["log"][0]["effects"][0]["after"] == 4


def test_every_model_that_holds_campaign_data_can_be_backed_up():
    """A guard for models added later: the backup takes every model with a foreign key to
    Campaign; anything else pointing at campaign data would be left behind, a foreign key
    to a model without a natural key cannot be written, and many-to-many links are not
    carried."""
    from django.apps import apps

    owned = set(backup.owned_models()) | {LogEntry}
    assert {Membership, Ship, Unit, Character, Marker} <= owned
    for model in apps.get_models():
        pointing = [f.name for f in model._meta.concrete_fields if f.is_relation and f.related_model in owned]
        assert model in owned or not pointing, (
            f"{model._meta.label}.{pointing} is campaign data the backup misses"
        )
    for model in owned:
        assert not model._meta.many_to_many, f"{model._meta.label} has many-to-many fields the backup skips"
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is not Campaign:
                backup.natural_key_field(field.related_model)  # raises BackupError when there is none
