"""Turn-log exports: CSV (one row per roll), JSON (full entries with hashes) and
Markdown (for play-by-post forums). Each is a generator of text chunks over a
database iterator, so a log of any length streams in constant memory."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from referee.campaigns.models import Campaign

from .integrity import EXPORT_FORMAT, Closing, entry_json
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
CHUNK = 1000


def entries_for_export(
    campaign: Campaign, role: str, first_turn: int | None, last_turn: int | None, *, numbered: bool = False
):
    """The entries ``role`` may export, in seq order. ``numbered``: with players' own
    numbers (``entry.number``) for the readable exports; the JSON export keeps each
    entry's seq, which its hash covers."""
    entries = _entries(campaign, role, first_turn, last_turn)
    if not numbered or role == "gm":
        return entries
    numbering = Numbering.for_campaign(campaign)
    return (numbering.apply([entry])[0] for entry in entries)


def _entries(campaign: Campaign, role: str, first_turn: int | None, last_turn: int | None):
    return (
        LogEntry.objects.in_campaign(campaign)
        .visible_to(role)
        .turns(first_turn, last_turn)
        .select_related("campaign", "reversal_of")
        .order_by("seq")
        .iterator(chunk_size=CHUNK)
    )


def _modifiers(result: dict) -> str:
    return "; ".join(
        f"{k}={v:+d}" if isinstance(v, int) and not isinstance(v, bool) else f"{k}={v}"
        for k, v in result.items()
        if ("mod" in k or k.endswith("_bonus")) and v not in (None, 0, [], {})
    )


def _target(result: dict) -> str:
    for key, value in result.items():
        if (key == "tn" or key.endswith("_tn") or key == "target_number") and value is not None:
            return str(value)
    return ""


def _csv_line(row: list) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(row)
    return buffer.getvalue()


def csv_chunks(entries) -> Iterator[str]:
    yield _csv_line(CSV_COLUMNS)
    for entry in entries:
        base = [entry.number, entry.turn, entry.phase, entry.game_time.isoformat(), entry.procedure]
        tail = [_modifiers(entry.result), "", _target(entry.result), entry.summary]
        if not entry.rolls:
            yield _csv_line([*base, "", "", tail[0], "", tail[2], tail[3]])
            continue
        for roll in entry.rolls:
            dice = " ".join(str(v) for v in roll["values"])
            yield _csv_line([*base, roll["label"], dice, tail[0], roll["total"], tail[2], tail[3]])


def json_chunks(campaign: Campaign, entries, *, partial: bool) -> Iterator[str]:
    header = {
        "campaign": {"code": str(campaign.code), "name": campaign.name},
        "partial": partial,
        "format": "referee-log/1",
    }

    yield json.dumps(header)[:-1] + ', "entries": ['
    closing = Closing(kind=EXPORT_FORMAT, campaign_code=str(campaign.code), partial=partial)
    for entry in entries:
        yield ("" if not closing.count else ",\n") + json.dumps(entry_json(entry), ensure_ascii=False)
        closing.add(entry.hash)
    # The trailer says how many entries came and the last hash, and the server signs the
    # whole list: a file cut short, or with an entry taken out, shows.
    trailer = {"count": closing.count, "head": closing.head, "signature": closing.signature()}
    yield "], " + json.dumps(trailer)[1:] + "\n"


def markdown_chunks(campaign: Campaign, entries) -> Iterator[str]:
    yield f"# {campaign.name}: turn log\n\n"
    turn = None
    for entry in entries:
        if entry.turn != turn:
            turn = entry.turn
            yield f"\n## Turn {turn}\n\n"
        rolls = "; ".join(
            f"{r['label']} {' '.join(map(str, r['values']))} (= {r['total']})" for r in entry.rolls
        )
        line = f"- **#{entry.number} {entry.title}** ({entry.get_phase_display()}, {entry.game_time:%Y-%m-%d %H:%M:%S})"
        line += f": {entry.summary}"
        if rolls:
            line += f" *Dice:* {rolls}."
        for change in entry.effects:
            line += f" *{change['name']} {change['label']}:* {change['before']} → {change['after']}."
        yield line + "\n"
