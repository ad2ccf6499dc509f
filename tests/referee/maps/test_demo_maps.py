"""The demo's maps: Galax with its jump points and ships, a detection measured on the map,
and a small battlefield with terrain and a geyser."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from referee.demo.campaign import demo_campaign_load
from referee.fleet.models import Ship, StarSystem
from referee.terrain.models import Battlefield

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    campaign, _ = demo_campaign_load()
    return campaign


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_galax_shows_its_jump_points_and_ships(demo):
    galax = StarSystem.objects.get(campaign=demo, name="Galax")
    svg = signed_in("gm").get(reverse("maps:system-svg", args=[demo.code, galax.code])).content.decode()
    assert "Zenith jump point: 1.5 AU from the star" in svg and "Nadir jump point" in svg
    for name in ("Waterloo", "John Wayne", "Valley Forge", "Garibaldi", "Lightning squadron"):
        assert f"<title>{name}: " in svg


def test_a_detection_from_valley_forge_on_waterloo_is_measured_on_the_map(demo):
    forge, waterloo = (Ship.objects.get(campaign=demo, name=n) for n in ("Valley Forge", "Waterloo"))
    url = reverse("play:procedure", args=[demo.code, "sensor.emergence_wave"])
    html = signed_in("gm").get(f"{url}?detector={forge.code}&target={waterloo.code}").text
    assert re.search(r'name="distance_au"[^>]*value="3.0"', html)


def test_the_landing_zone_has_terrain_and_a_geyser_only_the_gm_sees(demo):
    field = Battlefield.objects.get(campaign=demo, name="Landing zone Alpha")
    url = reverse("maps:battlefield-svg", args=[demo.code, field.code])
    gm = signed_in("gm").get(url).content.decode()
    player = signed_in("player").get(url).content.decode()
    assert "Heavy woods; level 2" in gm and "Heavy woods; level 2" in player
    assert "geyser (dormant)" in gm and "geyser" not in player
    assert "Victor VTR-9K in hex 0405, facing north" in player
