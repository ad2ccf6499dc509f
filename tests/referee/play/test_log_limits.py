"""A turn-log entry has a size limit, enforced before it is written, with a plain message."""

import json

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import LogEntry
from referee.play.services import MAX_LOG_ENTRY_BYTES, PlayError
from tests.factories import ShipFactory
from tests.referee.conftest import htmx, typed

pytestmark = pytest.mark.django_db


def entry_size(summary: str) -> int:
    """What the limit measures for an entry that holds only a title and a summary."""
    return len(json.dumps(({}, [], {}, [], [], summary, "Note"), ensure_ascii=False).encode())


def append(campaign, summary: str):
    return services.log_append(campaign=campaign, procedure="note", title="Note", summary=summary)


def test_an_entry_of_exactly_the_limit_is_written_and_one_byte_more_is_refused(cast):
    filler = "x" * (MAX_LOG_ENTRY_BYTES - entry_size(""))
    assert entry_size(filler) == MAX_LOG_ENTRY_BYTES
    entry = append(cast.campaign, filler)
    assert LogEntry.objects.get(pk=entry.pk).summary == filler
    with pytest.raises(PlayError) as info:
        append(cast.campaign, filler + "x")
    assert "at most 64 KB" in str(info.value)
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1


def test_the_limit_counts_bytes_not_characters(cast):
    with pytest.raises(PlayError):
        append(cast.campaign, "é" * (MAX_LOG_ENTRY_BYTES // 2))


def test_a_resolution_too_large_for_the_log_is_refused_on_the_form_and_writes_nothing(cast):
    """The largest non-standard arrival the input limits allow (a hundred ships, six facings
    each, all failing by 8 to 18) rolls thousands of dice: the form says it is too large."""
    facings = ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"]
    ships = [{"id": f"ship {n}", "facings": facings} for n in range(100)]
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.nonstandard_arrival"])
    data = {
        "navigation_tn": "20",
        "plot_mos": "0",
        "kf_integrity": "3",
        **typed("jump.nonstandard_arrival", "ships", ships),
        "ship": str(ShipFactory(campaign=cast.campaign).code),
        "visibility": "everyone",
        "action": "roll",  # 2D6 never makes TN 20: every facing takes 8D6 to 18D6
    }
    version = type(cast.campaign).objects.get(pk=cast.campaign.pk).state_version
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 422
    assert "an entry holds at most 64 KB" in response.text
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()
    assert type(cast.campaign).objects.get(pk=cast.campaign.pk).state_version == version
