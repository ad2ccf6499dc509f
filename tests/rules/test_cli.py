"""``manage.py resolve`` (catalogue C.7) and ``manage.py bench_rules``."""

import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.core.management import call_command

REPO = Path(__file__).resolve().parents[2]


def run(*args):
    """``call_command``: (exit status, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("resolve", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as e:
        status = e.code
    return status, out.getvalue(), err.getvalue()


def run_process(*args):
    """A real ``python manage.py resolve`` in a child process."""
    done = subprocess.run(
        [sys.executable, "manage.py", "resolve", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def test_a_bad_input_is_reported_before_unparseable_dice():
    status, out, err = run("jump.malfunction", "--input", "kf_integrity=true", "--dice", "x")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: kf_integrity: ")


def test_the_command_runs_without_the_web_apps_system_checks():
    # A pure-engine command: a model problem elsewhere in the project must not stop it.
    from rules.management.commands.resolve import Command

    assert Command.requires_system_checks == []
    status, out, err = run_process("jump.basic_constants", "--dice", "")
    assert status == 0, err
    assert '"procedure": "jump.basic_constants"' in out
