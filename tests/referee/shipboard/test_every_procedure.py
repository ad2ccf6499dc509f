"""Every shipboard procedure opens from the browser with its roles filled and resolves its example."""

import html
import json

import pytest
from django.urls import reverse

import rules
from referee.play import families
from referee.play.models import LogEntry
from tests.referee.conftest import htmx

from .factories import subject_for

pytestmark = pytest.mark.django_db

SHIPBOARD = [pid for pid in rules.PROCEDURE_IDS if pid.startswith("shipboard.")]


def form_value(value):
    if isinstance(value, bool):
        return "on" if value else None
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def test_all_seven_are_bound_to_campaign_records():
    assert len(SHIPBOARD) == 7
    assert all(families.binding(pid).roles for pid in SHIPBOARD)


@pytest.mark.parametrize("procedure_id", SHIPBOARD)
def test_the_page_opens_prefilled_and_the_example_resolves(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
    subjects = {role.name: subject_for(role, cast.campaign) for role in binding.roles}
    if "pierced_bulkhead" in subjects:  # the bulkhead of the compartment checked
        subjects["pierced_bulkhead"].compartment = subjects["compartment"]
        subjects["pierced_bulkhead"].save()
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    query = "&".join(f"{name}={obj.code}" for name, obj in subjects.items())
    page = client.get(f"{url}?{query}")
    assert page.status_code == 200
    assert html.escape(procedure.title) in page.text
    data = {"visibility": "everyone", "action": "roll", "dice": ""}
    data |= {name: str(obj.code) for name, obj in subjects.items()}
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
    values.update(procedure.example)
    data |= {k: v for k, v in ((k, form_value(v)) for k, v in values.items()) if v is not None}
    response = client.post(url, data, **htmx())
    assert response.status_code == 200, response.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
    assert entry.reference == procedure.reference
    assert {f"@{name}" for name in subjects} <= set(entry.inputs)
