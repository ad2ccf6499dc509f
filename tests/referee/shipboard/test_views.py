"""The compartment page, its surfaces, and the dashboard's compartments panel."""

import pytest
from django.urls import reverse

from referee.play import services as play_services
from referee.play.models import LogEntry
from referee.shipboard.models import Compartment, Surface
from tests.factories import CampaignFactory, ShipFactory
from tests.referee.conftest import htmx
from tests.referee.menus import dashboard_with_menus

from .factories import CompartmentFactory, SurfaceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def corridor(cast):
    return CompartmentFactory(campaign=cast.campaign, name="Corridor")


def url(name, cast, *args):
    return reverse(f"shipboard:{name}", args=[cast.campaign.code, *args])


def views(cast, corridor):
    """Every view of the app: (url, methods it answers)."""
    door = SurfaceFactory(compartment=corridor, name="Door")
    return [
        (url("compartment", cast, corridor.code), ("GET",)),
        (url("compartment-edit", cast, corridor.code), ("GET", "POST")),
        (url("breach-seal", cast, corridor.code), ("POST",)),
        (url("surface-add", cast, corridor.code), ("POST",)),
        (url("surface-create", cast, corridor.code), ("GET", "POST")),
        (url("surface-edit", cast, door.code), ("GET", "POST")),
        (url("surface-delete", cast, door.code), ("POST",)),
    ]


class TestAccess:
    @pytest.mark.parametrize("who", ["anonymous", "outsider"])
    def test_strangers_learn_nothing(self, cast, corridor, who):
        client = cast.client(who)
        for address, methods in views(cast, corridor):
            for method in methods:
                assert getattr(client, method.lower())(address).status_code == 404, (address, method)

    def test_players_are_refused(self, cast, corridor):
        client = cast.client("player")
        for address, methods in views(cast, corridor):
            for method in methods:
                assert getattr(client, method.lower())(address).status_code == 403, (address, method)
        assert Surface.objects.count() == 1

    def test_the_wrong_method_is_405(self, cast, corridor):
        client = cast.client("gm")
        for address, methods in views(cast, corridor):
            wrong = "post" if "POST" not in methods else ("delete" if "GET" in methods else "get")
            assert getattr(client, wrong)(address).status_code == 405, (address, wrong)

    def test_another_campaigns_compartment_is_not_found(self, cast):
        foreign = CompartmentFactory(campaign=CampaignFactory())
        client = cast.client("gm")
        assert client.get(url("compartment", cast, foreign.code)).status_code == 404
        door = SurfaceFactory(compartment=foreign)
        assert client.post(url("surface-delete", cast, door.code)).status_code == 404
        assert Surface.objects.filter(pk=door.pk).exists()


class TestCompartmentPage:
    def test_it_shows_state_surfaces_and_the_steps(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(
            pressure_pa=60_000, fuel_line_crits=1, comm_panel_disabled=True, breach_points=2
        )
        door = SurfaceFactory(compartment=corridor, name="Door", capacity_left=12)
        response = cast.client("gm").get(url("compartment", cast, corridor.code))
        assert response.status_code == 200
        text = response.text
        assert "60000 Pa" in text and "comm panel unusable" in text and "Seal the breach" in text
        assert f'value="{door.capacity_left}"' in text and ">12</span>/50" in text
        bulkhead_hit = reverse("play:procedure", args=[cast.campaign.code, "shipboard.bulkhead_hit"])
        assert f"{bulkhead_hit}?struck_surface={door.code}" in text
        decompression = reverse("play:procedure", args=[cast.campaign.code, "shipboard.decompression"])
        assert f"{decompression}?compartment={corridor.code}" in text

    def test_one_click_adds_a_door_with_the_tables_values(self, cast, corridor):
        client = cast.client("gm")
        for _ in range(2):
            response = client.post(
                url("surface-add", cast, corridor.code), {"surface_type": "door"}, **htmx()
            )
            assert response.status_code == 200
        doors = list(corridor.surfaces.order_by("id"))
        assert [d.name for d in doors] == ["Door", "Door 2"]
        assert all((d.capacity, d.capacity_left, d.threshold) == (50, 50, 4) for d in doors)
        assert doors[0].surface_kind == "object" and doors[0].armor_rating == 0.5
        assert 'id="surfaces-panel"' in response.text and "Door 2" in response.text

    def test_an_external_bulkhead_is_a_pressure_boundary(self, cast, corridor):
        cast.client("gm").post(url("surface-add", cast, corridor.code), {"surface_type": "external_bulkhead"})
        hull = corridor.surfaces.get()
        assert (hull.capacity, hull.threshold, hull.surface_kind, hull.pressure_boundary) == (
            200,
            20,
            "bulkhead",
            True,
        )

    @pytest.mark.parametrize("surface_type", ["", "custom", "warp_core"])
    def test_one_click_needs_a_table_type(self, cast, corridor, surface_type):
        response = cast.client("gm").post(
            url("surface-add", cast, corridor.code), {"surface_type": surface_type}, **htmx()
        )
        assert response.status_code == 422
        assert "Damage Capacities and Thresholds Table" in response.text
        assert not corridor.surfaces.exists()

    def test_another_object_needs_the_gms_capacity_and_threshold(self, cast, corridor):
        client = cast.client("gm")
        data = {"surface_type": "custom", "armor_rating": "0.5", "surface_kind": "object"}
        response = client.post(url("surface-create", cast, corridor.code), data, **htmx())
        assert response.status_code == 422
        assert "Give the GM&#x27;s value" in response.text
        response = client.post(
            url("surface-create", cast, corridor.code),
            {**data, "name": "Locker", "capacity": "30", "threshold": "6"},
            **htmx(),
        )
        assert response.status_code == 200
        locker = corridor.surfaces.get()
        assert (locker.name, locker.capacity, locker.capacity_left, locker.threshold) == ("Locker", 30, 30, 6)

    def test_blank_values_of_a_table_type_come_from_the_table(self, cast, corridor):
        cast.client("gm").post(
            url("surface-create", cast, corridor.code),
            {"surface_type": "computer_console", "armor_rating": "0.5", "surface_kind": "bulkhead"},
        )
        console = corridor.surfaces.get()
        assert (console.name, console.capacity, console.threshold) == ("Computer console", 10, 2)
        assert console.surface_kind == "object"  # the table decides, not the form

    def test_bad_surface_values_get_messages_not_errors(self, cast, corridor):
        SurfaceFactory(compartment=corridor, name="Door")
        client = cast.client("gm")
        for data, field in (
            ({"capacity_left": "60"}, "capacity_left"),
            ({"armor_rating": "-1"}, "armor_rating"),
            ({"name": "door"}, "name"),
            ({"capacity": "0"}, "capacity"),
        ):
            response = client.post(
                url("surface-create", cast, corridor.code),
                {"surface_type": "door", "armor_rating": "0.5", "surface_kind": "object", **data},
                **htmx(),
            )
            assert response.status_code == 422, data
            assert f'data-testid="error-{field}"' in response.text, data
        assert corridor.surfaces.count() == 1

    def test_editing_a_surface_repairs_it(self, cast, corridor):
        door = SurfaceFactory(compartment=corridor, name="Door", capacity_left=-4)
        assert door.destroyed is True
        response = cast.client("gm").post(
            url("surface-edit", cast, door.code),
            {
                "name": "Door",
                "surface_type": "door",
                "capacity": "50",
                "capacity_left": "50",
                "threshold": "4",
                "armor_rating": "0.5",
                "surface_kind": "object",
            },
            **htmx(),
        )
        assert response.status_code == 200
        door.refresh_from_db()
        assert door.capacity_left == 50 and door.destroyed is False

    def test_deleting_a_surface(self, cast, corridor):
        door = SurfaceFactory(compartment=corridor)
        response = cast.client("gm").post(url("surface-delete", cast, door.code), **htmx())
        assert response.status_code == 200 and not Surface.objects.exists()

    def test_editing_the_compartment(self, cast, corridor):
        client = cast.client("gm")
        assert client.get(url("compartment-edit", cast, corridor.code), **htmx()).status_code == 200
        data = {"name": "Corridor", "ship": corridor.ship.pk, "pressure_pa": "2000000", "breach_points": "0"}
        data |= {"fuel_line_crits": "0", "fuel_leak_points": "0", "visibility_mod": "0"}
        response = client.post(url("compartment-edit", cast, corridor.code), data, **htmx())
        assert response.status_code == 422 and "1,000,000 Pa" in response.text
        response = client.post(
            url("compartment-edit", cast, corridor.code), {**data, "pressure_pa": "80000"}, **htmx()
        )
        assert response.status_code == 200
        corridor.refresh_from_db()
        assert corridor.pressure_pa == 80_000


class TestSealingTheBreach:
    def test_it_is_logged_and_can_be_undone(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(breach_points=4, pressure_pa=60_000)
        response = cast.client("gm").post(url("breach-seal", cast, corridor.code), **htmx())
        assert response.status_code == 200 and "Seal the breach" not in response.text
        corridor.refresh_from_db()
        assert corridor.breach_points == 0
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure="shipboard.seal_breach")
        assert "60,000 Pa" in entry.summary
        play_services.log_entry_reverse(entry=entry, actor=cast.gm)
        corridor.refresh_from_db()
        assert corridor.breach_points == 4

    def test_there_must_be_a_breach(self, cast, corridor):
        response = cast.client("gm").post(url("breach-seal", cast, corridor.code), **htmx())
        assert response.status_code == 409
        assert "no open breach" in response.text
        assert not LogEntry.objects.filter(procedure="shipboard.seal_breach").exists()


class TestDashboard:
    def test_the_panel_lists_compartments_with_their_surfaces(self, cast, corridor):
        SurfaceFactory(
            compartment=corridor, name="Blast door", surface_type="pressure_door", capacity_left=70
        )
        page = dashboard_with_menus(cast.client("gm"), cast.campaign)
        assert 'id="compartments-panel"' in page
        assert "Blast door" in page and "70/100" in page
        # The compartment's procedures are in its Roll… menu.
        assert f"shipboard.decompression/?compartment={corridor.code}" in page

    def test_players_do_not_see_compartments(self, cast, corridor):
        response = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code]))
        assert response.status_code == 200 and "compartments-panel" not in response.text

    def test_a_compartment_is_added_from_the_dashboard(self, cast):
        ship = ShipFactory(campaign=cast.campaign, name="Tintagel")
        response = cast.client("gm").post(
            reverse("campaigns:object-create", args=[cast.campaign.code, "compartments"]),
            {"name": "Bridge", "ship": ship.pk, "pressure_pa": "100000", "breach_points": "0"}
            | {"fuel_line_crits": "0", "fuel_leak_points": "0", "visibility_mod": "0"},
            **htmx(),
        )
        assert response.status_code == 200
        assert 'id="compartments-panel"' in response.text and "Bridge" in response.text
        assert Compartment.objects.get().ship == ship

    def test_a_ship_of_another_campaign_is_refused(self, cast):
        foreign = ShipFactory(campaign=CampaignFactory())
        response = cast.client("gm").post(
            reverse("campaigns:object-create", args=[cast.campaign.code, "compartments"]),
            {"name": "Bridge", "ship": foreign.pk, "pressure_pa": "100000", "breach_points": "0"}
            | {"fuel_line_crits": "0", "fuel_leak_points": "0", "visibility_mod": "0"},
            **htmx(),
        )
        assert response.status_code == 422
        assert not Compartment.objects.exists()

    def test_two_compartments_of_one_name_aboard_one_ship_are_refused(self, cast, corridor):
        response = cast.client("gm").post(
            reverse("campaigns:object-create", args=[cast.campaign.code, "compartments"]),
            {"name": "corridor", "ship": corridor.ship.pk, "pressure_pa": "100000", "breach_points": "0"}
            | {"fuel_line_crits": "0", "fuel_leak_points": "0", "visibility_mod": "0"},
            **htmx(),
        )
        assert response.status_code == 422 and "already has a compartment" in response.text


class TestBackup:
    def test_a_damaged_compartment_survives_backup_and_restore(self, cast, corridor):
        from referee.play import backup

        Compartment.objects.filter(pk=corridor.pk).update(
            pressure_pa=30_000, breach_points=2, lights_damaged=True
        )
        SurfaceFactory(compartment=corridor, name="Door", capacity_left=-6)
        document = backup.backup_document(cast.campaign)
        cast.campaign.delete()
        assert not Surface.objects.exists()
        restored, _ = backup.restore(document, same_accounts=True)
        compartment = Compartment.objects.get(campaign=restored)
        assert compartment.code == corridor.code and compartment.ship.code == corridor.ship.code
        assert (compartment.pressure_pa, compartment.breach_points, compartment.lights_damaged) == (
            30_000,
            2,
            True,
        )
        door = compartment.surfaces.get()
        assert door.capacity_left == -6 and door.destroyed is True


def test_players_may_read_only_the_compartments_of_shared_ships(cast):
    shared = CompartmentFactory(campaign=cast.campaign, ship=ShipFactory(campaign=cast.campaign, shared=True))
    hidden = CompartmentFactory(campaign=cast.campaign)
    SurfaceFactory(compartment=shared, name="Open door")
    SurfaceFactory(compartment=hidden, name="Secret door")
    assert list(Compartment.objects.in_campaign(cast.campaign).visible_to("player")) == [shared]
    assert [s.name for s in Surface.objects.in_campaign(cast.campaign).visible_to("player")] == ["Open door"]
    assert Compartment.objects.in_campaign(cast.campaign).visible_to("gm").count() == 2
    assert not Compartment.objects.in_campaign(cast.campaign).visible_to(None).exists()
