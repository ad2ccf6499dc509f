"""Booby-trap records: the dashboard's create/edit/delete forms, and what the database refuses."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from referee.boobytraps.models import BoobyTrap
from tests.factories import StarSystemFactory
from tests.referee.conftest import htmx

from .factories import BoobyTrapFactory, WeaponChartFactory, drone_entries

pytestmark = pytest.mark.django_db


def create_url(cast):
    return reverse("campaigns:object-create", args=[cast.campaign.code, "boobytraps"])


def edit_url(cast, trap):
    return reverse("campaigns:object-edit", args=[cast.campaign.code, "boobytraps", trap.code])


def form_data(**values) -> dict:
    data = {
        "name": "Wanderer",
        "position": "hex 0412",
        "heading": "A",
        "spaces_torp": "0",
        "spaces_drone": "0",
        "spaces_phaser": "0",
        "course": "straight",
        "target_kind": "",
        "terrain_priority": "units",
    }
    data.update(values)
    return data


class TestForm:
    def test_the_gm_adds_an_unarmed_trap(self, cast):
        system = StarSystemFactory(campaign=cast.campaign)
        response = cast.client("gm").post(create_url(cast), form_data(star_system=system.pk), **htmx())
        assert response.status_code == 200
        assert 'id="boobytraps-panel"' in response.text and "Wanderer" in response.text
        trap = BoobyTrap.objects.get()
        assert trap.campaign == cast.campaign and trap.star_system == system
        assert trap.speed is None and not trap.generated and trap.drone_racks == []

    def test_the_form_offers_only_charts_of_the_right_type_and_preselects_a_lone_one(self, cast):
        torp = WeaponChartFactory(campaign=cast.campaign, name="House torpedoes")
        drone = WeaponChartFactory(
            campaign=cast.campaign, name="House drones", weapon_type="drone", entries=drone_entries()
        )
        WeaponChartFactory(name="Elsewhere")  # another campaign's
        page = cast.client("gm").get(create_url(cast)).text
        torp_select = page[
            page.index('name="torp_chart"') : page.index("</select>", page.index('name="torp_chart"'))
        ]
        assert "House torpedoes" in torp_select and "House drones" not in torp_select
        assert f'value="{torp.pk}" selected' in torp_select
        assert "Elsewhere" not in page and f'value="{drone.pk}" selected' in page

    def test_racks_and_weapons_are_typed_one_per_line(self, cast):
        data = form_data(
            speed="18",
            spaces_torp="2",
            weapons_torp="Plasma-R (FA)\n",
            weapons_drone="",
            drone_racks="2/4 Drone rack A\n6/6",
        )
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 200
        trap = BoobyTrap.objects.get()
        assert trap.speed == 18 and trap.year_band == "150-154"
        assert trap.weapons_torp == ["Plasma-R (FA)"] and trap.weapons_drone is None
        assert trap.drone_racks == [
            {"weapon": "Drone rack A", "capacity": 4, "loaded": 2},
            {"capacity": 6, "loaded": 6},
        ]
        page = cast.client("gm").get(edit_url(cast, trap)).text
        assert "2/4 Drone rack A\n6/6" in page

    @pytest.mark.parametrize(
        "field,value,message",
        [
            ("drone_racks", "four of six", "write a rack as loaded/capacity"),
            ("drone_racks", "7/6 Rack", "loaded 7 must be between 0 and its capacity 6"),
            ("drone_racks", "0/0", "a rack holds at least 1 drone space"),
            ("speed", "33", "speed runs from 1 to 32 (IR107.211)"),
            ("spaces_drone", "7", "Weapon spaces run from 0 to 6 (IR107.31)"),
            ("name", "", "This field is required."),
        ],
    )
    def test_bad_values_come_back_with_a_message(self, cast, field, value, message):
        response = cast.client("gm").post(create_url(cast), form_data(**{field: value}), **htmx())
        assert response.status_code == 422
        assert message in response.text
        assert not BoobyTrap.objects.exists()

    def test_a_chart_of_another_type_is_refused(self, cast):
        drone = WeaponChartFactory(campaign=cast.campaign, weapon_type="drone", entries=drone_entries())
        trap = BoobyTrapFactory.build(campaign=cast.campaign, torp_chart=drone)
        with pytest.raises(ValidationError) as error:
            trap.full_clean()
        assert "is a drone-hit chart, not a torpedo-hit chart" in str(error.value)

    def test_two_traps_of_one_name_are_refused(self, cast):
        BoobyTrapFactory(campaign=cast.campaign, name="Wanderer")
        response = cast.client("gm").post(create_url(cast), form_data(), **htmx())
        assert response.status_code == 422
        assert "already has a booby trap of that name" in response.text

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_edits_traps(self, cast, who, status):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        assert cast.client(who).get(create_url(cast)).status_code == status
        assert cast.client(who).post(edit_url(cast, trap), form_data()).status_code == status
        trap.refresh_from_db()
        assert trap.name != "Wanderer"

    def test_the_gm_deletes_a_trap(self, cast):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        url = reverse("campaigns:object-delete", args=[cast.campaign.code, "boobytraps", trap.code])
        asked = cast.client("gm").get(url)  # without JavaScript: the question first
        assert asked.status_code == 200 and BoobyTrap.objects.exists()
        assert cast.client("gm").post(url, **htmx()).status_code == 200
        assert not BoobyTrap.objects.exists()


class TestDatabaseConstraints:
    @pytest.mark.parametrize(
        "values",
        [
            {"speed": 0},
            {"speed": 33},
            {"spaces_torp": 7},
            {"course": "sideways"},
            {"target_kind": "planet"},
            {"terrain_priority": "both"},
        ],
    )
    def test_out_of_bounds_values_never_reach_the_table(self, cast, values):
        with pytest.raises(IntegrityError), transaction.atomic():
            BoobyTrapFactory(campaign=cast.campaign, **values)

    def test_a_chart_of_an_unknown_type_never_reaches_the_table(self, cast):
        with pytest.raises(IntegrityError), transaction.atomic():
            WeaponChartFactory(campaign=cast.campaign, weapon_type="mauler")

    def test_two_charts_of_one_name_in_a_campaign_are_refused(self, cast):
        WeaponChartFactory(campaign=cast.campaign, name="Ours")
        with pytest.raises(IntegrityError), transaction.atomic():
            WeaponChartFactory(campaign=cast.campaign, name="Ours")
        WeaponChartFactory(name="Ours")  # another campaign may use the name
