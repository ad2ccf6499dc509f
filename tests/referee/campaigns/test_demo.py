from datetime import timedelta

import pytest
from django.core.management import call_command

from referee.campaigns.models import Campaign
from referee.demo.campaign import DEMO_CODE, demo_campaign_load
from referee.fleet.models import Character, Ship, StarSystem, Unit
from referee.play.services import procedure_resolve

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


def test_every_demo_star_system_has_its_sail_charging_time_and_a_sail_charge_reads_it():
    campaign, _created = demo_campaign_load()
    systems = StarSystem.objects.filter(campaign=campaign)
    hours = dict(systems.values_list("name", "sail_charge_hours"))
    assert hours == {"Galax": 184, "Unnamed system EC-4471": 191}
    for system in systems:
        system.full_clean()  # within the hours the GM's form takes (151 to 2,000)
    garibaldi = Ship.objects.get(campaign=campaign, name="Garibaldi")
    assert garibaldi.star_system.name == "Galax" and not garibaldi.drive_charged
    start = campaign.clock
    entry = procedure_resolve(
        campaign=campaign,
        procedure_id="drive.charge",
        inputs={"system": "kf_drive", "method": "sail", "target_hours": None},
        dice=None,
        actor=campaign.memberships.get(role="gm").user,
        subjects={"ship": garibaldi.code},
    )
    assert "184 h of charging, the star system's" in entry.summary
    assert f"done {start + timedelta(minutes=90, hours=184):%Y-%m-%d %H:%M}" in entry.summary
