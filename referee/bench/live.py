"""The live-view part of the HTTP benchmark: how many players' open streams one ASGI
process (one event loop, so one core) holds, and what a change costs it to tell them all."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg

CHANGES = 3


def measure(bench, env: dict, data: dict) -> None:
    clients = bench.opts["sse_clients"]
    _raise_file_limit(clients + 200)
    port = _free_port()
    uvicorn = Path(sys.executable).with_name("uvicorn")
    server = subprocess.Popen(
        [str(uvicorn), "referee.asgi:application", "--host=127.0.0.1", f"--port={port}", "--log-level=error"],
        env=env,
        start_new_session=True,
    )
    try:
        asyncio.run(_run(bench, server.pid, port, clients, env["DATABASE_URL"], data))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


async def _run(bench, pid: int, port: int, count: int, database_url: str, data: dict) -> None:
    await _until_listening(port)
    path = f"/c/{data['campaign']}/live/"
    cookie = f"sessionid={data['player_session']}"
    started = time.perf_counter()
    streams: list[_Stream] = []
    for first in range(0, count, 100):
        batch = [_Stream() for _ in range(first, min(first + 100, count))]
        await asyncio.gather(*(s.open(port, path, cookie) for s in batch))
        streams += batch
    opened = sum(1 for s in streams if s.ok)
    connect_s = time.perf_counter() - started
    await asyncio.sleep(1.0)
    cpu_idle0 = _cpu_seconds(pid)
    await asyncio.sleep(2.0)
    idle_cpu = (_cpu_seconds(pid) - cpu_idle0) / 2.0
    rss_mb = _rss_mb(pid)
    latencies: list[float] = []
    cpu_per_change: list[float] = []
    delivered: list[int] = []
    size = 0
    async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as db:
        for _ in range(CHANGES):
            cpu0 = _cpu_seconds(pid)
            waits = [asyncio.create_task(s.next_panel()) for s in streams if s.ok]
            changed = time.perf_counter()
            await db.execute(
                "UPDATE campaigns_campaign SET clock = clock + interval '1 second' WHERE code = %s",
                [data["campaign"]],
            )
            done = await asyncio.gather(*(asyncio.wait_for(w, 30) for w in waits), return_exceptions=True)
            arrived = [d for d in done if isinstance(d, tuple)]
            delivered.append(len(arrived))
            latencies += [(at - changed) * 1000 for at, _size in arrived]
            size = max((sz for _at, sz in arrived), default=size)
            await asyncio.sleep(0.3)
            cpu_per_change.append(_cpu_seconds(pid) - cpu0)
    for s in streams:
        s.close()
    bench.say("")
    bench.say("Live view (server-sent events; one uvicorn process, i.e. one core, players' streams):")
    bench.say(f"  streams open            {opened} of {count} (in {connect_s:.1f} s)")
    bench.say(f"  server memory           {rss_mb:.0f} MB resident with them open")
    bench.say(f"  idle CPU                {idle_cpu * 100:.1f} % of a core with them open")
    bench.say(
        f"  one change, told to all {statistics.median(cpu_per_change) * 1000:.0f} ms of server CPU "
        f"(panel {size / 1000:.0f} kB, rendered once, sent {min(delivered)}× at least)"
    )
    if latencies:
        latencies.sort()
        bench.say(
            f"  change → panel on wire  p50 {statistics.median(latencies):.0f} ms, "
            f"p95 {latencies[int(len(latencies) * 0.95) - 1]:.0f} ms, max {latencies[-1]:.0f} ms"
        )


class _Stream:
    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.ok = False
        self.buffer = b""

    async def open(self, port: int, path: str, cookie: str) -> None:
        try:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
            self.writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            await self.writer.drain()
            while b": connected" not in self.buffer:
                chunk = await asyncio.wait_for(self.reader.read(65536), 30)
                if not chunk:
                    return
                self.buffer += chunk
            self.ok = self.buffer.startswith(b"HTTP/1.1 200")
            self.buffer = b""
        except (OSError, TimeoutError):
            self.ok = False

    async def next_panel(self) -> tuple[float, int]:
        assert self.reader is not None
        while True:
            start = self.buffer.find(b"event: panel\n")
            if start >= 0:
                end = self.buffer.find(b"\n\n", start)
                if end >= 0:
                    arrived = time.perf_counter()
                    size = end - start
                    self.buffer = self.buffer[end + 2 :]
                    return arrived, size
            chunk = await self.reader.read(262144)
            if not chunk:
                raise ConnectionError("stream closed")
            self.buffer += chunk

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _until_listening(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            _r, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.3)
    raise RuntimeError("uvicorn did not start within a minute")


def _raise_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0
