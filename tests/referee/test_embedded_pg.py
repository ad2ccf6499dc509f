"""The embedded PostgreSQL survives a killed run: the next start works, nothing is orphaned."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import psycopg
import pytest

from referee import embedded_pg

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys, time
from pathlib import Path
from referee import embedded_pg
embedded_pg.ensure_running(Path(sys.argv[1]))
print("ready", flush=True)
time.sleep(600)
"""


def start_holder(datadir: Path) -> subprocess.Popen:
    env = {**os.environ, "REFEREE_PG_GRACE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(datadir)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    return proc


def wait_until(predicate, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.fixture
def own_var_dir():
    """A var/ of its own for a server that starts twice. Not under pytest's temporary root:
    other test runs on the machine make that private again (the server's own user could
    then not reach its data on the second start) and delete old runs' folders."""
    base = Path(tempfile.mkdtemp(prefix="referee-restart-test-"))
    base.chmod(0o755)
    yield base
    embedded_pg.stop_server(base / "pg")
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def datadir(own_var_dir):
    return own_var_dir / "pg"


def test_a_sigkilled_run_neither_blocks_the_next_start_nor_orphans_the_server(datadir):
    first = start_holder(datadir)
    first_server = embedded_pg.postmaster_pid(datadir)
    assert first_server is not None
    first.send_signal(signal.SIGKILL)
    first.wait()

    # The next run starts (reusing or restarting the server) and can query it.
    second = start_holder(datadir)
    with psycopg.connect(
        host=str(embedded_pg.socket_dir(datadir)), user="postgres", dbname="referee"
    ) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert embedded_pg.live_owners(datadir) == [second.pid]

    # Killed too: with no owner left, the watchdog stops the server by itself.
    second.send_signal(signal.SIGKILL)
    second.wait()
    assert wait_until(lambda: embedded_pg.postmaster_pid(datadir) is None), "server left running"


def test_a_stale_owner_file_does_not_keep_the_server_alive(datadir):
    holder = start_holder(datadir)
    owners = embedded_pg._paths(datadir.resolve())["owners"]
    (owners / "999999999").write_text("")  # a pid that cannot exist
    holder.terminate()
    holder.wait()
    assert wait_until(lambda: embedded_pg.postmaster_pid(datadir) is None)
    assert not any(owners.iterdir())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


SERVERS = {
    "gunicorn": ["-m", "gunicorn", "referee.wsgi:application", "--workers", "1", "--bind"],
    "runserver": ["manage.py", "runserver", "--noreload", "--skip-checks"],
}


@pytest.mark.parametrize("server", SERVERS)
def test_a_server_restarts_a_killed_database_on_the_next_request_and_owns_it_while_it_runs(
    server, own_var_dir
):
    base = own_var_dir
    datadir = base / "pg"
    port = free_port()
    env = {**os.environ, "REFEREE_VAR_DIR": str(base), "REFEREE_PG_GRACE": "1"}
    env.pop("DATABASE_URL", None)
    log = open(base / "server.log", "w")  # noqa: SIM115 - the server's output, read on failure
    proc = subprocess.Popen(
        [sys.executable, *SERVERS[server], f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        assert wait_until(lambda: _answers(url), timeout=60), (base / "server.log").read_text()
        first = embedded_pg.postmaster_pid(datadir)
        assert first is not None
        server_pids = {proc.pid, *(child.pid for child in psutil.Process(proc.pid).children())}
        assert server_pids & set(embedded_pg.live_owners(datadir)), "the server process is an owner"

        os.kill(first, signal.SIGKILL)
        assert wait_until(lambda: embedded_pg.postmaster_pid(datadir) is None)
        time.sleep(1.5)  # longer than the grace: nothing but the next request brings it back
        assert embedded_pg.postmaster_pid(datadir) is None

        assert get(url) == (200, "ok"), (base / "server.log").read_text()
        second = embedded_pg.postmaster_pid(datadir)
        assert second is not None and second != first
        # Still owned by the server while it runs: the watchdog leaves it up past its grace.
        time.sleep(2)
        assert embedded_pg.postmaster_pid(datadir) == second
        assert server_pids & set(embedded_pg.live_owners(datadir))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    # With the server gone, so is its ownership: the watchdog stops PostgreSQL.
    assert wait_until(lambda: embedded_pg.postmaster_pid(datadir) is None), "server left running"


def _answers(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except OSError:
        return False
