"""Factories for the logistics records (the shared factories stay as they are)."""

import factory

from referee.logistics.models import ShipStores, UnitRefit
from tests.factories import ShipFactory, UnitFactory


class ShipStoresFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ShipStores

    ship = factory.SubFactory(ShipFactory)
    campaign = factory.SelfAttribute("ship.campaign")
    name = factory.SelfAttribute("ship.name")


class UnitRefitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UnitRefit

    unit = factory.SubFactory(UnitFactory)
    campaign = factory.SelfAttribute("unit.campaign")
    name = factory.SelfAttribute("unit.name")
