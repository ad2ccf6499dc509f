"""Amphibious and dune buggy conversions: their costs and times kept on the unit's refit."""

from datetime import timedelta

import pytest
from django.urls import reverse

from referee.logistics.models import UnitRefit
from referee.play import services
from referee.play.models import LogEntry
from tests.factories import UnitFactory
from tests.referee.conftest import htmx

from .factories import UnitRefitFactory
from .helpers import checked, dashboard, procedure_page, resolve, selected, value_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def hauler(cast):
    return UnitFactory(campaign=cast.campaign, name="Hauler", kind="vehicle", tonnage=40, jump_mp=0)


class TestAmphibious:
    def test_the_conversion_cost_is_kept_and_shown(self, cast, hauler):
        entry = resolve(cast, "vehicle.amphibious", {"tonnage": 40, "motive": "tracked"}, unit=hauler)
        assert entry.result["equipment_t"] == 4 and entry.result["cost_cbills"] == 40000
        refit = UnitRefit.objects.get(unit=hauler)
        assert refit.amphibious and not refit.amphibious_disabled and refit.motive == "tracked"
        assert (refit.amphibious_equipment_t, refit.amphibious_cost_cbills) == (4, 40000)
        assert "Amphibious: 4 t, 40,000 C-bills, water 2 MP/hex" in dashboard(cast).text

    def test_motive_damage_disables_it_and_a_repair_brings_it_back(self, cast, hauler):
        UnitRefitFactory(unit=hauler, motive="wheeled", motive_damaged=True)
        response = procedure_page(cast, "vehicle.amphibious", unit=hauler)
        assert selected(response.text, "motive") == "wheeled"
        assert checked(response.text, "motive_damage")
        inputs = {"tonnage": 40, "motive": "wheeled", "motive_damage": True}
        entry = resolve(cast, "vehicle.amphibious", inputs, unit=hauler)
        assert entry.pending == []
        refit = UnitRefit.objects.get(unit=hauler)
        assert refit.amphibious_disabled
        assert "disabled" in dashboard(cast).text
        resolve(cast, "vehicle.amphibious", {**inputs, "motive_damage": False}, unit=hauler)
        refit.refresh_from_db()
        assert not refit.amphibious_disabled and not refit.motive_damaged

    def test_a_hover_vehicle_is_refused_with_the_reason(self, cast, hauler):
        url = reverse("play:procedure", args=[cast.campaign.code, "vehicle.amphibious"])
        data = {
            "unit": str(hauler.code),
            "tonnage": 40,
            "motive": "hover",
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "only tracked or wheeled vehicles" in response.text
        assert not UnitRefit.objects.exists()

    def test_undo_takes_the_equipment_off_again(self, cast, hauler):
        entry = resolve(cast, "vehicle.amphibious", {"tonnage": 40, "motive": "tracked"}, unit=hauler)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        refit = UnitRefit.objects.get(unit=hauler)
        assert not refit.amphibious and refit.amphibious_cost_cbills is None and refit.motive == ""

    def test_only_vehicles_are_offered_the_conversions(self, cast, hauler):
        mech = UnitFactory(campaign=cast.campaign, name="Griffin")
        response = procedure_page(cast, "vehicle.amphibious")
        assert str(hauler.code) in response.text and str(mech.code) not in response.text


class TestDuneBuggy:
    def test_the_conversion_costs_parts_and_workshop_time_and_slows_the_buggy(self, cast, hauler):
        UnitRefitFactory(unit=hauler, cruise_mp=5)
        response = procedure_page(cast, "vehicle.dune_buggy", unit=hauler)
        assert value_of(response.text, "tonnage") == "40"
        assert value_of(response.text, "cruise_mp") == "5"
        entry = resolve(cast, "vehicle.dune_buggy", {"tonnage": 40, "cruise_mp": 5, "techs": 2}, unit=hauler)
        assert entry.pending == []
        refit = UnitRefit.objects.get(unit=hauler)
        assert refit.dune_buggy and refit.cruise_mp == 4 and refit.flank_mp == 6
        assert (refit.dune_buggy_cost_cbills, refit.dune_buggy_days, refit.dune_buggy_work_hours) == (
            16000,
            2,
            32,
        )
        assert refit.conversion_ready_at == cast.campaign.clock + timedelta(days=2)
        text = dashboard(cast).text
        assert "Dune buggy: 4/6 MP, parts 16,000 C-bills, 2 days (32 work-hours, 2 techs)" in text
        assert "in the workshop until" in text

    def test_a_second_conversion_is_refused_and_changes_nothing(self, cast, hauler):
        UnitRefitFactory(unit=hauler, cruise_mp=4, dune_buggy=True)
        url = reverse("play:procedure", args=[cast.campaign.code, "vehicle.dune_buggy"])
        data = {
            "unit": str(hauler.code),
            "tonnage": 40,
            "cruise_mp": 4,
            "techs": 1,
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "already a dune buggy" in response.text
        assert UnitRefit.objects.get(unit=hauler).cruise_mp == 4
        assert not LogEntry.objects.filter(procedure="vehicle.dune_buggy").exists()

    def test_no_techs_is_a_field_error(self, cast, hauler):
        url = reverse("play:procedure", args=[cast.campaign.code, "vehicle.dune_buggy"])
        data = {
            "unit": str(hauler.code),
            "tonnage": 40,
            "techs": 0,
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert not UnitRefit.objects.exists()

    def test_undo_restores_the_old_speed(self, cast, hauler):
        refit = UnitRefitFactory(unit=hauler, cruise_mp=5)
        entry = resolve(cast, "vehicle.dune_buggy", {"tonnage": 40, "cruise_mp": 5}, unit=hauler)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        refit.refresh_from_db()
        assert refit.cruise_mp == 5 and not refit.dune_buggy and refit.conversion_ready_at is None
