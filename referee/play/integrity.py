"""Checking a turn log's hash chain, from the database or from a JSON export.

The checks are pure functions over entries in the export's shape (``entry_json``, which the exports write):
the payload the hash covers, plus ``revealed_at``, ``prev_hash`` and ``hash``. The
``verify_log`` command and the GM's verify page both use them, so a file a player
downloaded and the live database are judged by the same rules."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import orjson

from referee.campaigns.models import Campaign

from . import signing
from .log_sql import chain_batches
from .models import (
    GENESIS_HASH,
    HASH_SCHEMES,
    MAX_DIGITS,
    PENDING_DIGEST_SCHEME,
    LogEntry,
    LogSeal,
    UnrecordableValue,
    canonical,
    canonical_json,
    chain_hash,
    log_key,
    pending_digest,
)

EXPORT_FORMAT = "referee-log/1"
# What an exported entry carries beyond what its hash covers (and, from hash scheme 3 on,
# its seq: the entry's number as the export's reader sees it).
CHAIN_KEYS = frozenset({"revealed_at", "prev_hash", "hash"})
UNHASHED_NUMBER_SCHEME = 3
HASH_TEXT = re.compile(r"[0-9a-f]{64}")


def entry_json(entry: LogEntry, role: str = "gm") -> dict:
    """An entry as exported: what its hash covers, plus its place in the chain (and its
    number as its reader sees it, ``entry.number``, where the hash does not cover it).
    From hash scheme 4 on, the changes left to the GM are in plain words for the GM and
    left out for players (their digest is what the hash covers)."""
    payload = entry.hash_payload()
    number = {"seq": entry.number} if "seq" not in payload else {}
    words = {}
    if entry.hash_scheme >= PENDING_DIGEST_SCHEME:
        words = {"pending": entry.pending_words if role == "gm" else []}
    return {
        **number,
        **payload,
        **words,
        "revealed_at": entry.revealed_at.isoformat(timespec="microseconds") if entry.revealed_at else None,
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
    }


class NotAnExport(ValueError):
    """A file that is not a turn-log export at all (as opposed to a broken chain)."""


class UnreadableEntry(NotAnExport):
    """An entry that cannot be a log entry at all (a number too long to record, nesting
    too deep): in a file, the file is not an export; in the database, the chain is broken."""

    def __init__(self, seq, reason: str):
        super().__init__(f"entry #{seq} {reason}")
        self.seq, self.reason = seq, reason


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
    # Places where entries that hash no seq were left out: how many at each, nothing shows.
    gaps_before: tuple[int, ...] = ()
    problem: Break | None = None
    # False when nothing shows the log's end is where the file says (an export made
    # before exports were signed): entries cut from its end would not show.
    end_confirmed: bool = True
    # Entries read from the database whose hash (or digest of the changes left to the GM)
    # orjson's text did not confirm, so it was recomputed the exact way (``StoredEntry``).
    exact_reads: int = 0
    # The hash of the last entry checked (None for none).
    head: str | None = None
    # The public key a file's signature was checked against, when checked by it alone.
    signed_by: str | None = None

    @property
    def holds(self) -> bool:
        return self.problem is None

    def message(self) -> str:
        if self.problem is not None:
            return f"chain broken at {self.problem.describe()}"
        if not self.partial:
            text = f"chain holds: {self.checked} entries"
        else:
            text = f"chain holds for the {self.checked} entries included (partial export)"
            if self.missing:
                spans = ", ".join(f"#{a}" if a == b else f"#{a}-#{b}" for a, b in self.missing_seqs)
                noun = "entry was" if self.missing == 1 else "entries were"
                text += f"; {self.missing} earlier {noun} not included: {spans}"
            if self.gaps_before:
                places = ", ".join(f"#{n}" for n in self.gaps_before)
                text += f"; entries were left out before {places}"
        if not self.end_confirmed:
            text += "; the file is not signed, so entries cut from its end would not show"
        if self.signed_by:
            text += (
                f"; signed by the server key {self.signed_by[:16]}… (checked with the public key alone: "
                "the entries are as the server wrote them, none cut, added or changed)"
            )
        return text


def payload_of(entry: dict) -> dict:
    """What the hash of an exported entry covers (from scheme 4 on, not the changes left to
    the GM as the GM's copy words them: their digest stands for them)."""
    unhashed = CHAIN_KEYS | ({"seq"} if _scheme(entry) >= UNHASHED_NUMBER_SCHEME else set())
    if _scheme(entry) >= PENDING_DIGEST_SCHEME:
        unhashed |= {"pending"}
    return {k: v for k, v in entry.items() if k not in unhashed}


def _scheme(entry: dict) -> int:
    scheme = entry.get("hash_scheme", 1)
    return scheme if isinstance(scheme, int) and not isinstance(scheme, bool) else 1


def _well_formed(entry: object, index: int) -> dict:
    """An entry as a file holds it, or NotAnExport saying why it is not one."""
    where = f"entry {index + 1} of the file"
    if not isinstance(entry, dict):
        raise NotAnExport(f"{where} is not an entry but {_kind(entry)}")
    for key in ("prev_hash", "hash"):
        if key in entry and not (isinstance(entry[key], str) and HASH_TEXT.fullmatch(entry[key])):
            raise NotAnExport(f"{where} has a {key} that is not a hash: {_kind(entry[key])}")
    scheme = entry.get("hash_scheme", 1)
    if scheme not in HASH_SCHEMES or isinstance(scheme, bool):
        raise NotAnExport(f"{where} names a hash scheme this version does not know: {_kind(scheme)}")
    return entry


def _kind(value: object) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the text "{value[:20]}"' + ("…" if len(value) > 20 else "")
    return "a list" if isinstance(value, list) else "a group of fields"


class StoredEntry(dict):
    """An entry as the database holds it (``log_sql.chain_batches``), read by orjson, its
    hash recomputed over orjson's canonical text of what the hash covers instead of
    ``json.dumps``'s, which costs a fifth as much.

    The two texts are the same for what a log holds: text of any kind, integers of up to
    64 bits, yes/no, empty values, lists, and groups whose keys are sorted by code point.
    Where they may differ (a float orjson writes as ``1e-7`` and json.dumps as ``1e-07``,
    an integer beyond 64 bits that orjson reads as a float, a number jsonb gives back as
    ``-0.0`` or as a float that reads back as an integer), orjson's text is not one that
    json.dumps writes of any value the log keeps: read back the exact way and written
    again, it does not come out the same (a property test holds both to it). The hash
    covers a text json.dumps wrote, so a keyed hash that matches orjson's text proves the
    two texts equal; where it does not match, the entry's hash is recomputed the exact way
    from its own line of the batch (``_Batch.exact_hash``) before it is called broken."""

    __slots__ = ("_batch", "_index", "_payload")


class _Batch:
    """One batch of ``chain_batches``, kept while its entries are checked: the exact
    reading of an entry goes back to its own line of the text."""

    __slots__ = ("_lines", "keyed", "reading", "text")

    def __init__(self, text: bytes, reading: _Reading):
        self.text, self.reading, self.keyed = text, reading, reading.keyed
        self._lines: list[bytes] | None = None

    def line(self, index: int) -> bytes:
        if self._lines is None:
            self._lines = self.text[1:-1].split(b",\n")
        return self._lines[index]

    def exact_row(self, index: int) -> tuple[list, bool]:
        """The entry's line (``[seq, prev_hash, hash, payload, pending]``) as ``json.loads``
        reads it, and whether it is already in canonical form (read with canonical floats;
        False when it holds an integer too long to record, which ``canonical`` refuses)."""
        line = self.line(index)
        try:
            try:
                return json.loads(line, parse_float=_canonical_float, parse_int=_recordable_int), True
            except _TooLongNumber:
                return json.loads(line), False
        except ValueError:  # more digits than Python reads at all
            reason = f"a number in the entry has more than {MAX_DIGITS} digits"
            raise UnreadableEntry(_line_seq(line), f"cannot be a log entry: {reason}") from None
        except RecursionError:
            raise UnreadableEntry(_line_seq(line), "is nested too deeply to be a log entry") from None

    def exact_hash(self, index: int) -> str:
        """The entry's hash computed exactly as ``chain_hash`` computes it."""
        self.reading.exact += 1
        (_seq, prev_hash, _hash, payload, _pending), ready = self.exact_row(index)
        return _stored_hash(prev_hash, payload) if ready else chain_hash(prev_hash, payload)

    def rows(self) -> list[list | None]:
        """The batch's entries one line at a time, for a batch orjson cannot read whole: the
        lines it cannot read either (a number beyond a float's range, nesting past its
        depth: only a row written past the app could hold one) are None, read the exact way."""
        rows = []
        for index in range(self.text.count(b",\n") + 1 if self.text != b"[]" else 0):
            try:
                rows.append(orjson.loads(self.line(index)))
            except orjson.JSONDecodeError:
                rows.append(None)
        return rows

    def exact_entry(self, index: int) -> tuple[dict, list | None]:
        """Entry ``index`` and its stored changes left to the GM, read the exact way."""
        self.reading.exact += 1
        (seq, prev_hash, entry_hash, payload, pending), ready = self.exact_row(index)
        entry = StoredEntry(payload) if ready else {**payload}
        entry.update(seq=seq, prev_hash=prev_hash, hash=entry_hash)
        if ready:
            entry._payload, entry._batch, entry._index = payload, None, index
        return entry, pending


def _line_seq(line: bytes) -> int | None:
    found = re.match(rb"\[(\d+),", line)
    return int(found.group(1)) if found else None


def _canonical_float(text: str):
    return canonical(float(text))


_SORTED = orjson.OPT_SORT_KEYS


def _fast_text(payload) -> bytes | None:
    """orjson's canonical text of a value (None where it cannot write one)."""
    try:
        return orjson.dumps(payload, option=_SORTED)
    except orjson.JSONEncodeError:
        return None


class Keyed:
    """HMAC-SHA256 under one key, its inner and outer hash states made once (RFC 2104):
    each text's HMAC continues copies of them. The same digest as ``hmac.new(key, text,
    "sha256")``, at a third of the cost of keying every entry afresh."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes):
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def hexdigest(self, text: bytes) -> str:
        inner, outer = self._inner.copy(), self._outer.copy()
        inner.update(text)
        outer.update(inner.digest())
        return outer.hexdigest()


@cache
def _keyed(key: bytes) -> Keyed:
    return Keyed(key)


def _stored_hash(prev_hash: str, payload: dict) -> str:
    """``chain_hash`` of a payload already in canonical form (read with canonical floats)."""
    text = (
        prev_hash + json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    ).encode()
    scheme = payload.get("hash_scheme", 1)
    if scheme in (2, 3, 4):
        return _keyed(log_key()).hexdigest(text)
    return chain_hash(prev_hash, payload)


def _fast_hash(entry: StoredEntry) -> str:
    """A stored entry's hash over orjson's text of it; the exact way where that does not
    match the hash the entry carries."""
    payload, batch = entry._payload, entry._batch
    if batch is None:  # read the exact way already
        return _stored_hash(entry["prev_hash"], payload)
    scheme = payload.get("hash_scheme", 1)
    if scheme in (1, 2, 3, 4):
        try:
            text = entry["prev_hash"].encode() + orjson.dumps(payload, option=_SORTED)
        except orjson.JSONEncodeError:
            pass
        else:
            computed = hashlib.sha256(text).hexdigest() if scheme == 1 else batch.keyed.hexdigest(text)
            if computed == entry["hash"]:
                return computed
    return batch.exact_hash(entry._index)


def entry_fault(entry: dict) -> str | None:
    """Why an entry's own hash does not match its contents, if it does not."""
    stored = type(entry) is StoredEntry  # read from the database: it has all three
    for key in () if stored else ("seq", "prev_hash", "hash"):
        if key not in entry:
            return f"the entry has no {key}"
    try:
        computed = _fast_hash(entry) if stored else chain_hash(entry["prev_hash"], payload_of(entry))
    except UnrecordableValue as error:
        raise UnreadableEntry(entry["seq"], f"cannot be a log entry: {error}") from None
    except RecursionError:
        raise UnreadableEntry(entry["seq"], "is nested too deeply to be a log entry") from None
    if not hmac.compare_digest(computed, entry["hash"]):
        return (
            "its hash does not match its contents "
            f"(stored {entry['hash'][:12]}…, computed from the entry {computed[:12]}…)"
        )
    return None


def verify_entries(
    entries: Iterable[dict],
    *,
    partial: bool = False,
    campaign_code: str | None = None,
    head: str | None = None,
    oldest_scheme: int = 1,
    keyed: bool = True,
) -> ChainReport:
    """Walk entries in chain order and report the first one that breaks the chain.

    This is the one place a chain is judged, for the database and for files alike.
    A full chain starts from the genesis hash, leaves nothing out, and each ``prev_hash``
    is the previous entry's ``hash``. A partial one (a player's export, a turn range) may
    leave entries out: each entry's own hash is still checked, and so is the link between
    any two entries that follow each other in the log.

    Entries whose hash covers their seq (schemes 1 and 2) are numbered 1, 2, 3... by it,
    and what a partial file leaves out is counted by number. From scheme 3 on the seq is
    the entry's number as the file's reader sees it, which the hash does not cover: a gap
    before such an entry shows only as a ``prev_hash`` that is not the previous entry's
    hash, and is reported as a place, never as a count. Along the chain the hash scheme
    never goes back to an older one. With ``head`` (a fingerprint kept from an earlier
    turn's end) the chain must pass through that hash, else the log was rewritten before
    it or ends before it. No entry may be of a scheme older than ``oldest_scheme`` (the
    campaign's, from its seal: a log begun under keyed hashing takes no unkeyed entry).
    Without ``keyed`` (on a machine without the server's log key) an entry's own keyed hash
    is not recomputed: its links are checked, and the file's signature vouches for the rest.

    Raises NotAnExport for what is not an entry at all (a malformed file)."""
    checked = 0
    missing_spans: list[tuple[int, int]] = []
    gaps_before: list[int] = []
    previous: dict | None = None
    newest_scheme = 1
    head_seen = head is None

    def broken(problem: Break | None) -> ChainReport:
        last = previous["hash"] if previous else None
        return _broken(checked, partial, missing_spans, problem, gaps_before, last)

    for index, entry in enumerate(entries):
        entry = _well_formed(entry, index)
        seq = entry.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            return broken(Break(None, f"bad seq {_kind(seq)}", entry))
        if campaign_code is not None and entry.get("campaign_code") != campaign_code:
            reason = f"it belongs to campaign {entry.get('campaign_code')}, not {campaign_code}"
            return broken(Break(seq, reason, entry))
        scheme = _scheme(entry)
        if scheme < oldest_scheme:
            return broken(Break(seq, _below_campaign_scheme(scheme), entry))
        if scheme < newest_scheme and newest_scheme >= UNHASHED_NUMBER_SCHEME:
            return broken(Break(seq, _older_scheme(scheme), entry))
        link = previous["hash"] if previous else GENESIS_HASH
        if scheme < UNHASHED_NUMBER_SCHEME:
            expected_seq = previous["seq"] + 1 if previous else 1
            if seq < expected_seq:
                reason = f"seq out of order or repeated (after #{previous['seq']})"
                return broken(Break(seq, reason, entry))
            if seq > expected_seq:
                if not partial:
                    reason = f"seq {expected_seq} is missing" + (
                        f" (the chain jumps from #{previous['seq']} to #{seq})" if previous else ""
                    )
                    return broken(Break(seq, reason, entry))
                missing_spans.append((expected_seq, seq - 1))
            if (keyed or scheme == 1) and (fault := entry_fault(entry)):
                return broken(Break(seq, fault, entry))
            if seq == expected_seq and entry["prev_hash"] != link:
                reason = (
                    f"its prev_hash is not {_link_name(previous)} (the chain forks or was rewritten here)"
                )
                return broken(Break(seq, reason, entry))
            if scheme < newest_scheme:
                return broken(Break(seq, _older_scheme(scheme), entry))
        else:
            # The number is the reader's, not hashed: it is checked against the chain's
            # order where the entry before is numbered the same way (a log whose older
            # entries hash their seq numbers them otherwise).
            numbered = previous is None or newest_scheme >= UNHASHED_NUMBER_SCHEME
            expected = previous["seq"] + 1 if previous else 1
            if numbered and seq < expected:
                reason = f"numbered out of order or repeated (after #{previous['seq']})"
                return broken(Break(seq, reason, entry))
            if (keyed or scheme == 1) and (fault := entry_fault(entry)):
                return broken(Break(seq, fault, entry))
            if entry["prev_hash"] == link:
                if numbered and seq != expected:
                    after = f"#{previous['seq']}" if previous else "the log's start"
                    reason = f"it is numbered #{seq} although it follows {after} in the chain"
                    return broken(Break(seq, reason, entry))
            elif not partial:
                if numbered and seq > expected:
                    reason = f"seq {expected} is missing" + (
                        f" (the chain jumps from #{previous['seq']} to #{seq})" if previous else ""
                    )
                else:
                    reason = (
                        f"its prev_hash is not {_link_name(previous)}: entries are missing before it, "
                        "or the chain forks or was rewritten here"
                    )
                return broken(Break(seq, reason, entry))
            elif numbered and seq > expected:
                missing_spans.append((expected, seq - 1))
            else:  # left out without a number to count them by: a place, not a count
                gaps_before.append(seq)
        newest_scheme = scheme
        head_seen = head_seen or head in (entry["hash"], entry["prev_hash"])
        previous = entry
        checked += 1
    if not head_seen:
        reason = (
            f"the log fingerprint you kept ({head[:16]}…) is not in it: the log was rewritten "
            "before that point, or this copy ends before it"
        )
        return broken(Break(None, reason))
    return broken(None)


def _link_name(previous: dict | None) -> str:
    return f"#{previous['seq']}'s hash" if previous else "the genesis hash"


def _below_campaign_scheme(scheme: int) -> str:
    kind = "unkeyed" if scheme == 1 else "of an older kind"
    return (
        f"its hash is {kind}, although the campaign's log is kept under keyed hashes of a newer "
        "kind from its start (the log was re-hashed to get round the key)"
    )


def _older_scheme(scheme: int) -> str:
    if scheme == 1:
        return "its hash is unkeyed although earlier entries are keyed (the log was rewritten here)"
    return "its hash is of an older kind than earlier entries' (the log was rewritten here)"


def _broken(
    checked: int,
    partial: bool,
    spans: list[tuple[int, int]],
    problem: Break | None,
    gaps_before: list[int] = (),
    head: str | None = None,
) -> ChainReport:
    return ChainReport(
        head=head,
        checked=checked,
        partial=partial,
        missing=sum(b - a + 1 for a, b in spans),
        missing_seqs=tuple(spans),
        gaps_before=tuple(gaps_before),
        problem=problem,
    )


class Closing:
    """The server's signature over a file's list of entries, made as the entries stream
    by: which campaign, whether the file is partial, how many entries and which (a digest
    of their hashes, in order). Entries cut from the end, removed from the middle or a
    full file re-marked partial change it, and only the holder of the log key can make a
    new one."""

    def __init__(self, *, kind: str, campaign_code: str, partial: bool, scheme: int | None = None):
        self.kind, self.campaign_code, self.partial = kind, campaign_code, partial
        # The oldest hash scheme the campaign's log takes (signed with the rest, from when
        # files carry it), so a restore keeps the campaign's scheme from going back.
        self.scheme = scheme
        self.digest = hashlib.sha256()
        self.content = hashlib.sha256()
        self.count, self.head = 0, None

    def add(self, entry_hash: str) -> None:
        self.digest.update(entry_hash.encode())
        self.count, self.head = self.count + 1, entry_hash

    def _statement(self, **more) -> str:
        return canonical_json(
            {
                "kind": self.kind,
                "campaign": self.campaign_code,
                "partial": self.partial,
                "count": self.count,
                "head": self.head,
                "digest": self.digest.hexdigest(),
                **more,
            }
        )

    def signature(self) -> str:
        text = self._statement(**({"scheme": self.scheme} if self.scheme is not None else {}))
        return hmac.new(log_key(), text.encode(), hashlib.sha256).hexdigest()

    def add_entry(self, entry: dict) -> None:
        """An entry as the file holds it, for the signature anyone can check (``public_text``)."""
        self.add(entry["hash"])
        self.content.update(_content_text(entry))

    def public_text(self) -> str:
        """What the server's Ed25519 signature of a file covers: as ``signature``, and a
        digest of every entry's whole content as the file holds it (canonical JSON), which
        anyone can recompute without the server's secrets."""
        return self._statement(entries=self.content.hexdigest())

    def signed(self) -> dict:
        return {"public_key": signing.public_key(), "signature": signing.sign(self.public_text())}


def _content_text(entry: dict) -> bytes:
    text = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass") + b"\n"


def closing_signature(*, kind: str, campaign_code: str, partial: bool, hashes: Iterable[str]) -> str:
    closing = Closing(kind=kind, campaign_code=campaign_code, partial=partial)
    for value in hashes:
        closing.add(value)
    return closing.signature()


def verify_export(document: dict, *, head: str | None = None, public_key: str | None = None) -> ChainReport:
    """Check a parsed JSON export (``exports.json_chunks``): its chain, and its closing
    signatures, which show the file holds every entry it held when it was made.

    With ``public_key`` (the key the players' page shows), the file is checked against it
    alone, as on a player's machine without the server's secrets: the links of its chain,
    and the server's Ed25519 signature over every entry's content. Without, on the server:
    every entry's keyed hash too, and both signatures. A file without them is refused."""
    if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
        raise NotAnExport("not a turn-log JSON export: no list of entries")
    if document.get("format") != EXPORT_FORMAT:
        raise NotAnExport(f"unknown export format {_kind(document.get('format'))} (expected {EXPORT_FORMAT})")
    campaign = document.get("campaign")
    code = campaign.get("code") if isinstance(campaign, dict) else None
    if not isinstance(code, str):
        raise NotAnExport("the export does not say which campaign it is from")
    if not isinstance(document.get("partial", False), bool):
        raise NotAnExport("the export's partial mark is not yes or no")
    entries = document["entries"]
    partial = bool(document.get("partial"))
    keyed = public_key is None
    report = verify_entries(entries, partial=partial, campaign_code=code, head=head, keyed=keyed)
    if not report.holds:
        return report
    last = entries[-1] if entries else {}

    def refused(reason: str) -> ChainReport:
        return ChainReport(
            checked=len(entries), partial=partial, problem=Break(last.get("seq"), reason, last or None)
        )

    signed = document.get("signed")
    if not isinstance(signed, dict) or "signature" not in signed:
        return refused(
            "the file is not signed, so nothing shows it is whole: entries may have been cut, "
            "removed or re-hashed after it was made"
        )
    closing = Closing(kind=EXPORT_FORMAT, campaign_code=code, partial=partial)
    for entry in entries:
        closing.add_entry(entry)
    key = public_key if public_key is not None else signing.public_key()
    if not signing.valid(key, closing.public_text(), signed.get("signature")):
        if signed.get("public_key") != key:
            return refused(
                "the file is not signed by the server key you checked it with "
                f"({key[:16]}…): it comes from another server, or was re-signed"
            )
        return refused(
            "the file's signature does not match its entries: entries were changed, removed or "
            "added (at its end or in the middle), or it was re-marked partial, after it was made"
        )
    if keyed:
        signature = document.get("signature")
        if not isinstance(signature, str) or not hmac.compare_digest(signature, closing.signature()):
            return refused(
                "the file's closing signature does not match its entries: entries were removed "
                "or added (at its end or in the middle), or it was re-marked partial, after it was made"
            )
        return report
    return dataclasses.replace(report, signed_by=key)


class _TooLongNumber(Exception):
    pass


def _recordable_int(text: str) -> int:
    """An integer as ``canonical`` keeps it; one of more than MAX_DIGITS digits stops the
    canonical reading of its entry, which is then read and judged as a file's entries are."""
    if len(text) - text.startswith("-") > MAX_DIGITS:
        raise _TooLongNumber
    return int(text)


class _Reading:
    """What reading a campaign's log found besides the chain: how many entries' hashes or
    digests the fast text did not confirm (recomputed the exact way), and the first entry
    (hash scheme 4) whose changes left to the GM no longer match the digest its hash
    covers, reported only if the chain itself holds (a broken chain is the first thing to
    say). Like the entries' hashes, that digest is first recomputed over orjson's text of
    the changes, and the exact way only where that does not match."""

    REASON = "its changes left to the GM are not those its hash covers (they were rewritten)"

    def __init__(self, keyed: Keyed):
        self.keyed = keyed
        self.exact = 0
        self.problem: Break | NotAnExport | None = None

    def holds_fast(self, payload: dict, pending) -> bool:
        nonce = payload.get("nonce")
        if not isinstance(nonce, str):
            return False
        if pending == []:  # most entries: nothing left to the GM
            text = b'{"pending":[]}'
        elif (text := _fast_text(pending)) is None:
            return False
        else:
            text = b'{"pending":' + text + b"}"
        return self.keyed.hexdigest(b"pending\0" + nonce.encode() + text) == payload.get("pending_digest")

    def check_exact(self, entry: dict, pending) -> None:
        """``pending`` read the exact way (``json.loads``), as the database holds it."""
        try:
            if hmac.compare_digest(
                pending_digest(str(entry.get("nonce")), pending).encode(),
                str(entry.get("pending_digest")).encode(),
            ):
                return
        except UnrecordableValue as error:
            self.problem = UnreadableEntry(entry["seq"], f"cannot be a log entry: {error}")
            return
        except RecursionError:
            self.problem = UnreadableEntry(entry["seq"], "is nested too deeply to be a log entry")
            return
        seen = {"turn": entry.get("turn"), "procedure": entry.get("procedure"), "title": entry.get("title")}
        self.problem = Break(entry["seq"], self.REASON, seen)


def campaign_entries(campaign: Campaign, reading: _Reading | None = None) -> Iterator[dict]:
    """A campaign's whole log from the database, in seq order, each entry what its hash
    covers with its seq and chain hashes: PostgreSQL writes each batch of entries as one
    JSON text (``log_sql.chain_batches``), read by orjson in one call per batch, each entry
    a ``StoredEntry``. An entry orjson cannot read (``_Batch.rows``) is read the exact way.
    With ``reading``, each entry of hash scheme 4 has its changes left to
    the GM checked against their digest on the way."""
    pending = reading is not None
    reading = reading or _Reading(_keyed(log_key()))
    batches = chain_batches(campaign)
    try:
        for text in batches:
            batch = _Batch(text, reading)
            try:
                rows = orjson.loads(text)
            except orjson.JSONDecodeError:
                rows = batch.rows()
            rows.reverse()  # taken from the end, so each entry is freed once it is checked
            for index in range(len(rows)):
                row = rows.pop()
                if row is None:
                    entry, stored = batch.exact_entry(index)
                    if stored is not None and pending and reading.problem is None:
                        reading.check_exact(entry, stored[0])
                    yield entry
                    continue
                seq, prev_hash, entry_hash, payload, stored = row
                entry = StoredEntry(payload)
                entry["seq"], entry["prev_hash"], entry["hash"] = seq, prev_hash, entry_hash
                entry._payload, entry._batch, entry._index = payload, batch, index
                if (
                    stored is not None
                    and pending
                    and reading.problem is None
                    and not reading.holds_fast(payload, stored[0])
                ):
                    reading.exact += 1
                    reading.check_exact(entry, batch.exact_row(index)[0][4][0])
                yield entry
    finally:
        batches.close()


@contextmanager
def _collector_paused():
    """The cyclic garbage collector held off: parsed entries hold no cycles and are freed
    as they are checked, and collections triggered by their allocation cost a third of the
    time of reading them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def verify_campaign(campaign: Campaign, *, head: str | None = None) -> ChainReport:
    """Recompute a campaign's whole chain from what the database holds now, and (hash
    scheme 4) that each entry's changes left to the GM still match the digest its hash covers."""
    seal = LogSeal.objects.filter(campaign_id=campaign.pk).first()
    if seal is not None and not signing.valid(
        signing.public_key(), seal.statement(str(campaign.code)), seal.signature
    ):
        reason = (
            "the seal that says where the log ends is not the server's signature "
            "(it was rewritten outside the app, or the server's signing key changed)"
        )
        return ChainReport(checked=0, problem=Break(None, reason))
    reading = _Reading(_keyed(log_key()))
    entries = campaign_entries(campaign, reading)
    try:
        with _collector_paused():
            report = verify_entries(
                entries,
                campaign_code=str(campaign.code),
                head=head,
                oldest_scheme=seal.scheme if seal is not None else HASH_SCHEMES[-1],
            )
    finally:
        entries.close()
    report = dataclasses.replace(report, exact_reads=reading.exact)
    if report.problem is None:
        report = _against_seal(report, seal)
    if report.problem is not None or reading.problem is None:
        return report
    if isinstance(reading.problem, NotAnExport):
        raise reading.problem
    return _replace_problem(report, reading.problem)


def _against_seal(report: ChainReport, seal: LogSeal | None) -> ChainReport:
    """The chain must reach where the server signed it ended: a log shorter than its seal
    was cut (entries were removed from its end), one longer had entries added past the app."""
    if seal is None:
        reason = (
            "the campaign has no seal saying where its log ends, so entries cut from the log "
            "(or the whole log) would not show: the seal was removed outside the app"
        )
        return _replace_problem(report, Break(None, reason))
    if report.checked < seal.length:
        first, last = report.checked + 1, seal.length
        span = f"#{first}" if first == last else f"#{first}-#{last}"
        where = f"after #{report.checked}" if report.checked else "from its start: the log was emptied"
        noun = "entry is" if first == last else "entries are"
        reason = (
            f"the log is cut {where}; the server signed it as {seal.length} entries long, "
            f"so {last - first + 1} {noun} missing ({span})"
        )
        return _replace_problem(report, Break(first, reason))
    if report.checked > seal.length:
        reason = (
            f"the server signed the log as {seal.length} entries long, but it holds {report.checked}: "
            f"entries from #{seal.length + 1} on were added outside the app"
        )
        return _replace_problem(report, Break(seal.length + 1, reason))
    if (report.head or GENESIS_HASH) != seal.head:
        reason = "the log's last entry is not the one the server signed as its end (it was rewritten)"
        return _replace_problem(report, Break(report.checked or None, reason))
    return report


def database_verdict(campaign: Campaign, *, head: str | None = None) -> ChainReport:
    """``verify_campaign``, where a row that cannot be a log entry at all (only one written
    past the app can be) is where the chain breaks, said in words, not an error."""
    try:
        return verify_campaign(campaign, head=head)
    except UnreadableEntry as error:
        return ChainReport(checked=0, problem=Break(error.seq, f"it {error.reason}"))
    except NotAnExport as error:
        return ChainReport(checked=0, problem=Break(None, str(error)))


def _replace_problem(report: ChainReport, problem: Break) -> ChainReport:
    return ChainReport(
        checked=report.checked,
        partial=report.partial,
        missing=report.missing,
        missing_seqs=report.missing_seqs,
        gaps_before=report.gaps_before,
        problem=problem,
        end_confirmed=report.end_confirmed,
        exact_reads=report.exact_reads,
        head=report.head,
    )
