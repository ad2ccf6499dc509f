"""Authentication and campaign access for every campaign page, in one statement.

Every view under ``/c/<code>/`` is wrapped by ``member_view`` or ``gm_view``. They call
``visitor(request, code)`` once per request, which runs one prepared statement
(``member_sql``) reading the session row, the membership, the user, the campaign and the
version the member sees together, and authenticates the session exactly as
``django.contrib.auth.get_user`` does (the user's id, an allowed backend, an active user,
the session auth hash). The views then run inside Django's whole middleware stack like any
other view; the decorators set ``request.user`` to the user the statement read, so neither
``SessionMiddleware`` nor ``AuthenticationMiddleware`` queries the database again. The
statement is prepared once per database connection: PostgreSQL plans the join in half a
millisecond, several times longer than it takes to run.

What the statement cannot authenticate (no or a malformed session cookie, another session
engine, a session signed with a fallback key, a database error) goes through Django's
authentication (``request.user``) and one membership query, so the answer is always the
one ``django.contrib.auth`` would give. Nothing is written: the session is not saved."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial, wraps
from importlib import import_module
from typing import Any

import psycopg
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from referee.campaigns.models import Campaign, Membership, Role
from referee.sessions import well_formed

from . import door_cache
from .models import LogEntry, hidden_sql
from .selectors import poll_version

logger = logging.getLogger(__name__)

# Session engines that keep sessions in the database table the statement reads.
DB_SESSIONS = ("referee.sessions", "django.contrib.sessions.backends.db")
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"  # get_user(): an active user, by id
MESSAGES_SESSION_KEY = "_messages"  # django.contrib.messages' SessionStorage


@dataclass(frozen=True, slots=True)
class Visitor:
    """A member of a campaign, as the door found them: the user (as Django's authentication
    loads them), their role, the campaign, the version of it they see (players' leaves out
    what is hidden from them) and whether messages wait in their session."""

    user: Any
    role: str
    campaign: Campaign
    version: str
    messages_waiting: bool = False
    code: str = ""  # the campaign's code, as the URL named it

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


# The statement's columns, by name, in the order it selects them.
MEMBER_COLUMNS = (
    "session_data",
    "expire_date",
    "user_id",
    "password",
    "role",
    "version",
    "campaign_row",
    "user_row",
)


@lru_cache(maxsize=1)
def member_sql() -> str:
    """The session, the member's credentials and role, the version they see
    (``selectors.poll_version``: players' leaves out the entries hidden from them), and the
    campaign's and the user's rows (as JSON text: read only when the view reads them).

    Parameters: the campaign's code, the user id the session key was signed in for if the
    door knows it (``None``: every member's row, for the session to pick from), the session
    key and the time now. With the user id the statement returns at most one row."""
    user = get_user_model()._meta.db_table
    user_id = get_user_model()._meta.pk.rel_db_type(connection)
    hidden = (
        f"(SELECT count(*) FROM {LogEntry._meta.db_table} h "
        f"WHERE h.campaign_id = c.id AND {hidden_sql('h', 'm.user_id')})"
    )
    columns = (
        "s.session_data",
        "s.expire_date",
        "m.user_id",
        "u.password",
        "m.role",
        "CASE WHEN m.role = 'gm' THEN c.state_version "
        f"ELSE c.state_version - c.unseen_version - {hidden} END",
        "row_to_json(c)::text",
        "row_to_json(u)::text",
    )
    selected = ", ".join(f"{sql} AS {name}" for sql, name in zip(columns, MEMBER_COLUMNS, strict=True))
    return (
        f"SELECT {selected} "
        f"FROM {Session._meta.db_table} s "
        f"JOIN {Campaign._meta.db_table} c ON c.code = %s "
        f"JOIN {Membership._meta.db_table} m ON m.campaign_id = c.id "
        f"AND m.user_id = coalesce(%s::{user_id}, m.user_id) "
        f"JOIN {user} u ON u.id = m.user_id AND u.is_active "
        f"WHERE s.session_key = %s AND s.expire_date > %s"
    )


def member_params(code: str, key: str) -> list:
    """``member_sql``'s parameters for session ``key`` asking about campaign ``code``."""
    return [code, session_users.get(key), key, timezone.now()]


def named(rows: list[tuple]) -> list[dict]:
    """``member_sql``'s rows by column name."""
    return [dict(zip(MEMBER_COLUMNS, row, strict=True)) for row in rows]


# The user each session key was signed in for, as last authenticated here, so the statement
# reads that member's row alone. A key names one user for its whole life (Django's login()
# gives the session a new key whenever someone signs in), and the door still checks the
# session's own claim against the row: a wrong entry costs one answer through Django's
# authentication, never a wrong one.
session_users: dict[str, int] = {}
SESSION_USERS_KEPT = 10_000


def _remember(key: str, row: dict | None) -> None:
    if row is None:
        session_users.pop(key, None)
        return
    if len(session_users) >= SESSION_USERS_KEPT:
        session_users.clear()
    session_users[key] = row["user_id"]


def _from_row(model, text: str):
    """An instance of ``model`` from its row as ``row_to_json`` wrote it, as the ORM loads one."""
    values = json.loads(text)
    fields = model._meta.concrete_fields
    return model.from_db(
        "default", [f.attname for f in fields], [f.to_python(values[f.column]) for f in fields]
    )


def user_of(row: dict):
    """The user of a member's ``row``, as ``ModelBackend.get_user`` loads them."""
    return _from_row(get_user_model(), row["user_row"])


def campaign_of(row: dict) -> Campaign:
    return _from_row(Campaign, row["campaign_row"])


def session_key(request: HttpRequest) -> str | None:
    if settings.SESSION_ENGINE not in DB_SESSIONS:
        return None
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    return key if well_formed(key) else None


def _claims(session_data: str) -> tuple[str, str, str, bool]:
    """(user id, backend, session hash, whether messages wait in it) a session's stored
    data claims, read as ``SessionStore.decode`` reads it (a bad signature claims nothing).
    Kept per process by the data and the key that signs it: they always claim the same."""
    return _claims_signed(session_data, settings.SECRET_KEY)


@lru_cache(maxsize=4096)
def _claims_signed(session_data: str, _secret: str) -> tuple[str, str, str, bool]:
    session = import_module(settings.SESSION_ENGINE).SessionStore().decode(session_data)
    return (
        str(session.get(SESSION_KEY)),
        session.get(BACKEND_SESSION_KEY) or "",
        session.get(HASH_SESSION_KEY) or "",
        bool(session.get(MESSAGES_SESSION_KEY)),
    )


def _session_hash(password: str) -> str:
    """The session hash of a user whose password (hash) is ``password``, as the user model
    computes it; it depends on nothing else but the secret key, so it is kept per process."""
    return _session_hash_signed(password, settings.SECRET_KEY)


@lru_cache(maxsize=4096)
def _session_hash_signed(password: str, _secret: str) -> str:
    return get_user_model()(password=password).get_session_auth_hash()


def member_row(rows: list[dict]) -> dict | None:
    """The row of the member the session in ``rows`` holds for, as
    ``django.contrib.auth.get_user`` would judge it (its current secret); else None."""
    if not rows:
        return None
    user_id, backend, session_hash, _messages = _claims(rows[0]["session_data"])
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    for row in rows:
        if str(row["user_id"]) == user_id:
            if session_hash and constant_time_compare(session_hash, _session_hash(row["password"])):
                return row
            return None
    return None


def checked_row(key: str, rows: list[dict]) -> dict | None:
    """``member_row`` of the statement's ``rows`` for session ``key``, remembering whose
    session it is for the next time it asks."""
    row = member_row(rows)
    _remember(key, row)
    return row


def messages_waiting(row: dict) -> bool:
    """Whether the session of a member's ``row`` holds messages for their next page."""
    return _claims(row["session_data"])[3]


# Set when the database connection lost a prepared statement (a pooler handed it to another
# client): from then on this process sends the statement whole.
_lost_prepared: list[bool] = []


def _use_prepared() -> bool:
    return not _lost_prepared and getattr(settings, "DATABASE_PREPARED_STATEMENTS", True)


def _member_rows(code: str, key: str) -> list[dict]:
    """The statement's rows, over the request's own connection (through Django's cursor
    wrapper, so it is counted, logged and its errors read as any query's). Prepared once
    per connection by psycopg (named, and prepared again after a reconnect); without
    prepared statements (a pooler that does not keep them), sent whole each time."""
    params = member_params(code, key)
    if not _use_prepared():
        with connection.cursor() as cursor:
            cursor.execute(member_sql(), params)
            return named(cursor.fetchall())
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django's default; its own cursors never prepare,
        raw.prepare_threshold = 0  # so only the server-side binding cursor below does
    if not connection.queries_logged:
        with connection.make_cursor(psycopg.Cursor(raw)) as cursor:
            cursor.execute(member_sql(), params)
            return named(cursor.fetchall())
    with connection.make_debug_cursor(psycopg.Cursor(raw)) as cursor:
        cursor.execute(member_sql(), params)
        rows = named(cursor.fetchall())
    if connection.queries_log and connection.queries_log[-1]["sql"] is None:  # sent by name
        connection.queries_log[-1]["sql"] = connection.ops.compose_sql(member_sql(), params)
    return rows


def member(request: HttpRequest, code: str) -> dict | None:
    """The visitor's row of ``member_sql`` for campaign ``code``, or None when the
    statement cannot authenticate a member. One statement, or none when the door's cache
    (``door_cache``) still holds the row for this session and campaign."""
    key = session_key(request)
    if key is None:
        return None
    cached = door_cache.cache.usable(request.method)
    if cached and (row := door_cache.cache.get(key, code)) is not None:
        return row
    mark = door_cache.cache.mark(code) if cached else None
    row = _member_by_statement(code, key)
    if row is not None:
        door_cache.cache.put(key, code, row, mark)
    return row


def _member_by_statement(code: str, key: str) -> dict | None:
    try:
        rows = _member_rows(code, key)
    except (OperationalError, InterfaceError):
        return None  # Django's authentication checks the connection and connects afresh
    except ProgrammingError as error:
        if not isinstance(error.__cause__, psycopg.errors.InvalidSqlStatementName):
            raise
        # A pooler handed the connection's statements to another client: send it whole from now on.
        logger.warning(
            "The database connection does not keep prepared statements; set DATABASE_PREPARED_STATEMENTS=false."
        )
        _lost_prepared.append(True)
        return None
    return checked_row(key, rows)


def _by_authentication(request: HttpRequest, code) -> Visitor | None:
    """The visitor as ``AuthenticationMiddleware`` authenticates them (another session
    engine or backend, a session signed with a fallback key), and their membership: for
    what the statement could not authenticate."""
    user = request.user
    if not user.is_authenticated:
        return None
    try:
        membership = Membership.objects.select_related("campaign").get(campaign__code=code, user=user)
    except (Membership.DoesNotExist, ValueError):
        return None
    campaign, role = membership.campaign, membership.role
    hidden = None if role == Role.GM else LogEntry.objects.in_campaign(campaign).hidden(user).count()
    version = poll_version(campaign, role, hidden=hidden)
    # Whether messages wait in a session read this way is not known: say they may, so no
    # cached page is served where the rendered one would show them.
    return Visitor(
        user=user, role=role, campaign=campaign, version=version, messages_waiting=True, code=str(code)
    )


VISITOR_ATTR = "visitor"  # the request attribute holding the Visitor, as request.user holds the user


def visitor(request: HttpRequest, code) -> Visitor | None:
    """Who is asking about campaign ``code``: a member (and ``request.user`` is then the user
    the door read), or None for anyone else. Asked once per request."""
    found = getattr(request, VISITOR_ATTR, None)
    if found is not None and found.code == str(code):
        return found
    row = member(request, str(code))
    if row is not None:
        # The user and the campaign are built from their rows when first read, as Django's
        # authentication middleware builds request.user: a poll answering 204 reads neither.
        found = Visitor(
            user=SimpleLazyObject(partial(user_of, row)),
            role=row["role"],
            campaign=SimpleLazyObject(partial(campaign_of, row)),
            version=str(row["version"]),
            messages_waiting=messages_waiting(row),
            code=str(code),
        )
    else:
        found = _by_authentication(request, code)
    if found is not None:
        request.user = found.user  # the stack's lazy user, read already: nothing reads it again
        setattr(request, VISITOR_ATTR, found)
    return found


def visitor_of(request: HttpRequest) -> Visitor | None:
    """The Visitor ``member_view``/``gm_view`` authenticated for this request, if any."""
    return getattr(request, VISITOR_ATTR, None)


def _allowed(request: HttpRequest, methods: tuple[str, ...]) -> HttpResponseNotAllowed | None:
    if request.method in methods or (request.method == "HEAD" and "GET" in methods):
        return None
    return HttpResponseNotAllowed(methods)


def member_visitor(request: HttpRequest, code) -> Visitor:
    """The visitor, a member of campaign ``code``; 404 for anyone else."""
    found = visitor(request, code)
    if found is None:
        raise Http404("No such campaign")
    return found


def gm_visitor(request: HttpRequest, code) -> Visitor:
    """The visitor, a GM of campaign ``code``: 404 for outsiders, 403 for players."""
    found = member_visitor(request, code)
    if not found.is_gm:
        raise PermissionDenied("Only the campaign's GM can do that.")
    return found


def _served(request: HttpRequest, view: Callable, *args, **kwargs) -> HttpResponse:
    """The view's response. After a form sent or an action taken (it may have changed
    anything), this process's door cache forgets who it had seen, so the next page it
    serves shows the change without waiting for PostgreSQL's word of it."""
    try:
        return view(*args, **kwargs)
    finally:
        if request.method not in door_cache.SAFE_METHODS:
            door_cache.cache.forget()


def member_view(*methods: str) -> Callable:
    """A campaign page for its members: the view gets ``(request, campaign, role, ...)``.

    Access is checked before the method, so an outsider learns nothing (404)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, code, *args, **kwargs) -> HttpResponse:
            found = member_visitor(request, code)
            return _allowed(request, methods) or _served(
                request, view, request, found.campaign, found.role, *args, **kwargs
            )

        wrapper.door = "member"
        return wrapper

    return decorate


def gm_view(*methods: str) -> Callable:
    """A campaign action for its GMs: the view gets ``(request, campaign, ...)``."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, code, *args, **kwargs) -> HttpResponse:
            found = gm_visitor(request, code)
            return _allowed(request, methods) or _served(
                request, view, request, found.campaign, *args, **kwargs
            )

        wrapper.door = "gm"
        return wrapper

    return decorate


def stream_view(kind: str) -> Callable:
    """Marks a live stream (``kind`` "member" or "gm") as behind the door: an async view
    that holds no request connection, it asks the door itself (``member_sql`` and
    ``member_row`` over its process's one connection) when it opens and while it is open."""

    def mark(view: Callable) -> Callable:
        view.door = kind
        return view

    return mark
