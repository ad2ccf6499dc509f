"""What keeps players' pages live: the cheap "nothing changed" answer of the status poll.

Every open player page asks about once a second whether its campaign moved past the
version it shows. The usual path costs three queries (session, user, membership) and
the whole authentication machinery; this one answers "nothing changed" with a single
query that reads the session, the membership and the campaign's version together, and
checks the session exactly as ``django.contrib.auth`` does (the user's id, an allowed
backend, an active user, the session hash). Anything it cannot vouch for (a changed
version, an odd session, another session engine, a rotated secret key) falls through
to the usual path, which answers as before."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from referee.campaigns.models import Campaign, Membership

from .models import LogEntry

DB_SESSIONS = "django.contrib.sessions.backends.db"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"  # get_user(): an active user, by id


def _poll_sql() -> str:
    """The session, each member's credentials, and the version each member's role sees
    (``selectors.poll_version``: players' leaves out the campaign's hidden entries)."""
    user = get_user_model()._meta.db_table
    hidden = (
        f"(SELECT count(*) FROM {LogEntry._meta.db_table} h WHERE h.campaign_id = c.id "
        f"AND h.visibility = 'gm' AND h.revealed_at IS NULL)"
    )
    return (
        f"SELECT s.session_data, m.user_id, u.password, "
        f"CASE WHEN m.role = 'gm' THEN c.state_version ELSE c.state_version - {hidden} END "
        f"FROM {Session._meta.db_table} s "
        f"JOIN {Campaign._meta.db_table} c ON c.code = %s "
        f"JOIN {Membership._meta.db_table} m ON m.campaign_id = c.id "
        f"JOIN {user} u ON u.id = m.user_id AND u.is_active "
        f"WHERE s.session_key = %s AND s.expire_date > %s"
    )


def unchanged_for_member(request: HttpRequest, code, version: str) -> bool:
    """True when the visitor is signed in, a member of campaign ``code``, and its state
    is still at ``version``: one round trip to the database, no session write."""
    if settings.SESSION_ENGINE != DB_SESSIONS or not version.isdigit():
        return False
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key or len(session_key) > 40:
        return False
    with connection.cursor() as cursor:
        cursor.execute(_poll_sql(), [str(code), session_key, timezone.now()])
        rows = cursor.fetchall()
    if not rows:
        return False
    session = request.session.decode(rows[0][0])
    backend = session.get(BACKEND_SESSION_KEY)
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS:
        return False
    user_id, session_hash = str(session.get(SESSION_KEY)), session.get(HASH_SESSION_KEY) or ""
    for _data, member_id, password, state_version in rows:
        if str(member_id) != user_id:
            continue
        expected = get_user_model()(password=password).get_session_auth_hash()
        return constant_time_compare(session_hash, expected) and str(state_version) == version
    return False
