"""A double click on Roll makes one roll: each rendered procedure form carries a key, and a
second submit of the same form returns the first resolution instead of rolling again."""

import re
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from referee.play.models import LogEntry
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory
from tests.referee.conftest import htmx

KEY = re.compile(r'name="request_key" value="([0-9a-f-]{36})"')


def jump_url(campaign):
    return reverse("play:procedure", args=[campaign.code, "jump.malfunction"])


def roll_data(ship, key, **extra):
    return {
        "ship": str(ship.code),
        "kf_integrity": ship.kf_integrity,
        "kf_integrity_max": ship.kf_integrity_max,
        "visibility": "everyone",
        "action": "roll",
        "request_key": key,
        "gm_ruling": "on",  # one ship rolled again and again: the GM rules it may
        **extra,
    }


@pytest.fixture
def waterloo(cast):
    return ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True, drive_charged=True)


@pytest.mark.django_db
class TestOneResolutionPerForm:
    def test_each_render_of_the_form_carries_its_own_key(self, cast, waterloo):
        gm = cast.client("gm")
        first = KEY.findall(gm.get(jump_url(cast.campaign)).text)
        second = KEY.findall(gm.get(jump_url(cast.campaign)).text)
        assert len(first) == len(second) == 1
        assert first != second

    def test_the_same_form_submitted_twice_rolls_once_and_shows_the_first_roll_both_times(
        self, cast, waterloo
    ):
        gm = cast.client("gm")
        key = KEY.search(gm.get(jump_url(cast.campaign)).text).group(1)
        first = gm.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx())
        second = gm.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx())
        assert first.status_code == second.status_code == 200
        entry = LogEntry.objects.get(campaign=cast.campaign)
        assert entry.request_key == uuid.UUID(key)
        dice = " ".join(str(d) for roll in entry.rolls for d in roll.get("dice", []))
        for response in (first, second):
            assert 'id="result-entry-1"' in response.text
            assert 'id="result-entry-2"' not in response.text
            assert dice in re.sub(r"<[^>]+>", " ", response.text)

    def test_after_a_roll_the_form_gets_a_fresh_key_so_the_next_roll_is_a_new_one(self, cast, waterloo):
        gm = cast.client("gm")
        key = KEY.search(gm.get(jump_url(cast.campaign)).text).group(1)
        response = gm.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx())
        fresh = re.search(
            r'<input[^>]*name="request_key"[^>]*value="([0-9a-f-]{36})"[^>]*hx-swap-oob', response.text
        )
        assert fresh and fresh.group(1) != key
        gm.post(jump_url(cast.campaign), roll_data(waterloo, fresh.group(1)), **htmx())
        assert LogEntry.objects.filter(campaign=cast.campaign).count() == 2

    def test_a_resent_plain_post_lands_on_the_first_entry(self, cast, waterloo):
        gm = cast.client("gm")
        key = str(uuid.uuid4())
        first = gm.post(jump_url(cast.campaign), roll_data(waterloo, key))
        second = gm.post(jump_url(cast.campaign), roll_data(waterloo, key))
        assert first.status_code == second.status_code == 302
        assert first["Location"] == second["Location"] == reverse("play:entry", args=[cast.campaign.code, 1])
        assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1

    def test_a_refused_submit_keeps_the_key_and_rolls_nothing(self, cast, waterloo):
        gm = cast.client("gm")
        key = str(uuid.uuid4())
        refused = gm.post(jump_url(cast.campaign), roll_data(waterloo, key, kf_integrity="lots"), **htmx())
        assert refused.status_code == 422
        assert f'value="{key}"' in refused.text
        assert not LogEntry.objects.exists()
        assert gm.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx()).status_code == 200
        assert LogEntry.objects.count() == 1

    def test_one_key_in_two_campaigns_is_two_resolutions(self, cast, waterloo):
        other = CampaignFactory()
        MembershipFactory(campaign=other, user=cast.gm, role="gm")
        elsewhere = ShipFactory(campaign=other, name="Elsewhere", shared=True, drive_charged=True)
        key = str(uuid.uuid4())
        gm = cast.client("gm")
        gm.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx())
        gm.post(jump_url(other), roll_data(elsewhere, key), **htmx())
        assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1
        assert LogEntry.objects.filter(campaign=other).count() == 1

    def test_a_malformed_key_is_a_message_not_a_500(self, cast, waterloo):
        response = cast.client("gm").post(
            jump_url(cast.campaign), roll_data(waterloo, "not-a-key\x00"), **htmx()
        )
        assert response.status_code == 422
        assert not LogEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_submits_of_one_form_at_the_same_moment_make_one_roll(cast, waterloo):
    key = str(uuid.uuid4())
    statuses: list[int] = []
    start = threading.Barrier(2)

    def submit() -> None:
        client = Client()
        client.force_login(cast.gm)
        start.wait(timeout=10)
        try:
            statuses.append(
                client.post(jump_url(cast.campaign), roll_data(waterloo, key), **htmx()).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert statuses == [200, 200]
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1
