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


def subject_for(role, campaign):
    """A terrain record that can fill a binding's role (hex, geyser, clearable hex, battlefield).

    For tests that walk every binding, such as tests/referee/play/test_every_procedure.py."""
    if role.model is Battlefield:
        return BattlefieldFactory(campaign=campaign)
    if role.model is Hex:
        kind = role.kinds[0] if role.kinds else None
        values = {role.kind_field: kind} if kind is not None else {}
        return HexFactory(battlefield=BattlefieldFactory(campaign=campaign), campaign=campaign, **values)
    raise LookupError(f"not a terrain role: {role}")
