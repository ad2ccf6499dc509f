"""The GM's campaign settings: logged, undoable, GM only."""

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import LogEntry

pytestmark = pytest.mark.django_db


def url(cast):
    return reverse("play:settings", args=[cast.campaign.code])


def test_the_gm_sets_the_year_and_clock_and_it_is_logged_and_undoable(cast):
    data = {
        "name": cast.campaign.name,
        "year": 3070,
        "turn_length_s": 60,
        "clock": "3070-05-01T06:00:00",
        "player_rolls_wait": "on",  # ticked, as the page shows it
    }
    assert cast.client("gm").get(url(cast)).status_code == 200
    response = cast.client("gm").post(url(cast), data)
    assert response.status_code == 302
    cast.campaign.refresh_from_db()
    assert cast.campaign.year == 3070 and cast.campaign.clock.year == 3070
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure="campaign.settings")
    assert {c["field"] for c in entry.effects} == {"year", "clock"}
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    cast.campaign.refresh_from_db()
    assert cast.campaign.year == 3067 and cast.campaign.clock.year == 3067


def test_saving_without_a_change_logs_nothing(cast):
    c = cast.campaign
    data = {
        "name": c.name,
        "year": c.year,
        "turn_length_s": c.turn_length_s,
        "clock": c.clock.strftime("%Y-%m-%dT%H:%M:%S"),
        "player_rolls_wait": "on",
    }
    assert cast.client("gm").post(url(cast), data).status_code == 302
    assert not LogEntry.objects.exists()


def test_a_bad_value_is_a_422_with_the_field_error(cast):
    response = cast.client("gm").post(url(cast), {"name": "", "year": "x", "turn_length_s": 0, "clock": ""})
    assert response.status_code == 422
    assert "This field is required" in response.text
    assert not LogEntry.objects.exists()


@pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_changes_settings(cast, who, status):
    assert cast.client(who).get(url(cast)).status_code == status
    assert cast.client(who).post(url(cast), {"year": 1}).status_code == status


def test_settings_refuse_other_methods(cast):
    assert cast.client("gm").put(url(cast)).status_code == 405
