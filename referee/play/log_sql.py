"""The turn log as PostgreSQL writes it: a selection of a campaign's entries (a role's
view, a turn range, up to the newest entry when it began), read in batches by ``seq``
(the unique index on campaign and seq makes each a range scan), each batch encoded by
the database as one string, each entry in the export's shape (``integrity.entry_json``,
field for field). The exports and the chain check read the log through here,
so Python works per batch, not per row, and holds one batch at a time."""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.db import connection
from psycopg.adapt import Loader

from referee.campaigns.models import Campaign

from .models import RULINGS, LogEntry, Numbering, ruled_by_sql
from .sharing import kept_words_sql

BATCH = 2000  # entries per query: memory holds one batch's text, whatever the log's length
# Entries per batch of the chain check, which parses each batch whole (orjson's reading of
# a batch of 500 holds about 10 MB at its peak).
CHAIN_BATCH = 500
LOG = LogEntry._meta.db_table


def _iso(column: str) -> str:
    """``datetime.isoformat(timespec="microseconds")`` of a UTC timestamp."""
    return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US') || '+00:00'"


_PAYLOAD_FIELDS = f"""'campaign_code', %(code)s::text, 'turn', e.turn, 'phase', e.phase,
    'game_time', {_iso("e.game_time")}, 'procedure', e.procedure, 'title', e.title,
    'inputs', e.inputs, 'rolls', e.rolls, 'result', e.result, 'effects', e.effects,
    'summary', e.summary, 'reference', e.reference,
    'actor_name', e.actor_name, 'visibility', e.visibility,
    'created_at', {_iso("e.created_at")}"""
_COMMON_FIELDS = f"""{_PAYLOAD_FIELDS},
    'revealed_at', CASE WHEN e.revealed_at IS NULL THEN NULL ELSE {_iso("e.revealed_at")} END,
    'prev_hash', e.prev_hash, 'hash', e.hash"""
# Entries of the first hash scheme carry neither a scheme nor a nonce, entries of the
# first two hash their seq (``LogEntry.hash_payload``). Entries of the third do not: their
# seq is the entry's number as the export's reader sees it (``Selection.number``).
# From the fourth, the changes left to the GM are covered by their digest: the GM's copy
# words them (records by name), a player's copy leaves them out (``%(gm)s``).
ENTRY_JSON = f"""CASE WHEN e.hash_scheme >= 4
    THEN json_build_object('seq', e.number, 'hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_hash', e.reversal_of_hash, 'pending_digest', e.pending_digest,
        'pending', CASE WHEN %(gm)s THEN e.pending_words ELSE '[]'::jsonb END, {_COMMON_FIELDS})::text
    WHEN e.hash_scheme = 3
    THEN json_build_object('seq', e.number, 'hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_hash', e.reversal_of_hash, 'pending', e.pending, {_COMMON_FIELDS})::text
    WHEN e.hash_scheme = 2
    THEN json_build_object('seq', e.seq, 'hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_seq', e.reversal_of_seq, 'pending', e.pending, {_COMMON_FIELDS})::text
    ELSE json_build_object('seq', e.seq, 'reversal_of_seq', e.reversal_of_seq, 'pending', e.pending,
        {_COMMON_FIELDS})::text END"""


class Selection:
    """Which entries an export covers: a campaign's log as ``role`` may read it, in a turn
    range, up to the newest entry when the export began.

    ``seen`` is, for a reader who may not see every record, each record's code mapped to
    1 (they may see it) or 0 (it is kept from them); the readable exports name the records
    an entry is about by it (``named``). None for the GM, who sees every name."""

    def __init__(
        self,
        campaign: Campaign,
        role: str,
        first_turn: int | None,
        last_turn: int | None,
        user=None,
        *,
        seen: dict[str, int] | None = None,
    ):
        self.campaign = campaign
        self.params: dict = {
            "campaign": campaign.pk,
            "code": str(campaign.code),
            "batch": BATCH,
            "gm": role == "gm",
            "seen": None if role == "gm" or seen is None else json.dumps(seen),
        }
        # Row comparisons on (campaign, seq): only the unique index on both answers them, as
        # one range. With ``campaign_id = ... AND seq > ...`` a planner that thinks the
        # campaign's log small (no statistics yet for a fresh or just restored log) reads the
        # whole log through the campaign's own index for every batch.
        where = [
            "(e.campaign_id, e.seq) > (%(campaign)s, %(after)s)",
            "(e.campaign_id, e.seq) <= (%(campaign)s, %(upto)s)",
        ]
        if role != "gm":
            # What the player reads in full: the public and revealed entries, and what is
            # whispered to them. Their own blind rolls carry a result only the GM has seen.
            self.params["reader"] = getattr(user, "pk", None)
            where.append(self.readable("e"))
        # A turn number beyond any the database holds is a bound all the same, not an error.
        if first_turn is not None:
            where.append("e.turn >= %(first)s")
            self.params["first"] = min(first_turn, 2**62)
        if last_turn is not None:
            where.append("e.turn <= %(last)s")
            self.params["last"] = min(last_turn, 2**62)
        self.where = " AND ".join(where)
        self.role = role
        if role == "player":
            self.params["hidden"] = Numbering.for_campaign(campaign, user).hidden
        self.visible = role in ("gm", "player")

    @staticmethod
    def readable(alias: str) -> str:
        """Whether the player ``%(reader)s`` may read entry ``alias``."""
        return (
            f"({alias}.visibility = 'everyone' OR {alias}.revealed_at IS NOT NULL OR ({alias}.visibility = 'whisper' "
            f"AND coalesce({alias}.audience @> ARRAY[%(reader)s]::bigint[], false)))"
        )

    def number(self, alias: str) -> str:
        """Entry ``alias``'s number as the reader sees it: players number the entries they
        see 1, 2, 3... (``Numbering``), so a hidden entry leaves no gap."""
        if self.role != "player":
            return f"{alias}.seq"
        return f"({alias}.seq - (SELECT count(*) FROM unnest(%(hidden)s::bigint[]) AS h(s) WHERE h.s < {alias}.seq))"

    def batch_sql(self) -> str:
        """The next batch of entries (``e``, with the seq and hash of the entry it reverses,
        and ``undone_by``: the number of the entry that reverses it, if the reader may see it)."""
        readable = f" AND {self.readable('u')}" if self.role != "gm" else ""
        # Each a lookup by a unique index per entry, never a join the planner could turn into
        # a scan of the whole log for every entry.
        undone_by = f"(SELECT {self.number('u')} FROM {LOG} u WHERE u.reversal_of_id = e.id{readable})"
        # A player's roll that waited for the GM: "accepted by #33", "rejected by #34".
        ruled = " AND " + self.readable("r") if self.role != "gm" else ""
        ruled_by = f"""CASE WHEN e.inputs ? '@awaiting_gm' THEN (SELECT {ruled_by_sql("r.procedure", self.number("r"))}
            FROM {LOG} r WHERE r.refers_to_id = e.id AND r.procedure IN {RULINGS}{ruled}
            ORDER BY r.seq LIMIT 1) END"""
        reversed_seq = f"(SELECT r.seq FROM {LOG} r WHERE r.id = e.reversal_of_id)"
        reversed_hash = f"(SELECT r.hash FROM {LOG} r WHERE r.id = e.reversal_of_id)"
        return f"""SELECT e.*, {reversed_seq} AS reversal_of_seq, {reversed_hash} AS reversal_of_hash,
                {self.number("e")} AS number, {undone_by} AS undone_by, {ruled_by} AS ruled_by
            FROM {LOG} e
            WHERE {self.where} ORDER BY e.campaign_id, e.seq LIMIT %(batch)s"""

    def batches(self, build: str, extra: dict | None = None) -> Iterator[tuple]:
        """Run ``build`` (an aggregate over the batch ``e``, whose first two columns are the
        batch's last seq and its text) batch after batch until the log is done."""
        if not self.visible:
            return
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT coalesce(max(seq), 0) FROM {LOG} WHERE campaign_id = %s", [self.campaign.pk]
            )
            params = {**self.params, **(extra or {}), "upto": cursor.fetchone()[0], "after": 0}
        while True:
            with connection.cursor() as cursor:
                cursor.execute(build.replace("{batch}", self.batch_sql()), params)
                row = cursor.fetchone()
            if row is None or row[0] is None:
                return
            params["after"] = row[0]
            yield row
            if extra is not None:
                extra_next = {k: row[i + 2] for i, k in enumerate(extra)}
                params.update(extra_next)


def json_entry_batches(selection: Selection) -> Iterator[tuple[int, str, list[str]]]:
    """(last seq, the batch's entries as JSON objects joined by ",\\n", their hashes in order)."""
    build = f"""SELECT max(e.seq), string_agg({ENTRY_JSON}, E',\\n' ORDER BY e.seq),
            array_agg(e.hash ORDER BY e.seq)
        FROM ({{batch}}) e"""
    yield from selection.batches(build)


def named(code: str, name: str) -> str:
    """A record's name as the export's reader may read it (``Selection.seen``, as ``s.seen``)."""
    return f"""CASE WHEN s.seen IS NULL OR s.seen ->> ({code}) = '1' THEN {name}
        ELSE {kept_words_sql(f"s.seen ->> ({code})")} END"""


SEEN = "CROSS JOIN (SELECT %(seen)s::jsonb AS seen) s"


# --- the chain check's reading of the log ---------------------------------------------------

# What an entry's hash covers (``integrity.payload_of`` of the entry as exported), built by
# the database; the chain check reads it beside the entry's seq and chain hashes.
PAYLOAD_JSON = f"""CASE WHEN e.hash_scheme >= 4
    THEN json_build_object('hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_hash', e.reversal_of_hash, 'pending_digest', e.pending_digest, {_PAYLOAD_FIELDS})
    WHEN e.hash_scheme = 3
    THEN json_build_object('hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_hash', e.reversal_of_hash, 'pending', e.pending, {_PAYLOAD_FIELDS})
    WHEN e.hash_scheme = 2
    THEN json_build_object('seq', e.seq, 'hash_scheme', e.hash_scheme, 'nonce', e.nonce,
        'reversal_of_seq', e.reversal_of_seq, 'pending', e.pending, {_PAYLOAD_FIELDS})
    ELSE json_build_object('seq', e.seq, 'reversal_of_seq', e.reversal_of_seq, 'pending', e.pending,
        {_PAYLOAD_FIELDS}) END"""

# Each entry one line of the batch: [seq, prev_hash, hash, what its hash covers, and for
# hash scheme 4, whose hash covers their digest, [the changes left to the GM as stored]
# (else null)].
CHAIN_ROW = f"""json_build_array(e.seq, e.prev_hash, e.hash, {PAYLOAD_JSON},
    CASE WHEN e.hash_scheme >= 4 THEN jsonb_build_array(e.pending) END)::text"""

# The entries of batch ``b`` (as ``Selection``'s, row comparisons: one range of the unique index).
ENTRIES_IN_BATCH = (
    "(e.campaign_id, e.seq) > (%(campaign)s, b.after) AND (e.campaign_id, e.seq) <= (%(campaign)s, b.upto)"
)
_CHAIN_BATCH_SQL = f"""SELECT '[' || string_agg({CHAIN_ROW}, E',\\n' ORDER BY e.seq) || ']'
    FROM (SELECT e.*,
            CASE WHEN e.reversal_of_id IS NOT NULL AND e.hash_scheme < 3
                THEN (SELECT r.seq FROM {LOG} r WHERE r.id = e.reversal_of_id) END AS reversal_of_seq,
            CASE WHEN e.reversal_of_id IS NOT NULL AND e.hash_scheme >= 3
                THEN (SELECT r.hash FROM {LOG} r WHERE r.id = e.reversal_of_id) END AS reversal_of_hash
        FROM {LOG} e
        WHERE {ENTRIES_IN_BATCH}) e"""


class _Bytes(Loader):
    """Text as the bytes PostgreSQL sent: the batches are parsed from bytes, never decoded."""

    def load(self, data) -> bytes:
        return bytes(data)


def streamed_batches(
    campaign: Campaign, batch: str, params: dict, *, size: int | None = None, raw: bool = False
) -> Iterator[tuple]:
    """Run ``batch`` (a query over the campaign's entries ``e`` whose seq lies in
    ``(b.after, b.upto]``, answering one row) for every batch of up to ``size`` entries
    (``BATCH``),
    in seq order, as one streamed query; with ``raw``, its text comes as the bytes
    PostgreSQL sent. A batch with nothing in it is left out.

    PostgreSQL builds the next batch while Python handles this one, and is held back by
    the connection's buffer, so memory holds about two batches whatever the log's length.
    A reader that stops early still reads the rest off the connection (nothing is
    cancelled, so an enclosing transaction stays usable)."""
    with connection.cursor() as cursor:
        # Every BATCH-th seq and the last: the batches' bounds, read off the unique index.
        cursor.execute(
            f"""SELECT seq FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n,
                    lead(seq) OVER (ORDER BY seq) AS next
                FROM {LOG} WHERE campaign_id = %s) s
            WHERE n %% %s = 0 OR next IS NULL ORDER BY seq""",
            [campaign.pk, size or BATCH],
        )
        uptos = [row[0] for row in cursor.fetchall()]
    if not uptos:
        return
    params = {**params, "campaign": campaign.pk, "afters": [0, *uptos[:-1]], "uptos": uptos}
    # Ordered by the bounds' ordinality, which the nested loop keeps: no sort holds the
    # batches back until the last is built.
    sql = f"""SELECT q.* FROM unnest(%(afters)s::bigint[], %(uptos)s::bigint[])
            WITH ORDINALITY AS b(after, upto, n)
        CROSS JOIN LATERAL ({batch}) q
        ORDER BY b.n"""
    with connection.cursor() as cursor:
        stream = cursor.cursor
        if raw:
            stream.adapters.register_loader("text", _Bytes)
        rows = stream.stream(sql, params)
        try:
            for row in rows:
                if row[0] is not None:
                    yield row
        finally:
            for _row in rows:  # the rest of the answer, so the connection is free again
                pass


def chain_batches(campaign: Campaign) -> Iterator[bytes]:
    """A campaign's whole log for the chain check, in seq order: batches of up to
    ``CHAIN_BATCH`` entries, each a JSON array whose lines are ``CHAIN_ROW``s (``\\n`` never occurs inside
    one, so a line is an entry), as UTF-8 bytes, streamed (``streamed_batches``)."""
    params = {"code": str(campaign.code)}
    for (text,) in streamed_batches(campaign, _CHAIN_BATCH_SQL, params, size=CHAIN_BATCH, raw=True):
        yield text
