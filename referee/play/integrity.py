"""Checking a turn log's hash chain, from the database or from a JSON export.

The checks are pure functions over entries in the export's shape (``exports.entry_json``):
the payload the hash covers, plus ``revealed_at``, ``prev_hash`` and ``hash``. The
``verify_log`` command and the GM's verify page both use them, so a file a player
downloaded and the live database are judged by the same rules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from referee.campaigns.models import Campaign

from .exports import entry_json
from .models import GENESIS_HASH, LogEntry, chain_hash

EXPORT_FORMAT = "referee-log/1"
# What an exported entry carries beyond what its hash covers.
CHAIN_KEYS = frozenset({"revealed_at", "prev_hash", "hash"})


class IntegrityError(ValueError):
    """A file that is not a turn-log export at all (as opposed to a broken chain)."""


@dataclass(frozen=True, slots=True)
class Break:
    """The first entry that does not hold, and why."""

    seq: int | None
    reason: str
    entry: dict | None = None

    def describe(self) -> str:
        where = f"#{self.seq}" if self.seq is not None else "an entry without a seq"
        if self.entry:
            where += (
                f" (turn {self.entry.get('turn')}, {self.entry.get('procedure')}: {self.entry.get('title')})"
            )
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class ChainReport:
    checked: int
    partial: bool = False
    missing: int = 0
    missing_seqs: tuple[tuple[int, int], ...] = ()
    problem: Break | None = None

    @property
    def holds(self) -> bool:
        return self.problem is None

    def message(self) -> str:
        if self.problem is not None:
            return f"chain broken at {self.problem.describe()}"
        if not self.partial:
            return f"chain holds: {self.checked} entries"
        text = f"chain holds for the {self.checked} entries included (partial export)"
        if self.missing:
            spans = ", ".join(f"#{a}" if a == b else f"#{a}-#{b}" for a, b in self.missing_seqs)
            noun = "entry was" if self.missing == 1 else "entries were"
            text += f"; {self.missing} earlier {noun} not included: {spans}"
        return text


def payload_of(entry: dict) -> dict:
    """What the hash of an exported entry covers."""
    return {k: v for k, v in entry.items() if k not in CHAIN_KEYS}


def entry_fault(entry: dict) -> str | None:
    """Why an entry's own hash does not match its contents, if it does not."""
    for key in ("seq", "prev_hash", "hash"):
        if key not in entry:
            return f"the entry has no {key}"
    computed = chain_hash(entry["prev_hash"], payload_of(entry))
    if computed != entry["hash"]:
        return (
            "its hash does not match its contents "
            f"(stored {entry['hash'][:12]}…, computed from the entry {computed[:12]}…)"
        )
    return None


def verify_entries(
    entries: Iterable[dict], *, partial: bool = False, campaign_code: str | None = None
) -> ChainReport:
    """Walk entries in seq order and report the first one that breaks the chain.

    A full chain starts at seq 1 from the genesis hash, has no gap, and each
    ``prev_hash`` is the previous entry's ``hash``. A partial one (a player's export,
    a turn range) may skip entries: each entry's own hash is still checked, and so is
    the link between any two consecutive seqs both present; the gaps are counted."""
    checked = 0
    missing_spans: list[tuple[int, int]] = []
    previous: dict | None = None
    for entry in entries:
        seq = entry.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            return _broken(checked, partial, missing_spans, Break(None, f"bad seq {seq!r}", entry))
        expected_seq = previous["seq"] + 1 if previous else 1
        if campaign_code is not None and entry.get("campaign_code") != campaign_code:
            reason = f"it belongs to campaign {entry.get('campaign_code')}, not {campaign_code}"
            return _broken(checked, partial, missing_spans, Break(seq, reason, entry))
        if seq < expected_seq:
            reason = f"seq out of order or repeated (after #{previous['seq']})"
            return _broken(checked, partial, missing_spans, Break(seq, reason, entry))
        if seq > expected_seq:
            if not partial:
                reason = f"seq {expected_seq} is missing" + (
                    f" (the chain jumps from #{previous['seq']} to #{seq})" if previous else ""
                )
                return _broken(checked, partial, missing_spans, Break(seq, reason, entry))
            missing_spans.append((expected_seq, seq - 1))
        if fault := entry_fault(entry):
            return _broken(checked, partial, missing_spans, Break(seq, fault, entry))
        if seq == expected_seq:
            link = previous["hash"] if previous else GENESIS_HASH
            if entry["prev_hash"] != link:
                what = f"#{previous['seq']}'s hash" if previous else "the genesis hash"
                reason = f"its prev_hash is not {what} (the chain forks or was rewritten here)"
                return _broken(checked, partial, missing_spans, Break(seq, reason, entry))
        previous = entry
        checked += 1
    return _broken(checked, partial, missing_spans, None)


def _broken(checked: int, partial: bool, spans: list[tuple[int, int]], problem: Break | None) -> ChainReport:
    return ChainReport(
        checked=checked,
        partial=partial,
        missing=sum(b - a + 1 for a, b in spans),
        missing_seqs=tuple(spans),
        problem=problem,
    )


def verify_export(document: dict) -> ChainReport:
    """Check a parsed JSON export (``exports.json_chunks``)."""
    if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
        raise IntegrityError("not a turn-log JSON export: no list of entries")
    if document.get("format") != EXPORT_FORMAT:
        raise IntegrityError(f"unknown export format {document.get('format')!r} (expected {EXPORT_FORMAT})")
    code = (document.get("campaign") or {}).get("code")
    entries = document["entries"]
    report = verify_entries(entries, partial=bool(document.get("partial")), campaign_code=code)
    if report.holds and "count" in document:
        # The trailer (count, last hash) shows an export cut short at its end.
        last = entries[-1] if entries else {}
        if document["count"] != len(entries) or document.get("head") != last.get("hash"):
            reason = (
                f"the export lists {len(entries)} entries but its trailer says {document['count']} "
                "ending at another hash: entries were removed or added at the end"
            )
            return ChainReport(
                checked=len(entries),
                partial=report.partial,
                problem=Break(last.get("seq"), reason, last or None),
            )
    return report


def campaign_entries(campaign: Campaign) -> Iterator[dict]:
    """A campaign's whole log from the database, as exported, in seq order."""
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .select_related("campaign", "reversal_of")
        .order_by("seq")
        .iterator(chunk_size=2000)
    )
    return (entry_json(entry) for entry in entries)


def verify_campaign(campaign: Campaign) -> ChainReport:
    """Recompute a campaign's whole chain from what the database holds now."""
    return verify_entries(campaign_entries(campaign), campaign_code=str(campaign.code))
