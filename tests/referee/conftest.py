"""Fixtures for the web tests: a campaign seen by each kind of visitor."""

import html
import re
from dataclasses import dataclass

import pytest
from django.http import QueryDict
from django.test import Client

import rules
from referee.play.models import Visibility
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory, UserFactory
from tests.referee.history import ruled_jump


@dataclass
class Cast:
    campaign: object
    gm: object
    player: object
    outsider: object

    def client(self, who: str) -> Client:
        client = Client()
        if who != "anonymous":
            client.force_login(getattr(self, who))
        return client


@pytest.fixture
def cast(db) -> Cast:
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    player = MembershipFactory(campaign=campaign, role="player").user
    return Cast(campaign=campaign, gm=gm, player=player, outsider=UserFactory())


def htmx(**extra) -> dict:
    return {"HTTP_HX_REQUEST": "true", **extra}


def typed(procedure_id: str, name: str, value) -> dict:
    """The form data that types an engine value into a procedure's list, table or set of
    checkboxes, row by row as a GM does."""
    from referee.play import forms, widgets

    spec = next(i for i in rules.get(procedure_id).contract.inputs if i.name == name)
    return widgets.posted(forms.input_field(spec, procedure_id), name, value)


def posted_by(page: str, name: str) -> QueryDict:
    """What a browser would post of the fields named ``name`` and ``name-...`` on a page:
    text inputs' values, ticked boxes, chosen options."""
    data = QueryDict(mutable=True)
    prefix = re.escape(name)
    for tag in re.findall(rf'<input\b[^>]*\bname="{prefix}(?:-[^"]*)?"[^>]*>', page):
        field = html.unescape(re.search(r'name="([^"]*)"', tag).group(1))
        kind = re.search(r'type="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if kind and kind.group(1) == "checkbox":
            if re.search(r"\bchecked\b", tag):
                data.appendlist(field, html.unescape(value.group(1)) if value else "on")
        elif value:
            data.appendlist(field, html.unescape(value.group(1)))
    for field, options in re.findall(
        rf'<select\b[^>]*\bname="({prefix}-[^"]*)"[^>]*>(.*?)</select>', page, re.S
    ):
        chosen = re.search(r'<option value="([^"]*)" selected>', options)
        data.appendlist(field, html.unescape(chosen.group(1)) if chosen else "")
    return data


def shown(page: str, procedure_id: str, name: str):
    """The engine value a procedure's page shows in a list, table or set of checkboxes."""
    from referee.play import widgets

    spec = next(i for i in rules.get(procedure_id).contract.inputs if i.name == name)
    return widgets.kept_value(procedure_id, spec, posted_by(page, name))


def form_data(procedure_id: str, values: dict) -> dict:
    """Engine values as a procedure's form posts them: ticked boxes, plain values, and
    lists and tables row by row."""
    plain = ("int", "float", "bool", "enum", "str", "rational")
    kinds = {i.name: i.type.kind for i in rules.get(procedure_id).contract.inputs}
    data = {}
    for name, value in values.items():
        if kinds.get(name, "str") not in plain:
            data.update(typed(procedure_id, name, value))
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    return data


@pytest.fixture
def six_entries(cast):
    """Six jumps in the log, the fourth GM-only."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9, shared=True)
    for n in range(6):
        visibility = Visibility.GM if n == 3 else Visibility.EVERYONE
        ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=visibility)
    return cast
