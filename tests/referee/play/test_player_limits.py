"""Players set only what players may: the GM's data and house-rule options on a player's
roll form are the campaign's, fixed by the server; a request key is the actor's own, and a
key from another reader's form (or made up from an export) is a plain 4xx naming nothing."""

import json
import re
import uuid

import pytest
from django.urls import reverse

from referee.play import players, services
from referee.play.models import LogEntry, Visibility
from tests.factories import MembershipFactory, ShipFactory
from tests.referee.conftest import htmx
from tests.referee.history import quiet_roll

pytestmark = pytest.mark.django_db

DRIVE_FAILURE = [6, 6, 6, 6]  # malfunction 12: a mishap; effect 12 (+ 1D6 on a natural 12)


def jump_url(cast):
    return reverse("play:player-roll", args=[cast.campaign.code, "jump.malfunction"])


@pytest.fixture
def my_ship(cast):
    return ShipFactory(
        campaign=cast.campaign,
        owner=cast.player,
        shared=True,
        kf_integrity=9,
        kf_integrity_max=9,
        drive_charged=True,
    )


def jump_post(ship, **extra) -> dict:
    return {"ship": str(ship.code), "action": "roll", "visibility": "everyone", **extra}


def test_the_gms_data_and_house_rules_are_the_tables_and_what_the_binding_declares():
    from referee.play import families

    binding = families.binding("jump.malfunction")
    assert binding.gm_inputs == ("static_discharge_keeps_charge",)  # declared; the table by its type
    assert players.gm_inputs(binding) == ["failed_jump_table", "static_discharge_keeps_charge"]


def test_every_input_a_binding_declares_the_gms_is_one_of_its_procedure():
    from referee.play import families

    declared = [b for b in families.all_bindings() if b.gm_inputs]
    assert {b.procedure_id for b in declared} >= {"jump.malfunction", "drive.charge", "telemissile.maneuver"}
    for binding in declared:
        names = {spec.name for spec in binding.procedure.contract.inputs}
        assert set(binding.gm_inputs) <= names, binding.procedure_id


def test_a_players_charge_form_fixes_the_gms_option_and_takes_the_hours_they_aim_at(cast, my_ship):
    my_ship.drive_charged = False
    my_ship.save()
    client = cast.client("player")
    url = reverse("play:player-roll", args=[cast.campaign.code, "drive.charge"])
    page = client.get(url, {"ship": my_ship.code})
    assert page.status_code == 200
    fixed = [m for m in re.findall(r"<input\b[^>]*>", page.text) if 'name="simultaneous"' in m]
    assert fixed and "disabled" in fixed[0]
    assert page.text.count("Set by the GM for this campaign.") == 1
    hours = [m for m in re.findall(r"<input\b[^>]*>", page.text) if 'name="target_hours"' in m]
    assert hours and "disabled" not in hours[0]  # a reactor charge needs them
    forged = {
        "ship": str(my_ship.code),
        "action": "roll",
        "visibility": "everyone",
        "system": "kf_drive",
        "method": "reactor",
        "target_hours": "1",
        "simultaneous": "on",
    }
    response = client.post(url, forged, **htmx())
    assert response.status_code == 200, response.text[:3000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure="drive.charge")
    assert entry.actor == cast.player
    assert entry.inputs["simultaneous"] is False and entry.inputs["target_hours"] == 1


def test_a_players_roll_form_cannot_set_the_gms_table_or_house_rules(cast, my_ship):
    client = cast.client("player")
    page = client.get(jump_url(cast), {"ship": my_ship.code})
    assert page.status_code == 200 and "Set by the GM for this campaign." in page.text
    table = json.dumps({str(n): "the jump proceeds" for n in range(2, 13)})
    forged = jump_post(my_ship, failed_jump_table=table, static_discharge_keeps_charge="on")
    response = client.post(jump_url(cast), forged, **htmx())
    assert response.status_code == 200, response.text[:1500]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure="jump.malfunction")
    assert entry.actor == cast.player
    assert entry.inputs["static_discharge_keeps_charge"] is False
    assert entry.inputs.get("failed_jump_table") is None


def signed_key(cast, client) -> str:
    page = client.get(jump_url(cast), {"ship": cast.ship.code})
    return re.search(r'name="request_key" value="([^"]+)"', page.text).group(1)


def test_a_second_submit_of_ones_own_form_returns_the_same_entry(cast, my_ship):
    client = cast.client("player")
    cast.ship = my_ship
    data = jump_post(my_ship, request_key=signed_key(cast, client))
    first = client.post(jump_url(cast), data, **htmx())
    again = client.post(jump_url(cast), data, **htmx())
    assert first.status_code == again.status_code == 200
    assert LogEntry.objects.filter(campaign=cast.campaign, procedure="jump.malfunction").count() == 1


def test_another_players_request_key_is_a_plain_4xx(cast, my_ship):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    theirs = ShipFactory(
        campaign=cast.campaign,
        owner=other,
        shared=True,
        kf_integrity=9,
        kf_integrity_max=9,
        drive_charged=True,
    )
    from django.test import Client

    other_client = Client()
    other_client.force_login(other)
    cast.ship = theirs
    key = signed_key(cast, other_client)
    assert other_client.post(jump_url(cast), jump_post(theirs, request_key=key), **htmx()).status_code == 200
    before = LogEntry.objects.count()
    response = cast.client("player").post(jump_url(cast), jump_post(my_ship, request_key=key), **htmx())
    assert response.status_code == 422
    assert "This form was not made for you" in response.text
    assert theirs.name not in response.text and other.username not in response.text
    assert LogEntry.objects.count() == before


@pytest.mark.parametrize("visibility", [Visibility.GM, Visibility.EVERYONE])
def test_a_key_of_the_gms_entry_replayed_on_a_players_form_says_nothing(cast, my_ship, visibility):
    """Raw keys (as a key derived from an export would be) are refused alike, whether an
    entry of the GM's holds them or none does: the answer tells nothing of the GM's rulings."""
    key = uuid.uuid4()
    quiet_roll(cast.campaign, cast.gm, visibility=visibility, request_key=key)  # the GM's entry holds it
    client = cast.client("player")
    answers = []
    for replayed in (key, uuid.uuid4()):
        response = client.post(jump_url(cast), jump_post(my_ship, request_key=str(replayed)), **htmx())
        answers.append((response.status_code, re.sub(r'value="[^"]*"', "", response.text)))
    assert answers[0][0] == 422 and "This form was not made for you" in answers[0][1]
    assert answers[0] == answers[1]
    assert not LogEntry.objects.filter(actor=cast.player).exists()


def test_the_gms_form_refuses_a_key_another_actor_used(cast):
    key = uuid.uuid4()
    quiet_roll(cast.campaign, cast.gm, visibility=Visibility.EVERYONE, request_key=key)
    other_gm = MembershipFactory(campaign=cast.campaign, role="gm").user
    with pytest.raises(services.PlayError, match="not made for you"):
        quiet_roll(cast.campaign, other_gm, visibility=Visibility.EVERYONE, request_key=key)
