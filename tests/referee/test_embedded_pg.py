"""The embedded PostgreSQL survives a killed run: the next start works, nothing is orphaned."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
def datadir(tmp_path_factory):
    base = tmp_path_factory.mktemp("pg")
    os.chmod(base, 0o755)
    datadir = base / "pg"
    yield datadir
    embedded_pg.stop_server(datadir)


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
