"""Procedures meet campaign state: detection, boarding, screens and detector watches."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from referee.fleet.models import Marker
from referee.play import services
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory, UnitFactory
from tests.referee.conftest import htmx, typed

pytestmark = pytest.mark.django_db


def page(cast, procedure_id, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]) + f"?{query}"
    )


def value_of(html: str, name: str) -> str | None:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html)
    return m.group(1) if m else None


@pytest.fixture
def galax(cast):
    return StarSystemFactory(campaign=cast.campaign, name="Galax")


class TestDetection:
    def test_distance_and_the_targets_drive_are_prefilled(self, cast, galax):
        detector = ShipFactory(
            campaign=cast.campaign,
            name="John Wayne",
            kind="dropship",
            kf_integrity=0,
            kf_integrity_max=0,
            star_system=galax,
            x_au=3,
            y_au=0,
            shared=True,
            military=True,
        )
        target = ShipFactory(
            campaign=cast.campaign,
            name="Waterloo",
            kf_integrity=2,
            kf_integrity_max=4,
            dropship_capacity=3,
            star_system=galax,
            x_au=0,
            y_au=0,
        )
        response = page(cast, "sensor.emergence_wave", detector=detector.code, target=target.code)
        assert value_of(response.text, "distance_au") == "3.0"
        assert value_of(response.text, "kf_integrity_max") == "4"  # detection uses the undamaged value
        assert value_of(response.text, "dropship_factor") == "3"
        # W13: TN 8 on 2D6 -> 15/36
        assert "41.7%" in response.text

    def test_ships_in_different_systems_leave_the_distance_to_the_gm(self, cast, galax):
        detector = ShipFactory(campaign=cast.campaign, star_system=galax, x_au=0, y_au=0)
        target = ShipFactory(campaign=cast.campaign, star_system=StarSystemFactory(campaign=cast.campaign))
        response = page(cast, "sensor.emergence_wave", detector=detector.code, target=target.code)
        assert value_of(response.text, "distance_au") in (None, "")

    def test_the_other_sides_detection_rolls_are_gm_only_by_default(self, cast):
        hidden = ShipFactory(campaign=cast.campaign, shared=False)
        target = ShipFactory(campaign=cast.campaign, shared=True)
        response = page(cast, "sensor.emergence_wave", detector=hidden.code, target=target.code)
        assert re.search(r'<option value="gm" selected', response.text)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="sensor.emergence_wave",
            inputs={"distance_au": 3, "kf_integrity_max": 4, "dropship_factor": 3},
            dice=[4, 4],
            actor=cast.gm,
            subjects={"detector": hidden.code, "target": target.code},
        )
        assert entry.visibility == "gm"
        assert entry.result["detected"] is True
        player_log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code]))
        assert "Detect" not in player_log.text and f"#{entry.seq}" not in player_log.text


class TestBoarding:
    def test_a_successful_landing_puts_the_unit_aboard(self, cast):
        unit = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=4)
        ship = ShipFactory(campaign=cast.campaign, kind="dropship", kf_integrity=0, kf_integrity_max=0)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.landing",
            inputs={"unit_kind": "mech", "piloting": 4, "target_kind": "dropship", "entry_hexside": "nose"},
            dice=[6, 6],
            actor=cast.gm,
            subjects={"unit": unit.code, "target": ship.code},
        )
        unit.refresh_from_db()
        assert entry.result["landed"] is True
        assert unit.landed_on == ship and unit.landed_location == "nose"
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        unit.refresh_from_db()
        assert unit.landed_on is None and unit.landed_location == ""

    def test_a_failed_landing_leaves_the_unit_where_it_was(self, cast):
        unit = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=4)
        ship = ShipFactory(campaign=cast.campaign, kind="dropship", kf_integrity=0, kf_integrity_max=0)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.landing",
            inputs={"unit_kind": "mech", "piloting": 4, "target_kind": "dropship"},
            dice=[1, 1],
            actor=cast.gm,
            subjects={"unit": unit.code, "target": ship.code},
        )
        unit.refresh_from_db()
        assert entry.result["landed"] is False and unit.landed_on is None

    def test_the_form_offers_only_mechs_and_battle_armour_as_boarders(self, cast):
        UnitFactory(campaign=cast.campaign, name="Victor", kind="battlemech")
        UnitFactory(campaign=cast.campaign, name="Hover APC", kind="vehicle")
        response = page(cast, "boarding.landing")
        assert "Victor" in response.text and "Hover APC" not in response.text


class TestEndPhaseMarkers:
    def advance_to_end(self, cast):
        for _ in range(3):
            services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        cast.campaign.refresh_from_db()
        assert cast.campaign.phase == "end"

    def test_every_active_screen_is_rolled_for_removal(self, cast):
        screen = Marker.objects.create(campaign=cast.campaign, name="Screen A", kind="screen", laid_turn=1)
        gone = Marker.objects.create(campaign=cast.campaign, name="Old", kind="screen", active=False)
        self.advance_to_end(cast)
        rolled = LogEntry.objects.filter(campaign=cast.campaign, procedure="screen.end_phase")
        assert rolled.count() == 1
        entry = rolled.get()
        assert entry.inputs["@screen"]["name"] == "Screen A" and entry.inputs["laid_this_turn"] is True
        screen.refresh_from_db()
        assert screen.active is (not entry.result["removed"])
        gone.refresh_from_db()
        assert gone.active is False

    def test_a_neutrino_watch_calibrates_then_checks_hourly_when_its_hour_comes(self, cast, galax):
        detector = ShipFactory(campaign=cast.campaign, star_system=galax, x_au=0, y_au=0)
        ShipFactory(campaign=cast.campaign, name="Stranger", star_system=galax, x_au=1, y_au=1)
        watch = Marker.objects.create(
            campaign=cast.campaign, name="Neutrino", kind="neutrino_watch", ship=detector
        )
        response = page(cast, "sensor.neutrino", watch=watch.code)
        assert re.search(r'<option value="calibrate" selected', response.text)
        services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="sensor.neutrino",
            inputs={"phase": "calibrate"},
            dice=[1, 1],
            actor=cast.gm,
            subjects={"watch": watch.code},
        )
        watch.refresh_from_db()
        assert watch.calibrated_at == cast.campaign.clock + timedelta(hours=2)
        self.advance_to_end(cast)  # the clock has not reached the calibration yet
        assert not LogEntry.objects.filter(procedure="sensor.neutrino", inputs__phase="hour").exists()
        services.campaign_clock_advance(campaign=cast.campaign, seconds=3 * 3600, reason="", actor=cast.gm)
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)  # turn 2
        self.advance_to_end(cast)
        check = LogEntry.objects.get(procedure="sensor.neutrino", inputs__phase="hour")
        assert check.visibility == "gm"  # the watch is not shared with players
        assert [v["distance_au"] for v in check.inputs["vessels"]] == [1.4142]
        watch.refresh_from_db()
        assert watch.next_check_at == watch.calibrated_at + timedelta(hours=1)


class TestOdds:
    def url(self, cast, procedure_id):
        return reverse("play:odds", args=[cast.campaign.code, procedure_id])

    def test_the_odds_follow_what_the_gm_types(self, cast):
        base = {"visibility": "everyone", "kf_integrity": "4", "kf_integrity_max": "4"}
        calm = cast.client("gm").post(self.url(cast, "jump.malfunction"), base, **htmx())
        hurried = cast.client("gm").post(
            self.url(cast, "jump.malfunction"), {**base, "hours_since_last_jump": "0.5"}, **htmx()
        )
        assert "97.2%" in calm.text and "2.8%" in calm.text
        assert "58.3%" in hurried.text and "41.7%" in hurried.text  # +4: a mishap on 8+ of 2D6

    def test_odds_of_another_result_key(self, cast):
        data = {"visibility": "everyone", "hours_since_last_jump": "0.5", "odds_key": "effect"}
        response = cast.client("gm").post(self.url(cast, "jump.malfunction"), data, **htmx())
        assert "micro fractures" in response.text

    def test_too_many_dice_paths_give_an_estimate_labelled_with_its_margin(self, cast):
        data = {
            "visibility": "everyone",
            "unit_type": "battlemech",
            **typed("terrain.magma", "movement_path", ["crust"]),
            "entry": "walk_run",
        }
        # Whether it falls through: exact (the eight locations' damage dice cannot change it).
        exact = cast.client("gm").post(
            self.url(cast, "terrain.magma"), {**data, "odds_key": "fell_through"}, **htmx()
        )
        assert exact.status_code == 200
        assert "83.3%" in exact.text and "16.7%" in exact.text
        assert 'data-testid="odds-estimate"' not in exact.text
        # The damage itself: 11^8 combinations after a fall, so simulated rolls, said plainly.
        estimate = cast.client("gm").post(
            self.url(cast, "terrain.magma"), {**data, "odds_key": "damage"}, **htmx()
        )
        assert estimate.status_code == 200
        note = re.search(r'data-testid="odds-estimate">([^<]*)<', estimate.text).group(1)
        assert note.startswith("Estimate from ")
        assert re.search(r"± \d+\.\d points", note)
        assert "roll it instead" not in estimate.text

    def test_only_the_gm_asks_for_odds(self, cast):
        assert cast.client("player").post(self.url(cast, "jump.malfunction"), {}).status_code == 403
        assert cast.client("outsider").post(self.url(cast, "jump.malfunction"), {}).status_code == 404
        assert cast.client("gm").get(self.url(cast, "jump.malfunction")).status_code == 405
