"""``manage.py bench_slow_clients``: how fast the site answers other people while clients
send a byte a second or far more than it takes.

Starts gunicorn with the deployment's settings (``deploy/gunicorn.conf.py``) and nginx with
the deployment's proxy config (``deploy/nginx.conf``) on 127.0.0.1, then, for a few seconds:
N slow clients (half trickle their headers, half their body, a byte a second), M clients
sending oversized bodies or headers in a loop, and two ordinary visitors loading the sign-in
page and ``/healthz``. It prints the visitors' response times through the proxy and, for
comparison, straight to gunicorn. Everything is bounded in count and time and stays on
127.0.0.1. Installs Debian's ``nginx`` first when it is missing and the command runs as root."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

HOST = "127.0.0.1"
GOAL_S = 1.0  # every other visitor answered within this
VISITOR_TIMEOUT_S = 3.0  # a visitor gives up after this (and it counts as unanswered)
LIMITS = {"slow_clients": 64, "oversized": 32, "seconds": 20}


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    refusals: dict[str, list[float]] = field(default_factory=dict)
    slow_cut_off: int = 0
    slow_connected: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return True
        time.sleep(0.2)
    return False


def slow_client(port: int, body: bool, stop: threading.Event, figures: Figures) -> None:
    """A client that sends its request a byte a second, for as long as the server listens."""
    head = f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\n"
    rest = "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n"
    try:
        sock = socket.create_connection((HOST, port), timeout=2)
    except OSError:
        return
    with sock:
        with figures.lock:
            figures.slow_connected += 1
        try:
            if body:
                sock.sendall((head + rest).encode())  # headers at once, then the body trickles
                trickle = "username=" + "x" * 9991
            else:
                sock.sendall(head.encode())
                trickle = rest
            for byte in trickle:
                sock.sendall(byte.encode())
                if stop.wait(1.0):
                    return
        except OSError:
            with figures.lock:
                figures.slow_cut_off += 1


def oversized_client(port: int, stop: threading.Event, figures: Figures) -> None:
    """Alternately a 50 MiB body and a 64 KiB header, each answered (or dropped) by the server."""
    kinds = ["body over the limit", "header over the limit"]
    n = 0
    while not stop.is_set():
        kind = kinds[n % 2]
        n += 1
        started = time.monotonic()
        try:
            with socket.create_connection((HOST, port), timeout=VISITOR_TIMEOUT_S) as sock:
                if kind.startswith("body"):
                    sock.sendall(
                        f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {50 * 2**20}\r\n"
                        "Content-Type: application/x-www-form-urlencoded\r\n\r\n".encode()
                    )
                    with contextlib.suppress(OSError):
                        sock.sendall(b"username=" + b"x" * 2**16)  # the start of 50 MiB
                else:
                    sock.sendall(
                        f"GET /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\nCookie: {'c' * 2**16}\r\n\r\n".encode()
                    )
                answer = sock.recv(64).decode("latin-1")
            status = answer.split(" ")[1] if answer.startswith("HTTP/") else "connection closed"
        except OSError:
            status = "connection closed"
        with figures.lock:
            figures.refusals.setdefault(f"{kind}: {status}", []).append(time.monotonic() - started)
        stop.wait(0.2)


def visitor(port: int, stop: threading.Event, figures: Figures) -> None:
    """Someone using the site meanwhile: the sign-in page and the database check, in turn."""
    n = 0
    while not stop.is_set():
        path = ("/accounts/login/", "/healthz")[n % 2]
        n += 1
        started = time.monotonic()
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=VISITOR_TIMEOUT_S)
            conn.request("GET", path, headers={"Connection": "close"})
            response = conn.getresponse()
            response.read()
            ok = response.status == 200
            conn.close()
        except (OSError, http.client.HTTPException):
            ok = False
        elapsed = time.monotonic() - started
        with figures.lock:
            if ok:
                figures.latencies.append(elapsed)
            else:
                figures.unanswered += 1
        stop.wait(0.1)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


class Command(BaseCommand):
    help = (
        "Response times of ordinary visitors while slow and oversized clients hit the site, through "
        "nginx and straight to gunicorn (127.0.0.1 only, a few seconds); prints figures."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slow-clients", type=int, default=8, help="clients sending a byte a second")
        parser.add_argument("--oversized", type=int, default=4, help="clients sending oversized requests")
        parser.add_argument("--seconds", type=float, default=4, help="how long each measurement lasts")
        parser.add_argument(
            "--no-direct", action="store_true", help="skip the comparison straight to gunicorn"
        )

    def handle(self, *args, slow_clients: int, oversized: int, seconds: float, no_direct: bool, **options):
        for name, value in (("slow_clients", slow_clients), ("oversized", oversized), ("seconds", seconds)):
            if not 0 <= value <= LIMITS[name]:
                raise CommandError(f"--{name.replace('_', '-')} must be between 0 and {LIMITS[name]}.")
        nginx = self.nginx_binary()
        workdir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        workdir.chmod(0o755)  # nginx's workers (another user when started as root) write here
        processes: list[subprocess.Popen] = []
        try:
            app_port, proxy_port = free_port(), free_port()
            processes.append(self.start_gunicorn(app_port, workdir))
            if not wait_for(app_port, "/healthz", timeout=60):
                raise CommandError(f"gunicorn did not answer; see {workdir / 'gunicorn.log'}")
            processes.append(self.start_nginx(nginx, app_port, proxy_port, workdir))
            if not wait_for(proxy_port, "/healthz", timeout=20):
                raise CommandError(f"nginx did not answer; see {workdir / 'nginx-error.log'}")
            workers = self.gunicorn_workers()
            self.stdout.write(
                f"gunicorn: {workers} sync workers on {HOST}:{app_port}; nginx in front on {HOST}:{proxy_port}\n"
                f"{slow_clients} slow clients (a byte a second), {oversized} oversized clients, "
                f"2 visitors; {seconds:g} s each\n"
            )
            proxied = self.measure(proxy_port, slow_clients, oversized, seconds)
            self.report("Through nginx (the deployment)", proxied)
            if not no_direct:
                direct = self.measure(app_port, slow_clients, oversized, seconds)
                self.report("Straight to gunicorn (no proxy, for comparison)", direct)
        finally:
            for process in reversed(processes):
                process.send_signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=15)
                if process.poll() is None:
                    process.kill()
            shutil.rmtree(workdir, ignore_errors=True)
        met = not proxied.unanswered and proxied.latencies and max(proxied.latencies) <= GOAL_S
        self.stdout.write(
            f"\nEvery visitor answered within {GOAL_S:g} s through the proxy: {'yes' if met else 'NO'}"
        )
        if not met:
            sys.exit(1)

    # --- the servers -------------------------------------------------------------------

    def nginx_binary(self) -> str:
        found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        if found:
            return found
        if os.geteuid() != 0:
            raise CommandError("This benchmark needs nginx: run `apt-get install nginx` as root once.")
        self.stdout.write("Installing Debian's nginx…")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-qq", "nginx"]
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
            subprocess.run(install, env=env, capture_output=True, check=True)
        return shutil.which("nginx") or "/usr/sbin/nginx"

    def gunicorn_config(self) -> Path:
        return settings.BASE_DIR / "deploy" / "gunicorn.conf.py"

    def gunicorn_workers(self) -> int:
        text = self.gunicorn_config().read_text()
        match = re.search(r"^workers\s*=\s*(\d+)", text, re.M)
        return int(match.group(1)) if match else 1

    def start_gunicorn(self, port: int, workdir: Path) -> subprocess.Popen:
        log = open(workdir / "gunicorn.log", "w")  # noqa: SIM115 - the child writes it
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "referee.wsgi:application",
            "--config",
            str(self.gunicorn_config()),
            "--bind",
            f"{HOST}:{port}",
        ]
        env = {**os.environ, "ALLOWED_HOSTS": f"{HOST},localhost"}
        return subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=log)

    def start_nginx(self, nginx: str, app_port: int, proxy_port: int, workdir: Path) -> subprocess.Popen:
        """nginx with the deployment's site config, pointed at this gunicorn, on loopback."""
        site = (settings.BASE_DIR / "deploy" / "nginx.conf").read_text()
        replaced = site.replace("server web:8000;", f"server {HOST}:{app_port};").replace(
            "listen 80;", f"listen {HOST}:{proxy_port};"
        )
        if replaced.count(f"{HOST}:") != 2:
            raise CommandError("deploy/nginx.conf no longer has `server web:8000;` and `listen 80;`.")
        (workdir / "site.conf").write_text(replaced)
        user = "user www-data;\n" if os.geteuid() == 0 else ""
        temp_paths = "".join(
            f"    {kind}_temp_path {workdir / kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (workdir / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {workdir / 'nginx.pid'};\n"
            f"error_log {workdir / 'nginx-error.log'} warn;\n"
            "events { worker_connections 1024; }\n"
            f"http {{\n    access_log off;\n{temp_paths}    include {workdir / 'site.conf'};\n}}\n"
        )
        base = [
            nginx,
            "-e",
            str(workdir / "nginx-error.log"),
            "-p",
            str(workdir),
            "-c",
            str(workdir / "nginx.conf"),
        ]
        check = subprocess.run([*base, "-t"], capture_output=True, text=True)
        if check.returncode != 0:
            raise CommandError(f"nginx refuses the config: {check.stderr.strip()}")
        log = open(workdir / "nginx.log", "w")  # noqa: SIM115 - the child writes it
        return subprocess.Popen(base, stdout=log, stderr=log)

    # --- the measurement ---------------------------------------------------------------

    def measure(self, port: int, slow_clients: int, oversized: int, seconds: float) -> Figures:
        figures = Figures()
        stop, measuring = threading.Event(), threading.Event()
        threads = [
            threading.Thread(target=slow_client, args=(port, n % 2 == 1, stop, figures), daemon=True)
            for n in range(slow_clients)
        ]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # the slow clients are connected and holding on before anyone else comes
        others = [
            threading.Thread(target=oversized_client, args=(port, measuring, figures), daemon=True)
            for _ in range(oversized)
        ] + [threading.Thread(target=visitor, args=(port, measuring, figures), daemon=True) for _ in range(2)]
        for thread in others:
            thread.start()
        time.sleep(seconds)
        measuring.set()
        stop.set()
        for thread in threads + others:
            thread.join(timeout=VISITOR_TIMEOUT_S + 2)
        time.sleep(0.5)  # let the server notice the closed connections before the next run
        return figures

    def report(self, title: str, figures: Figures) -> None:
        self.stdout.write(f"\n{title}")
        times = sorted(figures.latencies)
        if times:
            p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
            self.stdout.write(
                f"  visitors: {len(times)} answered, median {ms(statistics.median(times))}, "
                f"95th percentile {ms(p95)}, slowest {ms(times[-1])}; "
                f"{figures.unanswered} not answered within {VISITOR_TIMEOUT_S:g} s"
            )
        else:
            self.stdout.write(
                f"  visitors: none answered; {figures.unanswered} gave up after {VISITOR_TIMEOUT_S:g} s each"
            )
        self.stdout.write(
            f"  slow clients: {figures.slow_connected} connected, {figures.slow_cut_off} cut off by the server"
        )
        for what, durations in sorted(figures.refusals.items()):
            self.stdout.write(
                f"  oversized ({what}): {len(durations)} times, median {ms(statistics.median(durations))}"
            )
