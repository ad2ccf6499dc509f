"""Hand edits are on the record: adding, editing and deleting any kind of record is a log
entry with each field's before and after, and undo puts things back (a deleted record
returns with its code)."""

import pytest
from django import forms
from django.urls import reverse

from referee.fleet.models import Ship, Unit
from referee.play import families, services
from referee.play.models import LogEntry, Visibility
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.play.test_every_procedure import build

pytestmark = pytest.mark.django_db

KINDS = sorted(families.kinds())


def record(kind, campaign):
    """A plain record of the kind (a refit is for a vehicle: only vehicles take one here)."""
    if kind.slug == "refits":
        return build(kind.model, campaign, unit=build(Unit, campaign, kind="vehicle"))
    return build(kind.model, campaign)


def changed_field(form) -> tuple[str, str]:
    """The field a hand edit changes: the name, or for a record named after its ship or
    unit (stores, refits) its first number."""
    if "name" in form.fields:
        return "name", "Renamed by hand"
    name = next(n for n, f in form.fields.items() if isinstance(f, (forms.IntegerField, forms.FloatField)))
    return name, "7"


def form_data(form) -> dict:
    """What the browser would post for the form as it is shown."""
    data = {}
    for bound in form:
        value = bound.value()
        if isinstance(bound.field, forms.BooleanField):
            if value:
                data[bound.name] = "on"
            continue
        value = bound.field.prepare_value(value)
        if value is not None:
            data[bound.name] = value
    return data


@pytest.mark.parametrize("slug", KINDS)
def test_a_hand_edit_is_logged_and_undone(cast, slug):
    kind = families.kind(slug)
    obj = record(kind, cast.campaign)
    shown = kind.form(instance=obj, campaign=cast.campaign)
    field, value = changed_field(shown)
    before = getattr(obj, field)
    form = kind.form(form_data(shown) | {field: value}, instance=obj, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    entry = services.record_save(campaign=cast.campaign, form=form, actor=cast.gm)
    change = next(c for c in entry.effects if c["field"] == field)
    assert change["before"] == before and str(change["after"]) in (value, f"{value}.0")
    assert f"-> {change['after']}" in entry.summary
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    obj.refresh_from_db()
    assert getattr(obj, field) == before


@pytest.mark.parametrize("slug", KINDS)
def test_adding_and_deleting_are_logged_and_undone(cast, slug):
    kind = families.kind(slug)
    template = record(kind, cast.campaign)
    shown = kind.form(instance=template, campaign=cast.campaign)
    field, value = changed_field(shown)
    data = form_data(shown) | {field: value}
    template.delete()  # its place (one per ship, one per key) is free for the new one
    form = kind.form(data, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    added = services.record_save(campaign=cast.campaign, form=form, actor=cast.gm)
    obj = kind.model.objects.get(code=added.inputs["@record"]["code"])
    assert added.procedure == "record.create" and any(
        c["field"] == field and c["before"] is None for c in added.effects
    )

    deleted = services.record_delete(campaign=cast.campaign, obj=obj, actor=cast.gm)
    assert not kind.model.objects.filter(code=obj.code).exists()
    assert any(c["field"] == field and c["after"] is None for c in deleted.effects)
    services.log_entry_reverse(entry=deleted, actor=cast.gm)
    back = kind.model.objects.get(code=obj.code)  # the same code: links to it still work
    assert str(getattr(back, field)) in (value, f"{value}.0")
    field, value = changed_field(kind.form(instance=back, campaign=cast.campaign))
    data = form_data(kind.form(instance=back, campaign=cast.campaign)) | {
        field: "8" if value == "7" else "Renamed"
    }

    back_to_the_form = services.record_save(
        campaign=cast.campaign,
        form=kind.form(data, instance=back, campaign=cast.campaign),
        actor=cast.gm,
    )
    with pytest.raises(services.PlayError, match=r"changed .* since"):
        services.log_entry_reverse(entry=added, actor=cast.gm)  # a later edit stands in the way
    services.log_entry_reverse(entry=back_to_the_form, actor=cast.gm)
    services.log_entry_reverse(entry=added, actor=cast.gm)
    assert not kind.model.objects.filter(code=obj.code).exists()


def test_editing_armour_by_hand_through_the_dashboard_is_an_entry_players_see_for_a_shared_ship(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True)
    secret = ShipFactory(campaign=cast.campaign, name="Valley Forge")
    kind = families.kind("ships")
    for target in (ship, secret):
        data = form_data(kind.form(instance=target, campaign=cast.campaign)) | {"armor_nose": "7"}
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", target.code])
        assert cast.client("gm").post(url, data, **htmx()).status_code == 200
    public, hidden = LogEntry.objects.filter(procedure="record.edit").order_by("seq")
    assert public.visibility == Visibility.EVERYONE and hidden.visibility == Visibility.GM
    assert [(c["field"], c["before"], c["after"]) for c in public.effects] == [("armor_nose", 9, 7)]
    player_log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text
    assert "Waterloo" in player_log and "Valley Forge" not in player_log


def test_deleting_through_the_dashboard_is_undoable(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Garibaldi")
    url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
    assert cast.client("gm").post(url, **htmx()).status_code == 200
    entry = LogEntry.objects.get(procedure="record.delete")
    undo = reverse("play:undo", args=[cast.campaign.code, entry.seq])
    assert cast.client("gm").post(undo, **htmx()).status_code == 200
    assert Ship.objects.get(code=ship.code).name == "Garibaldi"
