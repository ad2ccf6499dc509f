"""Generating a trap from the browser: the campaign's year, the GM's charts, undo."""

import html
import re

import pytest
from django.urls import reverse

from referee.boobytraps.models import BoobyTrap, WeaponChart
from referee.play import services
from referee.play.models import LogEntry
from tests.referee.conftest import htmx, shown, typed
from tests.referee.menus import dashboard_with_menus

from .factories import DRONE_CAPACITIES, BoobyTrapFactory, WeaponChartFactory, drone_entries

pytestmark = pytest.mark.django_db

GENERATE = "booby_trap.generate"


def procedure_url(cast, procedure_id=GENERATE):
    return reverse("play:procedure", args=[cast.campaign.code, procedure_id])


def value_of(text: str, name: str) -> str | None:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', text)
    return m.group(1) if m else None


@pytest.fixture
def year_150(cast):
    cast.campaign.year = 150  # speed 18, weapon-space column 140
    cast.campaign.save()
    return cast.campaign


@pytest.fixture
def drone_chart(cast):
    return WeaponChartFactory(
        campaign=cast.campaign,
        name="Our drones",
        weapon_type="drone",
        entries=drone_entries(),
        rack_capacities=DRONE_CAPACITIES,
    )


def generate(cast, trap, dice, **inputs):
    data = {
        "visibility": "gm",
        "action": "enter",
        "trap": str(trap.code),
        "year": str(cast.campaign.year),
        "mode": "campaign",
        "fill_weapons": "on",
        "dice": " ".join(map(str, dice)),
    }
    for name in ("torp_chart", "drone_chart", "phaser_chart"):
        chart = trap.chart(name.removesuffix("_chart"))
        data.update(typed(GENERATE, name, chart.entries if chart else None))
    for name, value in inputs.items():
        if name.endswith("_chart"):  # a chart typed row by row replaces the trap's
            data = {k: v for k, v in data.items() if not k.startswith(f"{name}-")}
            data.update(typed(GENERATE, name, value))
        else:
            data[name] = value
    return cast.client("gm").post(procedure_url(cast), data, **htmx())


class TestThePage:
    def test_the_year_comes_from_the_campaign_and_the_charts_from_the_trap(self, cast, year_150, drone_chart):
        trap = BoobyTrapFactory(campaign=cast.campaign, drone_chart=drone_chart)
        response = cast.client("gm").get(procedure_url(cast) + f"?trap={trap.code}")
        assert response.status_code == 200
        assert value_of(response.text, "year") == "150"
        drones = shown(response.text, GENERATE, "drone_chart")
        assert "Drone rack C (FA)" in [entry["weapon"] for entry in drones.values()]
        assert shown(response.text, GENERATE, "torp_chart") is None  # empty: the printed chart
        assert shown(response.text, GENERATE, "phaser_chart") is None  # none kept: left for the GM

    def test_a_traps_rolls_are_for_the_gm_unless_it_is_shared(self, cast):
        hidden = BoobyTrapFactory(campaign=cast.campaign)
        shared = BoobyTrapFactory(campaign=cast.campaign, shared=True)
        page = cast.client("gm").get(procedure_url(cast) + f"?trap={hidden.code}")
        assert re.search(r'<option value="gm" selected', page.text)
        page = cast.client("gm").get(procedure_url(cast) + f"?trap={shared.code}")
        assert re.search(r'<option value="shared" selected', page.text)

    def test_the_dashboard_offers_generate_on_each_trap(self, cast):
        trap = BoobyTrapFactory(campaign=cast.campaign, name="Wanderer")
        page = dashboard_with_menus(cast.client("gm"), cast.campaign)
        assert 'id="boobytraps-panel"' in page
        assert f"{procedure_url(cast)}?trap={trap.code}" in html.unescape(page)
        assert "unarmed: not generated yet" in page


class TestGeneration:
    def test_it_fills_the_trap_from_the_printed_and_the_gms_charts(self, cast, year_150, drone_chart):
        trap = BoobyTrapFactory(campaign=cast.campaign, name="Wanderer", drone_chart=drone_chart)
        # spaces: torp 2D6=7 -> 2, drone 2D6=2 -> 4, phaser 2D6=12 -> 4 (column 140)
        # torp fill: 2 -> Plasma-R (2 spaces); drone fill: 3 -> rack B (2), 12 -> rack C (2)
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6, 1, 1, 1, 2, 6, 6])
        assert response.status_code == 200, response.text[:3000]
        trap.refresh_from_db()
        assert trap.speed == 18 and trap.year_band == "150-154" and trap.column == "140"
        assert (trap.spaces_torp, trap.spaces_drone, trap.spaces_phaser) == (2, 4, 4)
        assert trap.weapons_torp == ["Plasma-R (FA)"]
        assert trap.weapons_drone == ["Drone rack B (FA)", "Drone rack C (FA)"]
        assert trap.weapons_phaser is None  # no phaser chart: the GM fills them
        assert trap.drone_racks == [
            {"weapon": "Drone rack B (FA)", "capacity": 6, "loaded": 6},
            {"weapon": "Drone rack C (FA)", "capacity": 8, "loaded": 8},
        ]
        entry = LogEntry.objects.get(procedure=GENERATE)
        assert entry.visibility == "gm" and entry.pending == []
        dashboard = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code]))
        assert "Plasma-R (FA)" in dashboard.text and "8/8" in dashboard.text

    def test_a_scenario_trap_adjusts_its_speed_and_takes_the_column_of_the_new_speed(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        # adjust 2D6=12 -> +4D6 = 4: speed 18 -> 22 (column 160); spaces 7,7,7 -> 2 each
        dice = [6, 6, 1, 1, 1, 1, 3, 4, 3, 4, 3, 4, 1, 1]
        response = generate(cast, trap, dice, mode="scenario", fill_weapons="on")
        assert response.status_code == 200, response.text[:3000]
        trap.refresh_from_db()
        assert trap.speed == 22 and trap.column == "160"
        assert (trap.spaces_torp, trap.spaces_drone, trap.spaces_phaser) == (2, 2, 2)

    def test_undo_puts_the_trap_back_as_it_was(self, cast, year_150, drone_chart):
        trap = BoobyTrapFactory(
            campaign=cast.campaign,
            drone_chart=drone_chart,
            drone_racks=[{"weapon": "Old rack", "capacity": 2, "loaded": 0}],
        )
        generate(cast, trap, [3, 4, 1, 1, 6, 6, 1, 1, 1, 2, 6, 6])
        entry = LogEntry.objects.get(procedure=GENERATE)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        trap.refresh_from_db()
        assert trap.speed is None and trap.year_band == ""
        assert (trap.spaces_torp, trap.spaces_drone, trap.spaces_phaser) == (0, 0, 0)
        assert trap.weapons_torp is None and trap.weapons_drone is None
        assert trap.drone_racks == [{"weapon": "Old rack", "capacity": 2, "loaded": 0}]

    def test_without_a_drone_chart_the_gms_racks_stay_and_start_full(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"capacity": 4, "loaded": 1}])
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6, 1, 1])
        assert response.status_code == 200, response.text[:3000]
        trap.refresh_from_db()
        assert trap.weapons_drone is None
        assert trap.drone_racks == [{"capacity": 4, "loaded": 4}]


class TestRefusals:
    def test_a_stored_chart_that_breaks_ir107_32_is_refused_with_the_reason(self, cast, year_150):
        bad = WeaponChartFactory(campaign=cast.campaign, name="Bad")
        entries = dict(bad.entries)
        entries["2"] = {"weapon": "Mauler (FA)", "spaces": 2, "weight": 2}
        WeaponChart.objects.filter(pk=bad.pk).update(entries=entries)  # as if saved before the check
        trap = BoobyTrapFactory(campaign=cast.campaign, torp_chart_id=bad.pk)
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6, 1, 1])
        assert response.status_code == 422
        assert "Maulers cannot be booby-trap weapons (IR107.32)" in html.unescape(response.text)
        trap.refresh_from_db()
        assert trap.speed is None
        assert not LogEntry.objects.filter(procedure=GENERATE).exists()

    def test_a_chart_of_the_wrong_type_on_the_trap_is_refused(self, cast, year_150, drone_chart):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        BoobyTrap.objects.filter(pk=trap.pk).update(torp_chart=drone_chart)  # past the form's check
        trap.refresh_from_db()
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6, 1, 1])
        assert response.status_code == 422
        assert "Our drones is a drone-hit chart, not a torpedo-hit chart." in html.unescape(response.text)
        assert BoobyTrap.objects.get(pk=trap.pk).speed is None

    def test_a_chart_with_no_one_space_weapon_is_refused(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        two_spaces = {str(r): {"weapon": "Photon (FA)", "spaces": 2} for r in range(2, 13)}
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6], phaser_chart=two_spaces)
        assert response.status_code == 422
        assert "needs at least one 1-space weapon" in html.unescape(response.text)
        assert BoobyTrap.objects.get(pk=trap.pk).speed is None

    def test_a_chart_that_is_not_a_chart_is_refused(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        response = generate(cast, trap, [3, 4, 1, 1, 6, 6], drone_chart={"2": {"weapon": "x", "spaces": 1}})
        assert response.status_code == 422
        assert "A chart needs a weapon for every total from 2 to 12, or none at all (missing: 3, 4" in (
            html.unescape(response.text)
        )

    def test_wrong_dice_are_refused_and_nothing_changes(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        response = generate(cast, trap, [3, 4, 1])
        assert response.status_code == 422
        assert BoobyTrap.objects.get(pk=trap.pk).speed is None

    def test_a_player_cannot_generate(self, cast, year_150):
        trap = BoobyTrapFactory(campaign=cast.campaign)
        response = cast.client("player").post(procedure_url(cast), {"trap": str(trap.code)})
        assert response.status_code == 403
