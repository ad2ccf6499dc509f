"""``manage.py bench_rules``: how long each procedure takes, on its example inputs.

A benchmark that prints figures, not a test. Per procedure it times ``rules.resolve``
(the server's dice, made reproducible with ``rules.SeededDice``: repetition ``i`` uses
seed ``i``) and ``rules.odds``, prints the medians and flags those over the targets.
"""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

import rules

RESOLVE_TARGET_US = 1_000  # 1 ms: a click on "Roll" must feel instant
ODDS_TARGET_MS = 50  # the odds panel refreshes while the GM types


def median_resolve_us(proc: rules.Procedure, repeat: int) -> float:
    rules.resolve(proc.id, proc.example, rules.SeededDice(-1))  # warm caches and imports
    times = []
    for seed in range(repeat):
        dice = rules.SeededDice(seed)
        start = time.perf_counter_ns()
        rules.resolve(proc.id, proc.example, dice)
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1_000


def median_odds_ms(proc: rules.Procedure, repeat: int) -> tuple[float | None, bool]:
    """(median ms, exact?); None when the odds are refused."""
    times = []
    exact = True
    for _ in range(repeat):
        start = time.perf_counter_ns()
        try:
            exact = rules.odds(proc.id, proc.example).exact
        except rules.OddsError:
            return None, False
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1_000_000, exact


class Command(BaseCommand):
    help = (
        "Benchmark the rules engine: median resolve time (µs) and exact-odds time (ms) "
        "of every procedure's example inputs, flagged against the targets."
    )
    requires_system_checks = []  # pure engine: no models, no database

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--procedure",
            action="append",
            metavar="ID",
            help="benchmark only this procedure (may be repeated)",
        )
        parser.add_argument(
            "--repeat", type=int, default=300, metavar="N", help="resolve runs per procedure (default 300)"
        )
        parser.add_argument(
            "--odds-repeat", type=int, default=5, metavar="N", help="odds runs per procedure (default 5)"
        )
        parser.add_argument(
            "--sort",
            choices=("catalogue", "resolve", "odds"),
            default="catalogue",
            help="row order: the catalogue's, or slowest first",
        )

    def handle(self, *args, **opts) -> None:
        if opts["repeat"] < 1 or opts["odds_repeat"] < 1:
            raise CommandError("--repeat and --odds-repeat must be at least 1")
        try:
            procs = [rules.get(pid) for pid in opts["procedure"]] if opts["procedure"] else None
        except rules.InputError as e:
            raise CommandError(e.message) from None
        procs = procs or rules.all_procedures()

        rows = []
        estimated: set[str] = set()  # odds from simulated rolls, not every dice path
        for proc in procs:
            resolve_us = median_resolve_us(proc, opts["repeat"])
            odds_ms, exact = median_odds_ms(proc, opts["odds_repeat"])
            if not exact and odds_ms is not None:
                estimated.add(proc.id)
            rows.append((proc.id, resolve_us, odds_ms))
        if opts["sort"] == "resolve":
            rows.sort(key=lambda row: -row[1])
        elif opts["sort"] == "odds":
            rows.sort(key=lambda row: -1 if row[2] is None else -row[2])

        width = max(len("procedure"), *(len(pid) for pid, _, _ in rows))
        self.stdout.write(
            f"{'procedure':<{width}}  {'resolve µs':>10}  {'odds ms':>9}  "
            f"(medians; targets {RESOLVE_TARGET_US / 1000:g} ms, {ODDS_TARGET_MS} ms; "
            f"{opts['repeat']} / {opts['odds_repeat']} runs)"
        )
        for pid, resolve_us, odds_ms in rows:
            flags = []
            if resolve_us > RESOLVE_TARGET_US:
                flags.append(f"SLOW resolve > {RESOLVE_TARGET_US / 1000:g} ms")
            if odds_ms is not None and odds_ms > ODDS_TARGET_MS:
                flags.append(f"SLOW odds > {ODDS_TARGET_MS} ms")
            if pid in estimated:
                flags.append("odds estimated from simulated rolls")
            odds_text = "refused" if odds_ms is None else f"{odds_ms:.2f}"
            self.stdout.write(
                f"{pid:<{width}}  {resolve_us:>10.1f}  {odds_text:>9}  {'; '.join(flags)}".rstrip()
            )

        slow_resolve = max(rows, key=lambda row: row[1])
        timed_odds = [row for row in rows if row[2] is not None]
        over_resolve = sum(1 for _, us, _ in rows if us > RESOLVE_TARGET_US)
        over_odds = sum(1 for _, _, ms in timed_odds if ms > ODDS_TARGET_MS)
        self.stdout.write(
            f"total: {len(rows)} procedures; resolve {sum(r[1] for r in rows) / 1000:.2f} ms "
            f"(slowest {slow_resolve[0]} {slow_resolve[1]:.1f} µs), {over_resolve} over target"
        )
        if timed_odds:
            slow_odds = max(timed_odds, key=lambda row: row[2])
            self.stdout.write(
                f"total: odds {sum(r[2] for r in timed_odds):.1f} ms "
                f"(slowest {slow_odds[0]} {slow_odds[2]:.1f} ms), {over_odds} over target"
                + (f", {len(rows) - len(timed_odds)} refused" if len(timed_odds) < len(rows) else "")
            )
        else:
            self.stdout.write(f"total: odds refused for all {len(rows)}")
