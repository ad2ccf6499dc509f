"""What keeps players' pages live: server-sent events that tell an open page its campaign
changed. Every stream asks the door (``referee.play.door``) who is reading when it opens,
before each change it sends and every ``LIVE_RECHECK_S`` while idle, and ends when the
reader may no longer read (removed, logged out, the session expired, the password changed,
the user deactivated)."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import re
from collections import defaultdict

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, StreamingHttpResponse
from django.template.loader import render_to_string

from referee.campaigns.models import Campaign
from referee.play import door
from referee.play.door_cache import conninfo

from .selectors import player_context

# --- server-sent events: players' pages told of changes as they happen ------------------------

CHANNEL = "referee_campaign"  # see campaigns.models.NOTIFY_CHANGED: a campaign's code, nothing more
HEARTBEAT_S = 20.0  # a comment line this often keeps proxies from closing an idle stream
logger = logging.getLogger(__name__)


class Listener:
    """One ``LISTEN`` connection per server process, woken by PostgreSQL after each committed
    change of a campaign, fanning the news out to that campaign's open streams.

    GMs' streams hear of every change (``changed``: re-fetch). Players' streams hear only
    of changes to what they see: on a notification the listener renders the status panel
    once per player of that campaign with a stream open on this server (each player reads
    their own: what is whispered to them, their blind rolls, their records), however many
    tabs they have open, and sends it to that player's streams (``panel``) only when it
    differs from the last one they were sent, so a GM-only roll moves nothing on a player's
    wire. A campaign's players cost one render each per change instead of one request each
    per second. It keeps who is listening and a digest of each player's last panel, never
    campaign state."""

    def __init__(self) -> None:
        self.streams: dict[tuple[str, str], set[asyncio.Queue]] = defaultdict(set)
        self.digests: dict[tuple[str, str], str] = {}
        self.checking: dict[str, asyncio.Task] = {}
        self.recheck: set[str] = set()
        self.task: asyncio.Task | None = None
        self.connected = asyncio.Event()
        self.db: psycopg.AsyncConnection | None = None  # for the streams' membership checks
        self.db_lock = asyncio.Lock()

    async def member_role(self, request: HttpRequest, code) -> tuple[str, int] | None:
        """The visitor's role in campaign ``code`` and user id (None for outsiders), asked
        of the door (its statement and its judgement of the session) over this process's
        one query connection: open streams hold no database connection, and a thousand of
        them opening at once queue for one instead of opening a thousand."""
        key = door.session_key(request)
        if key is None:
            return None
        async with self.db_lock:
            for attempt in (1, 2):
                try:
                    if self.db is None or self.db.closed:
                        self.db = await psycopg.AsyncConnection.connect(conninfo(), autocommit=True)
                    cursor = await self.db.execute(door.member_sql(), door.member_params(str(code), key))
                    rows = door.named(await cursor.fetchall())
                    break
                except psycopg.OperationalError:
                    self.db = None
                    if attempt == 2:
                        raise
        row = door.checked_row(key, rows)
        return (row["role"], row["user_id"]) if row else None

    def start(self) -> None:
        if self.task is None or self.task.done():
            # A context of its own: this task outlives the request that happened to start it.
            self.task = asyncio.get_running_loop().create_task(self._listen(), context=contextvars.Context())

    async def subscribe(self, code: str, role: str) -> asyncio.Queue:
        """``role`` is "gm" or "player:<user id>": each player reads their own panel (what
        is whispered to them, their blind rolls)."""
        self.start()
        if role != "gm" and not self._has(code, role):
            self.digests[(code, role)] = _digest(await player_panel(code, _player_id(role)))
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)  # changes coalesce: one wake-up is enough
        self.streams[(code, role)].add(queue)
        return queue

    def unsubscribe(self, code: str, role: str, queue: asyncio.Queue) -> None:
        key = (code, role)
        streams = self.streams.get(key)
        if streams is not None:
            streams.discard(queue)
            if not streams:
                del self.streams[key]
        if not self._has(code, role):
            self.digests.pop(key, None)

    def _has(self, code: str, role: str) -> bool:
        return bool(self.streams.get((code, role)))

    def _players(self, code: str) -> list[str]:
        return [role for (c, role) in self.streams if c == code and role != "gm"]

    def _send(self, code: str, role: str, event: str) -> None:
        for queue in self.streams.get((code, role), ()):
            if queue.full():  # the reader is behind: only the newest news matters
                queue.get_nowait()
            queue.put_nowait(event)

    def changed(self, code: str) -> None:
        self._send(code, "gm", CHANGED)
        if not self._players(code):
            return
        if code in self.checking:  # a check is running: run one more after it
            self.recheck.add(code)
            return
        self.checking[code] = asyncio.get_running_loop().create_task(
            self._check_players(code), context=contextvars.Context()
        )

    async def _check_players(self, code: str) -> None:
        """Render each listening player's panel once and send it where it changed. A
        campaign has a handful of players; what one reads no other need see."""
        try:
            while True:
                self.recheck.discard(code)
                for role in self._players(code):
                    try:
                        html = await player_panel(code, _player_id(role))
                    except Exception:
                        logger.warning("Could not render what players see; they re-fetch it", exc_info=True)
                        self._send(code, role, CHANGED)
                        continue
                    digest = _digest(html)
                    if digest != self.digests.get((code, role)) and self._has(code, role):
                        self.digests[(code, role)] = digest
                        self._send(code, role, panel_event(html))
                if code not in self.recheck:
                    return
        finally:
            self.checking.pop(code, None)

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    for code in {code for code, _role in self.streams}:  # missed while away
                        self.changed(code)
                    async for notice in conn.notifies():
                        self.changed(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("Live updates lost their database connection; reconnecting", exc_info=True)
            self.connected.clear()
            await asyncio.sleep(1.0)


def _player_id(role: str) -> int:
    return int(role.partition(":")[2])


@sync_to_async(thread_sensitive=False)
def player_panel(code: str, user_id: int) -> str:
    """The status panel player ``user_id`` sees, as the status poll renders it."""
    close_old_connections()  # this worker thread serves no request that would do it
    try:
        campaign = Campaign.objects.filter(code=code).first()
        user = get_user_model().objects.filter(pk=user_id).first()
        if campaign is None or user is None:
            return ""
        context = player_context(campaign, user)
        return render_to_string("campaigns/player.html#status-panel", context)
    finally:
        close_old_connections()


VERSION_IN_URL = re.compile(r"\?v=\d+")
CHANGED = "event: changed\ndata: \n\n"


def _digest(html: str) -> str:
    """What players see, without the version the panel polls from (it moves on GM-only
    changes too)."""
    return hashlib.sha256(VERSION_IN_URL.sub("", html).encode()).hexdigest()


def panel_event(html: str) -> str:
    return "event: panel\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"


_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}


def listener() -> Listener:
    loop = asyncio.get_running_loop()
    if loop not in _listeners:
        _listeners[loop] = Listener()
    return _listeners[loop]


@sync_to_async
def _role_under_wsgi(request: HttpRequest, code) -> str | None:
    found = door.visitor(request, code)
    return None if found is None else found.role


@door.stream_view("gm")
async def gm_stream(request: HttpRequest, code) -> HttpResponse:
    """The GM pages' stream: a bare ``changed`` after each change of the campaign, which
    the page answers by refreshing its panels (``campaign-changed``). GMs only: 404 for
    outsiders, 403 for players, whether or not the ASGI server serves it (under WSGI the
    GM gets 204 and the page keeps its version poll)."""
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    if not isinstance(request, ASGIRequest):
        role = await _role_under_wsgi(request, code)
        if role is None:
            raise Http404("No such campaign")
        if role != "gm":
            raise PermissionDenied("Only the campaign's GM can do that.")
        return HttpResponse(status=204)
    return await live_stream(request, code, gm_only=True)


@door.stream_view("member")
async def live_stream(request: HttpRequest, code, *, gm_only: bool = False) -> HttpResponse:
    """``text/event-stream`` for a campaign's members: after each change its reader can see,
    the new status panel (``panel``, players) or a bare ``changed`` (GMs), see ``Listener``.
    Served by the ASGI server; under WSGI it answers 204, which tells the browser not to
    retry, so the page keeps polling."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    hub = listener()
    member = await hub.member_role(request, code)
    if member is None:
        raise Http404("No such campaign")
    if gm_only and member[0] != "gm":
        raise PermissionDenied("Only the campaign's GM can do that.")
    role = "gm" if member[0] == "gm" else f"player:{member[1]}"
    key = str(code)
    queue = await hub.subscribe(key, role)

    async def still_allowed() -> bool:
        """Whether the door still lets this reader in as they came: the same member, the
        same role, the session alive (not logged out or expired, the password unchanged,
        the user active)."""
        try:
            return await hub.member_role(request, code) == member
        except psycopg.Error:
            # Fail closed: the stream ends and the page falls back to its poll, which asks
            # the door again (a removed reader is never kept on a check that cannot run).
            return False

    async def events():
        try:
            yield "retry: 3000\n: connected\n\n"
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), timeout=recheck_s())
                except TimeoutError:
                    event = None
                if not await still_allowed():
                    return  # no longer theirs to read: the stream ends, the page falls back to its poll
                if event is not None:
                    last_sent[0] = loop.time()
                    yield event
                elif (now := loop.time()) - last_sent[0] >= HEARTBEAT_S:
                    last_sent[0] = now
                    yield ": still here\n\n"
        finally:
            hub.unsubscribe(key, role, queue)

    loop = asyncio.get_running_loop()
    last_sent = [loop.time()]
    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response


def recheck_s() -> float:
    """How often an idle stream asks the door again whether its reader may still read."""
    return min(float(settings.LIVE_RECHECK_S), HEARTBEAT_S)
