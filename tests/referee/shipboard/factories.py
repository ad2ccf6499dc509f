"""Factories for the shipboard app's records."""

import factory

from referee.fleet.models import Character
from referee.shipboard.models import Compartment, Surface
from rules.tables import shipboard as tables
from tests.factories import CampaignFactory, CharacterFactory, ShipFactory


class CompartmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Compartment

    campaign = factory.SubFactory(CampaignFactory)
    ship = factory.SubFactory(ShipFactory, campaign=factory.SelfAttribute("..campaign"))
    name = factory.Sequence(lambda n: f"Corridor {n}")


class SurfaceFactory(factory.django.DjangoModelFactory):
    """A surface with the table's values for its type (a door unless told)."""

    class Meta:
        model = Surface

    compartment = factory.SubFactory(CompartmentFactory)
    campaign = factory.SelfAttribute("compartment.campaign")
    name = factory.Sequence(lambda n: f"Surface {n}")
    surface_type = "door"
    capacity = factory.LazyAttribute(lambda o: tables.DAMAGE_CAPACITIES[o.surface_type].capacity)
    capacity_left = factory.LazyAttribute(lambda o: o.capacity)
    threshold = factory.LazyAttribute(lambda o: tables.DAMAGE_CAPACITIES[o.surface_type].threshold)
    surface_kind = factory.LazyAttribute(lambda o: tables.DAMAGE_CAPACITIES[o.surface_type].kind)
    pressure_boundary = factory.LazyAttribute(
        lambda o: o.surface_type == "external_bulkhead"  # the only type that always is
    )


def subject_for(role, campaign):
    """A record of this app that can fill a binding's role (for the every-procedure test)."""
    kind = role.kinds[0] if role.kinds else None
    if role.model is Compartment:
        return CompartmentFactory(campaign=campaign)
    if role.model is Surface:
        return SurfaceFactory(compartment=CompartmentFactory(campaign=campaign), surface_type=kind or "door")
    if role.model is Character:
        return CharacterFactory(campaign=campaign)
    raise AssertionError(role)
