"""Pursuit from the browser: the campaign's ships and units it detects, terrain, the lockout."""

import html

import pytest
from django.urls import reverse

from referee.boobytraps.models import BoobyTrap
from referee.play import services as play_services
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory, UnitFactory

from .factories import BoobyTrapFactory

pytestmark = pytest.mark.django_db


def url(cast, trap):
    return reverse("boobytraps:pursuit", args=[cast.campaign.code, trap.code])


def detected(obj, range_hexes, size_class, move_cost, speed) -> dict:
    key = obj.code
    return {
        f"detected_{key}": "on",
        f"range_{key}": str(range_hexes),
        f"size_{key}": str(size_class),
        f"cost_{key}": str(move_cost),
        f"speed_{key}": str(speed),
    }


def terrain(i, name, kind, range_hexes) -> dict:
    return {f"terrain_name_{i}": name, f"terrain_type_{i}": kind, f"terrain_range_{i}": str(range_hexes)}


@pytest.fixture
def trap(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Galax")
    return BoobyTrapFactory(campaign=cast.campaign, name="Wanderer", star_system=system)


@pytest.fixture
def fleet(cast, trap):
    return {
        "frigate": ShipFactory(
            campaign=cast.campaign, name="Frigate", star_system=trap.star_system, velocity=20
        ),
        "fighter_a": ShipFactory(
            campaign=cast.campaign, name="Fighter A", kind="fighter_squadron", velocity=15
        ),
        "fighter_b": ShipFactory(
            campaign=cast.campaign, name="Fighter B", kind="fighter_squadron", velocity=15
        ),
        "mech": UnitFactory(campaign=cast.campaign, name="Atlas"),
    }


class TestAccess:
    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_runs_pursuit(self, cast, trap, who, status):
        assert cast.client(who).get(url(cast, trap)).status_code == status
        assert cast.client(who).post(url(cast, trap), {}).status_code == status
        assert not LogEntry.objects.exists()

    def test_wrong_method_and_another_campaigns_trap(self, cast, trap):
        assert cast.client("gm").put(url(cast, trap)).status_code == 405
        stranger = BoobyTrapFactory()
        assert cast.client("gm").get(url(cast, stranger)).status_code == 404


class TestUnits:
    def test_the_page_lists_the_campaigns_ships_and_units_those_in_its_system_first(self, cast, trap, fleet):
        page = cast.client("gm").get(url(cast, trap))
        assert page.status_code == 200
        text = page.text
        assert text.index("Frigate") < text.index("Fighter A") < text.index("Fighter B") < text.index("Atlas")
        assert f'name="speed_{fleet["frigate"].code}" value="20"' in text  # its velocity

    def test_the_nearest_unit_becomes_the_target(self, cast, trap, fleet):
        data = {**detected(fleet["frigate"], 4, 4, "1/2", 20), **detected(fleet["mech"], 9, 7, 1, 4)}
        response = cast.client("gm").post(url(cast, trap), data)
        assert response.status_code == 200, response.text[:3000]
        trap.refresh_from_db()
        assert (trap.target, trap.target_kind, trap.course) == ("Frigate", "unit", "pursuit")
        entry = LogEntry.objects.get(procedure="booby_trap.pursuit_target")
        assert entry.result["decided_by"] == "range" and entry.visibility == "gm"
        assert not LogEntry.objects.filter(procedure="booby_trap.terrain_pursuit").exists()
        assert 'data-testid="result-card"' in response.text

    def test_ties_go_to_the_smallest_then_the_cheapest_then_the_slowest(self, cast, trap, fleet):
        data = {
            **detected(fleet["frigate"], 5, 4, "1/2", 20),
            **detected(fleet["fighter_a"], 5, 6, "1/3", 15),
            **detected(fleet["fighter_b"], 5, 6, "1/3", 12),
        }
        cast.client("gm").post(url(cast, trap), data)
        trap.refresh_from_db()
        assert trap.target == "Fighter B"
        assert LogEntry.objects.get().result["decided_by"] == "speed"

    def test_a_full_tie_takes_the_die_the_table_rolled(self, cast, trap, fleet):
        data = {
            **detected(fleet["fighter_a"], 5, 6, "1/3", 15),
            **detected(fleet["fighter_b"], 5, 6, "1/3", 15),
            "dice": "2",
        }
        response = cast.client("gm").post(url(cast, trap), data)
        assert response.status_code == 200
        trap.refresh_from_db()
        assert trap.target == "Fighter B"
        entry = LogEntry.objects.get()
        assert entry.result["decided_by"] == "random" and entry.rolls[0]["values"] == [2]

    def test_nothing_detected_sends_it_straight_on(self, cast, trap):
        BoobyTrap.objects.filter(pk=trap.pk).update(course="pursuit", target="Frigate", target_kind="unit")
        response = cast.client("gm").post(url(cast, trap), {})
        assert response.status_code == 200
        trap.refresh_from_db()
        assert (trap.target, trap.target_kind, trap.course) == ("", "", "straight")

    def test_sizes_and_costs_carry_over_from_the_last_check(self, cast, trap, fleet):
        cast.client("gm").post(url(cast, trap), detected(fleet["frigate"], 4, 3, "1/2", 20))
        page = cast.client("gm").get(url(cast, trap)).text
        code = fleet["frigate"].code
        assert f'name="size_{code}" value="3"' in page and f'name="cost_{code}" value="1/2"' in page
        assert f'name="detected_{code}" id="id_detected_{code}" checked' in page

    def test_undo_restores_the_old_target(self, cast, trap, fleet):
        BoobyTrap.objects.filter(pk=trap.pk).update(course="pursuit", target="Atlas", target_kind="unit")
        cast.client("gm").post(url(cast, trap), detected(fleet["frigate"], 4, 4, "1/2", 20))
        play_services.log_entry_reverse(entry=LogEntry.objects.get(), actor=cast.gm)
        trap.refresh_from_db()
        assert (trap.target, trap.target_kind, trap.course) == ("Atlas", "unit", "pursuit")


class TestBadInput:
    def test_a_detected_unit_needs_its_numbers(self, cast, trap, fleet):
        data = detected(fleet["frigate"], 4, 4, "1/2", 20)
        data[f"size_{fleet['frigate'].code}"] = ""
        response = cast.client("gm").post(url(cast, trap), data)
        assert response.status_code == 422
        assert "Frigate is detected: give its size class." in response.text
        assert not LogEntry.objects.exists()

    def test_a_size_class_outside_1_to_7_is_refused(self, cast, trap, fleet):
        response = cast.client("gm").post(url(cast, trap), detected(fleet["frigate"], 4, 9, "1/2", 20))
        assert response.status_code == 422
        assert "less than or equal to 7" in response.text

    def test_a_movement_cost_the_engine_cannot_read_is_refused_with_its_reason(self, cast, trap, fleet):
        response = cast.client("gm").post(url(cast, trap), detected(fleet["frigate"], 4, 4, "half", 20))
        assert response.status_code == 422
        assert "must be a number or a fraction like 1/3" in html.unescape(response.text)
        trap.refresh_from_db()
        assert trap.target == ""

    def test_a_die_that_is_not_needed_is_refused(self, cast, trap, fleet):
        data = {**detected(fleet["frigate"], 4, 4, "1/2", 20), "dice": "3"}
        response = cast.client("gm").post(url(cast, trap), data)
        assert response.status_code == 422
        assert 'data-testid="error-dice"' in response.text
        assert not LogEntry.objects.exists()

    def test_dice_that_are_not_numbers_are_refused(self, cast, trap):
        response = cast.client("gm").post(url(cast, trap), {"dice": "six"})
        assert response.status_code == 422
        assert "whole numbers" in response.text

    def test_terrain_needs_a_name_and_a_range(self, cast, trap):
        response = cast.client("gm").post(url(cast, trap), {"terrain_name_0": "Warp point 1"})
        assert response.status_code == 422
        assert "both a name and a range" in response.text


class TestTerrain:
    def test_detected_terrain_is_pursued_when_no_unit_is(self, cast, trap):
        data = {**terrain(0, "Rift", "space_rift", 420), **terrain(1, "Warp point 1", "warp_point", 250)}
        response = cast.client("gm").post(url(cast, trap), data)
        assert response.status_code == 200, response.text[:3000]
        trap.refresh_from_db()
        assert (trap.target, trap.target_kind, trap.course) == ("Warp point 1", "terrain", "pursuit")
        entry = LogEntry.objects.get(procedure="booby_trap.terrain_pursuit")
        assert entry.inputs["current_turn"] == cast.campaign.turn
        assert entry.result["detected_ids"] == ["Warp point 1"]  # the rift is beyond 300 hexes

    def test_units_come_first_unless_the_gm_says_terrain(self, cast, trap, fleet):
        data = {**detected(fleet["frigate"], 4, 4, "1/2", 20), **terrain(0, "Warp point 1", "warp_point", 10)}
        cast.client("gm").post(url(cast, trap), data)
        trap.refresh_from_db()
        assert trap.target == "Frigate"
        BoobyTrap.objects.filter(pk=trap.pk).update(terrain_priority="terrain")
        cast.client("gm").post(url(cast, trap), data)
        trap.refresh_from_db()
        assert (trap.target, trap.target_kind) == ("Warp point 1", "terrain")

    def test_passing_through_locks_terrain_out_for_500_turns(self, cast, trap):
        cast.campaign.turn = 1200
        cast.campaign.save()
        warp = terrain(0, "Warp point 1", "warp_point", 0)
        cast.client("gm").post(url(cast, trap), warp)
        response = cast.client("gm").post(url(cast, trap), {**warp, "passes_through": "on"})
        assert response.status_code == 200
        trap.refresh_from_db()
        assert trap.terrain_cooldown_until == 1700
        assert (trap.target, trap.target_kind, trap.course) == ("", "", "straight")
        assert 'data-testid="trap-course"' in response.text and "to turn 1700" in response.text
        # Still locked out on turn 1700, free again on 1701.
        cast.campaign.turn = 1700
        cast.campaign.save()
        cast.client("gm").post(url(cast, trap), terrain(0, "Warp point 2", "warp_point", 5))
        trap.refresh_from_db()
        assert trap.target == "" and LogEntry.objects.filter(result__locked_out=True).count() == 1
        cast.campaign.turn = 1701
        cast.campaign.save()
        cast.client("gm").post(url(cast, trap), terrain(0, "Warp point 2", "warp_point", 5))
        trap.refresh_from_db()
        assert trap.target == "Warp point 2"

    def test_the_lockout_is_kept_per_trap(self, cast, trap):
        other = BoobyTrapFactory(campaign=cast.campaign, name="Other")
        cast.client("gm").post(url(cast, trap), {**terrain(0, "W", "warp_point", 0), "passes_through": "on"})
        trap.refresh_from_db()
        other.refresh_from_db()
        assert trap.terrain_cooldown_until == cast.campaign.turn + 500
        assert other.terrain_cooldown_until is None

    def test_undo_lifts_the_lockout(self, cast, trap):
        cast.client("gm").post(url(cast, trap), {**terrain(0, "W", "warp_point", 0), "passes_through": "on"})
        entry = LogEntry.objects.get(procedure="booby_trap.terrain_pursuit")
        play_services.log_entry_reverse(entry=entry, actor=cast.gm)
        trap.refresh_from_db()
        assert trap.terrain_cooldown_until is None
