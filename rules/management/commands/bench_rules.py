"""``manage.py bench_rules``: how long each procedure takes.

A benchmark that prints figures, not a test. Per procedure it times ``rules.resolve``
(the server's dice, made reproducible with ``rules.SeededDice``: repetition ``i`` uses
seed ``i``) and ``rules.odds`` on its example inputs, prints the medians and flags those
over the targets. Then it times the odds of every result key of every procedure over the
inputs ``rules.samples`` makes (the example, every input at the edges of what it accepts,
and seeded mixtures) and prints the slowest calls, so no key and no edge goes unmeasured.
"""

from __future__ import annotations

import gc
import json
import math
import statistics
import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError, CommandParser

import rules
from rules import samples

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


def timed_odds(proc, inputs, key, time_limit) -> tuple[float, str]:
    """One odds call: (ms, how), how = "exact", "estimate (N runs)" or "refused: ..."."""
    start = time.perf_counter_ns()
    try:
        dist = rules.odds(proc.id, inputs, key, time_limit=time_limit)
        how = "exact" if dist.exact else f"estimate ({dist.runs:,} runs)"
    except (rules.InputError, rules.OddsError) as error:
        how = f"refused: {error}"
    return (time.perf_counter_ns() - start) / 1_000_000, how


def alone_ms(pid: str, inputs: dict, key: str, time_limit, repeat: int = 3) -> float:
    """The fastest of ``repeat`` calls made one by one after a garbage collection: what the
    call takes without the audit's own garbage or a neighbour's burst on the machine."""
    proc = rules.get(pid)
    best = math.inf
    for _ in range(repeat):
        gc.collect()
        best = min(best, timed_odds(proc, inputs, key, time_limit)[0])
    return best


def every_key_odds(procs, mixtures: int, time_limit: float | None):
    """One timed odds call per result key per accepted sample input:
    [(ms, procedure id, key, inputs, how)], how = "exact", "estimate" or "refused: ..."."""
    calls = []
    for proc in procs:
        for inputs in samples.accepted_inputs(proc, mixtures):
            for key in proc.result_keys:
                ms, how = timed_odds(proc, inputs, key, time_limit)
                calls.append((ms, proc.id, key, inputs, how))
    return calls


def _brief(inputs: dict, width: int = 70) -> str:
    text = json.dumps(inputs, separators=(",", ":"))
    return text if len(text) <= width else text[: width - 3] + "..."


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
        parser.add_argument(
            "--slowest",
            type=int,
            default=20,
            metavar="N",
            help="odds calls to list from the every-key audit, slowest first (default 20; 0 skips it)",
        )
        parser.add_argument(
            "--mixtures",
            type=int,
            default=40,
            metavar="N",
            help="seeded mixtures of edge values per procedure in the audit (default 40)",
        )
        parser.add_argument(
            "--quick",
            action="store_true",
            help="a quick pass: 20 resolve runs, 1 odds run, 10 mixtures (the audit still covers every key)",
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=None,
            metavar="S",
            help="time_limit passed to every audited odds call (default: none, as rules.odds)",
        )

    def handle(self, *args, **opts) -> None:
        if opts["quick"]:
            opts.update(repeat=min(opts["repeat"], 20), odds_repeat=1, mixtures=min(opts["mixtures"], 10))
        if opts["repeat"] < 1 or opts["odds_repeat"] < 1:
            raise CommandError("--repeat and --odds-repeat must be at least 1")
        if opts["slowest"] < 0 or opts["mixtures"] < 0:
            raise CommandError("--slowest and --mixtures must be 0 or more")
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
        if opts["slowest"]:
            self.audit(procs, opts)

    def audit(self, procs, opts) -> None:
        calls = every_key_odds(procs, opts["mixtures"], opts["time_limit"])
        calls.sort(key=lambda call: -call[0])
        keys = {(pid, key) for _, pid, key, _, _ in calls}
        every = sum(len(p.result_keys) for p in procs)
        self.stdout.write("")
        self.stdout.write(
            f"every key: {len(calls):,} odds calls over {len(keys)} of {every} result keys "
            f"of {len(procs)} procedures; slowest {min(opts['slowest'], len(calls))}:"
        )
        # A slow call is timed again on its own: the first figure may be another call's garbage
        # collection or a neighbour's burst on a shared machine.
        slowest = [
            (ms, alone_ms(pid, inputs, key, opts["time_limit"]), pid, key, inputs, how)
            for ms, pid, key, inputs, how in calls[: opts["slowest"]]
        ]
        slowest.sort(key=lambda call: -call[1])
        self.stdout.write(f"{'ms':>9}  {'alone':>9}  {'procedure':<28} {'key':<22} {'odds':<20} inputs")
        for ms, alone, pid, key, inputs, how in slowest:
            self.stdout.write(
                f"{ms:>9.1f}  {alone:>9.1f}  {pid:<28} {key:<22} {how[:20]:<20} {_brief(inputs)}"
            )
        over_alone = [call for call in slowest if call[1] > ODDS_TARGET_MS]
        self.stdout.write(
            f"timed alone (fastest of 3): {len(over_alone)} of these {len(slowest)} calls over {ODDS_TARGET_MS} ms"
        )
        hows = Counter(how.split(" ")[0].rstrip(":") for _, _, _, _, how in calls)
        over = sum(1 for ms, *_ in calls if ms > ODDS_TARGET_MS)
        over_1s = sum(1 for ms, *_ in calls if ms > 1000)
        estimated = sorted({(pid, key) for _, pid, key, _, how in calls if how.startswith("estimate")})
        self.stdout.write(
            f"every key: {over} calls over {ODDS_TARGET_MS} ms, {over_1s} over 1 s; "
            f"{hows['exact']:,} exact, {hows['estimate']:,} estimated, {hows['refused']:,} refused"
        )
        if estimated:
            self.stdout.write("estimated keys: " + ", ".join(f"{pid} {key}" for pid, key in estimated))
