"""Every procedure of the engine is reachable from the browser and resolves against the campaign."""

import html

import pytest
from django.urls import reverse

import rules
from referee.fleet.models import Character, Marker, Ship, Unit
from referee.play import families, widgets
from referee.play.forms import ProcedureForm
from referee.play.models import LogEntry
from tests.factories import CharacterFactory, ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def form_value(value):
    if isinstance(value, bool):
        return "on" if value else None
    if value is None:
        return ""
    return str(value)


def build(model, campaign, **values):
    """A minimal valid record of any model a campaign keeps: required fields get their
    first choice or a plain value; required relations are built the same way."""
    from django.db import models as m

    for field in model._meta.concrete_fields:
        if field.name in values or field.primary_key or field.has_default() or field.null:
            continue
        if field.name == "campaign":
            values["campaign"] = campaign
        elif isinstance(field, m.ForeignKey):
            values[field.name] = build(field.related_model, campaign)
        elif field.choices:
            values[field.name] = field.choices[0][0]
        elif isinstance(field, (m.CharField, m.TextField)):
            values[field.name] = "x" if not field.blank else ""
        elif isinstance(field, (m.IntegerField, m.FloatField)):
            values[field.name] = 1
        elif isinstance(field, m.BooleanField):
            values[field.name] = False
        elif isinstance(field, m.JSONField):
            values[field.name] = {}
    return model.objects.create(**values)


def subject_for(role, campaign):
    """A campaign object that can fill this role."""
    kind = role.kinds[0] if role.kinds else None
    extra = {role.kind_field: kind} if kind is not None else {}
    if role.model is Ship:
        return ShipFactory(campaign=campaign, fighters=6, heat_sinks=10, **({"kind": "jumpship"} | extra))
    if role.model is Unit:
        return UnitFactory(campaign=campaign, **({"kind": "battlemech"} | extra))
    if role.model is Character:
        return CharacterFactory(campaign=campaign, **extra)
    if role.model is Marker:
        return Marker.objects.create(
            campaign=campaign, name="m", ship=ShipFactory(campaign=campaign), **extra
        )
    return build(role.model, campaign, **extra)


def post_data(procedure, binding, campaign) -> dict:
    # The records are built bare (an uncharged drive...): the GM rules the example goes ahead.
    data = {"visibility": "everyone", "action": "roll", "dice": "", "gm_ruling": "on"}
    for role in binding.roles:
        if role.required:  # optional roles only pre-fill; the example inputs stand alone
            data[role.name] = str(subject_for(role, campaign).code)
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
    values.update(procedure.example)
    form = ProcedureForm(binding=binding, campaign=campaign)
    for name, value in values.items():
        if widgets.reads_rows(form.fields[name]):  # typed into rows and checkboxes, as a GM does
            data.update(widgets.posted(form.fields[name], name, value))
            continue
        encoded = form_value(value)
        if encoded is not None:
            data[name] = encoded
    return data


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_every_procedure_page_opens_and_its_example_resolves(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
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
    # Lists and tables typed row by row reach the engine as the example's values.
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required} | procedure.example
    for spec in procedure.contract.inputs:
        if spec.type.kind not in ("int", "float", "bool", "enum", "str", "rational") and spec.name in values:
            assert entry.inputs[spec.name] == spec.validate(values[spec.name]), spec.name


def test_the_procedure_index_lists_all_63(cast):
    response = cast.client("gm").get(reverse("play:index", args=[cast.campaign.code]))
    assert response.status_code == 200
    assert all(pid in response.text for pid in rules.PROCEDURE_IDS)
    assert cast.client("player").get(reverse("play:index", args=[cast.campaign.code])).status_code == 403
    assert cast.client("outsider").get(reverse("play:index", args=[cast.campaign.code])).status_code == 404
