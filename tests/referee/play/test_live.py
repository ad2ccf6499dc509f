"""Players' live view over server-sent events, served by a real ASGI server (uvicorn) on
loopback against the test database: a change a player can see reaches their stream, a
GM-only one reaches the GM's and not theirs, and the events carry nothing but a name."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from referee.play import services
from referee.play.models import Visibility
from tests.factories import ShipFactory
from tests.referee.history import ruled_jump
from tests.referee.play.test_concurrent_http import signed_in_session

pytestmark = pytest.mark.django_db(transaction=True)

CHANGED = b"event: changed\ndata: \n\n"
MICRO_FRACTURES = [6, 6, 4, 5]


def _database_url() -> str:
    db = connection.settings_dict
    auth = quote(db.get("USER") or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = quote(db.get("HOST") or "", safe="")
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgresql://{auth}@{host}{port}/{db['NAME']}"


@contextlib.contextmanager
def serving(**extra_env: str):
    """The ASGI app under uvicorn on a free loopback port, against the test database."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_SETTINGS_MODULE": "referee.settings",
        **extra_env,
    }
    uvicorn = Path(sys.executable).with_name("uvicorn")
    server = subprocess.Popen(
        [
            str(uvicorn),
            "referee.asgi:application",
            "--host=127.0.0.1",
            f"--port={port}",
            "--log-level=warning",
        ],
        env=env,
        cwd=settings.BASE_DIR,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=3)
        except subprocess.TimeoutExpired:  # open streams hold a graceful shutdown
            server.kill()
            server.wait(timeout=10)


@pytest.fixture
def asgi_server():
    with serving() as port:
        yield port


class Stream:
    def __init__(self, port: int, path: str, session: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        cookie = f"Cookie: sessionid={session}\r\n" if session else ""
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie}Accept: text/event-stream\r\n\r\n".encode()
        )
        self.received = b""
        self.wait_for(b"\r\n\r\n")
        self.status = int(self.received.split(b" ", 2)[1])
        self.headers = self.received.split(b"\r\n\r\n", 1)[0].decode().lower()

    def wait_for(self, what: bytes, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while what not in self.received:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return False
            if not chunk:
                return False
            self.received += chunk
        return True

    def take(self) -> bytes:
        received, self.received = self.received, b""
        return received

    def close(self) -> None:
        self.sock.close()


def live_url(cast) -> str:
    return reverse("play:live", args=[cast.campaign.code])


def open_stream(cast, port: int, who: str) -> Stream:
    session = signed_in_session(getattr(cast, who)) if who != "anonymous" else None
    stream = Stream(port, live_url(cast), session)
    headers = stream.received.split(b"\r\n\r\n", 1)
    stream.received = headers[1] if len(headers) > 1 else b""
    if stream.status == 200:
        assert stream.wait_for(b": connected"), stream.received
        stream.take()
    return stream


def panel_of(received: bytes) -> str:
    """The HTML of the last ``panel`` event in what a stream received."""
    event = received.decode().rsplit("event: panel\n", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line.removeprefix("data: ") for line in event.splitlines())


def test_a_player_gets_the_new_panel_as_the_poll_would_render_it(cast, asgi_server):
    stream = open_stream(cast, asgi_server, "player")
    assert stream.status == 200
    assert "content-type: text/event-stream" in stream.headers
    time.sleep(0.5)  # the listener is subscribed
    services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    assert stream.wait_for(b"event: panel\n", timeout=5), stream.received
    assert stream.wait_for(b"\n\n", timeout=2)
    pushed = panel_of(stream.received)
    assert 'data-testid="phase">Movement Phase<' in pushed
    version = cast.campaign.__class__.objects.get(pk=cast.campaign.pk).state_version
    polled = cast.client("player").get(reverse("play:status", args=[cast.campaign.code]), {"v": 0}).text
    assert f"?v={version}" in pushed
    assert pushed.split() == polled.split()  # the same panel, whitespace aside
    stream.close()


def test_a_gm_only_roll_reaches_the_gms_stream_and_not_the_players(cast, asgi_server):
    hidden = ShipFactory(
        campaign=cast.campaign, name="Black Lion", shared=False, kf_integrity=8, kf_integrity_max=8
    )
    gm, player = open_stream(cast, asgi_server, "gm"), open_stream(cast, asgi_server, "player")
    time.sleep(0.5)
    entry = ruled_jump(cast.campaign, cast.gm, hidden, dice=MICRO_FRACTURES, visibility=Visibility.GM)
    assert gm.wait_for(CHANGED, timeout=5), gm.received
    assert not player.wait_for(b"event:", timeout=2), player.received  # not a byte
    # The events themselves say nothing: no name, no number, no field.
    for text in (gm.received, player.received):
        assert (
            b"Black Lion" not in text and b"jump" not in text and str(entry.seq).encode() + b"\n" not in text
        )

    services.log_entry_reveal(entry=entry, actor=cast.gm)
    assert player.wait_for(b'id="entry-1"', timeout=5), player.received  # revealed: now it shows
    gm.close()
    player.close()


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_outsiders_get_no_stream(cast, asgi_server, who):
    stream = open_stream(cast, asgi_server, who)
    assert stream.status == 404
    stream.close()


def test_under_a_wsgi_server_the_stream_answers_204_so_the_page_keeps_polling(cast, live_server):
    request = urllib.request.Request(
        live_server.url + live_url(cast), headers={"Cookie": f"sessionid={signed_in_session(cast.player)}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 204
    page = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert f'data-live-url="{live_url(cast)}"' in page
    # It polls while no stream is open, at the pace the page keeps (``refereePoll``).
    assert 'hx-trigger="referee-poll, live-changed" data-poll-unless="refereeLive"' in page


def test_a_whisper_reaches_its_players_stream_and_no_other_players(cast, asgi_server):
    from referee.play import players
    from tests.factories import MembershipFactory

    other = MembershipFactory(campaign=cast.campaign, role="player").user
    cast.other = other
    mine, theirs = open_stream(cast, asgi_server, "player"), open_stream(cast, asgi_server, "other")
    time.sleep(0.5)
    players.note_post(
        campaign=cast.campaign, actor=cast.gm, role="gm", text="Psst, 4471", audience=[cast.player.pk]
    )
    assert mine.wait_for(b"event: panel\n", timeout=5), mine.received
    assert mine.wait_for(b"4471", timeout=2), mine.received
    assert not theirs.wait_for(b"event:", timeout=2), theirs.received  # not a byte
    mine.close()
    theirs.close()
