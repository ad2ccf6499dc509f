"""Forms read the state around a record: the DropShips docked on a JumpShip (their
``docked_on``) arrive with it, and the craft in the same star system are the ones near a
jump, an HPG transmission or an arrival to detect."""

import html

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

AU_M = 149_597_870_700


def initial(cast, procedure_id, **roles) -> dict:
    response = cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]), roles
    )
    assert response.status_code == 200
    return response.context["form"].initial


@pytest.fixture
def systems(cast):
    return StarSystemFactory(campaign=cast.campaign, name="Galax"), StarSystemFactory(
        campaign=cast.campaign, name="Tharkad"
    )


def test_a_non_standard_arrival_lists_the_jumpship_then_each_dropship_docked_on_it(cast):
    carrier = ShipFactory(campaign=cast.campaign, name="Invisible Truth", kind="jumpship", shared=True)
    ShipFactory(campaign=cast.campaign, name="Leopard", kind="dropship", docked_on=carrier, shared=True)
    ShipFactory(campaign=cast.campaign, name="Union", kind="dropship", docked_on=carrier, shared=True)
    ShipFactory(campaign=cast.campaign, name="Elsewhere", kind="dropship", shared=True)  # not docked
    values = initial(cast, "jump.nonstandard_arrival", ship=carrier.code)
    assert [s["id"] for s in values["ships"]] == ["Invisible Truth", "Leopard", "Union"]
    assert values["ships"][1]["facings"] == [
        "nose",
        "fore_left",
        "fore_right",
        "aft_left",
        "aft_right",
        "aft",
    ]
    assert values["visibility"] != "gm"


def test_an_arrival_naming_an_unshared_docked_dropship_is_gm_only_and_players_never_read_it(cast):
    carrier = ShipFactory(
        campaign=cast.campaign,
        name="Invisible Truth",
        kind="jumpship",
        shared=True,
        kf_integrity=4,
        kf_integrity_max=6,
    )
    ShipFactory(
        campaign=cast.campaign, name="Secret Leopard", kind="dropship", docked_on=carrier, shared=False
    )
    shown = initial(cast, "jump.nonstandard_arrival", ship=carrier.code)
    assert shown["visibility"] == "gm"
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.nonstandard_arrival",
        inputs={"navigation_tn": 12, "kf_integrity": 4, "ships": shown["ships"]},
        dice=None,
        actor=cast.gm,
        subjects={"ship": carrier.code},
    )
    assert entry.visibility == "gm"
    log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text
    assert "Secret Leopard" not in log


def test_the_objects_in_a_kf_field_are_the_other_jumpships_placed_in_the_same_system(cast, systems):
    galax, tharkad = systems
    ship = ShipFactory(campaign=cast.campaign, kind="jumpship", star_system=galax, x_au=1.0, y_au=0.0)
    ShipFactory(campaign=cast.campaign, kind="warship", star_system=galax, x_au=1.0, y_au=0.00001)
    ShipFactory(
        campaign=cast.campaign, kind="dropship", star_system=galax, x_au=1.0, y_au=0.0
    )  # no K-F drive
    ShipFactory(campaign=cast.campaign, kind="jumpship", star_system=tharkad, x_au=1.0, y_au=0.0)  # elsewhere
    ShipFactory(campaign=cast.campaign, kind="jumpship", star_system=galax)  # not placed
    values = initial(cast, "jump.field_interference", ship=ship.code)
    assert values["jumpship_distances_m"] == [round(0.00001 * AU_M, 1)]


def test_an_unplaced_ship_leaves_the_kf_field_as_the_gm_types_it(cast):
    ship = ShipFactory(campaign=cast.campaign, kind="jumpship")
    assert initial(cast, "jump.field_interference", ship=ship.code)["jumpship_distances_m"] == []


def test_an_hpg_transmission_lists_the_craft_placed_in_the_same_system(cast, systems):
    galax, tharkad = systems
    ship = ShipFactory(
        campaign=cast.campaign, name="Relay", star_system=galax, x_au=0.0, y_au=0.0, shared=True
    )
    ShipFactory(
        campaign=cast.campaign, name="Tender", star_system=galax, x_au=0.0, y_au=0.000001, shared=True
    )
    ShipFactory(campaign=cast.campaign, name="Far", star_system=tharkad, x_au=0.0, y_au=0.0, shared=True)
    values = initial(cast, "hpg.transmit", ship=ship.code)
    assert values["craft"] == [{"id": "Tender", "distance_m": round(0.000001 * AU_M, 1)}]
    assert values["visibility"] != "gm"
    ShipFactory(campaign=cast.campaign, name="Hidden", star_system=galax, x_au=0.0, y_au=0.1, shared=False)
    assert initial(cast, "hpg.transmit", ship=ship.code)["visibility"] == "gm"


def test_the_next_detector_is_a_ship_in_the_arrivals_star_system(cast, systems):
    galax, tharkad = systems
    target = ShipFactory(
        campaign=cast.campaign,
        name="Arrival",
        kind="jumpship",
        star_system=galax,
        kf_integrity_max=6,
        kf_integrity=6,
    )
    first = ShipFactory(campaign=cast.campaign, name="Alpha", star_system=galax)
    ShipFactory(campaign=cast.campaign, name="Beta", star_system=tharkad)  # another system: cannot see it
    third = ShipFactory(campaign=cast.campaign, name="Gamma", star_system=galax)
    ShipFactory(campaign=cast.campaign, name="Delta")  # placed in no system: not a candidate either
    url = reverse("play:procedure", args=[cast.campaign.code, "sensor.emergence_wave"])
    data = {
        "detector": first.code,
        "target": target.code,
        "distance_au": "1",
        "kf_integrity_max": "6",
        "dropship_factor": "0",
        "detector_large_military": "on",
        "action": "roll",
        "visibility": "gm",
    }
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.context["form"].errors
    link = html.unescape(
        response.text.split('data-testid="next-step"', 1)[1].split('href="', 1)[1].split('"', 1)[0]
    )
    assert f"detector={third.code}" in link and f"target={target.code}" in link
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1
