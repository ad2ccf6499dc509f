"""Factories for the terrain app's records."""

import factory

from referee.terrain.models import Battlefield, Hex, TerrainRow
from tests.factories import CampaignFactory


class BattlefieldFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Battlefield

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Battlefield {n}")
    world = "Hachiman"


class HexFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Hex

    battlefield = factory.SubFactory(BattlefieldFactory)
    campaign = factory.SelfAttribute("battlefield.campaign")
    name = factory.Sequence(lambda n: f"{n:04d}")
    terrain = "clear"


class TerrainRowFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TerrainRow

    campaign = factory.SubFactory(CampaignFactory)
    key = "heavy_jungle"
    name = "Heavy jungle"
    kind = "base"
