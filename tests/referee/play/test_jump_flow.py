"""The GM's jump, end to end through the views: card, state, log, undo, export."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from referee.fleet.models import Ship
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = "6 6 4 5"  # malfunction 12 (mishap), effect 9: micro-fractures


@pytest.fixture
def waterloo(cast):
    return ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True, drive_charged=True)


def jump_url(cast):
    return reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])


def jump_data(ship, dice=MICRO_FRACTURES, **extra):
    return {
        "ship": str(ship.code),
        "kf_integrity": ship.kf_integrity,
        "kf_integrity_max": ship.kf_integrity_max,
        "dice": dice,
        "visibility": "everyone",
        "action": "enter",
        **extra,
    }


def test_the_form_is_prefilled_from_the_ship_and_the_clock(cast, waterloo):
    waterloo.last_jump_at = cast.campaign.clock - timedelta(hours=5)
    waterloo.charged_from_reactor = True
    waterloo.kf_integrity = 3
    waterloo.save()
    response = cast.client("gm").get(jump_url(cast) + f"?ship={waterloo.code}")
    assert response.status_code == 200
    assert 'name="hours_since_last_jump" value="5.0"' in response.text
    assert re.search(r'name="charged_from_reactor"[^>]*checked', response.text)
    assert 'name="kf_integrity" value="3"' in response.text
    # mod +3 (≤6 h) +2 (reactor): a mishap on 7+ of 2D6 = 21/36
    assert "58.3%" in response.text


def test_entered_dice_give_micro_fractures_on_the_card_the_ship_and_the_log(cast, waterloo):
    response = cast.client("gm").post(jump_url(cast), jump_data(waterloo), **htmx())
    assert response.status_code == 200
    assert "micro-fractures" in response.text.lower()
    assert re.search(r"Waterloo</strong> K-F integrity: 4 → <strong>3", response.text)
    waterloo.refresh_from_db()
    assert waterloo.kf_integrity == 3
    entry = LogEntry.objects.get(campaign=cast.campaign)
    assert [r["values"] for r in entry.rolls] == [[6, 6], [4, 5]]
    assert entry.result["effect"] == "micro_fractures"
    assert entry.effects[0]["before"] == 4 and entry.effects[0]["after"] == 3


def test_a_jump_that_goes_ahead_moves_the_ship_and_its_dropships(cast, waterloo):
    destination = StarSystemFactory(campaign=cast.campaign, name="Outreach")
    dropship = ShipFactory(
        campaign=cast.campaign, kind="dropship", kf_integrity=0, kf_integrity_max=0, docked_on=waterloo
    )
    data = jump_data(waterloo, dice="3 4", destination=str(destination.code))
    assert cast.client("gm").post(jump_url(cast), data).status_code == 302
    waterloo.refresh_from_db()
    dropship.refresh_from_db()
    assert waterloo.star_system == destination and dropship.star_system == destination
    assert waterloo.last_jump_at == cast.campaign.clock
    assert waterloo.drive_charged is False


def test_bad_dice_are_a_clear_422_and_change_nothing(cast, waterloo):
    response = cast.client("gm").post(jump_url(cast), jump_data(waterloo, dice="6 6 1"), **htmx())
    assert response.status_code == 422
    assert "the effect roll needs 1 more d6" in response.text
    assert response["HX-Retarget"] == "#procedure-form"
    assert not LogEntry.objects.exists()
    waterloo.refresh_from_db()
    assert waterloo.kf_integrity == 4


@pytest.mark.parametrize("dice", ["six six", "6 6 4 9"])
def test_unreadable_or_impossible_dice_are_refused(cast, waterloo, dice):
    response = cast.client("gm").post(jump_url(cast), jump_data(waterloo, dice=dice), **htmx())
    assert response.status_code == 422
    assert 'data-testid="error-dice"' in response.text
    assert not LogEntry.objects.exists()


def test_an_input_the_rules_refuse_is_a_field_error(cast, waterloo):
    response = cast.client("gm").post(
        jump_url(cast), jump_data(waterloo, hours_since_last_jump="-2"), **htmx()
    )
    assert response.status_code == 422
    assert 'data-testid="error-hours_since_last_jump"' in response.text


def test_roll_uses_the_servers_dice_and_records_every_die(cast, waterloo):
    data = jump_data(waterloo, action="roll", dice="")
    assert cast.client("gm").post(jump_url(cast), data, **htmx()).status_code == 200
    entry = LogEntry.objects.get()
    modifier = entry.result["modifier"]
    assert 2 + modifier <= entry.result["malfunction_total"] <= 12 + modifier
    assert sum(entry.rolls[0]["values"]) + modifier == entry.result["malfunction_total"]


def test_enter_dice_without_dice_asks_for_them(cast, waterloo):
    response = cast.client("gm").post(jump_url(cast), jump_data(waterloo, dice=""), **htmx())
    assert response.status_code == 422
    assert "Enter the dice the table rolled" in response.text


def test_undo_restores_and_a_second_undo_is_refused(cast, waterloo):
    client = cast.client("gm")
    client.post(jump_url(cast), jump_data(waterloo), **htmx())
    entry = LogEntry.objects.get()
    undo = reverse("play:undo", args=[cast.campaign.code, entry.seq])
    assert cast.client("player").post(undo).status_code == 403
    assert client.post(undo, **htmx()).status_code == 200
    waterloo.refresh_from_db()
    assert waterloo.kf_integrity == 4
    again = client.post(undo, **htmx())
    assert again.status_code == 409
    assert "already undone" in again.text
    assert LogEntry.objects.count() == 2


def test_undo_is_refused_when_a_later_entry_changed_the_same_field(cast, waterloo):
    client = cast.client("gm")
    client.post(jump_url(cast), jump_data(waterloo), **htmx())
    waterloo.refresh_from_db()
    client.post(jump_url(cast), jump_data(waterloo, gm_ruling="on"), **htmx())
    first = LogEntry.objects.get(seq=1)
    response = client.post(reverse("play:undo", args=[cast.campaign.code, first.seq]), **htmx())
    assert response.status_code == 409
    assert "changed again by #2" in response.text
    waterloo.refresh_from_db()
    assert waterloo.kf_integrity == 2


def test_undo_is_refused_when_the_gm_edited_the_field_by_hand(cast, waterloo):
    cast.client("gm").post(jump_url(cast), jump_data(waterloo), **htmx())
    Ship.objects.filter(pk=waterloo.pk).update(kf_integrity=1)
    response = cast.client("gm").post(reverse("play:undo", args=[cast.campaign.code, 1]), **htmx())
    assert response.status_code == 409
    assert "has been edited since" in response.text


@pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_resolves(cast, waterloo, who, status):
    client = cast.client(who)
    assert client.get(jump_url(cast)).status_code == status
    assert client.post(jump_url(cast), jump_data(waterloo)).status_code == status
    assert not LogEntry.objects.exists()


def test_the_procedure_page_refuses_other_methods_and_unknown_procedures(cast):
    assert cast.client("gm").put(jump_url(cast)).status_code == 405
    unknown = reverse("play:procedure", args=[cast.campaign.code, "jump.nope"])
    assert cast.client("gm").get(unknown).status_code == 404


def test_the_csv_export_has_one_row_per_roll(cast, waterloo):
    cast.client("gm").post(jump_url(cast), jump_data(waterloo), **htmx())
    response = cast.client("player").get(reverse("play:export", args=[cast.campaign.code, "csv"]))
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [(r["Roll"], r["Dice"], r["Total"]) for r in rows] == [
        ("Malfunction", "6 6", "12"),
        ("Effect", "4 5", "9"),
    ]
    assert rows[0]["Procedure"] == "Jump: drive-system malfunction roll"
    assert rows[0]["Subjects"] == "Waterloo"
    assert "micro-fractures" in rows[0]["Outcome"].lower()
