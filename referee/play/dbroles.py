"""Two database roles: the owner runs migrations, the app runs as a role that owns nothing.

The app's role may read and write rows, but not TRUNCATE, drop or alter a table, or
disable a trigger (only a table's owner may), and on the turn log it may only insert and
reveal (UPDATE of ``revealed_at``, and of ``actor_id`` when a user is deleted): it cannot
delete or rewrite an entry even with the log's triggers out of the way. Nor can it hold
the log's guard off with ``pgtrigger.ignore``: the guard honours that setting only for
the table's owner (``models.OwnerIgnorableTrigger``).

``manage.py migrate`` switches to the owner's credentials (``settings.MIGRATE_DATABASE``)
by itself and grants the app's role (``settings.APP_DATABASE_ROLE``) what it needs after
every run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connections

from .models import LogEntry

# The log's columns the app may change: a reveal, and forgetting a deleted user.
LOG_UPDATABLE = ("revealed_at", "actor_id")


def separate_owner(alias: str = "default") -> bool:
    owner = settings.MIGRATE_DATABASE
    return bool(owner) and alias == "default" and owner.get("USER") != settings.APP_DATABASE_ROLE


@contextmanager
def as_owner(alias: str = "default") -> Iterator[None]:
    """Run the block on ``alias`` as the owner role (same database, owner's credentials)."""
    if not separate_owner(alias):
        yield
        return
    connection = connections[alias]
    saved = dict(connection.settings_dict)
    owner = settings.MIGRATE_DATABASE
    connection.close()
    connection.settings_dict.update(
        {key: owner[key] for key in ("USER", "PASSWORD", "HOST", "PORT") if owner.get(key)}
    )
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def grant_app_role(alias: str = "default") -> None:
    """Give the app's role row access to every table, and on the log only insert and reveal.
    Run as the owner after migrating; idempotent."""
    role = settings.APP_DATABASE_ROLE
    if not role:
        return
    connection = connections[alias]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        if cursor.fetchone()[0] == role:
            return  # a single-role deployment: the app owns its tables

        log = quote(LogEntry._meta.db_table)
        app = quote(role)
        for statement in (
            f"GRANT USAGE ON SCHEMA public TO {app}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {app}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {app}",
            f"REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM {app}",
            f"REVOKE UPDATE, DELETE ON {log} FROM {app}",
            f"GRANT UPDATE ({', '.join(LOG_UPDATABLE)}) ON {log} TO {app}",
        ):
            cursor.execute(statement)
