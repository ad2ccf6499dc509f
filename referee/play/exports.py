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
from .log_sql import SEEN, Selection, json_entry_batches, named
from .models import WAITING_WORDS, Visibility
from .selectors import records_seen
from .sharing import kept_words_sql

__all__ = ["entry_json"]  # the exported shape of one entry, also read from here

# Headings a person reads; one row per roll (an entry without rolls has one row).
CSV_COLUMNS = [
    "Entry",
    "Turn",
    "Phase",
    "Time",
    "Procedure",
    "Title",
    "Subjects",
    "Roll",
    "Dice",
    "Modifiers",
    "Total",
    "Target",
    "Outcome",
    "Changes",
    "Rule",
    "Dice source",
    "Visibility",
    "Undone by",
]
# --- SQL fragments -----------------------------------------------------------------------------


def _csv(text: str) -> str:
    """One CSV field as Python's csv module writes it (quoted only when it must be), a
    cell a spreadsheet would run as a formula neutralised as OWASP recommends: one that
    starts with =, +, -, @, a tab or a carriage return is written after a single quote
    (and quoted), which the spreadsheet shows as text and does not run."""
    quoted = f"replace({text}, '\"', '\"\"') || '\"'"
    return (
        f"CASE WHEN {text} ~ '^[=+@\\t\\r-]' THEN '\"''' || {quoted} "
        f"WHEN {text} ~ '[\",\\r\\n]' THEN '\"' || {quoted} ELSE {text} END"
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


def _summary() -> str:
    """The summary as the reader reads it; a player's roll that waited for the GM says who
    ruled on it once someone has (``ruled_by`` of the batch)."""
    text = _word("summary", "e.summary")
    waiting = WAITING_WORDS.replace("'", "''")
    return (
        f"CASE WHEN e.ruled_by IS NULL THEN {text} ELSE replace({text}, '{waiting}', e.ruled_by || '.') END"
    )


RESULT = "(CASE WHEN jsonb_typeof(e.result) = 'object' THEN e.result ELSE '{}'::jsonb END)"
ROLLS = "(CASE WHEN jsonb_typeof(e.rolls) = 'array' THEN e.rolls ELSE '[]'::jsonb END)"


def _items(words: str, key: str) -> str:
    return f"CASE WHEN jsonb_typeof({words} -> '{key}') = 'array' THEN {words} -> '{key}' ELSE '[]' END"


def _word(key: str, fallback: str = "''") -> str:
    """One text the entry's words hold (``LogEntry.words``), else ``fallback``; for a
    reader kept from some records, the text as players read it where it differs."""
    text = f"coalesce(nullif(e.words ->> '{key}', ''), {fallback})"
    if key not in ("title", "summary"):
        return text
    return f"CASE WHEN s.seen IS NOT NULL AND e.words ? 'player_{key}' THEN e.words ->> 'player_{key}' ELSE {text} END"


TARGET = f"""(SELECT t.value #>> '{{}}' FROM jsonb_each({RESULT}) WITH ORDINALITY AS t(key, value, ord)
    WHERE (t.key = 'tn' OR t.key LIKE '%%\\_tn' OR t.key = 'target_number') AND t.value <> 'null'::jsonb
    ORDER BY t.ord LIMIT 1)"""

# The records an entry is about, by name as the reader may read them, as prose ("a, b and c"),
# each name once: for the GM as written (``about``), for others made from the codes.
SUBJECTS = f"""CASE WHEN s.seen IS NULL THEN nullif(e.words ->> 'about', '') ELSE (SELECT CASE WHEN cardinality(q.a) > 1
        THEN array_to_string(q.a[1:cardinality(q.a) - 1], ', ') || ' and ' || q.a[cardinality(q.a)]
        ELSE q.a[1] END
    FROM (SELECT array_agg(n.name ORDER BY n.first) AS a FROM (
        SELECT {named("x.item ->> 'code'", "x.item ->> 'name'")} AS name, min(x.i) AS first
        FROM jsonb_array_elements({_items("e.words", "subjects")}) WITH ORDINALITY AS x(item, i)
        GROUP BY 1) n) q) END"""


def _side(side: str) -> str:
    """A change's before or after value in words; for a reader kept from a record the value
    names, as such."""
    kept = f"""(SELECT {kept_words_sql("s.seen ->> k.code")}
            FROM jsonb_array_elements_text({_items("c.change", side + "_codes")}) AS k(code)
            WHERE s.seen ->> k.code IS DISTINCT FROM '1' LIMIT 1)"""
    return f"CASE WHEN s.seen IS NULL THEN coalesce(c.change ->> '{side}', '—') ELSE coalesce({kept}, coalesce(c.change ->> '{side}', '—')) END"


# Each change as "record field: before → after", in words (for the GM as written).
CHANGES = f"""CASE WHEN s.seen IS NULL THEN nullif(e.words ->> 'changed', '') ELSE (SELECT string_agg({named("c.change ->> 'code'", "c.change ->> 'name'")} || ' '
        || coalesce(c.change ->> 'label', '') || ': ' || {_side("before")} || ' → ' || {_side("after")},
        '; ' ORDER BY c.n)
    FROM jsonb_array_elements({_items("e.words", "changes")}) WITH ORDINALITY AS c(change, n)) END"""


def _choices(column: str, choices, *, lower: bool = False) -> str:
    def said(label: str) -> str:
        label = label[:1].lower() + label[1:] if lower and not label.startswith("GM") else label
        return label.replace("'", "''")

    cases = " ".join(f"WHEN '{value}' THEN '{said(str(label))}'" for value, label in choices)
    return f"CASE {column} {cases} ELSE {column} END"


def _visibility() -> str:
    return (
        f"{_choices('e.visibility', Visibility.choices, lower=True)} || CASE "
        "WHEN e.revealed_at IS NOT NULL THEN ', revealed to players' ELSE '' END"
    )


def _phase_names() -> str:
    return _choices("e.phase", Phase.choices)


def _calendar(column: str) -> str:
    """A time as the campaign's clock shows it."""
    return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"


# What belongs to an entry is computed and quoted once per entry, what belongs to a roll
# once per roll (``CSV_ROLLS``).
CSV_ENTRY_RAW = f"""SELECT e.seq, e.number, e.turn, e.rolls, e.words, {_phase_names()} AS phase,
        {_calendar("e.game_time")} AS game_time, coalesce({TARGET}, '') AS target,
        coalesce({SUBJECTS}, '') AS subjects, coalesce({CHANGES}, '') AS changes,
        {_visibility()} AS visibility, coalesce(e.undone_by::text, '') AS undone_by,
        {_word("procedure", "e.procedure")} AS procedure, {_word("title", "e.title")} AS title,
        {_summary()} AS summary, {_word("rule", "e.reference")} AS rule,
        {_word("modifiers")} AS mods, {_word("dice")} AS dice_source
    FROM ({{batch}}) e {SEEN} OFFSET 0"""  # OFFSET 0: computed here once, not inlined into every use
CSV_ENTRY = f"""SELECT e.seq, e.rolls, e.words,
        e.number::text || ',' || e.turn::text || ',' || {_csv("e.phase")} || ',' || {_csv("e.game_time")}
            || ',' || {_csv("e.procedure")} || ',' || {_csv("e.title")} || ',' || {_csv("e.subjects")} AS head,
        {_csv("e.mods")} AS mods, {_csv("e.target")} AS target,
        {_csv("e.summary")} || ',' || {_csv("e.changes")} || ',' || {_csv("e.rule")} || ','
            || {_csv("e.dice_source")} || ',' || {_csv("e.visibility")} || ',' || e.undone_by AS tail
    FROM ({CSV_ENTRY_RAW}) e OFFSET 0"""
CSV_LINE = (
    "e.head || ',' || "
    + " || ',' || ".join([_csv("x.label"), _csv("x.dice"), "e.mods", _csv("x.total"), "e.target", "e.tail"])
    + " || E'\\r\\n'"
)
CSV_ROLLS = f"""SELECT coalesce(e.words -> 'rolls' ->> (r.n - 1)::int, r.roll ->> 'label', '') AS label,
        coalesce({_dice("r.roll")}, '') AS dice, coalesce(r.roll ->> 'total', '') AS total, r.n
    FROM jsonb_array_elements(
        CASE WHEN jsonb_array_length({ROLLS}) > 0 THEN {ROLLS} ELSE '[null]'::jsonb END
    ) WITH ORDINALITY AS r(roll, n)"""


MD_ROLLS = f"""(SELECT string_agg({_html("coalesce(e.words -> 'rolls' ->> (x.n - 1)::int, x.roll ->> 'label')")}
        || ' ' || coalesce({_dice("x.roll")}, '') || ' (= ' || coalesce(x.roll ->> 'total', '') || ')',
        '; ' ORDER BY x.n)
    FROM jsonb_array_elements({ROLLS}) WITH ORDINALITY AS x(roll, n))"""


def _md_line() -> str:
    """One entry as a list item, its dice, changes and rule as a list within it; a heading
    for each turn, and within it for each phase."""
    previous = (
        "(coalesce(lag(e.turn) OVER (ORDER BY e.seq), %(prev_turn)s), "
        "coalesce(lag(e.phase) OVER (ORDER BY e.seq), %(prev_phase)s))"
    )
    title = _html(_word("title", "e.title"))
    return f"""CASE WHEN e.turn IS DISTINCT FROM coalesce(lag(e.turn) OVER (ORDER BY e.seq), %(prev_turn)s)
            THEN E'\\n## Turn ' || e.turn || E'\\n' ELSE '' END
        || CASE WHEN (e.turn, e.phase) IS DISTINCT FROM {previous}
            THEN E'\\n### ' || {_phase_names()} || E'\\n\\n' ELSE '' END
        || '- **#' || e.number || ' '
        || CASE WHEN e.undone_by IS NULL THEN {title} || '**'
            ELSE '~~' || {title} || '~~** (undone by #' || e.undone_by || ')' END
        || ' (' || {_calendar("e.game_time")} || coalesce(', ' || {_html(SUBJECTS)}, '') || '): '
        || {_html(_summary())} || E'\\n'
        || coalesce('  - Dice' || coalesce(' (' || nullif({_word("dice")}, '') || ')', '') || ': '
            || {MD_ROLLS} || E'\\n', '')
        || coalesce('  - Changes: ' || {_html(CHANGES)} || E'\\n', '')
        || coalesce('  - Rule: ' || {_html("nullif(" + _word("rule", "e.reference") + ", '')")} || E'\\n', '')"""


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
    (always: ``numbered`` is kept for callers), and name records as the reader may know
    them (``records_seen``: read once per export, as big as the campaign, not its log)."""
    return Selection(campaign, role, first_turn, last_turn, user, seen=records_seen(campaign, role))


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
    for _last, text, _hashes in json_entry_batches(selection):
        yield ("" if not closing.count else ",\n") + text
        for entry in json.loads("[" + text + "]"):
            closing.add_entry(entry)
    # The trailer says how many entries came and the last hash, and the server signs the
    # whole list twice: with its log key (``signature``, checked on the server) and with its
    # signing key (``signed``: checked by anyone with the public key the players' page
    # shows). A file cut short, with an entry taken out or changed, shows.
    trailer = {
        "count": closing.count,
        "head": closing.head,
        "signature": closing.signature(),
        "signed": closing.signed(),
    }
    yield "], " + json.dumps(trailer)[1:] + "\n"


def markdown_chunks(campaign: Campaign, selection: Selection) -> Iterator[str]:
    yield f"# {html.escape(' '.join(campaign.name.split()), quote=False)}: turn log\n"
    build = f"""SELECT max(b.seq), string_agg(b.line, '' ORDER BY b.seq),
            (array_agg(b.turn ORDER BY b.seq DESC))[1], (array_agg(b.phase ORDER BY b.seq DESC))[1]
        FROM (SELECT e.seq, e.turn, e.phase, {_md_line()} AS line FROM ({{batch}}) e {SEEN}) b"""
    for _last, text, _turn, _phase in selection.batches(build, {"prev_turn": None, "prev_phase": None}):
        yield text
