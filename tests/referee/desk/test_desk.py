"""The GM's desk: what waits on the GM, counted and acted on in place."""

import pytest
from django.urls import reverse

from referee.desk.selectors import desk_context
from referee.play import services
from referee.play.models import LogEntry
from tests.factories import ShipFactory
from tests.referee.clock.test_clock_services import advance, charge
from tests.referee.conftest import htmx
from tests.referee.play.test_pending_effects import speed_roll, trap
from tests.referee.play.test_players import landing_post, landing_setup, roll_url

pytestmark = pytest.mark.django_db


def act(cast, who="gm", **data):
    return cast.client(who).post(reverse("desk:act", args=[cast.campaign.code]), data, **htmx())


def waiting_roll(cast) -> LogEntry:
    mech, ship = landing_setup(cast)
    cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    return LogEntry.objects.get(procedure="boarding.landing")


def test_the_desk_counts_what_waits_and_sits_atop_the_dashboard(cast):
    waiting_roll(cast)
    speed_roll(cast)
    ship = ShipFactory(campaign=cast.campaign, name="Acheron")
    charge(cast, ship, hours=160)
    assert desk_context(cast.campaign).counts == {"rolls": 1, "changes": 2, "events": 0, "detections": 0}
    advance(cast, 159)
    assert desk_context(cast.campaign).counts["events"] == 0
    dashboard = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert dashboard.index('id="desk-panel"') < dashboard.index('id="ships-panel"')
    assert (
        "1 roll to accept" in dashboard and "2 changes to apply" in dashboard and "0 events due" in dashboard
    )


def test_accept_from_the_desk_applies_the_roll_and_the_desk_counts_it_off(cast):
    entry = waiting_roll(cast)
    response = act(cast, action="accept", seq=str(entry.seq))
    assert response.status_code == 200
    assert "0 rolls to accept" in response.text and f"#{entry.seq + 1}: GM accepted" in response.text
    assert "campaign-changed" in response.headers["HX-Trigger"]
    again = act(cast, action="reject", seq=str(entry.seq))
    assert again.status_code == 409 and "already accepted" in again.text


def test_apply_and_dismiss_from_the_desk(cast):
    entry, cerberus = speed_roll(cast), trap(cast)
    assert (
        act(cast, action="apply", seq=str(entry.seq), number="1", record=str(cerberus.code)).status_code
        == 200
    )
    cerberus.refresh_from_db()
    assert cerberus.speed == entry.pending[0]["value"]
    response = act(cast, action="dismiss", seq=str(entry.seq), number="2")
    assert response.status_code == 200 and "0 changes to apply" in response.text


def test_complete_what_is_due_from_the_desk(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Acheron")
    charge(cast, ship, hours=160)
    advance(cast, 160)
    done = LogEntry.objects.get(procedure="clock.due")
    services.log_entry_reverse(entry=done, actor=cast.gm)  # the charge is due again, now
    ship.refresh_from_db()
    cast.campaign.refresh_from_db()
    assert not ship.drive_charged and desk_context(cast.campaign).counts["events"] == 1
    response = act(cast, action="complete")
    assert response.status_code == 200 and "0 events due" in response.text
    ship.refresh_from_db()
    assert ship.drive_charged


def test_complete_what_is_due_never_moves_the_clock(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Acheron")
    charge(cast, ship, hours=160)
    advance(cast, 100)  # 60 hours still to go: nothing is due
    cast.campaign.refresh_from_db()
    clock, entries = cast.campaign.clock, LogEntry.objects.count()
    response = act(cast, action="complete")
    assert response.status_code == 409 and "Nothing is due yet" in response.text
    cast.campaign.refresh_from_db()
    ship.refresh_from_db()
    assert cast.campaign.clock == clock and LogEntry.objects.count() == entries
    assert not ship.drive_charged


@pytest.mark.parametrize(
    "data",
    [
        {"action": "accept"},
        {"action": "accept", "seq": "999"},
        {"action": "launch", "seq": "1"},
        {"action": "apply", "seq": "1"},
        {"action": "apply", "seq": "1", "number": "99"},
        {"action": "apply", "seq": "1", "number": "-1"},
        {"action": "accept", "seq": "1e9"},
        {"action": "accept", "seq": "\x00"},
        {"action": "dismiss", "seq": "9" * 40, "number": "1"},
        {"action": "complete"},
    ],
)
def test_bad_desk_actions_are_refused_in_words_and_write_nothing(cast, data):
    speed_roll(cast)
    response = act(cast, **data)
    assert response.status_code == 409
    assert 'data-testid="desk-error"' in response.text
    assert LogEntry.objects.count() == 1


@pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_reaches_the_desk(cast, who, status):
    entry = waiting_roll(cast)
    assert cast.client(who).get(reverse("desk:panel", args=[cast.campaign.code])).status_code == status
    assert act(cast, who, action="accept", seq=str(entry.seq)).status_code == status
    assert not LogEntry.objects.filter(procedure="roll.accept").exists()


def test_without_htmx_the_desk_redirects_to_the_dashboard_with_the_outcome(cast):
    entry = waiting_roll(cast)
    client = cast.client("gm")
    response = client.post(
        reverse("desk:act", args=[cast.campaign.code]), {"action": "accept", "seq": entry.seq}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("campaigns:detail", args=[cast.campaign.code])
    assert "GM accepted" in response.text


def radar(cast, detector, target, dice):
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.active_radar",
        inputs={"detector_class": "warship", "military": True, "distance_km": 1000},
        dice=dice,
        actor=cast.gm,
        subjects={"detector": detector.code, "target": target.code},
    )


def test_a_successful_detection_offers_the_detected_ship_to_the_players_in_one_click(cast):
    waterloo = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    raider = ShipFactory(campaign=cast.campaign, name="Raider", shared=False)
    radar(cast, waterloo, raider, [1, 1])  # missed: nothing to share
    assert desk_context(cast.campaign).detections == []
    found = radar(cast, waterloo, raider, [6, 6])
    desk = desk_context(cast.campaign)
    assert [(e.seq, s.name) for e, s, _ in desk.detections] == [(found.seq, "Raider")]
    page = cast.client("gm").get(reverse("desk:panel", args=[cast.campaign.code])).text
    assert "Waterloo detected Raider, which the players do not see yet." in page
    response = act(cast, action="share", seq=str(found.seq))
    assert response.status_code == 200 and "1 detected ship" not in response.text
    raider.refresh_from_db()
    assert raider.shared
    shared = LogEntry.objects.get(procedure="record.share")
    assert (
        shared.summary
        == f"The GM shared the ship Raider with the players: Waterloo detected it (#{found.seq})."
    )
    assert act(cast, action="share", seq=str(found.seq)).status_code == 409  # a double click
    services.log_entry_reverse(entry=shared, actor=cast.gm)
    raider.refresh_from_db()
    assert not raider.shared


def test_a_hidden_sides_detection_is_not_offered_and_a_non_detection_cannot_be_shared(cast):
    hidden = ShipFactory(campaign=cast.campaign, name="Hidden", shared=False)
    waterloo = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    found = radar(cast, hidden, ShipFactory(campaign=cast.campaign, name="Other"), [6, 6])
    assert desk_context(cast.campaign).detections == []
    assert act(cast, action="share", seq=str(found.seq)).status_code == 200  # the GM may still share it
    missed = radar(cast, waterloo, hidden, [1, 1])
    refused = act(cast, action="share", seq=str(missed.seq))
    assert refused.status_code == 409 and "no detection that found a ship" in refused.text
