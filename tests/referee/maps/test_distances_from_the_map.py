"""Procedures that need a distance read it from the map; the entry says which figure was used."""

import re

import pytest
from django.urls import reverse

from referee.play import services
from tests.factories import ShipFactory, StarSystemFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(cast):
    galax = StarSystemFactory(campaign=cast.campaign, name="Galax", jump_point_au=1.5)
    forge = ShipFactory(
        campaign=cast.campaign,
        name="Valley Forge",
        kind="warship",
        military=True,
        star_system=galax,
        x_au=0,
        y_au=-1.5,
    )
    waterloo = ShipFactory(
        campaign=cast.campaign,
        name="Waterloo",
        kind="jumpship",
        kf_integrity=4,
        kf_integrity_max=4,
        dropship_capacity=3,
        star_system=galax,
        x_au=0,
        y_au=1.5,
    )
    return forge, waterloo


def detect(cast, forge, waterloo, distance_au):
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.emergence_wave",
        inputs={"distance_au": distance_au, "kf_integrity_max": 4, "dropship_factor": 3},
        dice=[4, 4],
        actor=cast.gm,
        subjects={"detector": forge.code, "target": waterloo.code},
    )


def test_the_form_is_filled_from_the_map(cast, pair):
    forge, waterloo = pair
    url = reverse("play:procedure", args=[cast.campaign.code, "sensor.emergence_wave"])
    html = cast.client("gm").get(f"{url}?detector={forge.code}&target={waterloo.code}").text
    assert re.search(r'name="distance_au"[^>]*value="3.0"', html)


def test_the_entry_records_a_distance_kept_from_the_map(cast, pair):
    entry = detect(cast, *pair, 3.0)
    assert entry.inputs["@measured"] == {"distance_au": "from the map"}
    assert "Distance (AU): from the map." in entry.summary


def test_the_entry_records_a_distance_the_gm_typed(cast, pair):
    entry = detect(cast, *pair, 4.25)
    assert entry.inputs["distance_au"] == 4.25
    assert entry.inputs["@measured"] == {"distance_au": "typed by the GM"}


def test_a_docked_ship_measures_from_its_carrier(cast, pair):
    forge, waterloo = pair
    dropship = ShipFactory(campaign=cast.campaign, name="John Wayne", kind="dropship", docked_on=waterloo)
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.active_radar",
        inputs={
            "distance_km": round(3.0 * 149_597_870.7),
            "detector_class": "warship",
            "military": True,
            "radar_crit_boxes": 0,
        },
        dice=None,
        actor=cast.gm,
        subjects={"detector": forge.code, "target": dropship.code},
    )
    assert entry.inputs["@measured"] == {"distance_km": "from the map"}


def test_a_move_on_the_map_changes_the_next_prefill(cast, pair):
    forge, waterloo = pair
    cast.client("gm").post(
        reverse("maps:move", args=[cast.campaign.code, forge.star_system.code]),
        {"ship": forge.code, "anchor": "zenith", "offset_au": "-0.5"},
    )
    forge.refresh_from_db()
    assert forge.distance_au(waterloo) == pytest.approx(0.5)
