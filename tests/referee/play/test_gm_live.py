"""GM pages follow the campaign over the live view's stream (``/live/gm/``): a bare
``changed`` after each change, for the campaign's GMs only; without the ASGI server the
stream answers 204 and the pages keep their version poll."""

import time
import urllib.error
import urllib.request

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import Visibility
from tests.factories import ShipFactory
from tests.referee.history import ruled_jump
from tests.referee.play.test_concurrent_http import signed_in_session
from tests.referee.play.test_live import CHANGED, MICRO_FRACTURES, Stream, asgi_server  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def gm_live_url(cast) -> str:
    return reverse("play:gm-live", args=[cast.campaign.code])


def open_gm_stream(cast, port: int, who: str) -> Stream:
    session = signed_in_session(getattr(cast, who)) if who != "anonymous" else None
    stream = Stream(port, gm_live_url(cast), session)
    headers = stream.received.split(b"\r\n\r\n", 1)
    stream.received = headers[1] if len(headers) > 1 else b""
    if stream.status == 200:
        assert stream.wait_for(b": connected"), stream.received
        stream.take()
    return stream


def test_the_gms_stream_says_changed_and_nothing_more_on_every_change(cast, asgi_server):  # noqa: F811
    hidden = ShipFactory(
        campaign=cast.campaign, name="Black Lion", shared=False, kf_integrity=8, kf_integrity_max=8
    )
    stream = open_gm_stream(cast, asgi_server, "gm")
    assert stream.status == 200 and "content-type: text/event-stream" in stream.headers
    time.sleep(0.5)  # the listener is subscribed
    ruled_jump(cast.campaign, cast.gm, hidden, dice=MICRO_FRACTURES, visibility=Visibility.GM)
    assert stream.wait_for(CHANGED, timeout=5), stream.received
    stream.take()
    services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    assert stream.wait_for(CHANGED, timeout=5), stream.received
    assert b"Black Lion" not in stream.received and b"panel" not in stream.received
    stream.close()


@pytest.mark.parametrize("who, status", [("player", 403), ("outsider", 404), ("anonymous", 404)])
def test_the_gms_stream_is_the_gms_only(cast, asgi_server, who, status):  # noqa: F811
    stream = open_gm_stream(cast, asgi_server, who)
    assert stream.status == status
    assert b"event:" not in stream.received
    stream.close()


@pytest.mark.parametrize("who, status", [("gm", 204), ("player", 403), ("outsider", 404)])
def test_under_a_wsgi_server_the_gm_gets_204_and_others_are_refused(cast, live_server, who, status):
    request = urllib.request.Request(
        live_server.url + gm_live_url(cast),
        headers={"Cookie": f"sessionid={signed_in_session(getattr(cast, who))}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            got = response.status
    except urllib.error.HTTPError as error:
        got = error.code
    assert got == status


def test_gm_pages_name_the_gms_stream_and_player_pages_do_not(cast):
    code = cast.campaign.code
    for url in (
        reverse("campaigns:detail", args=[code]),
        reverse("play:log", args=[code]),
        reverse("play:procedure", args=[code, "jump.malfunction"]),
    ):
        assert f'data-live-url="{gm_live_url(cast)}"' in cast.client("gm").get(url).text
    player_page = cast.client("player").get(reverse("campaigns:detail", args=[code])).text
    assert gm_live_url(cast) not in player_page
