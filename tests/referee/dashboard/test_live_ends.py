"""A live stream opened while its reader could read ends once they can no longer: removed
from the campaign, logged out, the session expired, the password changed, the account
deactivated. Each stream is held open through the ASGI app (uvicorn on loopback) while the
change happens; it ends on the next change it would send, or on its timer when idle."""

import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from referee.campaigns.models import Membership
from referee.play.models import Visibility
from tests.referee.history import quiet_roll
from tests.referee.play.test_concurrent_http import signed_in_session
from tests.referee.play.test_live import Stream, live_url, serving

pytestmark = pytest.mark.django_db(transaction=True)

RECHECK_S = 0.5


@pytest.fixture
def asgi_server():
    """The ASGI app under uvicorn, its streams asking the door again every ``RECHECK_S``."""
    with serving(LIVE_RECHECK_S=str(RECHECK_S)) as port:
        yield port


def ended(stream: Stream, timeout: float = 8.0) -> bool:
    """Whether the server closed the stream (its chunked body ends) within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stream.sock.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            chunk = stream.sock.recv(65536)
        except TimeoutError:
            return False
        if not chunk:
            return True
        stream.received += chunk
        if stream.received.endswith(b"0\r\n\r\n"):
            return True
    return False


def opened(cast, port: int, session: str) -> Stream:
    stream = Stream(port, live_url(cast), session)
    assert stream.status == 200, stream.received
    assert stream.wait_for(b": connected")
    stream.take()
    return stream


def _remove(cast, session):
    Membership.objects.filter(campaign=cast.campaign, user=cast.player).delete()


def _logout(cast, session):
    Session.objects.filter(session_key=session).delete()


def _expire(cast, session):
    Session.objects.filter(session_key=session).update(expire_date=timezone.now() - timedelta(seconds=1))


def _new_password(cast, session):
    cast.player.set_password("another password entirely")
    cast.player.save()


def _deactivate(cast, session):
    cast.player.is_active = False
    cast.player.save()


LOSSES = {
    "removed": _remove,
    "logged out": _logout,
    "session expired": _expire,
    "password changed": _new_password,
    "deactivated": _deactivate,
}


@pytest.mark.parametrize("loss", list(LOSSES))
def test_a_stream_ends_when_its_reader_loses_the_right_to_read(cast, asgi_server, loss):
    session = signed_in_session(cast.player)
    idle, busy = opened(cast, asgi_server, session), opened(cast, asgi_server, session)
    LOSSES[loss](cast, session)
    quiet_roll(cast.campaign, cast.gm, visibility=Visibility.EVERYONE)  # news the busy stream would send
    try:
        assert ended(busy), busy.received
        assert b"event: panel" not in busy.received  # the change was not sent
        assert ended(idle), idle.received  # the idle one ends on its timer
    finally:
        idle.close()
        busy.close()


def test_a_stream_whose_reader_still_reads_stays_open(cast, asgi_server):
    stream = opened(cast, asgi_server, signed_in_session(cast.player))
    try:
        assert not ended(stream, timeout=RECHECK_S * 4)  # several rechecks, still open
        quiet_roll(cast.campaign, cast.gm, visibility=Visibility.EVERYONE)
        assert stream.wait_for(b"event: panel")
    finally:
        stream.close()
