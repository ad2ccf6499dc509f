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

from referee.campaigns.models import Campaign, Phase

from .integrity import EXPORT_FORMAT, Closing, entry_json
from .log_sql import Selection, json_entry_batches

__all__ = ["entry_json"]  # the exported shape of one entry, also read from here

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
# --- SQL fragments -----------------------------------------------------------------------------


def _iso_short(column: str) -> str:
    """``datetime.isoformat()``: the microseconds only when there are some."""
    return (
        f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') "
        f"|| CASE WHEN date_part('microseconds', {column})::bigint %% 1000000 <> 0 "
        f"THEN to_char({column} AT TIME ZONE 'UTC', '.US') ELSE '' END || '+00:00'"
    )


def _shown(value: str) -> str:
    """A JSON value as a person reads it: numbers and text as they are, yes/no, a dash for
    nothing; a record sheet by its name (the JSON export holds it whole)."""
    return (
        f"CASE jsonb_typeof({value}) WHEN 'null' THEN '—' "
        f"WHEN 'boolean' THEN CASE WHEN {value} = 'true'::jsonb THEN 'yes' ELSE 'no' END "
        f"WHEN 'object' THEN CASE WHEN {value} ? 'unit_type' THEN 'the record sheet of ' "
        f"|| trim(coalesce({value} ->> 'chassis', '') || ' ' || coalesce({value} ->> 'model', '')) "
        f"ELSE {value} #>> '{{}}' END "
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


def entries_for_export(
    campaign: Campaign,
    role: str,
    first_turn: int | None,
    last_turn: int | None,
    *,
    numbered: bool = False,
    user=None,
) -> Selection:
    """What ``role`` may export. The readable exports number entries as their reader does
    (always: ``numbered`` is kept for callers); the JSON export keeps each entry's seq,
    which its hash covers."""
    return Selection(campaign, role, first_turn, last_turn, user)


def csv_chunks(selection: Selection) -> Iterator[str]:
    yield ",".join(CSV_COLUMNS) + "\r\n"
    build = f"""SELECT max(e.seq), string_agg({CSV_LINE}, '' ORDER BY e.seq, x.n)
        FROM ({CSV_ENTRY}) e CROSS JOIN LATERAL ({CSV_ROLLS}) x"""
    for _last, text in selection.batches(build):
        yield text


def json_chunks(campaign: Campaign, selection: Selection, *, partial: bool) -> Iterator[str]:
    header = {
        "campaign": {"code": str(campaign.code), "name": campaign.name},
        "partial": partial,
        "format": "referee-log/1",
    }
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
