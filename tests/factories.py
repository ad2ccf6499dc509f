"""factory-boy factories for the domain models."""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from referee.campaigns.models import Campaign, Invite, Membership
from referee.fleet.models import Character, Ship, StarSystem, Unit


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    year = 3067


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    campaign = factory.SubFactory(CampaignFactory)
    role = "player"


class InviteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invite

    campaign = factory.SubFactory(CampaignFactory)
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))


class StarSystemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StarSystem

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"System {n}")
    spectral_class = "G2V"


class ShipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ship

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Ship {n}")
    class_name = "Invader"
    kind = "jumpship"
    kf_integrity = 4
    kf_integrity_max = 4
    dropship_capacity = 3
    armor_nose = 9
    armor_nose_max = 9


class UnitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Unit

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Unit {n}")
    kind = "battlemech"
    tonnage = 80
    armor_factor = 200
    jump_mp = 4


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Character {n}")
    role = "crew"
