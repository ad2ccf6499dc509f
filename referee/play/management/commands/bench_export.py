"""``manage.py bench_export``: how long the turn-log exports take on a big log, and how
much memory they hold while streaming it (they should hold about the same for any size).

Creates a throwaway campaign with N chained entries inside one transaction, streams
each export through the real view, then rolls everything back. The log's touch
triggers are held off for its own statements only (other campaigns write on meanwhile);
still, run it on a development database."""

from __future__ import annotations

import os
import statistics
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path

import pgtrigger
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from referee.campaigns.models import Campaign, Membership, Phase, touch_campaign_trigger_uris
from referee.play import backup, integrity, services, views
from referee.play.models import GENESIS_HASH, LogEntry, LogSeal, chain_hash, pending_digest, public_root
from referee.play.wording import words_of

PHASES = [Phase.INITIATIVE, Phase.MOVEMENT, Phase.COMBAT, Phase.END]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the CSV/JSON/Markdown exports (and backup, verify) over a big throwaway log; prints figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--entries", type=int, default=100_000, help="log entries to create")
        parser.add_argument("--batch", type=int, default=5000, help="entries per bulk insert")

    def handle(self, *args, entries: int, batch: int, **opts) -> None:
        try:
            with transaction.atomic():
                self._run(entries, batch)
                raise _Rollback
        except _Rollback:
            self.stdout.write("everything the bench created was rolled back")

    def _run(self, count: int, batch: int) -> None:
        started = time.perf_counter()
        gm = get_user_model().objects.create(username=f"bench-{uuid.uuid4().hex[:12]}")
        campaign = Campaign.objects.create(name="Bench campaign")
        Membership.objects.create(campaign=campaign, user=gm, role="gm")
        with pgtrigger.ignore(*touch_campaign_trigger_uris()):
            _fill_log(campaign, count, batch)
        self.stdout.write(
            f"bench_export: {count} log entries created in {time.perf_counter() - started:.1f} s "
            "(one transaction, rolled back at the end)"
        )
        factory = RequestFactory()

        def export(fmt: str) -> Iterable[bytes]:
            request = factory.get(reverse("play:export", args=[campaign.code, fmt]))
            request.user = gm
            response = views.log_export(request, code=campaign.code, fmt=fmt)
            assert response.status_code == 200, response.status_code
            return response.streaming_content

        def verify() -> Iterable[bytes]:
            report = integrity.verify_campaign(campaign)
            assert report.holds and report.checked == count, report.message()
            yield report.message().encode()

        def copy() -> Iterable[bytes]:
            """The floor: PostgreSQL's own COPY of the same rows, as text."""
            sql = f"COPY (SELECT * FROM play_logentry WHERE campaign_id = {int(campaign.pk)} ORDER BY seq) TO STDOUT"
            with connection.cursor() as cursor, cursor.cursor.copy(sql) as stream:
                for block in stream:
                    yield bytes(block)

        runs: list[tuple[str, Callable[[], Iterable[bytes | str]]]] = [
            ("COPY", copy),
            ("csv", lambda: export("csv")),
            ("json", lambda: export("json")),
            ("md", lambda: export("md")),
            ("backup", lambda: backup.backup_chunks(campaign)),
            ("verify", verify),
        ]
        self.stdout.write(
            f"{'what':<8}{'time (s)':>10}{'× COPY':>8}{'µs/entry':>10}{'output (MB)':>13}{'peak Python (MB)':>18}"
            f"{'CPU: Python (s)':>17}{'PostgreSQL (s)':>16}"
        )
        floor = None
        backend = _Backend()
        for name, make in runs:
            seconds, cpu, db_cpu, size = _drain(make, backend)
            floor = floor or seconds
            peak = _peak(make)
            self.stdout.write(
                f"{name:<8}{seconds:>10.2f}{seconds / floor:>8.1f}{seconds / max(count, 1) * 1e6:>10.1f}"
                f"{size / 1e6:>13.1f}{peak / 1e6:>18.2f}{cpu:>17.2f}"
                + (f"{db_cpu:>16.2f}" if db_cpu is not None else f"{'not readable':>16}")
            )
        self.stdout.write(
            "time is wall time, measured without tracemalloc; peak memory in a second pass with it; "
            "CPU is this process's and its database connection's server process's (read from /proc "
            "when the server runs on this machine)"
        )
        self._undo_scan(campaign, count)

    def _undo_scan(self, campaign: Campaign, count: int) -> None:
        """Undo's question "did a later entry change this field?", asked of the first entry
        (every later jump changed the same field), the middle one, the newest (nothing
        later) and of a record no entry touched, each the median of 9 asks."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_has_role(current_user, tableowner, 'USAGE') FROM pg_tables WHERE tablename = %s",
                [LogEntry._meta.db_table],
            )
            owner = bool((cursor.fetchone() or [False])[0])
            if owner:  # statistics for the planner, as autovacuum gives a live log
                cursor.execute(f"ANALYZE {LogEntry._meta.db_table}")
        self.stdout.write(
            "undo's scan for later changes (median of 9, milliseconds)"
            + (
                ":"
                if owner
                else ", with no planner statistics for the rows this bench added (only the table's "
                "owner may analyse it; autovacuum does so for a live log, whose figures are in "
                "docs/measurements.md):"
            )
        )
        seqs = {"first": 1, "middle": max(count // 2, 1), "newest": count}
        entries = {e.seq: e for e in LogEntry.objects.filter(campaign=campaign, seq__in=seqs.values())}
        for name, seq in seqs.items():
            entry = entries.get(seq)
            if entry is None or not entry.effects:
                continue
            change = entry.effects[0]
            for what, code in (("same field", change["code"]), ("untouched record", str(uuid.uuid4()))):
                times, found = [], None
                for _ in range(9):
                    started = time.perf_counter()
                    found = services._field_changed_later(entry, {**change, "code": code})
                    times.append((time.perf_counter() - started) * 1000)
                later = f"#{found.seq}" if found else "none"
                self.stdout.write(
                    f"  entry #{seq:<7} ({name}), {what:<17}{statistics.median(times):>8.2f} ms   later change: {later}"
                )


class _Backend:
    """CPU seconds used so far by the PostgreSQL process serving this connection, where
    its /proc entry can be read (a server on this machine); else None."""

    def __init__(self):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.stat = Path(f"/proc/{cursor.fetchone()[0]}/stat")

    def cpu(self) -> float | None:
        try:
            fields = self.stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drain(
    make: Callable[[], Iterable[bytes | str]], backend: _Backend
) -> tuple[float, float, float | None, int]:
    """Wall time, this process's CPU time, the database server process's CPU time, size."""
    db_before = backend.cpu()
    started, cpu = time.perf_counter(), time.process_time()
    size = sum(len(chunk) for chunk in make())
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    db_after = backend.cpu()
    db_cpu = db_after - db_before if db_before is not None and db_after is not None else None
    return seconds, cpu, db_cpu, size


def _peak(make: Callable[[], Iterable[bytes | str]]) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        for _chunk in make():
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _fill_log(campaign: Campaign, count: int, batch: int) -> None:
    """Entries shaped like real ones (a jump with two rolls; every tenth a phase change
    without rolls), chained exactly as services.log_append chains them."""
    prev_hash = GENESIS_HASH
    clock = campaign.clock
    now = timezone.now()
    pending: list[LogEntry] = []
    for seq in range(1, count + 1):
        turn = 1 + seq // 40
        entry = LogEntry(
            campaign=campaign,
            seq=seq,
            turn=turn,
            phase=PHASES[(seq // 10) % 4],
            game_time=clock + timedelta(minutes=turn),
            created_at=now + timedelta(microseconds=seq),
            actor_name="bench",
            prev_hash=prev_hash,
            **(_phase_change(seq, turn) if seq % 10 == 0 else _jump(seq)),
        )
        entry.pending_digest = pending_digest(entry.nonce, entry.pending)  # as services.log_append does
        entry.hash = chain_hash(prev_hash, entry.hash_payload())
        entry.words = words_of(entry)
        prev_hash = entry.hash
        pending.append(entry)
        if len(pending) >= batch:
            LogEntry.objects.bulk_create(pending)
            pending = []
    LogEntry.objects.bulk_create(pending)
    _seal(campaign)


def _seal(campaign: Campaign) -> None:
    """The seal where the filled log ends, as services.log_append would have left it."""
    seal = LogSeal.objects.get(campaign=campaign)
    entries = LogEntry.objects.filter(campaign=campaign).order_by("seq")
    last = entries.only("seq", "hash").last()
    seal.length, seal.head = (last.seq, last.hash) if last else (0, GENESIS_HASH)
    seal.public_length, seal.public_root = 0, GENESIS_HASH
    for entry_hash, created_at in entries.filter(visibility="everyone").values_list("hash", "created_at"):
        seal.public_length += 1
        seal.public_root, seal.public_at = public_root(seal.public_root, entry_hash), created_at
    seal.sign(str(campaign.code), public=True)
    seal.save()


def _jump(seq: int) -> dict:
    a, b, c, d = (seq % 6) + 1, (seq * 7 % 6) + 1, (seq * 5 % 6) + 1, (seq * 11 % 6) + 1
    micro = a + b >= 12
    return {
        "procedure": "jump.malfunction",
        "title": "Jump",
        "inputs": {
            "hours_since_last_jump": None,
            "charged_from_reactor": False,
            "kf_integrity": 4,
            "kf_integrity_max": 4,
            "@ship": {"code": "6f1c1f4e-8d0a-4a43-9a1e-4c2d7e0b9f11", "name": "Waterloo"},
        },
        "rolls": [
            {"label": "malfunction", "sides": 6, "values": [a, b], "total": a + b},
            {"label": "effect", "sides": 6, "values": [c, d], "total": c + d},
        ],
        "result": {
            "mishap": micro,
            "modifier": 0,
            "malfunction_total": a + b,
            "effect_total": c + d,
            "effect": "micro_fractures" if micro else "none",
            "jump_proceeds": True,
            "charge_lost": False,
        },
        "effects": [
            {
                "target": "ship",
                "code": "6f1c1f4e-8d0a-4a43-9a1e-4c2d7e0b9f11",
                "name": "Waterloo",
                "field": "last_jump_at",
                "label": "last jump",
                "before": None,
                "after": "3067-01-01T00:00:00+00:00",
            }
        ],
        "summary": f"Malfunction roll {a + b}: the jump goes ahead. Entry {seq} of the bench log.",
        "reference": "seeds/004 Drive-System Malfunctions",
    }


def _phase_change(seq: int, turn: int) -> dict:
    return {
        "procedure": "turn.advance",
        "title": "Next phase",
        "summary": f"Turn {turn}: next phase begins.",
        "effects": [
            {
                "target": "campaign",
                "code": "0b8e3d55-2f6c-4a8e-9d3b-1f2e3c4d5e6f",
                "name": "Bench campaign",
                "field": "phase",
                "label": "phase",
                "before": "initiative",
                "after": "movement",
            }
        ],
    }
