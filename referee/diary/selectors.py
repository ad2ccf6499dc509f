"""An evening of play as a story: a range of turns or of campaign dates, one line an entry,
as the reader may read it (a forum post in Markdown, or a page to print).

The full log (every change field by field, every rule reference) stays in the log exports
and on each entry's page; the diary keeps what a reader of the evening wants: what was
rolled and what came of it, what the GM changed, what was said."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from referee.campaigns.models import Campaign
from referee.play import wording
from referee.play.models import (
    WAITING_WORDS,
    LogEntry,
    Numbering,
    Visibility,
    read_rulings,
    ruled_by,
)

# A record added, imported or deleted is one line: its fields stay on the entry's page.
ONE_LINE = ("record.create", "record.delete", "records.import")
NOTES = ("note.post", "note.correct", "note.annotate")
SKIPPED = ("turn.advance",)  # the headings say it
MAX_ENTRIES = 2000  # an evening is a few hundred entries; a longer range is refused


class DiaryError(ValueError):
    """A range the diary cannot be made for; the message is for the reader."""


@dataclass(frozen=True)
class Line:
    number: int
    title: str
    text: str
    dice: str
    time: str  # the campaign time when it changed since the line before, else ""
    heading: str  # "Turn 3" where a new turn begins, else ""


def _text(entry: LogEntry, role: str, ruled: dict[int, str]) -> str:
    words = entry.words if isinstance(entry.words, dict) else {}
    text = (role != "gm" and words.get("player_summary")) or words.get("summary") or entry.summary
    text = wording.plain_text(text)
    if WAITING_WORDS in text and entry.pk in ruled:
        text = text.replace(WAITING_WORDS, f"{ruled[entry.pk]}.")
    return text


def _title(entry: LogEntry, role: str) -> str:
    words = entry.words if isinstance(entry.words, dict) else {}
    return wording.plain_text(
        (role != "gm" and words.get("player_title")) or words.get("title") or entry.title
    )


def _dice(entry: LogEntry) -> str:
    rolled = [" ".join(str(v) for v in r.get("values", [])) for r in entry.rolls or [] if isinstance(r, dict)]
    return "; ".join(d for d in rolled if d)


def evening(
    campaign: Campaign,
    role: str,
    user=None,
    *,
    first_turn: int | None = None,
    last_turn: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[Line]:
    entries = LogEntry.objects.in_campaign(campaign).visible_to(role, user).turns(first_turn, last_turn)
    if since is not None:
        entries = entries.filter(game_time__gte=since)
    if until is not None:
        entries = entries.filter(game_time__lte=until)
    if role != "gm":  # a player's own blind roll: its result is the GM's
        entries = entries.exclude(visibility=Visibility.BLIND, revealed_at__isnull=True)
    entries = list(
        entries.exclude(procedure__in=SKIPPED)
        .filter(reversed_by__isnull=True, reversal_of__isnull=True)
        .order_by("seq")[: MAX_ENTRIES + 1]
    )
    if len(entries) > MAX_ENTRIES:
        raise DiaryError(f"That range holds more than {MAX_ENTRIES:,} entries: choose fewer turns or days.")
    numbering = Numbering.for_campaign(campaign, user) if role != "gm" else None
    read_rulings(entries, role, user)
    ruled = {e.pk: words for e in entries if (words := ruled_by(e, role, user, numbering))}
    lines, turn, time = [], None, None
    for entry in entries:
        number = entry.seq if numbering is None else numbering.number(entry.seq)
        if number is None:
            continue
        shown = f"{entry.game_time:%Y-%m-%d %H:%M}"
        title = _title(entry, role)
        if entry.procedure in ONE_LINE:
            text = ""
        elif entry.procedure in NOTES:
            text = entry.note_text or _text(entry, role, ruled)
        else:
            text = _text(entry, role, ruled)
            if text.startswith(f"{title}:"):  # a hand edit's summary repeats its title
                title, text = text.rstrip("."), ""
        lines.append(
            Line(
                number=number,
                title=title,
                text=re.sub(r"\s+", " ", text).strip(),
                dice=_dice(entry),
                time=shown if shown != time else "",
                heading=f"Turn {entry.turn}" if entry.turn != turn else "",
            )
        )
        turn, time = entry.turn, shown
    return lines


def _md(text: str) -> str:
    """Plain text in Markdown: what would read as markup is escaped the Markdown way (a
    backslash), never as HTML (no ``&lt;``)."""
    text = re.sub(r"([\\`*_\[\]])", r"\\\1", text)
    return re.sub(r"<(?=[A-Za-z/!])", r"\\<", text)  # only what a renderer would take for a tag


def markdown(campaign: Campaign, lines: list[Line], span: str) -> str:
    out = [f"# {_md(campaign.name)}: {span}", ""]
    for line in lines:
        if line.heading:
            out += ["", f"## {line.heading}", ""]
        when = f" ({line.time})" if line.time else ""
        text = f": {_md(line.text)}" if line.text else ""
        dice = f" Dice: {line.dice}." if line.dice else ""
        out.append(f"- **#{line.number} {_md(line.title)}**{when}{text}{dice}")
    return "\n".join(out).strip() + "\n"
