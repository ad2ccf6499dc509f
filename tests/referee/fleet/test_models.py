"""The rules' bounds hold in the database itself, not only in forms."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from referee.fleet.models import Ship
from tests.factories import CampaignFactory, CharacterFactory, ShipFactory, UnitFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "changes",
    [
        {"kf_integrity": 5, "kf_integrity_max": 4},
        {"helium_tank_boxes": 3, "helium_tank_boxes_max": 2},
        {"armor_nose": 10, "armor_nose_max": 9},
        {"overburn": 16},
    ],
)
def test_out_of_bounds_ship_values_are_refused_by_the_database(changes):
    ship = ShipFactory()
    for field, value in changes.items():
        setattr(ship, field, value)
    with pytest.raises(ValidationError):
        ship.full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        ship.save()


def test_negative_armour_is_refused_even_by_raw_sql():
    ship = ShipFactory()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE fleet_ship SET armor_nose = -1 WHERE id = %s", [ship.pk])


def test_a_ship_cannot_dock_on_itself():
    ship = ShipFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Ship.objects.filter(pk=ship.pk).update(docked_on=ship)


def test_a_character_is_on_a_ship_or_a_unit_not_both():
    campaign = CampaignFactory()
    character = CharacterFactory(campaign=campaign)
    character.ship = ShipFactory(campaign=campaign)
    character.unit = UnitFactory(campaign=campaign)
    with pytest.raises(ValidationError):
        character.full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        character.save()


def test_engine_hits_stop_at_three():
    unit = UnitFactory(engine_hits=3)
    unit.engine_hits = 4
    with pytest.raises(IntegrityError), transaction.atomic():
        unit.save()


def test_players_see_only_shared_ships():
    campaign = CampaignFactory()
    shared = ShipFactory(campaign=campaign, shared=True)
    ShipFactory(campaign=campaign, shared=False)
    assert list(Ship.objects.in_campaign(campaign).visible_to("player")) == [shared]
    assert Ship.objects.in_campaign(campaign).visible_to("gm").count() == 2
    assert not Ship.objects.in_campaign(campaign).visible_to(None).exists()
