"""Every procedure of the engine is reachable from the browser and resolves against the campaign."""

import html
import json

import pytest
from django.urls import reverse

import rules
from referee.fleet.models import Character, Marker, Ship, Unit
from referee.play import bindings
from referee.play.models import LogEntry
from tests.factories import CharacterFactory, ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def form_value(value):
    if isinstance(value, bool):
        return "on" if value else None
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def subject_for(role, campaign):
    """A campaign object that can fill this role."""
    kind = role.kinds[0] if role.kinds else None
    if role.model is Ship:
        return ShipFactory(campaign=campaign, kind=kind or "jumpship", fighters=6, heat_sinks=10)
    if role.model is Unit:
        return UnitFactory(campaign=campaign, kind=kind or "battlemech")
    if role.model is Character:
        return CharacterFactory(campaign=campaign, **({role.kind_field: kind} if kind else {}))
    if role.model is Marker:
        ship = ShipFactory(campaign=campaign)
        return Marker.objects.create(campaign=campaign, name="m", kind=kind, ship=ship)
    raise AssertionError(role)


def post_data(procedure, binding, campaign) -> dict:
    data = {"visibility": "everyone", "action": "roll", "dice": ""}
    for role in binding.roles:
        data[role.name] = str(subject_for(role, campaign).code)
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
    values.update(procedure.example)
    for name, value in values.items():
        encoded = form_value(value)
        if encoded is not None:
            data[name] = encoded
    return data


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_every_procedure_page_opens_and_its_example_resolves(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = bindings.get(procedure_id)
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    page = client.get(url)
    assert page.status_code == 200
    assert html.escape(procedure.title) in page.text
    response = client.post(url, post_data(procedure, binding, cast.campaign), **htmx())
    assert response.status_code == 200, response.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
    assert entry.reference == procedure.reference
    assert [k for k, _ in entry.result_items] == list(procedure.result_keys)


def test_the_procedure_index_lists_all_63(cast):
    response = cast.client("gm").get(reverse("play:index", args=[cast.campaign.code]))
    assert response.status_code == 200
    assert all(pid in response.text for pid in rules.PROCEDURE_IDS)
    assert cast.client("player").get(reverse("play:index", args=[cast.campaign.code])).status_code == 403
    assert cast.client("outsider").get(reverse("play:index", args=[cast.campaign.code])).status_code == 404
