"""Turn-log exports: CSV (one row per roll), JSON (full entries with hashes) and
Markdown (for play-by-post forums).

PostgreSQL writes the text: each query takes the next batch of entries by ``seq`` (the
unique index on campaign and seq makes that a range scan) and returns the whole batch
already encoded, one string, so Python does per batch what it used to do per row. An
export covers the log as it stood when it began (entries up to the newest seq then),
and holds one batch in memory at a time, whatever the log's length."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator

from django.db import connection

from referee.campaigns.models import Campaign, Phase

from .models import LogEntry, Numbering

CSV_COLUMNS = [
    "seq",
    "turn",
    "phase",
    "game_time",
    "procedure",
    "roll",
    "dice",
    "modifiers",
    "total",
    "target",
    "outcome",
]
BATCH = 2000  # entries per query: memory holds one batch's text, whatever the log's length
LOG = LogEntry._meta.db_table


def entry_json(entry: LogEntry) -> dict:
    """One entry as exported: what its hash covers, plus its place in the chain (the
    export queries below write the same object, field for field)."""
    return {
        **entry.hash_payload(),
        "revealed_at": entry.revealed_at.isoformat(timespec="microseconds") if entry.revealed_at else None,
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
    }


# --- SQL fragments -----------------------------------------------------------------------------


def _iso(column: str) -> str:
    """``datetime.isoformat(timespec="microseconds")`` of a UTC timestamp."""
    return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US') || '+00:00'"


def _iso_short(column: str) -> str:
    """``datetime.isoformat()``: the microseconds only when there are some."""
    return (
        f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') "
        f"|| CASE WHEN date_part('microseconds', {column})::bigint %% 1000000 <> 0 "
        f"THEN to_char({column} AT TIME ZONE 'UTC', '.US') ELSE '' END || '+00:00'"
    )


def _shown(value: str) -> str:
    """A JSON value as a person reads it: numbers and text as they are, yes/no, a dash for nothing."""
    return (
        f"CASE jsonb_typeof({value}) WHEN 'null' THEN '—' "
        f"WHEN 'boolean' THEN CASE WHEN {value} = 'true'::jsonb THEN 'yes' ELSE 'no' END "
        f"ELSE {value} #>> '{{}}' END"
    )


def _csv(text: str) -> str:
    """One CSV field as Python's csv module writes it (quoted only when it must be)."""
    return (
        f"CASE WHEN {text} ~ '[\",\\r\\n]' THEN '\"' || replace({text}, '\"', '\"\"') || '\"' ELSE {text} END"
    )


def _html(text: str) -> str:
    """Text that renders as itself in Markdown: no markup, no line that starts a heading."""
    return (
        f"regexp_replace(replace(replace(replace({text}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), "
        f"'[\\r\\n]+', ' ', 'g')"
    )


def _dice(roll: str) -> str:
    return (
        f"(SELECT string_agg(v #>> '{{}}', ' ' ORDER BY i) FROM jsonb_array_elements("
        f"CASE WHEN jsonb_typeof({roll} -> 'values') = 'array' THEN {roll} -> 'values' ELSE '[]' END"
        f") WITH ORDINALITY AS d(v, i))"
    )


RESULT = "(CASE WHEN jsonb_typeof(e.result) = 'object' THEN e.result ELSE '{}'::jsonb END)"
ROLLS = "(CASE WHEN jsonb_typeof(e.rolls) = 'array' THEN e.rolls ELSE '[]'::jsonb END)"
EFFECTS = "(CASE WHEN jsonb_typeof(e.effects) = 'array' THEN e.effects ELSE '[]'::jsonb END)"

# Modifiers: the result's *mod* and *_bonus values that are not nothing, whole numbers signed.
MODIFIERS = f"""(SELECT string_agg(m.key || '=' || CASE
        WHEN jsonb_typeof(m.value) = 'number' AND m.value::text ~ '^-?[0-9]+$'
            THEN CASE WHEN m.value::text LIKE '-%%' THEN m.value::text ELSE '+' || m.value::text END
        ELSE {_shown("m.value")} END, '; ' ORDER BY m.ord)
    FROM jsonb_each({RESULT}) WITH ORDINALITY AS m(key, value, ord)
    WHERE (m.key LIKE '%%mod%%' OR m.key LIKE '%%\\_bonus')
      AND m.value NOT IN ('null'::jsonb, '0'::jsonb, 'false'::jsonb, '[]'::jsonb, '{{}}'::jsonb))"""

TARGET = f"""(SELECT t.value #>> '{{}}' FROM jsonb_each({RESULT}) WITH ORDINALITY AS t(key, value, ord)
    WHERE (t.key = 'tn' OR t.key LIKE '%%\\_tn' OR t.key = 'target_number') AND t.value <> 'null'::jsonb
    ORDER BY t.ord LIMIT 1)"""

_ENTRY_FIELDS = f"""'campaign_code', %(code)s::text, 'seq', e.seq, 'turn', e.turn, 'phase', e.phase,
    'game_time', {_iso("e.game_time")}, 'procedure', e.procedure, 'title', e.title,
    'inputs', e.inputs, 'rolls', e.rolls, 'result', e.result, 'effects', e.effects,
    'pending', e.pending, 'summary', e.summary, 'reference', e.reference,
    'actor_name', e.actor_name, 'visibility', e.visibility, 'reversal_of_seq', e.reversal_of_seq,
    'created_at', {_iso("e.created_at")},
    'revealed_at', CASE WHEN e.revealed_at IS NULL THEN NULL ELSE {_iso("e.revealed_at")} END,
    'prev_hash', e.prev_hash, 'hash', e.hash"""
# Entries of the first hash scheme carry neither a scheme nor a nonce (``LogEntry.hash_payload``).
ENTRY_JSON = f"""CASE WHEN e.hash_scheme >= 2
    THEN json_build_object('hash_scheme', e.hash_scheme, 'nonce', e.nonce, {_ENTRY_FIELDS})::text
    ELSE json_build_object({_ENTRY_FIELDS})::text END"""

# One CSV line per roll: what belongs to the entry is computed and quoted once per entry
# (``head``, ``mods``, ``target``, ``outcome``), what belongs to the roll once per roll.
CSV_ENTRY_RAW = f"""SELECT e.seq, e.number, e.turn, e.phase, e.procedure, e.summary, e.rolls,
        {_iso_short("e.game_time")} AS game_time, coalesce({MODIFIERS}, '') AS mods,
        coalesce({TARGET}, '') AS target
    FROM ({{batch}}) e OFFSET 0"""  # OFFSET 0: computed here once, not inlined into every use
CSV_ENTRY = f"""SELECT e.seq, e.rolls,
        e.number::text || ',' || e.turn::text || ',' || {_csv("e.phase")} || ',' || {_csv("e.game_time")}
            || ',' || {_csv("e.procedure")} AS head,
        {_csv("e.mods")} AS mods, {_csv("e.target")} AS target, {_csv("e.summary")} AS outcome
    FROM ({CSV_ENTRY_RAW}) e OFFSET 0"""
CSV_LINE = (
    "e.head || ',' || "
    + " || ',' || ".join(
        [
            _csv("x.label"),
            _csv("x.dice"),
            "e.mods",
            _csv("x.total"),
            "e.target",
            "e.outcome",
        ]
    )
    + " || E'\\r\\n'"
)
CSV_ROLLS = f"""SELECT coalesce(r.roll ->> 'label', '') AS label, coalesce({_dice("r.roll")}, '') AS dice,
        coalesce(r.roll ->> 'total', '') AS total, r.n
    FROM jsonb_array_elements(
        CASE WHEN jsonb_array_length({ROLLS}) > 0 THEN {ROLLS} ELSE '[null]'::jsonb END
    ) WITH ORDINALITY AS r(roll, n)"""


def _phase_names() -> str:
    cases = " ".join(f"WHEN '{value}' THEN '{label}'" for value, label in Phase.choices)
    return f"CASE e.phase {cases} ELSE e.phase END"


MD_ROLLS = f"""(SELECT string_agg({_html("x.roll ->> 'label'")} || ' ' || coalesce({_dice("x.roll")}, '')
        || ' (= ' || coalesce(x.roll ->> 'total', '') || ')', '; ' ORDER BY x.n)
    FROM jsonb_array_elements({ROLLS}) WITH ORDINALITY AS x(roll, n))"""

MD_CHANGES = f"""(SELECT string_agg(' *' || {_html("coalesce(c.change ->> 'name', '')")} || ' '
        || {_html("coalesce(c.change ->> 'label', '')")} || ':* '
        || {_html(_shown("c.change -> 'before'"))} || ' → ' || {_html(_shown("c.change -> 'after'"))} || '.',
        '' ORDER BY c.n)
    FROM jsonb_array_elements({EFFECTS}) WITH ORDINALITY AS c(change, n))"""


def _md_line() -> str:
    return f"""CASE WHEN e.turn IS DISTINCT FROM coalesce(lag(e.turn) OVER (ORDER BY e.seq), %(prev_turn)s)
            THEN E'\\n## Turn ' || e.turn || E'\\n\\n' ELSE '' END
        || '- **#' || e.number || ' ' || {_html("e.title")} || '** (' || {_phase_names()} || ', '
        || to_char(e.game_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '): ' || {_html("e.summary")}
        || coalesce(' *Dice:* ' || {MD_ROLLS} || '.', '') || coalesce({MD_CHANGES}, '') || E'\\n'"""


# --- the batches -------------------------------------------------------------------------------


class Selection:
    """Which entries an export covers: a campaign's log as ``role`` may read it, in a turn
    range, up to the newest entry when the export began."""

    def __init__(self, campaign: Campaign, role: str, first_turn: int | None, last_turn: int | None):
        self.campaign = campaign
        self.params: dict = {"campaign": campaign.pk, "code": str(campaign.code), "batch": BATCH}
        where = ["e.campaign_id = %(campaign)s", "e.seq > %(after)s", "e.seq <= %(upto)s"]
        if role != "gm":
            where.append("(e.visibility = 'everyone' OR e.revealed_at IS NOT NULL)")
        # A turn number beyond any the database holds is a bound all the same, not an error.
        if first_turn is not None:
            where.append("e.turn >= %(first)s")
            self.params["first"] = min(first_turn, 2**62)
        if last_turn is not None:
            where.append("e.turn <= %(last)s")
            self.params["last"] = min(last_turn, 2**62)
        self.where = " AND ".join(where)
        # Players number the entries they see 1, 2, 3... (``Numbering``): a hidden entry leaves no gap.
        self.number = "e.seq"
        if role == "player":
            self.params["hidden"] = Numbering.for_campaign(campaign).hidden
            self.number = (
                "(e.seq - (SELECT count(*) FROM unnest(%(hidden)s::bigint[]) AS h(s) WHERE h.s < e.seq))"
            )
        self.visible = role in ("gm", "player")

    def batch_sql(self) -> str:
        """The next batch of entries (``e``, with ``r`` the entry it reverses)."""
        return f"""SELECT e.*, r.seq AS reversal_of_seq, {self.number} AS number FROM {LOG} e
            LEFT JOIN {LOG} r ON r.id = e.reversal_of_id
            WHERE {self.where} ORDER BY e.seq LIMIT %(batch)s"""

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


def entries_for_export(
    campaign: Campaign, role: str, first_turn: int | None, last_turn: int | None, *, numbered: bool = False
) -> Selection:
    """What ``role`` may export. The readable exports number entries as their reader does
    (always: ``numbered`` is kept for callers); the JSON export keeps each entry's seq,
    which its hash covers."""
    return Selection(campaign, role, first_turn, last_turn)


def csv_chunks(selection: Selection) -> Iterator[str]:
    yield ",".join(CSV_COLUMNS) + "\r\n"
    build = f"""SELECT max(e.seq), string_agg({CSV_LINE}, '' ORDER BY e.seq, x.n)
        FROM ({CSV_ENTRY}) e CROSS JOIN LATERAL ({CSV_ROLLS}) x"""
    for _last, text in selection.batches(build):
        yield text


def json_entry_batches(selection: Selection) -> Iterator[tuple[int, str, list[str]]]:
    """(last seq, the batch's entries as JSON objects joined by ",\\n", their hashes in order)."""
    build = f"""SELECT max(e.seq), string_agg({ENTRY_JSON}, E',\\n' ORDER BY e.seq),
            array_agg(e.hash ORDER BY e.seq)
        FROM ({{batch}}) e"""
    yield from selection.batches(build)


def json_chunks(campaign: Campaign, selection: Selection, *, partial: bool) -> Iterator[str]:
    header = {
        "campaign": {"code": str(campaign.code), "name": campaign.name},
        "partial": partial,
        "format": "referee-log/1",
    }
    from .integrity import EXPORT_FORMAT, Closing  # integrity reads entries through this module

    yield json.dumps(header)[:-1] + ', "entries": ['
    closing = Closing(kind=EXPORT_FORMAT, campaign_code=str(campaign.code), partial=partial)
    for _last, text, hashes in json_entry_batches(selection):
        yield ("" if not closing.count else ",\n") + text
        for entry_hash in hashes:
            closing.add(entry_hash)
    # The trailer says how many entries came and the last hash, and the server signs the
    # whole list: a file cut short, or with an entry taken out, shows.
    trailer = {"count": closing.count, "head": closing.head, "signature": closing.signature()}
    yield "], " + json.dumps(trailer)[1:] + "\n"


def markdown_chunks(campaign: Campaign, selection: Selection) -> Iterator[str]:
    yield f"# {html.escape(' '.join(campaign.name.split()), quote=False)}: turn log\n\n"
    build = f"""SELECT max(b.seq), string_agg(b.line, '' ORDER BY b.seq),
            (array_agg(b.turn ORDER BY b.seq DESC))[1]
        FROM (SELECT e.seq, e.turn, {_md_line()} AS line FROM ({{batch}}) e) b"""
    for _last, text, _turn in selection.batches(build, {"prev_turn": None}):
        yield text
