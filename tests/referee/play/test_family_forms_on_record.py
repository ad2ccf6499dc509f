"""The booby-trap charts and the shipboard surfaces and compartments are hand edits like
any record: each save, copy, one-click surface and delete is a log entry with the fields
before -> after, GM-only while players cannot see the record, undoable."""

import pytest
from django.urls import reverse

from referee.boobytraps.models import BoobyTrap, WeaponChart, printed_torpedo_chart
from referee.play import services
from referee.play.models import LogEntry
from referee.shipboard.models import Surface
from tests.referee.boobytraps.factories import WeaponChartFactory
from tests.referee.boobytraps.test_charts import rows_data
from tests.referee.conftest import htmx
from tests.referee.play.test_hand_edits import form_data
from tests.referee.shipboard.factories import CompartmentFactory, SurfaceFactory

pytestmark = pytest.mark.django_db


def last(cast) -> LogEntry:
    return LogEntry.objects.filter(campaign=cast.campaign).order_by("-seq").first()


def player_log(cast) -> str:
    return cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text


def test_a_chart_made_edited_copied_and_deleted_is_on_the_record_and_undone(cast):
    gm = cast.client("gm")
    code = cast.campaign.code
    response = gm.post(
        reverse("boobytraps:chart-create", args=[code]), rows_data(printed_torpedo_chart()), **htmx()
    )
    assert response.status_code == 200
    chart = WeaponChart.objects.get(campaign=cast.campaign)
    made = last(cast)
    assert made.procedure == services.RECORD_CREATE and "House chart" in made.title
    edit = rows_data(printed_torpedo_chart(), name="Tharkad chart")
    gm.post(reverse("boobytraps:chart-edit", args=[code, chart.code]), edit, **htmx())
    edited = last(cast)
    assert edited.procedure == services.RECORD_EDIT
    assert [(c["label"], c["before"], c["after"]) for c in edited.effects] == [
        ("name", "House chart", "Tharkad chart")
    ]
    gm.post(reverse("boobytraps:chart-copy", args=[code, chart.code]), **htmx())
    copied = last(cast)
    assert copied.procedure == services.RECORD_CREATE and "Copy of Tharkad chart" in copied.title
    trap = BoobyTrap.objects.create(campaign=cast.campaign, name="Cerberus", torp_chart=chart)
    gm.post(reverse("boobytraps:chart-delete", args=[code, chart.code]), **htmx())
    deleted = last(cast)
    assert deleted.procedure == services.RECORD_DELETE
    trap.refresh_from_db()
    assert trap.torp_chart is None
    services.log_entry_reverse(entry=deleted, actor=cast.gm)
    trap.refresh_from_db()
    assert trap.torp_chart.code == chart.code  # the chart is back, and the trap uses it again
    services.log_entry_reverse(entry=edited, actor=cast.gm)
    assert WeaponChart.objects.get(code=chart.code).name == "House chart"
    assert "House chart" not in player_log(cast)  # the GM's charts are the GM's


def test_a_chart_the_database_refuses_comes_back_as_the_forms_error_with_nothing_logged(cast):
    WeaponChartFactory(campaign=cast.campaign, name="House chart")
    response = cast.client("gm").post(
        reverse("boobytraps:chart-create", args=[cast.campaign.code]),
        rows_data(printed_torpedo_chart()),
        **htmx(),
    )
    assert response.status_code == 422
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


def test_surfaces_added_edited_and_deleted_are_on_the_record_and_undone(cast):
    corridor = CompartmentFactory(campaign=cast.campaign, name="Corridor")
    gm = cast.client("gm")
    code = cast.campaign.code
    gm.post(reverse("shipboard:surface-add", args=[code, corridor.code]), {"surface_type": "door"}, **htmx())
    door = corridor.surfaces.get()
    added = last(cast)
    assert added.procedure == services.RECORD_CREATE and door.name in added.title
    assert added.visibility == "gm"  # the ship is not shared
    locker = SurfaceFactory(compartment=corridor, name="Locker")
    page = gm.get(reverse("shipboard:surface-edit", args=[code, locker.code]))
    data = form_data(page.context["form"]) | {"capacity_left": "12"}
    response = gm.post(reverse("shipboard:surface-edit", args=[code, locker.code]), data, **htmx())
    assert response.status_code == 200, response.text[:500]
    edited = last(cast)
    assert ("capacity left", locker.capacity, 12) in [
        (c["label"], c["before"], c["after"]) for c in edited.effects
    ]
    gm.post(reverse("shipboard:surface-delete", args=[code, door.code]), **htmx())
    deleted = last(cast)
    assert deleted.procedure == services.RECORD_DELETE and not Surface.objects.filter(code=door.code).exists()
    services.log_entry_reverse(entry=deleted, actor=cast.gm)
    assert Surface.objects.get(code=door.code).compartment == corridor
    services.log_entry_reverse(entry=edited, actor=cast.gm)
    assert Surface.objects.get(code=locker.code).capacity_left == locker.capacity
    services.log_entry_reverse(entry=added, actor=cast.gm)
    assert not Surface.objects.filter(code=door.code).exists()
    assert "Corridor" not in player_log(cast) and "Locker" not in player_log(cast)


def test_a_compartment_edit_is_on_the_record(cast):
    corridor = CompartmentFactory(campaign=cast.campaign, name="Corridor")
    page = cast.client("gm").get(
        reverse("shipboard:compartment-edit", args=[cast.campaign.code, corridor.code])
    )
    assert page.status_code == 200
    form = page.context["form"]
    response = cast.client("gm").post(
        reverse("shipboard:compartment-edit", args=[cast.campaign.code, corridor.code]),
        form_data(form) | {"name": "Main corridor"},
        **htmx(),
    )
    assert response.status_code == 200
    entry = last(cast)
    assert entry.procedure == services.RECORD_EDIT
    assert [(c["before"], c["after"]) for c in entry.effects if c["field"] == "name"] == [
        ("Corridor", "Main corridor")
    ]
