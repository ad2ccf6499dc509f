"""What players see of shared booby traps, battlefields and hexes, compartments and ships'
stores: read-only panels of their page, refreshed like the rest of it; nothing unshared."""

import pytest
from django.urls import reverse

from referee.shipboard.models import Surface
from tests.factories import ShipFactory
from tests.referee.boobytraps.factories import BoobyTrapFactory
from tests.referee.logistics.factories import ShipStoresFactory
from tests.referee.shipboard.factories import CompartmentFactory, SurfaceFactory
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory

pytestmark = pytest.mark.django_db


def player_page(cast) -> str:
    response = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code]))
    assert response.status_code == 200
    return response.text


def test_shared_records_have_panels_and_unshared_ones_do_not_show(cast):
    c = cast.campaign
    shared_ship = ShipFactory(campaign=c, name="Valley Forge", shared=True)
    hidden_ship = ShipFactory(campaign=c, name="Ghost", shared=False)
    CompartmentFactory(campaign=c, ship=shared_ship, name="Bridge deck")
    CompartmentFactory(campaign=c, ship=hidden_ship, name="Secret hold", notes="GM eyes only")
    ShipStoresFactory(ship=shared_ship, food_t=12.5)
    ShipStoresFactory(ship=hidden_ship, food_t=99)
    BoobyTrapFactory(campaign=c, name="Red Widow", shared=True, speed=12, notes="It carries nukes")
    BoobyTrapFactory(campaign=c, name="Silent Fang", shared=False)
    field = BattlefieldFactory(campaign=c, name="Ash Plains", shared=True, weather=["light_rain"])
    HexFactory(battlefield=field, name="0101", terrain="heavy_woods", shared=True)
    HexFactory(battlefield=field, name="0102", terrain="clear", shared=False)
    secret_field = BattlefieldFactory(campaign=c, name="Hidden Vale", shared=False)
    HexFactory(battlefield=secret_field, name="0909", shared=True)

    page = player_page(cast)
    for shown in ("Bridge deck", "12.50 t", "Red Widow", "speed 12", "Ash Plains", "0101", "Heavy woods"):
        assert shown in page, shown
    for hidden in (
        "Secret hold",
        "GM eyes only",
        "99 t",
        "Silent Fang",
        "It carries nukes",
        "0102",
        "Hidden Vale",
        "0909",
    ):
        assert hidden not in page, hidden
    # Read-only: nothing on them edits or rolls.
    assert "Add compartment" not in page and "Roll…" not in page


def test_a_shared_compartments_damage_reaches_its_players_poll(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Valley Forge", shared=True)
    door = SurfaceFactory(compartment=CompartmentFactory(campaign=cast.campaign, ship=ship, name="Airlock"))
    client = cast.client("player")
    status = reverse("play:status", args=[cast.campaign.code])
    first = client.get(status, {"v": "0"})
    version = first["X-Campaign-Version"]
    assert f"{door.capacity_left}/{door.capacity}" in first.text
    assert client.get(status, {"v": version}).status_code == 204
    Surface.objects.filter(pk=door.pk).update(capacity_left=door.capacity - 3)
    changed = client.get(status, {"v": version})
    assert changed.status_code == 200
    assert f"{door.capacity - 3}/{door.capacity}" in changed.text


def test_a_shared_ship_in_a_system_kept_from_players_does_not_name_the_system(cast):
    from tests.factories import StarSystemFactory

    hidden = StarSystemFactory(campaign=cast.campaign, name="Hidden Reach", shared=False)
    ShipFactory(campaign=cast.campaign, name="Waterloo", star_system=hidden, shared=True)
    page = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert "Waterloo" in page and "Hidden Reach" not in page
    assert "a system not shared with you" in page
    poll = cast.client("player").get(reverse("play:status", args=[cast.campaign.code]))
    assert "Hidden Reach" not in poll.text
