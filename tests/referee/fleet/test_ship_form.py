"""A ship's form shows what its kind has, starts from the kind's values, writes campaign time
as the clock does, and says plainly whether players see the ship; the server holds the same
line as the form (a post cannot set what the kind does not have)."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from referee.fleet.forms import SHIP_KIND_DEFAULTS, ShipForm, ship_fields
from referee.fleet.models import Ship
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.play.test_hand_edits import form_data

pytestmark = pytest.mark.django_db

DRIVE = {"kf_integrity", "kf_integrity_max", "lf_battery", "lf_battery_charged", "helium_tank_boxes"}
FIGHTER = {"fighters", "heat", "overburn", "shutdown"}


def shown_inputs(html: str) -> set[str]:
    return set(re.findall(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"', html)) - {"csrfmiddlewaretoken"}


def test_a_fighter_squadron_has_no_drive_helium_or_battery_and_a_jumpship_no_fighter_heat(cast):
    assert not DRIVE & set(ship_fields("fighter_squadron"))
    assert set(ship_fields("fighter_squadron")) >= FIGHTER
    assert set(ship_fields("jumpship")) >= DRIVE
    assert not FIGHTER & set(ship_fields("jumpship"))
    assert "docked_on" in ship_fields("dropship") and "docked_on" not in ship_fields("jumpship")


def test_the_new_ship_page_shows_the_chosen_kinds_fields_with_its_starting_values(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
    client = cast.client("gm")
    jumpship = client.get(url, **htmx()).text
    assert shown_inputs(jumpship) >= DRIVE and not FIGHTER & shown_inputs(jumpship)
    assert re.search(r'name="kf_integrity_max" value="4"', jumpship)

    squadron = client.get(url, {"kind": "fighter_squadron", "name": "Blue Wing"}, **htmx()).text
    assert shown_inputs(squadron) >= FIGHTER and not DRIVE & shown_inputs(squadron)
    assert re.search(r'name="fighters" value="6"', squadron)
    assert 'value="Blue Wing"' in squadron  # what was typed before the kind changed stays
    assert re.search(r'<option value="fighter_squadron" selected>', squadron)


def test_changing_the_kind_redraws_the_form_from_the_server(cast):
    html = cast.client("gm").get(reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])).text
    kind = re.search(r'<select name="kind"[^>]*>', html).group(0)
    assert (
        'hx-get="/c/' in kind
        and 'hx-trigger="change"' in kind  # no filter: the Content-Security-Policy allows htmx no eval
        and 'hx-include="closest form"' in kind
        and 'data-form-refresh="form-slot"' in kind  # what is typed meanwhile is kept
    )


def test_a_post_cannot_set_what_the_kind_does_not_have(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
    data = {
        "kind": "fighter_squadron",
        "name": "Blue Wing",
        "shared": "True",
        "fighters": "4",
        "kf_integrity": "3",
        "kf_integrity_max": "3",
        "lf_battery": "on",
        "helium_tank_boxes_max": "9",
        "dropship_capacity": "2",
        "docked_on": "",
    }
    for name in ("mass_t", "crew", "velocity", "fuel_points", "heat_sinks", "heat", "overburn"):
        data[name] = "0"
    for name in [n for n in ship_fields("fighter_squadron") if n.startswith("armor_")]:
        data[name] = "0"
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text
    squadron = Ship.objects.get(name="Blue Wing")
    assert squadron.fighters == 4
    assert (squadron.kf_integrity, squadron.kf_integrity_max, squadron.lf_battery) == (0, 0, False)
    assert (squadron.helium_tank_boxes_max, squadron.dropship_capacity) == (0, 0)


def test_an_edit_keeps_what_the_kind_does_not_show(cast):
    squadron = ShipFactory(
        campaign=cast.campaign, kind="fighter_squadron", fighters=6, kf_integrity=0, kf_integrity_max=0
    )
    data = form_data(ShipForm(instance=squadron, campaign=cast.campaign))
    data |= {"heat": 7, "kf_integrity_max": 8, "kf_integrity": 8}
    form = ShipForm(data, instance=squadron, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    form.save()
    squadron.refresh_from_db()
    assert (squadron.heat, squadron.kf_integrity_max) == (7, 0)


def test_a_docked_dropship_made_a_small_craft_is_refused_with_a_message_not_an_error_page(cast):
    carrier = ShipFactory(campaign=cast.campaign, dropship_capacity=2)
    dropship = ShipFactory(
        campaign=cast.campaign, kind="dropship", kf_integrity=0, kf_integrity_max=0, docked_on=carrier
    )
    url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", dropship.code])
    data = form_data(ShipForm(instance=dropship, campaign=cast.campaign)) | {"kind": "small_craft"}
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 422
    assert "Only DropShips dock" in response.text
    dropship.refresh_from_db()
    assert dropship.kind == "dropship"


def test_every_kind_has_starting_values_and_a_valid_form(cast):
    for kind, defaults in SHIP_KIND_DEFAULTS.items():
        form = ShipForm(initial={"kind": kind}, campaign=cast.campaign)
        for name, value in defaults.items():
            assert name in form.fields, (kind, name)
            assert form[name].value() == value


def test_a_new_ship_is_shared_unless_the_gm_says_otherwise_in_plain_words(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
    html = cast.client("gm").get(url, **htmx()).text
    assert re.search(r"<legend>Who sees it</legend>", html)
    assert re.search(r'<input type="radio" name="shared" value="True"[^>]*checked', html)
    assert "GM only: hidden from players until you share it" in html
    base = {"kind": "small_craft", "name": "Secret", "shared": "False"}
    for name in ship_fields("small_craft"):
        if name.startswith("armor_") or name in ("mass_t", "crew", "passengers", "velocity", "fuel_points"):
            base[name] = "0"
    base |= {"heat_sinks": "0", "radar_crit_boxes": "0"}
    assert cast.client("gm").post(url, base, **htmx()).status_code == 200
    assert Ship.objects.get(name="Secret").shared is False
    base |= {"name": "Open", "shared": "True"}
    assert cast.client("gm").post(url, base, **htmx()).status_code == 200
    assert Ship.objects.get(name="Open").shared is True


def test_times_are_written_as_the_campaign_clock_writes_them_not_in_a_browser_locale(cast):
    ship = ShipFactory(campaign=cast.campaign, last_jump_at=datetime(3067, 3, 14, 8, 0, tzinfo=UTC))
    url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
    html = cast.client("gm").get(url, **htmx()).text
    field = re.search(r'<input[^>]*name="last_jump_at"[^>]*>', html).group(0)
    assert 'value="3067-03-14 08:00:00"' in field and 'type="text"' in field
    assert "datetime-local" not in html and "mm/dd" not in html
    assert "year-month-day hours:minutes" in html
    data = form_data(ShipForm(instance=ship, campaign=cast.campaign)) | {"last_jump_at": "3067-03-15 09:30"}
    form = ShipForm(data, instance=ship, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    assert form.save().last_jump_at == datetime(3067, 3, 15, 9, 30, tzinfo=UTC)
