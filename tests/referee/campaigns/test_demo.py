import pytest
from django.core.management import call_command

from referee.campaigns.models import Campaign
from referee.demo.campaign import DEMO_CODE
from referee.fleet.models import Character, Ship, Unit

pytestmark = pytest.mark.django_db


def test_the_demo_has_the_seeds_ships_and_units_and_loading_twice_changes_nothing(capsys):
    call_command("load_demo")
    first = capsys.readouterr().out
    campaign = Campaign.objects.get(code=DEMO_CODE)
    waterloo = Ship.objects.get(campaign=campaign, name="Waterloo")
    assert (waterloo.class_name, waterloo.kf_integrity, waterloo.dropship_capacity) == ("Invader", 4, 3)
    assert Ship.objects.get(name="Valley Forge").dropship_capacity == 25
    assert Ship.objects.get(name="Garibaldi").dropship_capacity == 1
    assert Ship.objects.get(name="John Wayne").kind == "dropship"
    assert Ship.objects.get(kind="fighter_squadron").heat_sinks == 12
    assert Unit.objects.get(name__startswith="Victor").jump_mp == 4
    assert Unit.objects.filter(kind="battle_armor").exists()
    assert campaign.role_of(campaign.memberships.get(role="gm").user) == "gm"
    assert "gm / explorer-gm" in first and "player / explorer-player" in first

    counts = (Campaign.objects.count(), Ship.objects.count(), Unit.objects.count(), Character.objects.count())
    call_command("load_demo")
    assert "Already loaded" in capsys.readouterr().out
    again = (Campaign.objects.count(), Ship.objects.count(), Unit.objects.count(), Character.objects.count())
    assert again == counts
