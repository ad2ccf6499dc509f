"""The rules' preconditions: said on the form before the roll, refused by the server,
overridden only by an explicit GM ruling that the entry records."""

from datetime import timedelta

import pytest
from django.urls import reverse

from referee.fleet.models import Ship
from referee.play import families, services
from referee.play.bindings import Context
from referee.play.models import LogEntry
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

NO_MISHAP = "3 4"


def url(cast, procedure_id):
    return reverse("play:procedure", args=[cast.campaign.code, procedure_id])


def jump_data(ship, **extra) -> dict:
    data = {"ship": str(ship.code), "action": "enter", "dice": NO_MISHAP, "visibility": "everyone"}
    data |= {"kf_integrity": str(ship.kf_integrity), "kf_integrity_max": str(ship.kf_integrity_max)}
    return data | {"hours_since_last_jump": "200"} | extra


def refused_then_overridden(cast, procedure_id, data, condition: str, *, on_the_form=True) -> LogEntry:
    """The form names the condition before the roll; the roll is refused (422, nothing
    logged); with the GM ruling it goes ahead and the entry says who waived what."""
    gm = cast.client("gm")
    query = {k: v for k, v in data.items() if k not in ("action", "dice")}
    form = gm.get(url(cast, procedure_id), query)
    assert form.status_code == 200
    if on_the_form:  # (an input the GM has still to choose cannot be known before)
        assert "The rules say this cannot happen now" in form.text and condition in form.text
    refused = gm.post(url(cast, procedure_id), data, **htmx())
    assert refused.status_code == 422
    assert "The rules do not allow this now" in refused.text and condition in refused.text
    assert not LogEntry.objects.filter(campaign=cast.campaign, procedure=procedure_id).exists()
    allowed = gm.post(url(cast, procedure_id), data | {"gm_ruling": "on"}, **htmx())
    assert allowed.status_code == 200, allowed.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
    ruling = entry.inputs["@gm_ruling"]
    assert ruling["by"] == cast.gm.username
    assert any(condition in waived for waived in ruling["waived"])
    assert f"GM ruling by {cast.gm.username}" in entry.summary
    return entry


def test_an_uncharged_jumpship_does_not_jump(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=False)
    refused_then_overridden(
        cast, "jump.malfunction", jump_data(ship), "K-F drive, or its lithium-fusion battery, is charged"
    )


def test_a_charged_lithium_fusion_battery_is_enough(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=False, lf_battery=True, lf_battery_charged=True)
    response = cast.client("gm").post(url(cast, "jump.malfunction"), jump_data(ship), **htmx())
    assert response.status_code == 200, response.text[:2000]


def test_a_drive_at_integrity_zero_does_not_jump(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=True, kf_integrity=0)
    gm = cast.client("gm")
    form = gm.get(url(cast, "jump.malfunction"), {"ship": ship.code})
    assert "integrity is above 0" in form.text
    refused = gm.post(url(cast, "jump.malfunction"), jump_data(ship), **htmx())
    assert refused.status_code == 422 and "integrity is above 0 (" in refused.text
    # The engine itself refuses a jump at 0: no ruling makes the malfunction roll possible.
    ruled = gm.post(url(cast, "jump.malfunction"), jump_data(ship, gm_ruling="on"), **htmx())
    assert ruled.status_code == 422 and "may not jump" in ruled.text.lower()
    assert not LogEntry.objects.filter(procedure="jump.malfunction").exists()


def test_roll_again_right_after_a_jump_does_not_jump_again(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=True)
    gm = cast.client("gm")
    assert gm.post(url(cast, "jump.malfunction"), jump_data(ship), **htmx()).status_code == 200
    ship.refresh_from_db()
    assert ship.drive_charged is False and ship.last_jump_at == cast.campaign.clock
    again = gm.post(url(cast, "jump.malfunction"), jump_data(ship), **htmx())
    assert again.status_code == 422 and "K-F drive, or its lithium-fusion battery, is charged (" in again.text
    assert "Not met: the ship" in again.text and "k-f" not in again.text
    assert LogEntry.objects.filter(procedure="jump.malfunction").count() == 1


def test_a_double_jump_waits_for_the_field_to_collapse(cast):
    ship = ShipFactory(
        campaign=cast.campaign,
        drive_charged=True,
        lf_battery=True,
        lf_battery_charged=True,
        last_jump_at=cast.campaign.clock - timedelta(seconds=10),
    )
    refused_then_overridden(cast, "jump.malfunction", jump_data(ship), "30 seconds have passed")


def test_the_service_refuses_as_the_form_does(cast):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=False)
    with pytest.raises(services.PlayError, match="GM ruling"):
        services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="jump.malfunction",
            inputs={},
            dice=[3, 4],
            actor=cast.gm,
            subjects={"ship": ship.code},
        )


@pytest.mark.parametrize("procedure_id", ["jump.field_interference", "jump.nonstandard_plot"])
def test_the_jump_time_procedures_need_a_charged_intact_drive(cast, procedure_id):
    ship = ShipFactory(campaign=cast.campaign, drive_charged=False)
    binding = families.binding(procedure_id)
    data = {"ship": str(ship.code), "action": "roll", "dice": "", "visibility": "everyone"}
    for name, value in binding.procedure.example.items():
        if value is not None and not isinstance(value, (list, dict, bool)):
            data[name] = str(value)
    for name, value in binding.procedure.example.items():
        if isinstance(value, bool) and value:
            data[name] = "on"
        elif isinstance(value, list):
            data[name] = __import__("json").dumps(value)
    refused_then_overridden(cast, procedure_id, data, "is charged")


def test_charging_a_battery_the_ship_does_not_have(cast):
    ship = ShipFactory(campaign=cast.campaign, lf_battery=False)
    data = {"ship": str(ship.code), "action": "roll", "dice": "", "visibility": "everyone"}
    data |= {"system": "lf_battery", "method": "sail"}
    refused_then_overridden(cast, "drive.charge", data, "lithium-fusion battery is fitted", on_the_form=False)


def test_an_attack_from_a_landing_that_never_happened(cast):
    ship = ShipFactory(campaign=cast.campaign, kind="dropship")
    unit = UnitFactory(campaign=cast.campaign, landed_on=None)
    data = {
        "unit": str(unit.code),
        "target": str(ship.code),
        "action": "roll",
        "dice": "",
        "visibility": "everyone",
    }
    for name, value in families.binding("boarding.landed_attack").procedure.example.items():
        data[name] = str(value).lower() if isinstance(value, bool) else str(value)
    refused_then_overridden(cast, "boarding.landed_attack", data, "has landed on the ship it attacks")


def test_a_unit_landed_on_the_ship_attacks_without_a_ruling(cast):
    ship = ShipFactory(campaign=cast.campaign, kind="dropship")
    unit = UnitFactory(campaign=cast.campaign, landed_on=ship)
    ctx = families.binding("boarding.landed_attack")
    assert ctx.unmet(Context(cast.campaign, {"unit": unit, "target": ship}), {}) == []


def test_a_ship_does_not_ram_itself(cast):
    ship = ShipFactory(campaign=cast.campaign)
    binding = families.binding("ram.deliberate")
    data = {
        "rammer": str(ship.code),
        "target": str(ship.code),
        "action": "roll",
        "dice": "",
        "visibility": "everyone",
    }
    for name, value in binding.procedure.example.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    refused_then_overridden(cast, "ram.deliberate", data, "are two ships")


def test_overburn_is_for_fighters_only(cast):
    """Enforced by the role itself: only fighter squadrons can be chosen."""
    cruiser = ShipFactory(campaign=cast.campaign, kind="warship")
    response = cast.client("gm").post(
        url(cast, "fighter.overburn"),
        {"ship": str(cruiser.code), "action": "roll", "heat_sinks": "10"},
        **htmx(),
    )
    assert response.status_code == 422
    assert not LogEntry.objects.filter(procedure="fighter.overburn").exists()
    assert Ship.objects.filter(kind="warship").count() == 1
