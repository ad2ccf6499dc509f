"""Forms stay true, undo answers where it was pressed, results lead to the next step."""

import pytest
from django.urls import reverse

import rules
from referee.play import families, services
from referee.play.models import LogEntry
from referee.play.views import _next_step
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]  # K-F integrity -1


def jump(cast, ship, **extra) -> LogEntry:
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.malfunction",
        inputs={},
        dice=MICRO_FRACTURES,
        actor=cast.gm,
        subjects={"ship": ship.code},
        visibility="everyone",
        **extra,
    )


def procedure_url(cast, procedure_id):
    return reverse("play:procedure", args=[cast.campaign.code, procedure_id])


def test_undo_on_the_entry_page_answers_with_the_card_and_a_refusal_beside_its_button(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", drive_charged=True, shared=True)
    entry = jump(cast, ship)
    gm = cast.client("gm")
    page = gm.get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
    assert 'hx-target="closest article"' in page.text and 'name="from" value="entry"' in page.text
    undo = reverse("play:undo", args=[cast.campaign.code, entry.seq])
    response = gm.post(undo, {"from": "entry"}, **htmx())
    assert response.status_code == 200
    assert "undone by #2" in response.text and 'id="entry-1"' in response.text
    assert response.headers["HX-Trigger"]  # the page's other panels follow
    ship.refresh_from_db()
    assert ship.kf_integrity == 4
    again = gm.post(undo, {"from": "entry"}, **htmx())
    assert again.status_code == 409
    assert 'data-testid="card-error"' in again.text and "already undone" in again.text


def test_a_plain_undo_from_the_entry_page_comes_back_to_it(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=True)
    entry = jump(cast, ship)
    response = cast.client("gm").post(
        reverse("play:undo", args=[cast.campaign.code, entry.seq]), {"from": "entry"}
    )
    assert response.status_code == 302
    assert response.url == reverse("play:entry", args=[cast.campaign.code, entry.seq])


def test_a_result_refreshes_the_form_with_the_new_state(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=True, lf_battery=True, lf_battery_charged=True)
    data = {"ship": str(ship.code), "action": "enter", "dice": "6 6 4 5", "visibility": "gm"}
    data |= {"kf_integrity": "4", "kf_integrity_max": "4", "hours_since_last_jump": "200"}
    response = cast.client("gm").post(procedure_url(cast, "jump.malfunction"), data, **htmx())
    assert response.status_code == 200
    assert "procedure-resolved" in response.headers["HX-Trigger"]
    # What the form's refresh asks for: the records re-read, the GM's choice of visibility kept.
    refresh = cast.client("gm").get(
        procedure_url(cast, "jump.malfunction"),
        {"refresh": "1", "ship": ship.code, "kf_integrity": "4", "visibility": "gm"},
        **htmx(),
    )
    assert 'name="kf_integrity" value="3"' in refresh.text
    assert '<option value="gm" selected>' in refresh.text


def test_choosing_another_target_fills_its_numbers_and_keeps_what_the_gm_typed(cast):
    detector = ShipFactory(campaign=cast.campaign, name="John Wayne", kind="dropship")
    first = ShipFactory(campaign=cast.campaign, name="Waterloo", kf_integrity=4, kf_integrity_max=4)
    second = ShipFactory(campaign=cast.campaign, name="Valley Forge", kf_integrity=7, kf_integrity_max=9)
    url = procedure_url(cast, "sensor.emergence_wave")
    page = cast.client("gm").get(url, {"detector": detector.code, "target": first.code})
    assert 'hx-trigger="change"' in page.text  # the roles refresh the form when one changes
    refresh = cast.client("gm").get(
        url,
        {"refresh": "1", "detector": detector.code, "target": second.code, "kf_integrity_max": "4"},
        **htmx(),
    )
    assert 'name="kf_integrity_max" value="9"' in refresh.text


def test_a_charge_that_takes_time_offers_the_jump_only_once_the_drive_is_charged(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=False)
    other = ShipFactory(campaign=cast.campaign, drive_charged=False, lf_battery=True, lf_battery_charged=True)
    data = {"action": "roll", "dice": "", "visibility": "gm", "system": "kf_drive", "method": "sail"}
    response = cast.client("gm").post(
        procedure_url(cast, "drive.charge"), {**data, "ship": str(ship.code)}, **htmx()
    )
    assert response.status_code == 200, response.text[:1000]
    assert "Charging (90 min to deploy the sail" in response.text
    assert 'data-testid="next-step"' not in response.text
    # A ship whose battery holds a charge already may jump on it: the jump is offered.
    response = cast.client("gm").post(
        procedure_url(cast, "drive.charge"), {**data, "ship": str(other.code)}, **htmx()
    )
    assert procedure_url(cast, "jump.malfunction") + f"?ship={other.code}" in response.text


def test_a_landing_offers_the_attack_on_the_ship_it_landed_on_and_the_attack_form_reads_landed_on(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Valley Forge", kind="warship")
    unit = UnitFactory(campaign=cast.campaign, name="Atlas", kind="battle_armor")
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="boarding.landing",
        inputs={"piloting": 4, "unit_kind": "battle_armor"},
        dice=[6, 6],
        actor=cast.gm,
        subjects={"unit": unit.code, "target": ship.code},
    )
    assert entry.result["landed"] is True
    step = _next_step(families.binding("boarding.landing"), entry, cast.campaign)
    assert step["url"].startswith(procedure_url(cast, "boarding.landed_attack"))
    assert f"unit={unit.code}" in step["url"] and f"target={ship.code}" in step["url"]
    form = cast.client("gm").get(procedure_url(cast, "boarding.landed_attack"), {"unit": unit.code})
    assert f'<option value="{ship.code}" selected>' in form.text
    assert "The rules say this cannot happen now" not in form.text


def test_an_emergence_detection_offers_the_next_detector(cast):
    a = ShipFactory(campaign=cast.campaign, name="A detector", kind="dropship")
    b = ShipFactory(campaign=cast.campaign, name="B detector", kind="dropship")
    target = ShipFactory(campaign=cast.campaign, name="Z arrival")
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.emergence_wave",
        inputs=dict(rules.get("sensor.emergence_wave").example),
        dice=None,
        actor=cast.gm,
        subjects={"detector": a.code, "target": target.code},
    )
    step = _next_step(families.binding("sensor.emergence_wave"), entry, cast.campaign)
    assert f"detector={b.code}" in step["url"] and f"target={target.code}" in step["url"]


def test_a_gm_page_can_ask_for_the_campaigns_version_cheaply(cast):
    response = cast.client("gm").get(reverse("play:status", args=[cast.campaign.code]), {"watch": "1"})
    cast.campaign.refresh_from_db()
    assert response.status_code == 204
    assert response.headers["X-Campaign-Version"] == str(cast.campaign.state_version)
