"""Many GMs' clicks at once, over real HTTP against the live server and real PostgreSQL:
no lost update, no gap or fork in the log."""

import threading
import urllib.request
from urllib.parse import urlencode

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse
from django.utils.crypto import get_random_string

from referee.play import integrity
from referee.play.models import LogEntry
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 10
CLICKS = 3


def signed_in_session(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def test_parallel_http_resolutions_queue_up_on_the_campaign(live_server):
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    ship = ShipFactory(campaign=campaign, kf_integrity=40, kf_integrity_max=40)
    url = live_server.url + reverse("play:procedure", args=[campaign.code, "jump.malfunction"])
    session, csrf = signed_in_session(gm), get_random_string(32)
    body = urlencode(
        {
            "ship": ship.code,
            "kf_integrity_max": 40,
            "dice": "6 6 4 5",
            "visibility": "everyone",
            "action": "enter",
            "gm_ruling": "on",  # thirty jumps in a row: the GM rules each goes ahead
        }
    ).encode()
    statuses, errors = [], []

    def clicks():
        for _ in range(CLICKS):
            request = urllib.request.Request(
                url,
                data=body,
                headers={
                    "Cookie": f"sessionid={session}; csrftoken={csrf}",
                    "X-CSRFToken": csrf,
                    "HX-Request": "true",
                },
            )
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    statuses.append(response.status)
            except Exception as error:
                errors.append(repr(error))

    threads = [threading.Thread(target=clicks) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert statuses == [200] * (THREADS * CLICKS)
    ship.refresh_from_db()
    assert ship.kf_integrity == 40 - THREADS * CLICKS  # every micro-fracture landed
    seqs = list(LogEntry.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, THREADS * CLICKS + 1))
    assert integrity.verify_campaign(campaign).holds
