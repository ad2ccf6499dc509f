"""What the database holds true whatever writes to it, and the readable refusals before."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.shipboard.models import Compartment, Surface
from tests.factories import CampaignFactory, ShipFactory

from .factories import CompartmentFactory, SurfaceFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "values",
    [
        {"destroyed": True},  # capacity is left
        {"capacity_left": 0},  # no capacity left but not destroyed
        {"capacity_left": 51},  # more than the door holds
        {"capacity": 0, "capacity_left": 0, "destroyed": True},
        {"armor_rating": -0.5},
        {"surface_type": "warp_core"},
        {"surface_kind": "wall"},
    ],
)
def test_the_database_refuses_an_impossible_surface(values):
    door = SurfaceFactory(surface_type="door")
    with pytest.raises(IntegrityError), transaction.atomic():
        Surface.objects.filter(pk=door.pk).update(**values)


def test_an_external_bulkhead_is_always_a_pressure_boundary():
    hull = SurfaceFactory(surface_type="external_bulkhead")
    with pytest.raises(IntegrityError), transaction.atomic():
        Surface.objects.filter(pk=hull.pk).update(pressure_boundary=False)


def test_the_database_refuses_negative_pressure_and_duplicate_names():
    corridor = CompartmentFactory(name="Corridor")
    with pytest.raises(IntegrityError), transaction.atomic():
        Compartment.objects.filter(pk=corridor.pk).update(pressure_pa=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        CompartmentFactory(campaign=corridor.campaign, ship=corridor.ship, name="Corridor")


def test_saving_keeps_destroyed_with_the_capacity_left():
    door = SurfaceFactory(surface_type="door")
    door.capacity_left = 0
    door.save(update_fields=["capacity_left"])
    door.refresh_from_db()
    assert door.destroyed is True
    door.capacity_left = 20
    door.save()
    door.refresh_from_db()
    assert door.destroyed is False


def test_clean_explains_what_is_wrong():
    door = SurfaceFactory(surface_type="door", name="Door")
    twin = Surface(
        campaign=CampaignFactory(),
        compartment=door.compartment,
        name="door",
        surface_type="external_bulkhead",
        capacity=200,
        capacity_left=250,
        threshold=20,
        armor_rating=-1,
        pressure_boundary=False,
    )
    with pytest.raises(ValidationError) as error:
        twin.clean()
    assert set(error.value.message_dict) == {
        "compartment",
        "name",
        "capacity_left",
        "armor_rating",
        "pressure_boundary",
    }


def test_a_compartment_aboard_another_campaigns_ship_is_refused():
    compartment = Compartment(campaign=CampaignFactory(), ship=ShipFactory(), name="Hold")
    with pytest.raises(ValidationError, match="another campaign"):
        compartment.clean()
