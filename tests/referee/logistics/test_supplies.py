"""Food, spare parts, fuel cells and station-keeping against a ship's stores."""

from datetime import timedelta

import pytest
from django.urls import reverse

from referee.logistics.models import ShipStores
from referee.play import services
from referee.play.models import LogEntry
from tests.factories import ShipFactory
from tests.referee.conftest import htmx

from .factories import ShipStoresFactory
from .helpers import dashboard, procedure_page, resolve, selected, value_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def mckenna(cast):
    return ShipFactory(
        campaign=cast.campaign, name="McKenna", kind="warship", crew=578, passengers=296, mass_t=760000
    )


@pytest.fixture
def union(cast):
    return ShipFactory(
        campaign=cast.campaign, name="Union", kind="dropship", crew=14, passengers=28, mass_t=3500
    )


def food(cast, ship, days=30, mode="sourcebook"):
    inputs = {"crew": ship.crew, "passengers": ship.passengers, "days": days, "mode": mode}
    return resolve(cast, "cargo.food", inputs, ship=ship)


class TestFood:
    def test_w9_mckenna_eats_the_sourcebooks_127_5_t_in_30_days(self, cast, mckenna):
        stores = ShipStoresFactory(ship=mckenna, food_t=200)
        entry = food(cast, mckenna)
        assert entry.result["tons_per_day"] == 4.25 and entry.result["exact_tons_per_day"] == 4.37
        assert entry.result["tons_total"] == 127.5
        stores.refresh_from_db()
        assert stores.food_t == 72.5
        assert entry.pending == []  # the campaign food effect was applied to the ship's stores
        assert {"field": "food_t", "before": 200.0, "after": 72.5}.items() <= entry.effects[0].items()

    def test_w9_in_exact_mode_eats_874_people_over_200_a_day(self, cast, mckenna):
        stores = ShipStoresFactory(ship=mckenna, food_t=200, food_mode="exact")
        entry = food(cast, mckenna, mode="exact")
        assert entry.result["tons_per_day"] == 4.37
        assert entry.result["tons_total"] == pytest.approx(131.1)
        stores.refresh_from_db()
        assert stores.food_t == pytest.approx(68.9)

    def test_w10_union_rounds_0_21_up_to_a_quarter_ton(self, cast, union):
        stores = ShipStoresFactory(ship=union, food_t=10)
        entry = food(cast, union)
        assert entry.result["tons_per_day"] == 0.25 and entry.result["tons_total"] == 7.5
        stores.refresh_from_db()
        assert stores.food_t == 2.5

    def test_w10_exact_mode_eats_6_3_t(self, cast, union):
        stores = ShipStoresFactory(ship=union, food_t=10, food_mode="exact")
        entry = food(cast, union, mode="exact")
        assert entry.result["tons_total"] == pytest.approx(6.3)
        stores.refresh_from_db()
        assert stores.food_t == pytest.approx(3.7)

    def test_the_form_takes_crew_passengers_mode_and_elapsed_days_from_state(self, cast, mckenna):
        ShipStoresFactory(
            ship=mckenna,
            food_t=200,
            food_mode="exact",
            food_accounted_to=cast.campaign.clock - timedelta(days=2, hours=12),
        )
        response = procedure_page(cast, "cargo.food", ship=mckenna)
        assert response.status_code == 200
        assert value_of(response.text, "crew") == "578"
        assert value_of(response.text, "passengers") == "296"
        assert value_of(response.text, "days") == "2.5"
        assert selected(response.text, "mode") == "exact"

    def test_a_ship_without_stores_is_prefilled_for_one_day_and_gets_stores_on_first_use(self, cast, union):
        response = procedure_page(cast, "cargo.food", ship=union)
        assert value_of(response.text, "days") == "1"
        assert selected(response.text, "mode") == "sourcebook"
        food(cast, union, days=1)
        stores = ShipStores.objects.get(ship=union)
        assert stores.food_t == 0 and stores.campaign == cast.campaign
        assert stores.food_accounted_to == cast.campaign.clock + timedelta(days=1)

    def test_food_runs_out_at_zero_rather_than_going_negative(self, cast, mckenna):
        stores = ShipStoresFactory(ship=mckenna, food_t=100)
        food(cast, mckenna)
        stores.refresh_from_db()
        assert stores.food_t == 0
        assert "out of food" in dashboard(cast).text

    def test_undo_gives_the_food_back_and_the_counted_time(self, cast, mckenna):
        start = cast.campaign.clock - timedelta(days=30)
        stores = ShipStoresFactory(ship=mckenna, food_t=200, food_accounted_to=start)
        entry = food(cast, mckenna)
        stores.refresh_from_db()
        assert stores.food_accounted_to == cast.campaign.clock
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        stores.refresh_from_db()
        assert stores.food_t == 200 and stores.food_accounted_to == start

    def test_negative_days_are_a_field_error_and_change_nothing(self, cast, mckenna):
        stores = ShipStoresFactory(ship=mckenna, food_t=200)
        url = reverse("play:procedure", args=[cast.campaign.code, "cargo.food"])
        data = {"ship": str(mckenna.code), "crew": 578, "passengers": 296, "days": -3, "mode": "sourcebook"}
        response = cast.client("gm").post(url, {**data, "visibility": "everyone", "action": "roll"}, **htmx())
        assert response.status_code == 422
        assert "greater than or equal to 0" in response.text
        stores.refresh_from_db()
        assert stores.food_t == 200 and not LogEntry.objects.filter(procedure="cargo.food").exists()

    def test_the_food_of_a_hidden_ship_is_gm_only_by_default(self, cast, union):
        union.shared = False
        union.save()
        response = procedure_page(cast, "cargo.food", ship=union)
        assert selected(response.text, "visibility") == "gm"


class TestEndPhase:
    def enter_end_phase(self, cast):
        cast.campaign.phase = "combat"
        cast.campaign.save()
        return services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)

    def test_ships_eat_the_whole_days_elapsed_and_keep_the_rest_for_later(self, cast, mckenna):
        start = cast.campaign.clock - timedelta(days=2, hours=12)
        stores = ShipStoresFactory(ship=mckenna, food_t=100, food_accounted_to=start)
        entries = self.enter_end_phase(cast)
        eaten = [e for e in entries if e.procedure == "cargo.food"]
        assert len(eaten) == 1 and eaten[0].inputs["days"] == 2
        stores.refresh_from_db()
        assert stores.food_t == 100 - 2 * 4.25
        assert stores.food_accounted_to == start + timedelta(days=2)
        # Half a day is left over: the next End Phase has nothing to eat yet.
        cast.campaign.refresh_from_db()
        cast.campaign.phase = "combat"
        cast.campaign.save()
        again = services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        assert not [e for e in again if e.procedure == "cargo.food"]

    def test_ships_not_counted_automatically_or_fed_within_the_day_do_not_eat(self, cast, mckenna, union):
        manual = ShipStoresFactory(
            ship=mckenna,
            food_t=100,
            auto_food=False,
            food_accounted_to=cast.campaign.clock - timedelta(days=9),
        )
        recent = ShipStoresFactory(
            ship=union, food_t=10, food_accounted_to=cast.campaign.clock - timedelta(hours=23)
        )
        entries = self.enter_end_phase(cast)
        assert not [e for e in entries if e.procedure == "cargo.food"]
        manual.refresh_from_db()
        recent.refresh_from_db()
        assert manual.food_t == 100 and recent.food_t == 10

    def test_the_end_phase_meal_is_undone_like_any_roll(self, cast, union):
        start = cast.campaign.clock - timedelta(days=4)
        stores = ShipStoresFactory(ship=union, food_t=10, food_accounted_to=start)
        meal = next(e for e in self.enter_end_phase(cast) if e.procedure == "cargo.food")
        stores.refresh_from_db()
        assert stores.food_t == 9
        services.log_entry_reverse(entry=meal, actor=cast.gm)
        stores.refresh_from_db()
        assert stores.food_t == 10 and stores.food_accounted_to == start


class TestStores:
    def test_spare_parts_cells_and_station_keeping_burn_cargo_fuel_first(self, cast, union):
        stores = ShipStoresFactory(
            ship=union, fuel_t=50, cargo_fuel_capacity_t=18, cargo_fuel_t=10, burn_day_fuel_t=5
        )
        entry = resolve(
            cast,
            "cargo.stores",
            {"mass_t": 3500, "tankage_t": 20, "burn_day_fuel_t": 5, "station_keeping_days": 30},
            ship=union,
        )
        assert entry.result["station_keeping_fuel_t"] == 15
        stores.refresh_from_db()
        assert stores.spare_parts_need_t == 35 and stores.spare_parts_long_trip_t == 175
        assert stores.fuel_cell_bay_t == 20 and stores.cargo_fuel_capacity_t == 18
        assert stores.cargo_fuel_t == 0  # 10 t from the cells first...
        assert stores.fuel_t == 45  # ...then 5 t from the tanks
        assert entry.pending == []

    def test_the_form_is_prefilled_from_the_ship_and_its_stores(self, cast, union):
        ShipStoresFactory(ship=union, fuel_cell_bay_t=12, burn_day_fuel_t=4)
        response = procedure_page(cast, "cargo.stores", ship=union)
        assert value_of(response.text, "mass_t") == "3500"
        assert value_of(response.text, "tankage_t") == "12.0"
        assert value_of(response.text, "burn_day_fuel_t") == "4.0"

    def test_shrinking_the_cells_below_the_fuel_they_hold_is_refused_with_a_reason(self, cast, union):
        stores = ShipStoresFactory(ship=union, cargo_fuel_capacity_t=18, cargo_fuel_t=10, fuel_cell_bay_t=20)
        url = reverse("play:procedure", args=[cast.campaign.code, "cargo.stores"])
        data = {
            "ship": str(union.code),
            "mass_t": 3500,
            "tankage_t": 5,
            "station_keeping_days": 0,
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "hold at most 4.5 t" in response.text
        stores.refresh_from_db()
        assert stores.cargo_fuel_capacity_t == 18 and stores.fuel_cell_bay_t == 20
        assert not LogEntry.objects.filter(procedure="cargo.stores").exists()

    def test_undo_restores_capacity_and_fuel(self, cast, union):
        stores = ShipStoresFactory(ship=union, fuel_t=50, cargo_fuel_capacity_t=9, cargo_fuel_t=9)
        entry = resolve(
            cast,
            "cargo.stores",
            {"tankage_t": 10, "burn_day_fuel_t": 10, "station_keeping_days": 12},
            ship=union,
        )
        stores.refresh_from_db()
        assert (stores.cargo_fuel_t, stores.fuel_t) == (0, 47)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        stores.refresh_from_db()
        assert (stores.cargo_fuel_t, stores.fuel_t, stores.cargo_fuel_capacity_t) == (9, 50, 9)
        assert stores.burn_day_fuel_t is None


class TestPanel:
    def test_the_dashboard_shows_stock_daily_need_and_days_left(self, cast, mckenna, union):
        ShipStoresFactory(ship=mckenna, food_t=127.5)
        response = dashboard(cast)
        assert response.status_code == 200
        assert 'id="supplies-panel"' in response.text
        assert "4.25 t/day" in response.text
        assert "30 days left" in response.text
        assert "Not stocked: Union" in response.text
        food_url = reverse("play:procedure", args=[cast.campaign.code, "cargo.food"])
        assert f"{food_url}?ship={mckenna.code}" in response.text
