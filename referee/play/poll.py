"""The status poll's quick answer: "nothing you can see changed" (204) for a signed-in
member, in one prepared statement and before the rest of the request machinery runs.

Every open player page asks about once a second whether its campaign moved past the
version it shows. The usual path costs the whole middleware stack, three queries (session,
user, membership) and a render. This one answers "nothing changed" with a single statement
that reads the session, the membership and the version together, and checks the session
exactly as ``django.contrib.auth`` does (the user's id, an allowed backend, an active user,
the session hash). The statement is prepared once per database connection: PostgreSQL plans
a four-table join in half a millisecond, five times longer than it takes to run.

Anything it cannot vouch for (a changed version, no or an odd session, another session
engine, a host not allowed, a request the security middleware would redirect, a database
error) falls through to the usual path, which answers as before. Nothing is written: no
session save, no cookie."""

from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from importlib import import_module

import psycopg
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from referee.campaigns.models import Campaign, Membership
from referee.content_policy import policy_added
from referee.sessions import well_formed

from .models import LogEntry, hidden_sql

logger = logging.getLogger(__name__)

# Session engines that keep sessions in the database table the statement reads.
DB_SESSIONS = ("referee.sessions", "django.contrib.sessions.backends.db")
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"  # get_user(): an active user, by id
# The status poll's URL (``play:status``), as the URL resolver's uuid converter reads it.
STATUS_PATH = re.compile(r"/c/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/status/")


@lru_cache(maxsize=1)
def member_sql() -> str:
    """The session, each member's credentials and role, the version each role sees
    (``selectors.poll_version``: players' leaves out the entries hidden from them), what
    names a kept page (``kept_pages``: the campaign's id, version and creation, the user's
    name), and the user's row (``user_of``)."""
    user = get_user_model()._meta.db_table
    hidden = (
        f"(SELECT count(*) FROM {LogEntry._meta.db_table} h "
        f"WHERE h.campaign_id = c.id AND {hidden_sql('h', 'm.user_id')})"
    )
    return (
        f"SELECT s.session_data, m.user_id, u.password, m.role, "
        f"CASE WHEN m.role = 'gm' THEN c.state_version ELSE c.state_version - {hidden} END, "
        f"c.id, c.state_version, c.created_at, u.username, row_to_json(u)::text "
        f"FROM {Session._meta.db_table} s "
        f"JOIN {Campaign._meta.db_table} c ON c.code = %s "
        f"JOIN {Membership._meta.db_table} m ON m.campaign_id = c.id "
        f"JOIN {user} u ON u.id = m.user_id AND u.is_active "
        f"WHERE s.session_key = %s AND s.expire_date > %s"
    )


USER_AT = 9  # where the user's row (as JSON text: read only when it is needed) is in ``member_sql``'s


def user_of(row: tuple):
    """The user of a member's ``row``, as ``ModelBackend.get_user`` loads it."""
    model = get_user_model()
    values = json.loads(row[USER_AT])
    fields = model._meta.concrete_fields
    return model.from_db(
        "default", [f.attname for f in fields], [f.to_python(values[f.column]) for f in fields]
    )


def vouch(request: HttpRequest, row: tuple) -> None:
    """The request goes on down the stack with the user its session holds, found by the
    statement as ``django.contrib.auth.get_user`` would find them: the stack's lazy
    ``request.user`` reads it (``AuthenticationMiddleware`` keeps it as ``_cached_user``)
    instead of reading the session and the user again."""
    request._cached_user = user_of(row)


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


MESSAGES_SESSION_KEY = "_messages"  # django.contrib.messages' SessionStorage


def _session_hash(password: str) -> str:
    """The session hash of a user whose password (hash) is ``password``, as the user model
    computes it; it depends on nothing else but the secret key, so it is kept per process."""
    return _session_hash_signed(password, settings.SECRET_KEY)


@lru_cache(maxsize=4096)
def _session_hash_signed(password: str, _secret: str) -> str:
    return get_user_model()(password=password).get_session_auth_hash()


def member_row(rows: list) -> tuple | None:
    """The row of the member the session in ``rows`` holds for, as
    ``django.contrib.auth.get_user`` would judge it (its current secret); else None."""
    if not rows:
        return None
    user_id, backend, session_hash, _messages = _claims(rows[0][0])
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    for row in rows:
        if str(row[1]) == user_id:
            if session_hash and constant_time_compare(session_hash, _session_hash(row[2])):
                return row
            return None
    return None


def membership_of(rows: list) -> tuple[str, int, int] | None:
    """(role, version, user id) of the member the session in ``rows`` holds for, else None."""
    row = member_row(rows)
    return (row[3], row[4], row[1]) if row else None


def messages_waiting(row: tuple) -> bool:
    """Whether the session of a member's ``row`` holds messages for their next page."""
    return _claims(row[0])[3]


# Set when the database connection lost a prepared statement (a pooler handed it to another
# client): from then on this process sends the statement whole.
_lost_prepared: list[bool] = []


def _use_prepared() -> bool:
    return not _lost_prepared and getattr(settings, "DATABASE_PREPARED_STATEMENTS", True)


def _member_rows(code: str, key: str) -> list:
    """The statement's rows, over the request's own connection (through Django's cursor
    wrapper, so it is counted, logged and its errors read as any query's). Prepared once
    per connection by psycopg (named, and prepared again after a reconnect); without
    prepared statements (a pooler that does not keep them), sent whole each time. No
    health check first: a connection the server closed fails here, and the usual path,
    which checks, connects afresh."""
    params = [code, key, timezone.now()]
    if not _use_prepared():
        with connection.cursor() as cursor:
            cursor.execute(member_sql(), params)
            return cursor.fetchall()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django's default; its own cursors never prepare,
        raw.prepare_threshold = 0  # so only the server-side binding cursor below does
    if not connection.queries_logged:
        with connection.make_cursor(psycopg.Cursor(raw)) as cursor:
            cursor.execute(member_sql(), params)
            return cursor.fetchall()
    with connection.make_debug_cursor(psycopg.Cursor(raw)) as cursor:
        cursor.execute(member_sql(), params)
        rows = cursor.fetchall()
    if connection.queries_log and connection.queries_log[-1]["sql"] is None:  # sent by name
        connection.queries_log[-1]["sql"] = connection.ops.compose_sql(member_sql(), params)
    return rows


def member_version(request: HttpRequest, code: str) -> tuple[str, int, int] | None:
    """(role, version the member sees, user id) for the visitor of campaign ``code``, or
    None when the session does not vouch for a member. One statement."""
    row = member(request, code)
    return (row[3], row[4], row[1]) if row else None


def member(request: HttpRequest, code: str) -> tuple | None:
    """The visitor's row of ``member_sql`` for campaign ``code`` (session data, user id,
    password, role, version, campaign id, state version, creation, user name), or None
    when the session does not vouch for a member. One statement."""
    key = session_key(request)
    if key is None:
        return None
    try:
        rows = _member_rows(code, key)
    except (OperationalError, InterfaceError):
        return None  # the usual path checks the connection and connects afresh
    except ProgrammingError as error:
        if not isinstance(error.__cause__, psycopg.errors.InvalidSqlStatementName):
            raise
        # A pooler handed the connection's statements to another client: send it whole from now on.
        logger.warning(
            "The database connection does not keep prepared statements; set DATABASE_PREPARED_STATEMENTS=false."
        )
        _lost_prepared.append(True)
        return None
    return member_row(rows)


def unchanged_for_member(request: HttpRequest, code, version: str) -> bool:
    """True when the visitor is signed in, a member of campaign ``code``, and what they see
    of it is still at ``version``: one round trip to the database, nothing written."""
    if not (version.isascii() and version.isdigit()):
        return False
    found = member_version(request, str(code))
    return found is not None and str(found[1]) == version


class StatusPollMiddleware:
    """The status poll's "nothing changed" answered first in the stack (a plain GET of
    ``/c/<code>/status/?v=<version>``): what the stack below would add to a 204 it adds
    (the security and frame headers); what it would refuse or redirect, and every other
    answer, it leaves to the stack."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.security = SecurityMiddleware(get_response)
        self.frames = XFrameOptionsMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and (found := STATUS_PATH.fullmatch(request.path_info)):
            response = self.unchanged(request, found.group(1))
            if response is not None:
                return response
        return self.get_response(request)

    def may_answer(self, request: HttpRequest) -> bool:
        """Whether the stack would let this request through to a view: an allowed host,
        nothing to redirect to HTTPS, no refused user agent."""
        if settings.DISALLOWED_USER_AGENTS:
            return False
        try:
            request.get_host()
        except DisallowedHost:
            return False  # the stack answers 400
        return self.security.process_request(request) is None  # else the stack redirects

    def finish(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """The headers the stack adds to every answer."""
        self.security.process_response(request, response)
        return policy_added(request, self.frames.process_response(request, response))

    def unchanged(self, request: HttpRequest, code: str) -> HttpResponse | None:
        """204 with the version the member sees (``X-Campaign-Version``) when it is still
        ``v``, or whatever it is for a GM page's watch (``watch``), as the view answers."""
        version, watch = request.GET.get("v", ""), bool(request.GET.get("watch"))
        if not (watch or version.isdigit()) or not self.may_answer(request):
            return None
        row = member(request, code)
        if row is None:
            return None
        if not (watch or str(row[4]) == version):
            vouch(request, row)  # the view renders the change for the user the session holds
            return None
        response = HttpResponse(status=204)
        response["X-Campaign-Version"] = str(row[4])
        return self.finish(request, response)
