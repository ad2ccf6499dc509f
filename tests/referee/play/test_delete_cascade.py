"""Undoing a delete brings back what went with the record: the hexes of a battlefield, the
compartments (and their surfaces), markers and stores of a ship, and the links the delete
cleared (a DropShip docked on it, the crew aboard), each with its code."""

import pytest

from referee.fleet.models import Character, Marker, Ship
from referee.logistics.models import ShipStores
from referee.play import services
from referee.shipboard.models import Compartment, Surface
from referee.terrain.models import Battlefield, Hex
from tests.factories import CharacterFactory, ShipFactory
from tests.referee.play.test_every_procedure import build

pytestmark = pytest.mark.django_db


def codes(model, **where):
    return sorted(str(c) for c in model.objects.filter(**where).values_list("code", flat=True))


def test_undoing_a_battlefields_delete_brings_its_hexes_back_with_their_codes(cast):
    field = build(Battlefield, cast.campaign, name="Tharkad plain")
    for n in range(3):
        build(Hex, cast.campaign, battlefield=field, name=f"hex 04{n}")
    hexes = codes(Hex, battlefield=field)
    assert len(hexes) == 3
    entry = services.record_delete(campaign=cast.campaign, obj=field, actor=cast.gm)
    assert "and with it 3 hexes" in entry.title
    assert not Hex.objects.filter(code__in=hexes).exists()
    undo = services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert "with 3 hexes" in undo.summary
    back = Battlefield.objects.get(code=field.code)
    assert codes(Hex, battlefield=back) == hexes


def test_undoing_a_ships_delete_brings_back_its_compartments_markers_stores_and_links(cast):
    carrier = ShipFactory(campaign=cast.campaign, name="Invisible Truth", kind="jumpship")
    dropship = ShipFactory(campaign=cast.campaign, name="Leopard", kind="dropship", docked_on=carrier)
    crew = CharacterFactory(campaign=cast.campaign, name="Kell", ship=carrier)
    room = build(Compartment, cast.campaign, ship=carrier, name="Bridge")
    walls = [build(Surface, cast.campaign, compartment=room, name=f"wall {n}") for n in range(2)]
    marker = Marker.objects.create(campaign=cast.campaign, name="Screen", ship=carrier, kind="screen")
    stores = build(ShipStores, cast.campaign, ship=carrier)
    kept = {
        Compartment: [str(room.code)],
        Surface: sorted(str(w.code) for w in walls),
        Marker: [str(marker.code)],
        ShipStores: [str(stores.code)],
    }
    entry = services.record_delete(campaign=cast.campaign, obj=carrier, actor=cast.gm)
    for model, wanted in kept.items():
        assert not model.objects.filter(code__in=wanted).exists()
    dropship.refresh_from_db()
    crew.refresh_from_db()
    assert dropship.docked_on is None and crew.ship is None
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    back = Ship.objects.get(code=carrier.code)
    for model, wanted in kept.items():
        assert codes(model, code__in=wanted) == wanted, model
    assert Compartment.objects.get(code=room.code).ship == back
    assert Ship.objects.get(code=dropship.code).docked_on == back
    assert Character.objects.get(code=crew.code).ship == back


def test_a_link_pointed_elsewhere_since_the_delete_stays_where_the_gm_put_it(cast):
    carrier = ShipFactory(campaign=cast.campaign, kind="jumpship")
    other = ShipFactory(campaign=cast.campaign, kind="jumpship")
    dropship = ShipFactory(campaign=cast.campaign, kind="dropship", docked_on=carrier)
    entry = services.record_delete(campaign=cast.campaign, obj=carrier, actor=cast.gm)
    Ship.objects.filter(pk=dropship.pk).update(docked_on=other)
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert Ship.objects.get(pk=dropship.pk).docked_on == other


def test_a_delete_that_takes_an_unshared_record_with_it_is_gm_only(cast):
    carrier = ShipFactory(campaign=cast.campaign, kind="jumpship", shared=True)
    Marker.objects.create(
        campaign=cast.campaign, name="Hidden mine", ship=carrier, kind="screen", shared=False
    )
    entry = services.record_delete(campaign=cast.campaign, obj=carrier, actor=cast.gm)
    assert entry.visibility == "gm"
    undo = services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert undo.visibility == "gm"
    log = cast.client("player").get(f"/c/{cast.campaign.code}/log/").text
    assert "Hidden mine" not in log


def test_a_plain_shared_delete_stays_public(cast):
    carrier = ShipFactory(campaign=cast.campaign, kind="jumpship", shared=True)
    entry = services.record_delete(campaign=cast.campaign, obj=carrier, actor=cast.gm)
    assert entry.visibility == "everyone" and "and with it" not in entry.title
