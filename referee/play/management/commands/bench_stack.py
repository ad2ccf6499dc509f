"""``manage.py bench_stack``: CPU per request through Django's WSGI handler, in process.

Fills the bench's demo campaign (``bench/fill.py``) inside a transaction that is rolled back
at the end, then sends each request the way gunicorn would (a WSGI environ to
``WSGIHandler``, the whole middleware stack, the response read and closed) many times:
the bare view, the status poll answering 204 (player, GM watch) and the pages served from
the cache (player page, GM dashboard, procedure form). Prints, per request, the queries
and the process's CPU milliseconds (the median of ``--repeat`` batches), then with
``--profile`` the functions that cost most (cProfile, milliseconds per request).

Run with the bench settings and ``DEBUG=false`` for figures comparable to a deployment:
``DJANGO_SETTINGS_MODULE=referee.bench.settings DEBUG=false manage.py bench_stack``.
Figures, not tests: on a shared machine they move from run to run."""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import sys
import time

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection, transaction

from referee.bench import fill
from referee.campaigns.models import Campaign
from referee.play.selectors import poll_version


class Rollback(Exception):
    """Leaves the filled campaign out of the database."""


class Command(BaseCommand):
    help = "CPU milliseconds per request through the WSGI handler: bare view, polls, cached pages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=1000, help="requests per batch (default 1000)")
        parser.add_argument("--repeat", type=int, default=5, help="batches per request; the median is shown")
        parser.add_argument("--profile", action="store_true", help="cProfile each request's batch")
        parser.add_argument("--top", type=int, default=12, help="functions shown per profile (default 12)")
        parser.add_argument(
            "--only", default="", help="run only requests whose name holds one of these words (|-separated)"
        )

    def handle(self, *args, **opts) -> None:
        if "bench" not in settings.ROOT_URLCONF:
            raise CommandError("Run with DJANGO_SETTINGS_MODULE=referee.bench.settings (the bare view).")
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        # The handler would close the connection in the transaction at each request's start
        # and end (its autocommit is off); as under the test client, it keeps it open.
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            with transaction.atomic():
                data = fill.fill(ships=20, units=20, entries=2000, measure=False)
                self.measure(data, opts)
                raise Rollback
        except Rollback:
            pass
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)

    def measure(self, data: dict, opts: dict) -> None:
        handler = WSGIHandler()
        code = data["campaign"]
        campaign = Campaign.objects.get(code=code)
        player_version = poll_version(campaign, "player")
        cookies = {
            who: f"{settings.SESSION_COOKIE_NAME}={data[f'{who}_session']}; "
            f"{settings.CSRF_COOKIE_NAME}={data['csrf']}"
            for who in ("gm", "player")
        }
        htmx = {"HTTP_HX_REQUEST": "true"}
        requests = {
            "bare view": ("", "/bench/bare/", "", {}, 200),
            "player status poll (204)": ("player", f"/c/{code}/status/", f"v={player_version}", htmx, 204),
            "GM version watch (204)": ("gm", f"/c/{code}/status/", "watch=1", htmx, 204),
            "player page, cached": ("player", f"/c/{code}/", "", {}, 200),
            "GM dashboard, cached": ("gm", f"/c/{code}/", "", {}, 200),
            "procedure form, cached": (
                "gm",
                f"/c/{code}/play/jump.malfunction/",
                f"ship={data['resolve_ship']}",
                {},
                200,
            ),
        }
        only = [x.strip() for x in opts["only"].split("|") if x.strip()]
        n, repeat = opts["requests"], opts["repeat"]
        self.stdout.write(
            f"bench_stack: {n} requests a batch, median of {repeat} batches, DEBUG={settings.DEBUG}, "
            f"load average {' '.join(f'{x:.2f}' for x in _load())}"
        )
        self.stdout.write(f"{'Request':<30}{'queries':>9}{'CPU ms':>9}{'least':>9}{'wall ms':>9}")
        profiles = {}
        for name, (who, path, query, headers, status) in requests.items():
            if only and not any(word in name for word in only):
                continue
            environ = {
                "REQUEST_METHOD": "GET",
                "PATH_INFO": path,
                "QUERY_STRING": query,
                "SERVER_NAME": "testserver",
                "SERVER_PORT": "80",
                "SERVER_PROTOCOL": "HTTP/1.1",
                "REMOTE_ADDR": "127.0.0.1",
                "HTTP_HOST": "testserver",
                "HTTP_COOKIE": cookies.get(who, ""),
                "wsgi.url_scheme": "http",
                "wsgi.input": io.BytesIO(b""),
                "wsgi.errors": sys.stderr,
                **headers,
            }

            def once(environ=environ, status=status, name=name) -> None:
                seen = []
                body = handler(dict(environ), lambda s, h, *a: seen.append(s))
                b"".join(body)
                body.close()
                if not seen[0].startswith(str(status)):
                    raise CommandError(f"{name}: {seen[0]}, not {status}")

            for _ in range(50):  # warm: the connection, the prepared statement, the cache
                once()
            queries = fill.Counter()
            with connection.execute_wrapper(queries):
                once()
            cpu, wall = [], []
            for _ in range(repeat):
                started, started_wall = time.process_time(), time.perf_counter()
                for _ in range(n):
                    once()
                cpu.append((time.process_time() - started) * 1000 / n)
                wall.append((time.perf_counter() - started_wall) * 1000 / n)
            self.stdout.write(
                f"{name:<30}{queries.count:>9}{statistics.median(cpu):>9.3f}{min(cpu):>9.3f}"
                f"{statistics.median(wall):>9.3f}"
            )
            if opts["profile"]:
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(n):
                    once()
                profiler.disable()
                profiles[name] = profiler
        for name, profiler in profiles.items():
            self.stdout.write(f"\n{name}: ms per request (own time, then with what it calls)")
            stats = pstats.Stats(profiler)
            rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[: opts["top"]]
            for (filename, line, function), (_cc, _nc, own, total, _callers) in rows:
                where = filename.split("site-packages/")[-1].split("/referee/")[-1]
                self.stdout.write(
                    f"  {own * 1000 / n:7.3f} {total * 1000 / n:7.3f}  {function} ({where}:{line})"
                )


def _load() -> tuple[float, ...]:
    with open("/proc/loadavg") as f:
        return tuple(float(x) for x in f.read().split()[:3])
