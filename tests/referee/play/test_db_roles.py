"""The app runs as a database role that owns nothing; migrations run as the owner.

The app's role can read and write rows, but it cannot empty, drop or alter the log's
table, switch off its triggers, or delete or rewrite an entry: only reveal one."""

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import pgtrigger
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from referee.play import services
from referee.play.dbroles import grant_app_role
from referee.play.models import APPEND_ONLY, LogEntry, Visibility
from tests.referee.history import quiet_roll

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not settings.MIGRATE_DATABASE,
        reason="a single-role deployment (DATABASE_URL without MIGRATE_DATABASE_URL)",
    ),
]

ROOT = Path(__file__).resolve().parents[3]


def params(role: str, dbname: str) -> dict:
    db = settings.DATABASES["default"]
    source = settings.MIGRATE_DATABASE if role == settings.MIGRATE_DATABASE["USER"] else db
    found = {"host": db["HOST"], "port": db.get("PORT") or None, "user": role, "dbname": dbname}
    if source.get("PASSWORD") and role == source.get("USER"):
        found["password"] = source["PASSWORD"]
    return {k: v for k, v in found.items() if v}


def as_app(sql: str, dbname: str | None = None) -> None:
    dbname = dbname or connection.settings_dict["NAME"]
    with psycopg.connect(**params(settings.APP_DATABASE_ROLE, dbname)) as conn:
        conn.execute(sql)
        conn.rollback()


REFUSED = {
    "empty the log": "TRUNCATE play_logentry",
    "empty the campaigns (and the log with them)": "TRUNCATE campaigns_campaign CASCADE",
    "drop the log": "DROP TABLE play_logentry",
    "switch off the append-only trigger": "ALTER TABLE play_logentry DISABLE TRIGGER ALL",
    "drop the append-only trigger": "DO $$ BEGIN EXECUTE (SELECT format('DROP TRIGGER %I ON play_logentry', "
    "tgname) FROM pg_trigger WHERE tgrelid = 'play_logentry'::regclass AND tgname LIKE '%append_only%'); END $$",
    "replace the append-only trigger's function": "DO $$ BEGIN EXECUTE (SELECT format("
    "'CREATE OR REPLACE FUNCTION %s() RETURNS trigger AS $f$ BEGIN RETURN NEW; END $f$ LANGUAGE plpgsql', "
    "p.proname) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgrelid = 'play_logentry'::regclass "
    "AND t.tgname LIKE '%append_only%'); END $$",
    "delete an entry": "DELETE FROM play_logentry WHERE false",
    "rewrite an entry": "UPDATE play_logentry SET summary = 'x', hash = 'y' WHERE false",
    "create a table": "CREATE TABLE shadow_log (id int)",
    "become the owner": f'SET ROLE "{(settings.MIGRATE_DATABASE or {}).get("USER")}"',
}


@pytest.mark.parametrize("what", sorted(REFUSED))
def test_the_apps_role_cannot(what):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        as_app(REFUSED[what])


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM play_logentry",
        "UPDATE play_logentry SET revealed_at = now() WHERE false",
        "UPDATE play_logentry SET actor_id = NULL WHERE false",
        "UPDATE fleet_ship SET kf_integrity = 0 WHERE false",
        "DELETE FROM fleet_ship WHERE false",
        "SELECT nextval(pg_get_serial_sequence('play_logentry', 'id'))",
    ],
)
def test_the_apps_role_can_do_what_the_app_does(sql):
    as_app(sql)


# --- the log's guard cannot be held off by the app's role ------------------------------------


@pytest.fixture
def committed_log(transactional_db, cast):
    """A log the app's own connection can see (committed): a revealed GM-only entry and a
    public one, both written by the GM."""

    def resolve(visibility):
        return quiet_roll(cast.campaign, cast.gm, visibility=visibility)

    revealed = resolve(Visibility.GM)
    services.log_entry_reveal(entry=revealed, actor=cast.gm)
    public = resolve(Visibility.EVERYONE)
    return cast, revealed, public


def as_app_ignoring_the_guard(sql: str, params: list) -> None:
    """Run ``sql`` as the app's role with pgtrigger's ignore setting naming the log's
    guard, exactly as ``pgtrigger.ignore("play.LogEntry:append_only")`` sets it."""
    ignored = "{play.LogEntry:append_only," + APPEND_ONLY.get_pgid(LogEntry) + "}"
    with psycopg.connect(**params_of_app()) as conn:
        conn.execute("SELECT set_config('pgtrigger.ignore', %s, false)", [ignored])
        conn.execute(sql, params)
        conn.commit()


def params_of_app() -> dict:
    return params(settings.APP_DATABASE_ROLE, connection.settings_dict["NAME"])


def test_the_apps_role_cannot_hide_a_revealed_entry_again_by_ignoring_the_guard(committed_log):
    _, revealed, _ = committed_log
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="can only be revealed"):
        as_app_ignoring_the_guard("UPDATE play_logentry SET revealed_at = NULL WHERE id = %s", [revealed.pk])
    revealed.refresh_from_db()
    assert revealed.revealed_at is not None


def test_the_apps_role_cannot_redate_a_reveal_or_change_an_entrys_actor_by_ignoring_the_guard(
    committed_log,
):
    cast, revealed, public = committed_log
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="can only be revealed"):
        as_app_ignoring_the_guard(
            "UPDATE play_logentry SET revealed_at = revealed_at - interval '1 day' WHERE id = %s",
            [revealed.pk],
        )
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="can only be revealed"):
        as_app_ignoring_the_guard(
            "UPDATE play_logentry SET actor_id = %s WHERE id = %s", [cast.player.pk, public.pk]
        )
    public.refresh_from_db()
    assert public.actor_id == cast.gm.pk


@pytest.fixture
def app_role_with_every_row_right():
    """The app's role as if it had been granted UPDATE and DELETE on the whole log: the
    guard, not the grants alone, must still refuse. The grants are restored after."""
    role = connection.ops.quote_name(settings.APP_DATABASE_ROLE)
    with connection.cursor() as cursor:
        cursor.execute(f"GRANT UPDATE, DELETE ON play_logentry TO {role}")
    try:
        yield
    finally:
        grant_app_role()


def test_the_guard_refuses_a_rewrite_or_delete_even_when_ignored_by_a_role_with_the_rights(
    committed_log, app_role_with_every_row_right
):
    _, revealed, public = committed_log
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="can only be revealed"):
        as_app_ignoring_the_guard("UPDATE play_logentry SET summary = 'x' WHERE id = %s", [public.pk])
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="cannot be deleted"):
        as_app_ignoring_the_guard("DELETE FROM play_logentry WHERE id = %s", [revealed.pk])
    public.refresh_from_db()
    assert public.summary != "x" and LogEntry.objects.filter(pk=revealed.pk).exists()


def test_the_tables_owner_may_still_hold_the_guard_off(committed_log):
    """The owner could drop the trigger anyway; verification is what catches its rewrites."""
    _, _, public = committed_log
    with pgtrigger.ignore("play.LogEntry:append_only"):
        LogEntry.objects.filter(pk=public.pk).update(summary="rewritten by the owner")
    public.refresh_from_db()
    assert public.summary == "rewritten by the owner"


def test_the_tables_belong_to_the_owner_role_not_the_app():
    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
        owners = {row[0] for row in cursor.fetchall()}
    assert owners == {settings.MIGRATE_DATABASE["USER"]}
    assert settings.APP_DATABASE_ROLE not in owners


def _url(role: str, dbname: str) -> str:
    p = params(role, dbname)
    url = f"postgres://{quote(role, safe='')}@/{dbname}?host={quote(p['host'], safe='')}"
    if p.get("port"):
        url += f"&port={p['port']}"
    if p.get("password"):
        url += f"&password={quote(p['password'], safe='')}"
    return url


@pytest.fixture
def deployment():
    """A brand-new database set up as documented for DATABASE_URL deployments: the app's
    DATABASE_URL names the role that owns nothing, MIGRATE_DATABASE_URL the owner."""
    owner = settings.MIGRATE_DATABASE["USER"]
    name = f"referee_roles_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**params(owner, "postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": _url(settings.APP_DATABASE_ROLE, name),
        "MIGRATE_DATABASE_URL": _url(owner, name),
    }

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    try:
        yield name, manage
    finally:
        with psycopg.connect(**params(owner, "postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_deployment_migrates_as_the_owner_and_serves_as_a_role_that_owns_nothing(deployment):
    name, manage = deployment
    migrated = manage("migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    loaded = manage("load_demo")  # the app's own writes, log entries included, as its role
    assert loaded.returncode == 0, loaded.stderr
    with psycopg.connect(**params(settings.APP_DATABASE_ROLE, name)) as conn:
        code, entries = conn.execute(
            "SELECT c.code::text, count(e.id) FROM campaigns_campaign c "
            "LEFT JOIN play_logentry e ON e.campaign_id = c.id GROUP BY c.code"
        ).fetchone()
    verified = manage("verify_log", code)
    assert verified.returncode == 0 and verified.stdout == f"chain holds: {entries} entries\n"
    for sql in (REFUSED["empty the log"], REFUSED["switch off the append-only trigger"]):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            as_app(sql, dbname=name)
