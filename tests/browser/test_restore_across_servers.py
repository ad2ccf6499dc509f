"""A backup made on one server restores through the browser on a second, fresh server
(its own database, its own log key): refused at first, naming the setting; restored and
verified once that server holds the first one's log key. Both restore pages pass axe."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.test_accessibility import check
from tests.referee.play.test_backup import empty_database, manage  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``manage.py runserver`` on 127.0.0.1, on its own database, var dir and log key."""

    def __init__(self, database_url: str, var_dir: Path, log_key: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REFEREE_VAR_DIR": str(var_dir),
            "LOG_HMAC_KEY": log_key,
            "SECRET_KEY": "the second server's own secret, not the first one's",
        }
        env.pop("MIGRATE_DATABASE_URL", None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "runserver",
                "--noreload",
                "--skip-checks",
                f"127.0.0.1:{self.port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail("the second server did not start", pytrace=False)
                time.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def second_database(empty_database):  # noqa: F811
    url, _connect = empty_database
    for args in (
        ("migrate", "--noinput"),
        (
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; "
            "get_user_model().objects.create_user('harbour_gm', password='second-server-gm')",
        ),
    ):
        done = manage(url, *args)
        assert done.returncode == 0, done.stderr
    return url


def sign_in_on(new_context, server: Server):
    page = new_context().new_page()
    page.goto(f"{server.url}/accounts/login/")
    page.get_by_label("Username").fill("harbour_gm")
    page.get_by_label("Password").fill("second-server-gm")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    return page


def upload(page, backup: Path) -> None:
    page.get_by_test_id("restore-link").click()
    page.get_by_label("Backup file").set_input_files(str(backup))
    page.get_by_test_id("restore-upload").click()


def test_a_backup_from_one_server_restores_on_a_fresh_second_one(
    sign_in, campaign_url, demo, second_database, new_context, tmp_path
):
    # On the first server the GM downloads the campaign's backup.
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}log/verify/")
    with gm.expect_download() as download:
        gm.get_by_test_id("backup").click()
    backup = tmp_path / "backup.json"
    download.value.save_as(backup)
    entries = demo.log.count()

    # The second server has a log key of its own: the restore is refused, naming the setting.
    other = Server(second_database, tmp_path / "second", "a key of the second server's own")
    try:
        page = sign_in_on(new_context, other)
        upload(page, backup)
        refusal = page.get_by_test_id("restore-refusal")
        expect(refusal).to_contain_text("made on another server")
        expect(refusal).to_contain_text("set the LOG_HMAC_KEY setting")
        expect(refusal).to_contain_text("restart this server and restore again")
        expect(page.get_by_text("Your campaigns")).to_have_count(0)
        problems = check(page, f"{other.url}/restore/")
    finally:
        other.stop()

    # Restarted with the first server's log key, the same upload restores and verifies.
    first_key = settings.LOG_HMAC_KEY or settings.SECRET_KEY
    other = Server(second_database, tmp_path / "second", first_key)
    try:
        page = sign_in_on(new_context, other)
        upload(page, backup)
        expect(page.get_by_test_id("restore-summary")).to_contain_text(f"{entries} log entries")
        problems += check(page, page.url)
        assert problems == []
        people = page.get_by_test_id("restore-person")
        expect(people).to_have_count(2)
        gm_row = people.filter(has_text="gm (the GM)")
        expect(gm_row.get_by_role("combobox")).to_have_value("me")
        player_row = people.filter(has_text="player (a player)")
        expect(player_row.get_by_role("combobox")).to_have_value("new")
        page.get_by_test_id("restore-submit").click()

        expect(page.get_by_text(f"Restored {demo.name}. The checks it passed:")).to_be_visible()
        expect(page.get_by_text(f"The restored log's hash chain verifies: {entries} entries")).to_be_visible()
        expect(page.get_by_text("New accounts without a password: player")).to_be_visible()
        assert page.url == f"{other.url}/c/{demo.code}/"
        page.goto(f"{other.url}/c/{demo.code}/log/verify/")
        expect(page.get_by_test_id("chain-status")).to_contain_text(f"Chain holds: {entries} entries")
    finally:
        other.stop()
