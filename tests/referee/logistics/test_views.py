"""The dashboard's panels, the stores and refit forms, and the one-click Explorer MechWarrior."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.fleet.models import Character
from referee.logistics.models import CharacterSheet, ShipStores, UnitRefit
from rules.tables.characters import EXPLORER_MECHWARRIOR
from tests.factories import CampaignFactory, ShipFactory, UnitFactory
from tests.referee.conftest import htmx

from .factories import ShipStoresFactory, UnitRefitFactory
from .helpers import dashboard

pytestmark = pytest.mark.django_db


def recruit_url(cast, template="explorer_mechwarrior"):
    return reverse("logistics:recruit", args=[cast.campaign.code, template])


class TestExplorerMechWarrior:
    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_may_recruit(self, cast, who, status):
        assert cast.client(who).post(recruit_url(cast)).status_code == status
        assert not Character.objects.exists()

    def test_wrong_method_is_405(self, cast):
        assert cast.client("gm").get(recruit_url(cast)).status_code == 405
        assert not Character.objects.exists()

    def test_one_click_makes_the_printed_mechwarrior(self, cast):
        client = cast.client("gm")
        response = client.post(recruit_url(cast))
        assert response.status_code == 302 and response["Location"].endswith(f"/c/{cast.campaign.code}/")
        character = Character.objects.get()
        assert character.campaign == cast.campaign and character.name == "Explorer MechWarrior"
        assert (character.role, character.bld, character.ref) == ("mechwarrior", 4, 5)
        assert (character.piloting, character.gunnery, character.leadership) == (6, 5, 9)
        assert character.navigation == Character._meta.get_field("navigation").default
        sheet = character.sheet
        assert sheet.template == "explorer_mechwarrior" and sheet.campaign == cast.campaign
        assert sheet.sheet["attributes"]["CHA"] == {"value": 3, "target": 9}
        assert sheet.sheet["edge"] == 1 and sheet.sheet["assets_cbills"] == 500
        assert "character_fields" not in sheet.sheet
        page = client.get(response["Location"]).text
        assert "Explorer MechWarrior joins the campaign" in page
        assert "Gunnery/BattleMech 3 (5+)" in page and "Well-Equipped (2 pt)" in page
        # In the printed order, whatever order the database keeps the JSON keys in.
        assert "BLD 4 (8+), REF 5 (7+), INT 5 (7+), LRN 5 (7+), CHA 3 (9+)." in page
        assert "Athletic 9+, Physical 8+, Mental 8+, Social 10+." in page

    def test_the_template_itself_is_not_changed_by_a_recruit(self, cast):
        cast.client("gm").post(recruit_url(cast))
        sheet = CharacterSheet.objects.get()
        sheet.sheet["edge"] = 5
        sheet.save()
        assert EXPLORER_MECHWARRIOR["edge"] == 1

    def test_htmx_swaps_in_the_panel_and_the_characters_list(self, cast):
        unit = UnitFactory(campaign=cast.campaign, name="Locust")
        response = cast.client("gm").post(
            recruit_url(cast), {"name": "Kell", "unit": str(unit.code)}, **htmx()
        )
        assert response.status_code == 200
        assert "campaign-changed" in response["HX-Trigger"]
        assert 'id="recruits-panel"' in response.text and 'id="characters-panel"' in response.text
        assert "Kell joins the campaign" in response.text
        assert Character.objects.get().unit == unit

    def test_a_second_recruit_gets_a_number(self, cast):
        client = cast.client("gm")
        client.post(recruit_url(cast))
        client.post(recruit_url(cast))
        client.post(recruit_url(cast), {"name": "  "})
        names = sorted(Character.objects.values_list("name", flat=True))
        assert names == ["Explorer MechWarrior", "Explorer MechWarrior 2", "Explorer MechWarrior 3"]
        assert CharacterSheet.objects.count() == 3

    def test_the_301st_recruit_is_numbered_in_as_few_queries_as_the_second(
        self, cast, django_assert_max_num_queries
    ):
        name = "Explorer MechWarrior"
        client = cast.client("gm")
        client.post(recruit_url(cast))
        with CaptureQueriesContext(connection) as second:
            client.post(recruit_url(cast))
        Character.objects.bulk_create(
            Character(campaign=cast.campaign, name=f"{name} {n}", role="mechwarrior") for n in range(3, 301)
        )
        with django_assert_max_num_queries(len(second)):
            response = client.post(recruit_url(cast))
        assert response.status_code == 302
        assert Character.objects.filter(name=f"{name} 301").count() == 1
        assert Character.objects.filter(name__istartswith=name).count() == 301

    def test_a_unit_of_another_campaign_is_refused_with_a_message(self, cast):
        stranger = UnitFactory(campaign=CampaignFactory())
        response = cast.client("gm").post(recruit_url(cast), {"unit": str(stranger.code)}, **htmx())
        assert response.status_code == 422
        assert "Select a valid choice" in response.text
        assert not Character.objects.exists()

    def test_an_unknown_template_is_404(self, cast):
        assert cast.client("gm").post(recruit_url(cast, "space_pirate")).status_code == 404


class TestStoresForm:
    def url(self, cast, *args, action="object-create"):
        return reverse(f"campaigns:{action}", args=[cast.campaign.code, "supplies", *args])

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_may_stock_a_ship(self, cast, who, status):
        ship = ShipFactory(campaign=cast.campaign)
        assert cast.client(who).get(self.url(cast)).status_code == status
        assert cast.client(who).post(self.url(cast), {"ship": ship.pk, "food_t": 5}).status_code == status
        assert not ShipStores.objects.exists()

    def test_wrong_method_is_405(self, cast):
        assert cast.client("gm").put(self.url(cast)).status_code == 405

    def test_the_gm_stocks_a_ship_and_meals_are_counted_from_now(self, cast):
        ship = ShipFactory(campaign=cast.campaign, name="Union", crew=14, passengers=28)
        data = {"ship": ship.pk, "food_t": 7.5, "food_mode": "sourcebook", "auto_food": "on", "fuel_t": 100}
        data |= {"spare_parts_t": 0, "extra_ammo_t": 0, "fuel_cell_bay_t": 0}
        data |= {"cargo_fuel_capacity_t": 0, "cargo_fuel_t": 0}
        response = cast.client("gm").post(self.url(cast), data, **htmx())
        assert response.status_code == 200, response.text[:500]
        assert 'id="supplies-panel"' in response.text and "30 days left" in response.text
        stores = ShipStores.objects.get()
        assert stores.name == "Union" and stores.campaign == cast.campaign
        assert stores.food_accounted_to == cast.campaign.clock

    def test_cargo_fuel_beyond_the_cells_comes_back_422_with_the_reason(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        data = {"ship": ship.pk, "food_t": 0, "food_mode": "exact", "spare_parts_t": 0, "extra_ammo_t": 0}
        data |= {"fuel_t": 0, "fuel_cell_bay_t": 10, "cargo_fuel_capacity_t": 9, "cargo_fuel_t": 12}
        response = cast.client("gm").post(self.url(cast), data, **htmx())
        assert response.status_code == 422
        assert "hold at most 9 t" in response.text
        assert not ShipStores.objects.exists()

    def test_negative_food_is_refused(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        data = {"ship": ship.pk, "food_t": -1, "food_mode": "exact", "spare_parts_t": 0, "extra_ammo_t": 0}
        data |= {"fuel_t": 0, "fuel_cell_bay_t": 0, "cargo_fuel_capacity_t": 0, "cargo_fuel_t": 0}
        response = cast.client("gm").post(self.url(cast), data, **htmx())
        assert response.status_code == 422
        assert not ShipStores.objects.exists()

    def test_a_stocked_ship_or_another_campaigns_ship_is_not_offered(self, cast):
        stocked = ShipStoresFactory(ship=ShipFactory(campaign=cast.campaign, name="Stocked")).ship
        free = ShipFactory(campaign=cast.campaign, name="Free")
        foreign = ShipFactory(name="Foreign")
        form = cast.client("gm").get(self.url(cast), **htmx()).text
        assert f'value="{free.pk}"' in form
        assert f'value="{stocked.pk}"' not in form and f'value="{foreign.pk}"' not in form

    def test_editing_keeps_its_own_ship_and_deleting_removes_the_stores(self, cast):
        stores = ShipStoresFactory(ship=ShipFactory(campaign=cast.campaign, name="Stocked"))
        client = cast.client("gm")
        form = client.get(self.url(cast, stores.code, action="object-edit"), **htmx()).text
        assert f'value="{stores.ship.pk}" selected' in form
        response = client.post(self.url(cast, stores.code, action="object-delete"), **htmx())
        assert response.status_code == 200 and 'id="supplies-panel"' in response.text
        assert not ShipStores.objects.exists()


class TestRefitForm:
    def url(self, cast):
        return reverse("campaigns:object-create", args=[cast.campaign.code, "refits"])

    def data(self, unit, **extra):
        return {"unit": unit.pk, "tech_base": "inner_sphere", "energy_weapon_tons": 0, "cargo_bay_t": 0} | {
            "engine_hits_checked": 0,
            "critical_hits": 0,
            "locations_blown_off": 0,
            **extra,
        }

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_may_refit(self, cast, who, status):
        unit = UnitFactory(campaign=cast.campaign)
        assert cast.client(who).post(self.url(cast), self.data(unit)).status_code == status
        assert not UnitRefit.objects.exists()

    def test_the_gm_records_a_utility_mech(self, cast):
        unit = UnitFactory(campaign=cast.campaign, name="Loader")
        response = cast.client("gm").post(
            self.url(cast), self.data(unit, utility="on", cargo_bay_t=4), **htmx()
        )
        assert response.status_code == 200
        assert 'id="refits-panel"' in response.text and "utility 'Mech" in response.text
        assert UnitRefit.objects.get().cargo_bay_t == 4

    @pytest.mark.parametrize(
        "kind,extra,message",
        [
            ("battlemech", {"cargo_bay_t": 3}, "Only utility &#x27;Mechs mount cargo bays."),
            ("battlemech", {"dune_buggy": "on"}, "is not a vehicle"),
            ("vehicle", {"utility": "on"}, "cannot be a utility"),
            ("vehicle", {"amphibious_disabled": "on"}, "Only an amphibious vehicle"),
            ("battlemech", {"engine_exploded": "on"}, "mark it destroyed"),
            ("battlemech", {"locations_blown_off": 6}, "only 5 locations to lose"),
        ],
    )
    def test_impossible_refits_are_refused_with_a_reason(self, cast, kind, extra, message):
        unit = UnitFactory(campaign=cast.campaign, kind=kind)
        response = cast.client("gm").post(self.url(cast), self.data(unit, **extra), **htmx())
        assert response.status_code == 422
        assert message in response.text
        assert not UnitRefit.objects.exists()


def test_the_dashboard_has_the_three_panels_for_the_gm_only(cast):
    response = dashboard(cast)
    for panel in ("supplies", "refits", "recruits"):
        assert f'id="{panel}-panel"' in response.text
    player = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code]))
    assert player.status_code == 200 and 'id="supplies-panel"' not in player.text


def test_a_change_to_stores_or_refits_bumps_the_players_change_counter(cast):
    cast.campaign.refresh_from_db()
    before = cast.campaign.state_version
    stores = ShipStoresFactory(ship=ShipFactory(campaign=cast.campaign))
    cast.campaign.refresh_from_db()
    after_insert = cast.campaign.state_version
    assert after_insert > before
    stores.food_t = 3
    stores.save()
    UnitRefitFactory(unit=UnitFactory(campaign=cast.campaign))
    cast.campaign.refresh_from_db()
    assert cast.campaign.state_version > after_insert
