"""The door's cache of who is asking: in each server process, the row the door's statement
read for a session and a campaign, kept while PostgreSQL says nothing it was read from
changed, so that a poll asking again and again ("has anything changed?") or a page served
from the page cache is answered without a round trip to the database.

What keeps it right is PostgreSQL's ``LISTEN``/``NOTIFY``, over one connection per process
held by a background thread:

- ``referee_campaign`` (campaigns.0005): after each committed change of a campaign, its
  code. Everything a member's row holds of a campaign (its version, the players' hidden
  entries, the memberships) moves the campaign's row, so this forgets that campaign's rows.
- ``referee_door`` (play.0017): a session saved or ended, a user changed or removed, a
  campaign deleted, or one of those tables emptied. This forgets every row.

The cache answers only when all of these hold, and otherwise the door asks PostgreSQL as
it always does:

- the request is a GET or HEAD (a form sent, a roll made, always asks afresh);
- the request's database connection is not inside a transaction (a test's, or a view's that
  has written: what it wrote is not yet told to anyone);
- the listening connection is up and heard from within ``HEARTBEAT_S`` (a connection lost or
  hung forgets everything and stores nothing until it listens again);
- the row was read after the listening began and nothing was told of it since;
- the session has not expired, and the row is younger than ``DOOR_CACHE_SECONDS``.

A change committed by one process reaches another's cache when PostgreSQL's notification
does, within a millisecond or so: a poll in that moment answers "nothing changed", and the
next one tells. Each process also forgets everything after a campaign page it served
with a form sent or an action taken, so the page it serves next shows what that action did."""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone
from psycopg.conninfo import make_conninfo

logger = logging.getLogger(__name__)

CAMPAIGN_CHANNEL = "referee_campaign"  # campaigns.models.NOTIFY_CHANGED: a campaign's code
DOOR_CHANNEL = "referee_door"  # play.0017: no payload, forget everything
HEARTBEAT_S = 3.0  # the listener wakes at least this often; silent for longer, it is not trusted
WAIT_S = 1.0  # how long the listener waits for a notification before it looks up again
RETRY_S = (0.5, 1.0, 2.0, 5.0)  # between attempts to listen again after losing the connection
MAX_ENTRIES = 10_000  # rows kept per process; past that the cache starts again empty
SAFE_METHODS = ("GET", "HEAD")

# What Django's connection parameters hold beside the connection string: Python objects
# for its own connections, which the listening connections do not take.
NOT_CONNINFO = ("cursor_factory", "context", "prepare_threshold")


def conninfo() -> str:
    """The connection string Django's own connection uses: the database, user, password,
    host and port, and every libpq setting in ``DATABASES["default"]["OPTIONS"]``
    (``sslmode``, ``options``, ``application_name``, a ``service``…), as Django reads them."""
    params = connections["default"].get_connection_params()
    return make_conninfo(**{k: v for k, v in params.items() if k not in NOT_CONNINFO and v is not None})


@dataclass(frozen=True, slots=True)
class Entry:
    row: dict
    generation: tuple[int, int]
    kept_at: float


class DoorCache:
    """One per process (``cache``). The listener thread starts with the first request that
    may use it, in the process that serves it (so a server that forks its workers starts
    one per worker)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: dict[tuple[str, str], Entry] = {}
        self.generation = 0  # moved to forget every row
        self.campaigns: dict[str, int] = {}  # moved to forget one campaign's rows
        self.heard_at = 0.0  # when the listener last woke, by time.monotonic()
        self.listening = False
        self.pid: int | None = None
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()

    # --- what the door asks -------------------------------------------------------------

    def usable(self, method: str) -> bool:
        """Whether a request with ``method`` may be answered from the cache now."""
        if method not in SAFE_METHODS or not getattr(settings, "DOOR_CACHE", True):
            return False
        if connection.in_atomic_block:
            return False
        self._start()
        return self._trusted()

    def get(self, key: str, code: str) -> dict | None:
        """The row kept for session ``key`` and campaign ``code``, if it is still right."""
        entry = self.entries.get((key, code))
        if entry is None:
            return None
        if entry.generation != self._generation(code) or not self._trusted():
            return None
        if time.monotonic() - entry.kept_at > settings.DOOR_CACHE_SECONDS:
            return None
        if entry.row["expire_date"] <= timezone.now():
            return None
        return entry.row

    def mark(self, code: str) -> tuple[int, int] | None:
        """Taken just before the statement runs: what a row it reads is kept under (None:
        it is not kept). A notification heard while the statement runs moves it on, so the
        row is kept as already out of date."""
        return self._generation(code) if self._trusted() else None

    def put(self, key: str, code: str, row: dict, mark: tuple[int, int] | None) -> None:
        if mark is None or mark != self._generation(code):
            return
        if len(self.entries) >= MAX_ENTRIES:
            self.entries.clear()
        self.entries[(key, code)] = Entry(row, mark, time.monotonic())

    def forget(self) -> None:
        """Forget every row (this process made a change, or was told of one)."""
        with self.lock:
            self.generation += 1
            self.entries.clear()
            if len(self.campaigns) > MAX_ENTRIES:
                self.campaigns.clear()

    def _generation(self, code: str) -> tuple[int, int]:
        return self.generation, self.campaigns.get(code, 0)

    def _trusted(self) -> bool:
        return self.listening and time.monotonic() - self.heard_at < HEARTBEAT_S

    # --- the listener -------------------------------------------------------------------

    def _start(self) -> None:
        if self.pid == os.getpid() and self.thread is not None:
            return
        with self.lock:
            if self.pid == os.getpid() and self.thread is not None:
                return
            # A forked worker inherits the parent's rows and none of its thread: start afresh.
            self.entries, self.campaigns, self.listening = {}, {}, False
            self.generation += 1
            self.stopping.clear()
            self.pid = os.getpid()
            self.thread = threading.Thread(target=self._listen, name="door-cache-listener", daemon=True)
            self.thread.start()

    def stop(self) -> None:
        """Stop listening (within ``WAIT_S``) and forget everything: a test suite ending."""
        self.stopping.set()
        thread, self.thread, self.pid = self.thread, None, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self.listening = False
        self.forget()

    def _listen(self) -> None:
        attempt = 0
        while not self.stopping.is_set():
            try:
                with psycopg.connect(conninfo(), autocommit=True) as db:
                    db.execute(f"LISTEN {CAMPAIGN_CHANNEL}")
                    db.execute(f"LISTEN {DOOR_CHANNEL}")
                    self.forget()  # what changed before listening began was never told
                    self.heard_at, self.listening, attempt = time.monotonic(), True, 0
                    while not self.stopping.is_set():
                        for note in db.notifies(timeout=WAIT_S):
                            self._heard(note.channel, note.payload)
                        self.heard_at = time.monotonic()
            except (psycopg.Error, OSError) as error:
                if not self.stopping.is_set():
                    logger.warning("The door's cache stopped listening to the database: %s", error)
            finally:
                self.listening = False
                self.forget()
            if self.stopping.wait(RETRY_S[min(attempt, len(RETRY_S) - 1)]):
                return
            attempt += 1

    def _heard(self, channel: str, payload: str) -> None:
        self.heard_at = time.monotonic()
        if channel == CAMPAIGN_CHANNEL:
            with self.lock:
                self.campaigns[payload] = self.campaigns.get(payload, 0) + 1
        else:
            self.forget()


cache = DoorCache()
