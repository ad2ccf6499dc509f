"""Factories for booby traps and the GM's weapon charts."""

import factory

from referee.boobytraps.models import BoobyTrap, WeaponChart, printed_torpedo_chart
from tests.factories import CampaignFactory


def drone_entries() -> dict:
    """A drone-hit chart that keeps IR107.32: heavy racks on 2, 3 and 12, light in the middle."""
    heavy = {"weapon": "Drone rack C (FA)", "spaces": 2, "weight": 2}
    medium = {"weapon": "Drone rack B (FA)", "spaces": 2, "weight": 2}
    light = {"weapon": "Drone rack A (FA)", "spaces": 1, "weight": 1}
    return {"2": heavy, "3": medium, **{str(r): dict(light) for r in range(4, 12)}, "12": dict(heavy)}


DRONE_CAPACITIES = {"2": 8, "3": 6, **{str(r): 4 for r in range(4, 12)}, "12": 8}


def phaser_entries() -> dict:
    return {
        str(r): {"weapon": f"Phaser-{1 if r in (6, 7, 8) else 2} (FA)", "spaces": 1} for r in range(2, 13)
    }


class WeaponChartFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WeaponChart

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Chart {n}")
    weapon_type = "torp"
    entries = factory.LazyFunction(printed_torpedo_chart)


class BoobyTrapFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BoobyTrap

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Trap {n}")
