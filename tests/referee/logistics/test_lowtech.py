"""ICE engines, explosion checks against the unit's engine hits, utility 'Mech criticals."""

import re

import pytest
from django.urls import reverse

from referee.logistics.models import UnitRefit
from referee.play import services
from referee.play.models import LogEntry
from tests.factories import UnitFactory
from tests.referee.conftest import htmx
from tests.referee.menus import dashboard_with_menus

from .factories import UnitRefitFactory
from .helpers import checked, dashboard, procedure_page, resolve, value_of

pytestmark = pytest.mark.django_db


def menu_links(html: str, unit) -> list[str]:
    """The procedures offered for this unit anywhere on the dashboard."""
    return sorted(set(re.findall(rf"/play/([a-z_.]+)/\?unit={unit.code}", html)))


class TestIceEngine:
    def test_fitting_an_ice_doubles_the_engine_adds_amplifiers_and_grounds_the_jets(self, cast):
        mech = UnitFactory(campaign=cast.campaign, name="Rustbucket", tonnage=50, jump_mp=4)
        entry = resolve(
            cast,
            "lowtech.ice_engine",
            {"fusion_engine_weight_t": 8.5, "tonnage": 50, "energy_weapon_tons": 11.5, "is_utility": True},
            unit=mech,
        )
        mech.refresh_from_db()
        assert mech.engine_type == "ice" and mech.jump_mp == 0
        assert entry.pending == []
        refit = UnitRefit.objects.get(unit=mech)
        assert refit.ice_weight_t == 17 and refit.power_amps_t == 1.2
        assert refit.internal_structure_t == 10 and refit.utility
        assert "ICE 17 t, amplifiers 1.2 t, structure 10 t" in dashboard(cast).text

    def test_the_form_is_prefilled_from_the_unit_and_its_refit(self, cast):
        mech = UnitFactory(campaign=cast.campaign, tonnage=35)
        UnitRefitFactory(unit=mech, fusion_engine_weight_t=4, energy_weapon_tons=6, utility=True)
        response = procedure_page(cast, "lowtech.ice_engine", unit=mech)
        assert value_of(response.text, "tonnage") == "35"
        assert value_of(response.text, "fusion_engine_weight_t") == "4.0"
        assert value_of(response.text, "energy_weapon_tons") == "6.0"
        assert checked(response.text, "is_utility")

    def test_clan_technology_is_a_field_error_and_changes_nothing(self, cast):
        mech = UnitFactory(campaign=cast.campaign, tonnage=50, jump_mp=4)
        url = reverse("play:procedure", args=[cast.campaign.code, "lowtech.ice_engine"])
        data = {
            "unit": str(mech.code),
            "fusion_engine_weight_t": 8.5,
            "tonnage": 50,
            "energy_weapon_tons": 0,
            "tech_base": "clan",
            "cargo_bay_tons": 0,
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "Clan technology never puts an internal combustion engine" in response.text
        mech.refresh_from_db()
        assert mech.engine_type == "fusion" and mech.jump_mp == 4
        assert not UnitRefit.objects.exists()

    def test_undo_gives_back_the_fusion_engine_and_the_jump_jets(self, cast):
        mech = UnitFactory(campaign=cast.campaign, tonnage=50, jump_mp=4)
        entry = resolve(cast, "lowtech.ice_engine", {"fusion_engine_weight_t": 8.5, "tonnage": 50}, unit=mech)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        mech.refresh_from_db()
        assert mech.engine_type == "fusion" and mech.jump_mp == 4
        assert UnitRefit.objects.get(unit=mech).ice_weight_t is None


@pytest.fixture
def ice_mech(cast):
    return UnitFactory(campaign=cast.campaign, name="Digger", engine_type="ice", tonnage=40)


class TestIceExplosion:
    def test_the_next_hit_is_prefilled_from_the_units_engine_hits(self, cast, ice_mech):
        ice_mech.engine_hits = 1
        ice_mech.save()
        UnitRefitFactory(unit=ice_mech, engine_hits_checked=1)
        response = procedure_page(cast, "lowtech.ice_explosion", unit=ice_mech)
        assert value_of(response.text, "engine_hit_number") == "2"
        # 2D6 + 3 >= 10: 7+ on 2D6 = 21/36
        assert "58.3%" in response.text

    def test_a_hit_nobody_has_rolled_for_is_checked_first(self, cast, ice_mech):
        ice_mech.engine_hits = 2
        ice_mech.save()
        response = procedure_page(cast, "lowtech.ice_explosion", unit=ice_mech)
        assert value_of(response.text, "engine_hit_number") == "1"

    def test_an_explosion_is_recorded_against_the_engine_hits_and_undone(self, cast, ice_mech):
        entry = resolve(cast, "lowtech.ice_explosion", {"engine_hit_number": 2}, dice=[3, 4], unit=ice_mech)
        assert entry.result == {"exploded": True, "total": 10, "destroyed_for_play": True}
        assert entry.pending == []
        ice_mech.refresh_from_db()
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert ice_mech.engine_hits == 2
        assert refit.engine_hits_checked == 2 and refit.destroyed and refit.engine_exploded
        assert "engine exploded" in dashboard(cast).text
        changed = {(c["target"], c["field"]) for c in entry.effects}
        assert {
            ("unit", "engine_hits"),
            ("unitrefit", "engine_exploded"),
            ("unitrefit", "destroyed"),
        } <= changed

        services.log_entry_reverse(entry=entry, actor=cast.gm)
        ice_mech.refresh_from_db()
        refit.refresh_from_db()
        assert ice_mech.engine_hits == 0
        assert (refit.engine_hits_checked, refit.destroyed, refit.engine_exploded) == (0, False, False)

    def test_no_explosion_below_10_leaves_the_mech_fighting(self, cast, ice_mech):
        entry = resolve(cast, "lowtech.ice_explosion", {"engine_hit_number": 2}, dice=[3, 3], unit=ice_mech)
        assert entry.result["exploded"] is False and entry.result["total"] == 9
        ice_mech.refresh_from_db()
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert ice_mech.engine_hits == 2 and refit.engine_hits_checked == 2 and not refit.destroyed

    def test_the_third_hit_destroys_it_for_play_without_an_explosion(self, cast, ice_mech):
        entry = resolve(cast, "lowtech.ice_explosion", {"engine_hit_number": 3}, dice=[1, 2], unit=ice_mech)
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert entry.result["exploded"] is False
        assert refit.destroyed and not refit.engine_exploded

    def test_a_hit_already_on_the_record_is_not_counted_twice(self, cast, ice_mech):
        ice_mech.engine_hits = 2
        ice_mech.save()
        resolve(cast, "lowtech.ice_explosion", {"engine_hit_number": 1}, dice=[1, 1], unit=ice_mech)
        ice_mech.refresh_from_db()
        assert ice_mech.engine_hits == 2
        assert UnitRefit.objects.get(unit=ice_mech).engine_hits_checked == 1

    @pytest.mark.parametrize("hit", [0, 4])
    def test_a_hit_number_outside_1_to_3_is_a_field_error(self, cast, ice_mech, hit):
        url = reverse("play:procedure", args=[cast.campaign.code, "lowtech.ice_explosion"])
        data = {
            "unit": str(ice_mech.code),
            "engine_hit_number": hit,
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert not LogEntry.objects.filter(procedure="lowtech.ice_explosion").exists()

    def test_bad_physical_dice_are_refused(self, cast, ice_mech):
        url = reverse("play:procedure", args=[cast.campaign.code, "lowtech.ice_explosion"])
        data = {
            "unit": str(ice_mech.code),
            "engine_hit_number": 1,
            "dice": "7 1",
            "visibility": "everyone",
            "action": "enter",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        ice_mech.refresh_from_db()
        assert ice_mech.engine_hits == 0

    def test_only_ice_units_offer_the_check(self, cast, ice_mech):
        fusion = UnitFactory(campaign=cast.campaign, name="Atlas")
        html = dashboard_with_menus(cast.client("gm"), cast.campaign)
        assert "lowtech.ice_explosion" in menu_links(html, ice_mech)
        assert "lowtech.ice_explosion" not in menu_links(html, fusion)
        assert "lowtech.ice_engine" in menu_links(html, fusion)
        assert "lowtech.ice_engine" not in menu_links(html, ice_mech)


class TestEndPhaseExplosionChecks:
    @pytest.fixture
    def table_dice(self, monkeypatch):
        """The End Phase rolls the server's dice; these tests hand it the table's instead."""
        rolls = []
        real = services.procedure_resolve

        def with_dice(**kwargs):
            if kwargs["procedure_id"] == "lowtech.ice_explosion" and kwargs["dice"] is None:
                kwargs["dice"] = rolls.pop(0)
            return real(**kwargs)

        monkeypatch.setattr(services, "procedure_resolve", with_dice)
        return rolls

    def enter_end_phase(self, cast):
        cast.campaign.phase = "combat"
        cast.campaign.save()
        entries = services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        return [e for e in entries if e.procedure == "lowtech.ice_explosion"]

    def test_every_unchecked_hit_is_rolled_in_order(self, cast, ice_mech, table_dice):
        ice_mech.engine_hits = 2
        ice_mech.save()
        table_dice += [[1, 1], [2, 2]]
        checks = self.enter_end_phase(cast)
        assert [c.inputs["engine_hit_number"] for c in checks] == [1, 2]
        assert [c.result["total"] for c in checks] == [2, 7]
        assert all(c.inputs["@unit"]["code"] == str(ice_mech.code) for c in checks)
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert refit.engine_hits_checked == 2 and not refit.destroyed
        assert table_dice == []

    def test_the_end_phase_stops_rolling_once_the_engine_explodes(self, cast, ice_mech, table_dice):
        ice_mech.engine_hits = 3
        ice_mech.save()
        table_dice += [[1, 1], [4, 3], [6, 6]]
        checks = self.enter_end_phase(cast)
        assert [c.result["exploded"] for c in checks] == [False, True]
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert refit.destroyed and refit.engine_exploded and refit.engine_hits_checked == 2
        assert table_dice == [[6, 6]]  # the third hit is never rolled for

    def test_a_third_hit_without_an_explosion_still_ends_it(self, cast, ice_mech, table_dice):
        ice_mech.engine_hits = 3
        ice_mech.save()
        table_dice += [[1, 1], [1, 1], [1, 1]]
        checks = self.enter_end_phase(cast)
        assert [c.inputs["engine_hit_number"] for c in checks] == [1, 2, 3]
        refit = UnitRefit.objects.get(unit=ice_mech)
        assert refit.destroyed and not refit.engine_exploded

    def test_checked_hits_fusion_engines_and_wrecks_are_left_alone(self, cast, ice_mech, table_dice):
        ice_mech.engine_hits = 1
        ice_mech.save()
        UnitRefitFactory(unit=ice_mech, engine_hits_checked=1)
        UnitFactory(campaign=cast.campaign, engine_hits=2)  # fusion: no explosion rule
        wreck = UnitFactory(campaign=cast.campaign, engine_type="ice", engine_hits=2)
        UnitRefitFactory(unit=wreck, engine_hits_checked=1, destroyed=True)
        assert self.enter_end_phase(cast) == []


class TestUtilityCriticals:
    @pytest.fixture
    def loader(self, cast):
        unit = UnitFactory(campaign=cast.campaign, name="Loader", tonnage=35)
        UnitRefitFactory(unit=unit, utility=True)
        return unit

    def test_a_torso_14_is_four_criticals(self, cast, loader):
        entry = resolve(
            cast, "lowtech.utility_critical", {"location_kind": "torso"}, dice=[6, 6], unit=loader
        )
        assert entry.result["crits"] == 4 and entry.result["table_row"] == 14
        assert UnitRefit.objects.get(unit=loader).critical_hits == 4

    def test_a_limb_on_a_modified_13_is_blown_off_and_undone(self, cast, loader):
        entry = resolve(
            cast, "lowtech.utility_critical", {"location_kind": "head_limb"}, dice=[5, 6], unit=loader
        )
        assert entry.result["blown_off"] is True and entry.result["table_row"] == 12
        assert entry.pending == []
        refit = UnitRefit.objects.get(unit=loader)
        assert refit.locations_blown_off == 1 and refit.critical_hits == 0
        assert "1 location blown off" in dashboard(cast).text
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        refit.refresh_from_db()
        assert refit.locations_blown_off == 0

    def test_a_7_is_no_critical_and_changes_nothing(self, cast, loader):
        entry = resolve(
            cast, "lowtech.utility_critical", {"location_kind": "torso"}, dice=[2, 3], unit=loader
        )
        assert entry.result["crits"] == 0 and entry.effects == []

    def test_a_sixth_location_cannot_be_lost(self, cast, loader):
        loader.refit.locations_blown_off = 5
        loader.refit.save()
        with pytest.raises(services.PlayError, match="only 5 locations to lose"):
            resolve(
                cast, "lowtech.utility_critical", {"location_kind": "head_limb"}, dice=[6, 6], unit=loader
            )

    def test_only_utility_mechs_offer_the_table(self, cast, loader):
        battlemech = UnitFactory(campaign=cast.campaign, name="Warhammer")
        html = dashboard_with_menus(cast.client("gm"), cast.campaign)
        assert "lowtech.utility_critical" in menu_links(html, loader)
        assert "lowtech.utility_critical" not in menu_links(html, battlemech)
