"""A result card gives the entry's campaign time as the clock shows it, not as Python
prints a timestamp (no +00:00 offset)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from referee.play import wording
from tests.factories import ShipFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db


def test_a_time_reads_as_the_campaign_clock():
    assert wording.words(datetime(3067, 3, 14, 8, 0, tzinfo=UTC)) == "3067-03-14 08:00:00"


def test_the_result_card_shows_the_campaign_time_plainly(cast):
    ship = ShipFactory(campaign=cast.campaign, kind="jumpship")
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=[6, 6, 4, 5])
    page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
    assert page.status_code == 200
    assert "+00:00" not in page.text
