"""``manage.py bench_http``: the app as deployed, under load, beside a bare Django view.

Creates a throwaway database on the same PostgreSQL server, migrates it, fills it with
the demo campaign scaled up (``--ships``, ``--units``, ``--entries``), starts gunicorn
with the production settings (``DEBUG=false``, persistent connections) on 127.0.0.1,
drives each page with ``wrk`` (installed from Debian when missing and run as root),
repeats each measurement and prints requests per second, median latency and the ratio
to the bare view. Then two app servers against the one database, and the page costs
measured in process (queries and milliseconds). The database is dropped at the end.

Figures, not tests: on a shared machine they move from run to run; compare the ratios."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from referee.bench import cpu, fill, live

BASE_DIR = Path(settings.BASE_DIR)


@dataclass
class Target:
    name: str
    path: str
    cookie: str = ""
    headers: dict = field(default_factory=dict)
    body: str = ""
    expect: int = 200


@dataclass
class Measure:
    rps: list[float] = field(default_factory=list)
    p50_ms: list[float] = field(default_factory=list)
    errors: int = 0

    @property
    def median_rps(self) -> float:
        return statistics.median(self.rps) if self.rps else 0.0

    @property
    def median_p50(self) -> float:
        return statistics.median(self.p50_ms) if self.p50_ms else 0.0


class Command(BaseCommand):
    help = "Serve the app as deployed on loopback with a scaled-up demo and print throughput vs a bare view."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ships", type=int, default=200, help="ships in the campaign (default 200)")
        parser.add_argument("--units", type=int, default=200, help="units in the campaign (default 200)")
        parser.add_argument("--entries", type=int, default=100_000, help="turn-log entries (default 100000)")
        parser.add_argument("--seconds", type=float, default=3.0, help="length of one wrk run (default 3)")
        parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is shown")
        parser.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers per server")
        parser.add_argument("--no-scaling", action="store_true", help="skip the two-server measurement")
        parser.add_argument(
            "--sse-clients", type=int, default=1000, help="live-view clients to hold open (0 skips)"
        )
        # The child that fills the throwaway database and measures pages in process.
        parser.add_argument("--fill-only", action="store_true", help="(internal)")

    def handle(self, *args, **opts) -> None:
        if opts["fill_only"]:
            result = fill.fill(ships=opts["ships"], units=opts["units"], entries=opts["entries"])
            self.stdout.write("BENCH-RESULT " + json.dumps(result))
            return
        Bench(self, opts).run()


class Bench:
    def __init__(self, command: Command, opts: dict) -> None:
        self.out = command.stdout
        self.opts = opts
        self.servers: list[subprocess.Popen] = []
        self.db_name = f"referee_bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.tmp = Path(tempfile.mkdtemp(prefix="referee-bench-"))

    def say(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    # -- set-up -------------------------------------------------------------------------------

    def run(self) -> None:
        wrk = ensure_wrk()
        started = time.perf_counter()
        self._create_database()
        try:
            env = self._child_env()
            self.say(f"bench_http: throwaway database {self.db_name}; migrating and filling it…")
            manage = [sys.executable, str(BASE_DIR / "manage.py")]
            subprocess.run([*manage, "migrate", "--no-input", "-v0"], env=env, check=True)
            subprocess.run([*manage, "collectstatic", "--no-input", "-v0"], env=env, check=True)
            filled = subprocess.run(
                [
                    *manage,
                    "bench_http",
                    "--fill-only",
                    f"--ships={self.opts['ships']}",
                    f"--units={self.opts['units']}",
                    f"--entries={self.opts['entries']}",
                ],
                env=env,
                capture_output=True,
                text=True,
            )
            if filled.returncode:
                raise CommandError(f"filling the throwaway database failed:\n{filled.stderr[-3000:]}")
            line = next(x for x in filled.stdout.splitlines() if x.startswith("BENCH-RESULT "))
            data = json.loads(line.removeprefix("BENCH-RESULT "))
            self.say(
                f"  {self.opts['ships']} ships, {self.opts['units']} units, {self.opts['entries']} log entries "
                f"ready in {time.perf_counter() - started:.0f} s"
            )
            self._measure(wrk, env, data)
        finally:
            self._stop_servers()
            self._drop_database()
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _owner(self) -> dict:
        """The role that runs migrations (and owns the tables), else the app's own."""
        return getattr(settings, "MIGRATE_DATABASE", None) or connection.settings_dict

    def _admin(self, sql: str) -> None:
        db = self._owner()
        params = {
            "dbname": db["NAME"],
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
        }
        with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as admin:
            admin.execute(sql)

    def _create_database(self) -> None:
        self._admin(f'CREATE DATABASE "{self.db_name}"')

    def _drop_database(self) -> None:
        with contextlib.suppress(Exception):
            self._admin(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            self.say(f"throwaway database {self.db_name} dropped")

    def _database_url(self, db: dict) -> str:
        user = quote(db.get("USER") or "", safe="")
        password = quote(db.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = quote(db.get("HOST") or "", safe="")
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgresql://{auth}{host}{port}/{self.db_name}"

    def _child_env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
        env.update(
            DJANGO_SETTINGS_MODULE="referee.bench.settings",
            # As deployed: the app runs as its own role, migrations as the tables' owner.
            DATABASE_URL=self._database_url(connection.settings_dict),
            MIGRATE_DATABASE_URL=self._database_url(self._owner()),
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="false",
            REFEREE_BENCH_STATIC_ROOT=str(self.tmp / "static"),
            LOG_LEVEL="ERROR",
            # As deployed: one release id for every worker and server, so they share kept pages.
            REFEREE_RELEASE=f"bench-{self.db_name}",
        )
        return env

    def _start_server(self, env: dict, workers: int) -> str:
        port = free_port()
        gunicorn = Path(sys.executable).with_name("gunicorn")
        server = subprocess.Popen(
            [
                str(gunicorn),
                "referee.wsgi:application",
                f"--bind=127.0.0.1:{port}",
                f"--workers={workers}",
                "--worker-class=sync",
                "--log-level=warning",
            ],
            env=env,
            cwd=BASE_DIR,
            start_new_session=True,
        )
        self.servers.append(server)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), urllib.request.urlopen(base + "/bench/bare/", timeout=2) as r:
                if r.status == 200:
                    return base
            if server.poll() is not None:
                raise CommandError("gunicorn exited before it served the bare view")
            time.sleep(0.3)
        raise CommandError("gunicorn did not answer within a minute")

    def _stop_servers(self) -> None:
        for server in self.servers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)
        for server in self.servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        self.servers = []

    # -- measuring ----------------------------------------------------------------------------

    def _poll_version(self, base: str, data: dict) -> str:
        """The version a player's page polls from now (the panel says it), read over HTTP."""
        path = f"/c/{data['campaign']}/status/"
        request = urllib.request.Request(
            f"{base}{path}?v=none",
            headers={"Cookie": f"sessionid={data['player_session']}", "HX-Request": "true"},
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            panel = response.read().decode()
        found = re.search(re.escape(path) + r"\?v=(\d+)", panel)
        if not found:
            raise CommandError("the status panel names no version to poll from")
        return found.group(1)

    def _targets(self, data: dict, version: str) -> list[Target]:
        code = data["campaign"]
        gm = f"sessionid={data['gm_session']}; csrftoken={data['csrf']}"
        player = f"sessionid={data['player_session']}; csrftoken={data['csrf']}"
        resolve_body = urlencode(
            # The GM rules the jump goes ahead: the bench ship jumps again and again, uncharged.
            {"ship": data["resolve_ship"], "visibility": "everyone", "gm_ruling": "on", "action": "roll"}
        )
        return [
            Target("bare Django view (the ceiling)", "/bench/bare/"),
            Target(
                "player status poll, nothing changed (204)",
                f"/c/{code}/status/?v={version}",
                cookie=player,
                headers={"HX-Request": "true"},
                expect=204,
            ),
            Target(
                "player status poll after a change (200)",
                f"/c/{code}/status/?v=0",
                cookie=player,
                headers={"HX-Request": "true"},
            ),
            Target("player page", f"/c/{code}/", cookie=player),
            Target("GM dashboard", f"/c/{code}/", cookie=gm),
            Target(
                "procedure form", f"/c/{code}/play/jump.malfunction/?ship={data['resolve_ship']}", cookie=gm
            ),
            Target("log page", f"/c/{code}/log/", cookie=gm),
            Target(
                "resolve (HTMX POST, appends a log entry)",
                f"/c/{code}/play/jump.malfunction/",
                cookie=gm,
                headers={
                    "HX-Request": "true",
                    "X-CSRFToken": data["csrf"],
                    "Content-Type": "application/x-www-form-urlencoded",
                },
                body=resolve_body,
            ),
        ]

    def _measure(self, wrk: str, env: dict, data: dict) -> None:
        opts = self.opts
        base = self._start_server(env, opts["workers"])
        targets = self._targets(data, self._poll_version(base, data))
        for target in targets:
            if not target.body:  # a POST writes: it is checked just before its own runs
                check_once(base, target)
        self.say(
            f"gunicorn, {opts['workers']} sync workers, DEBUG=false, persistent connections; "
            f"wrk -c{opts['connections']}, {opts['seconds']:g} s × {opts['repeat']} runs each, median shown"
        )
        results: dict[str, Measure] = {}
        for target in targets:
            if target.body:
                check_once(base, target)
            results[target.name] = self._wrk_repeat(wrk, [base], target)
            if target.expect == 204:
                check_once(base, target)  # still nothing changed: the figures are the 204's
        bare = results[targets[0].name].median_rps or 1.0
        self.say("")
        self.say(f"{'What':<45}{'req/s':>9}{'p50 ms':>9}{'of bare':>9}{'errors':>8}")
        for target in targets:
            m = results[target.name]
            self.say(
                f"{target.name:<45}{m.median_rps:>9.0f}{m.median_p50:>9.1f}"
                f"{m.median_rps / bare * 100:>8.1f}%{m.errors:>8}"
            )
        self._print_in_process(data)
        if not opts["no_scaling"]:
            self._scaling(wrk, env, base, data, results)
        if opts["sse_clients"]:
            self._live_view(env, data)

    def _wrk_repeat(self, wrk: str, bases: list[str], target: Target) -> Measure:
        measure = Measure()
        for _ in range(self.opts["repeat"]):
            runs = [self._wrk_start(wrk, base, target) for base in bases]
            parsed = [parse_wrk(run.communicate()[0]) for run in runs]
            measure.rps.append(sum(p["rps"] for p in parsed))
            measure.p50_ms.append(statistics.mean(p["p50_ms"] for p in parsed))
            measure.errors += sum(p["errors"] for p in parsed)
        return measure

    def _wrk_start(self, wrk: str, base: str, target: Target) -> subprocess.Popen:
        script = self.tmp / f"wrk-{secrets.token_hex(4)}.lua"
        lines = []
        if target.body:
            lines += ['wrk.method = "POST"', f"wrk.body = {json.dumps(target.body)}"]
        headers = {**target.headers, **({"Cookie": target.cookie} if target.cookie else {})}
        lines += [f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}" for k, v in headers.items()]
        script.write_text("\n".join(lines) + "\n")
        return subprocess.Popen(
            [
                wrk,
                "-t1",
                f"-c{self.opts['connections']}",
                f"-d{self.opts['seconds']:g}s",
                "--latency",
                "--timeout=30s",  # a slow page is measured, not dropped as an error
                "-s",
                str(script),
                base + target.path,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )

    def _print_in_process(self, data: dict) -> None:
        self.say("")
        self.say(
            "Measured in process (Django test client against the same database, median of 5): "
            "served again while nothing changed (panels from the fragment cache), and rendered "
            "afresh after a change (the campaign's version moved before each request):"
        )
        self.say(f"{'Page':<45}{'queries':>9}{'ms':>9}{'after a change':>17}{'ms':>9}")
        for name, row in data["pages"].items():
            self.say(
                f"{name:<45}{row['queries']:>9}{row['ms']:>9.1f}"
                f"{row['queries_after_change']:>17}{row['ms_after_change']:>9.1f}"
            )

    def _scaling(self, wrk: str, env: dict, base: str, data: dict, results: dict) -> None:
        """One app server, then two, against the one database, each run with where its CPU
        went: the servers, the database's backends, wrk, and the rest of the machine."""
        second = self._start_server(env, self.opts["workers"])
        self.say("")
        self.say(
            "One app server, then two, against the one PostgreSQL "
            f"({self.opts['workers']} workers each, wrk -c{self.opts['connections']} on each), "
            "and the CPU seconds each part used per second of the run:"
        )
        self.say(
            f"{'What':<45}{'servers':>8}{'req/s':>8}{'gain':>7}"
            f"{'app':>7}{'PG':>7}{'wrk':>7}{'other':>7}{'idle':>7}"
        )
        cores = os.cpu_count() or 1
        for target in self._targets(data, self._poll_version(base, data)):  # resolve moved it on
            if target.name not in ("player status poll, nothing changed (204)", "player page"):
                continue
            one = None
            for bases in ([base], [base, second]):
                before, started = cpu.sample(), time.monotonic()
                measured = self._wrk_repeat(wrk, bases, target)
                wall = time.monotonic() - started
                parts = cpu.spent(
                    before,
                    cpu.sample(),
                    server_groups={server.pid for server in self.servers},
                    database_pids=self._database_pids(),
                )
                one = one or measured.median_rps or 1.0
                idle = max(cores * wall - sum(parts.values()), 0.0)
                shares = "".join(f"{value / wall:>7.2f}" for value in (*parts.values(), idle))
                self.say(
                    f"{target.name:<45}{len(bases):>8}{measured.median_rps:>8.0f}"
                    f"{measured.median_rps / one:>6.2f}×{shares}"
                )
        self.say(
            f"(CPU in cores: this machine has {cores}, shared by wrk, both servers, PostgreSQL and "
            "whatever else runs; 'other' is everything else on the machine meanwhile)"
        )

    def _database_pids(self) -> set[int]:
        """The PostgreSQL backends serving the throwaway database (the servers' connections)."""
        db = self._owner()
        params = {
            "dbname": db["NAME"],
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
        }
        with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as admin:
            rows = admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db_name])
            return {pid for (pid,) in rows}

    def _live_view(self, env: dict, data: dict) -> None:
        live.measure(self, env, data)


def check_once(base: str, target: Target) -> None:
    """One request before the load, so a wrong set-up fails loudly instead of measuring errors."""
    request = urllib.request.Request(
        base + target.path,
        data=target.body.encode() if target.body else None,
        headers={**target.headers, **({"Cookie": target.cookie} if target.cookie else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    if status != target.expect:
        raise CommandError(f"{target.name}: the server answered {status}, not {target.expect}")


def parse_wrk(output: str) -> dict:
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)\b", output)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if not rps or not p50:
        raise CommandError(f"could not read wrk's output:\n{output}")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p50.group(2)]
    return {
        "rps": float(rps.group(1)),
        "p50_ms": float(p50.group(1)) * scale,
        "errors": (int(errors.group(1)) if errors else 0)
        + (sum(int(x) for x in socket_errors.groups()) if socket_errors else 0),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_wrk() -> str:
    """Debian's wrk, installed when missing (as root, or through passwordless sudo)."""
    found = shutil.which("wrk")
    if found:
        return found
    install = ["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq", "wrk"]
    update = ["apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq"]
    if os.geteuid() != 0:
        if subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode != 0:
            raise CommandError("bench_http needs wrk: run 'apt-get install wrk' as root once.")
        install, update = ["sudo", *install], ["sudo", *update]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(update, env=env, check=True)
    subprocess.run(install, env=env, check=True)
    found = shutil.which("wrk")
    if not found:
        raise CommandError("wrk is still missing after apt-get install wrk")
    return found
