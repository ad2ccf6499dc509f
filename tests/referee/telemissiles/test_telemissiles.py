"""Tele-operated missiles: the record, its panel, its Roll… menu, and the fuel a thrust spends."""

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import LogEntry
from referee.telemissiles.models import Telemissile
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.menus import dashboard_with_menus

pytestmark = pytest.mark.django_db


@pytest.fixture
def whale(cast):
    operator = ShipFactory(campaign=cast.campaign, name="Aegis")
    return Telemissile.objects.create(
        campaign=cast.campaign, name="Whale one", missile_type="killer_whale_t", operator=operator
    )


def create_url(cast):
    return reverse("campaigns:object-create", args=[cast.campaign.code, "telemissiles"])


class TestTheRecord:
    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_adds_a_missile(self, cast, who, status):
        data = {"name": "Whale", "missile_type": "killer_whale_t", "armor_boxes_lost": 0}
        assert cast.client(who).post(create_url(cast), data).status_code == status
        assert not Telemissile.objects.exists()

    def test_the_gm_adds_one_and_the_panel_lists_it_with_the_tables_fuel(self, cast):
        data = {"name": "Whale", "missile_type": "killer_whale_t", "armor_boxes_lost": 0}
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 200
        assert 'id="telemissiles-panel"' in response.text
        assert '<td data-testid="fuel-whale">30</td>' in response.text
        assert Telemissile.objects.get().campaign == cast.campaign

    def test_a_nonsense_fire_factor_is_refused_with_a_message(self, cast):
        data = {"name": "Whale", "missile_type": "kraken_t", "fire_factor": 0, "armor_boxes_lost": 0}
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 422
        assert not Telemissile.objects.exists()

    def test_the_dashboard_shows_the_panel_with_the_missiles_roll_menu(self, cast, whale):
        page = dashboard_with_menus(cast.client("gm"), cast.campaign)
        assert "Tele-operated missiles" in page
        thrust = reverse("play:procedure", args=[cast.campaign.code, "telemissile.maneuver"])
        assert f"{thrust}?missile={whale.code}" in page


class TestTheProcedures:
    def test_the_thrust_form_is_prefilled_from_the_missile(self, cast, whale):
        whale.fuel = 12
        whale.save()
        url = reverse("play:procedure", args=[cast.campaign.code, "telemissile.maneuver"])
        form = cast.client("gm").get(f"{url}?missile={whale.code}").context["form"]
        assert form.initial["fuel"] == 12
        assert form.initial["missile_type"] == "killer_whale_t"
        assert form.initial["visibility"] == "gm"  # not shared with the players

    def test_a_thrust_spends_the_missiles_fuel_and_undo_gives_it_back(self, cast, whale):
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="telemissile.maneuver",
            inputs={"missile_type": "killer_whale_t", "fuel": None, "tp_requested": 4},
            dice=[],
            actor=cast.gm,
            subjects={"missile": whale.code},
        )
        whale.refresh_from_db()
        assert whale.fuel == 26
        assert entry.pending == []
        assert [(c["field"], c["before"], c["after"]) for c in entry.effects] == [("fuel", None, 26)]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        whale.refresh_from_db()
        assert whale.fuel is None

    def test_the_attack_is_prefilled_and_its_damage_stays_with_the_gm(self, cast, whale):
        whale.fuel, whale.armor_boxes_lost = 5, 1
        whale.save()
        target = ShipFactory(campaign=cast.campaign, name="Raider")
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="telemissile.attack",
            inputs={"missile_type": "killer_whale_t", "armor_boxes_lost": 1, "fuel_left": 5},
            dice=[6, 6],
            actor=cast.gm,
            subjects={"missile": whale.code, "target": target.code},
        )
        assert entry.result["hit"] is True
        assert entry.effects == []
        assert [(e["target"], e["field"]) for e in entry.pending] == [("ship", "damage")]
        assert LogEntry.objects.get(pk=entry.pk).visibility == "gm"
