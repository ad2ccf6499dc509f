"""The turn log pages: who reads what, newest first, paginated; revealing GM-only entries."""

import pytest
from django.urls import reverse

from referee.play import services
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def note(cast, n=1):
    """Append log entries through the real service (clock advances are real log events)."""
    entries = []
    for _ in range(n):
        entry = services.campaign_clock_advance(campaign=cast.campaign, seconds=60, reason="", actor=cast.gm)
        entries.append(entry)
    return entries


def secret_entry(cast):
    from tests.factories import ShipFactory

    hidden = ShipFactory(campaign=cast.campaign, shared=False)
    target = ShipFactory(campaign=cast.campaign, shared=True)
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.emergence_wave",
        inputs={"distance_au": 3, "kf_integrity_max": 4, "dropship_factor": 3},
        dice=[4, 4],
        actor=cast.gm,
        subjects={"detector": hidden.code, "target": target.code},
    )


class TestLogList:
    def url(self, cast):
        return reverse("play:log", args=[cast.campaign.code])

    @pytest.mark.parametrize("who", ["anonymous", "outsider"])
    def test_non_members_get_404(self, cast, who):
        assert cast.client(who).get(self.url(cast)).status_code == 404

    def test_members_read_newest_first_25_a_page(self, cast):
        note(cast, 30)
        response = cast.client("player").get(self.url(cast))
        assert response.status_code == 200
        text = response.text
        assert text.index("#30 ") < text.index("#29 ")
        assert "#5 " not in text and "Page 1 of 2" in text
        older = cast.client("player").get(self.url(cast) + "?page=2", **htmx())
        assert "#5 " in older.text and "<html" not in older.text

    def test_players_do_not_see_secret_entries_until_revealed(self, cast):
        entry = secret_entry(cast)
        assert entry.visibility == "gm"
        assert f"#{entry.seq} " in cast.client("gm").get(self.url(cast)).text
        assert f"#{entry.seq} " not in cast.client("player").get(self.url(cast)).text
        detail = reverse("play:entry", args=[cast.campaign.code, entry.seq])
        assert cast.client("player").get(detail).status_code == 404
        reveal = reverse("play:reveal", args=[cast.campaign.code, entry.seq])
        assert cast.client("player").post(reveal).status_code == 403
        assert cast.client("outsider").post(reveal).status_code == 404
        assert cast.client("gm").get(reveal).status_code == 405
        assert cast.client("gm").post(reveal, **htmx()).status_code == 200
        assert f"#{entry.seq} " in cast.client("player").get(self.url(cast)).text
        assert cast.client("player").get(detail).status_code == 200

    def test_revealing_a_public_entry_is_refused(self, cast):
        (entry,) = note(cast)
        response = cast.client("gm").post(
            reverse("play:reveal", args=[cast.campaign.code, entry.seq]), **htmx()
        )
        assert response.status_code == 409
        assert "is not secret" in response.text

    def test_the_log_refuses_other_methods(self, cast):
        assert cast.client("gm").post(self.url(cast)).status_code == 405


class TestEntryDetail:
    def test_an_entry_page_shows_its_card(self, cast):
        (entry,) = note(cast)
        url = reverse("play:entry", args=[cast.campaign.code, entry.seq])
        assert cast.client("anonymous").get(url).status_code == 404
        assert cast.client("outsider").get(url).status_code == 404
        response = cast.client("player").get(url)
        assert response.status_code == 200 and "Clock advanced" in response.text
        assert "Undo" not in response.text  # players never get the GM's buttons
        assert "Undo" in cast.client("gm").get(url).text
        assert cast.client("gm").post(url).status_code == 405

    def test_an_unknown_entry_is_404(self, cast):
        assert cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, 99])).status_code == 404
