"""Every booby-trap procedure from the browser against a trap: pre-filled from its state,
its effects landing on its fields, undoable; effects the trap cannot take stay pending."""

import re

import pytest
from django.urls import reverse

import rules
from referee.boobytraps.models import BoobyTrap
from referee.play import families, services
from referee.play.bindings import Context
from referee.play.effects import ChangeRecorder, apply_effects
from referee.play.models import LogEntry
from tests.referee.conftest import form_data, htmx, shown

from .factories import DRONE_CAPACITIES, BoobyTrapFactory, WeaponChartFactory, drone_entries, phaser_entries

pytestmark = pytest.mark.django_db

BOOBY_TRAP_IDS = [p for p in rules.PROCEDURE_IDS if p.startswith("booby_trap.")]


def page(cast, procedure_id, trap):
    return cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]) + f"?trap={trap.code}"
    )


def value_of(text: str, name: str) -> str | None:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', text)
    return m.group(1) if m else None


def resolve(cast, procedure_id, trap, inputs, dice):
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id=procedure_id,
        inputs=inputs,
        dice=dice,
        actor=cast.gm,
        subjects={"trap": trap.code},
    )


@pytest.mark.parametrize("procedure_id", BOOBY_TRAP_IDS)
def test_every_booby_trap_procedure_resolves_against_a_trap_from_its_page(cast, procedure_id):
    procedure = rules.get(procedure_id)
    racks = [{"capacity": 4, "loaded": 1}, {"capacity": 6, "loaded": 6}]  # as in the upkeep example
    trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=racks)
    assert families.binding(procedure_id).roles[0].model is BoobyTrap
    response = page(cast, procedure_id, trap)
    assert response.status_code == 200
    data = {"visibility": "gm", "action": "roll", "dice": "", "trap": str(trap.code)}
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
    values.update(procedure.example)
    data.update(form_data(procedure_id, {k: v for k, v in values.items() if v is not None}))
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text[:2000]
    entry = LogEntry.objects.get(procedure=procedure_id)
    assert entry.inputs["@trap"]["code"] == str(trap.code)
    assert entry.pending == []  # every effect landed on the trap


def test_speed_from_the_campaign_year(cast):
    cast.campaign.year = 152
    cast.campaign.save()
    trap = BoobyTrapFactory(campaign=cast.campaign)
    assert value_of(page(cast, "booby_trap.speed_by_year", trap).text, "year") == "152"
    entry = resolve(cast, "booby_trap.speed_by_year", trap, {"year": 152}, None)
    trap.refresh_from_db()
    assert (trap.speed, trap.year_band) == (18, "150-154")
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    trap.refresh_from_db()
    assert (trap.speed, trap.year_band) == (None, "")


def test_the_scenario_adjustment_starts_from_the_traps_speed(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign, speed=3, year_band="75-79")
    assert value_of(page(cast, "booby_trap.scenario_speed_adjust", trap).text, "speed") == "3"
    resolve(cast, "booby_trap.scenario_speed_adjust", trap, {"speed": 3}, [1, 1, 6, 6, 6, 6])
    trap.refresh_from_db()
    assert (trap.speed, trap.year_band) == (1, "<70")  # 3 - 24, held at 1


def test_an_ungenerated_trap_takes_its_speed_from_the_campaign_year(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign)  # campaign year 3067: speed 32
    assert value_of(page(cast, "booby_trap.weapon_spaces", trap).text, "speed") == "32"


def test_weapon_spaces_land_on_the_trap(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign, speed=18)
    resolve(cast, "booby_trap.weapon_spaces", trap, {"speed": 18}, [1, 1, 3, 4, 6, 6])
    trap.refresh_from_db()
    assert (trap.spaces_torp, trap.spaces_drone, trap.spaces_phaser) == (4, 2, 4)


class TestFillWeapons:
    def test_the_page_offers_the_first_unfilled_type_with_its_chart(self, cast):
        drones = WeaponChartFactory(
            campaign=cast.campaign,
            weapon_type="drone",
            entries=drone_entries(),
            rack_capacities=DRONE_CAPACITIES,
        )
        trap = BoobyTrapFactory(
            campaign=cast.campaign,
            speed=18,
            spaces_torp=2,
            spaces_drone=3,
            weapons_torp=["Plasma-R (FA)"],
            drone_chart=drones,
        )
        text = page(cast, "booby_trap.fill_weapons", trap).text
        assert re.search(r'<option value="drone" selected', text)
        assert value_of(text, "spaces") == "3"
        assert shown(text, "booby_trap.fill_weapons", "chart") == drones.entries

    def test_filled_drone_racks_come_with_their_capacities(self, cast):
        drones = WeaponChartFactory(
            campaign=cast.campaign,
            weapon_type="drone",
            entries=drone_entries(),
            rack_capacities=DRONE_CAPACITIES,
        )
        trap = BoobyTrapFactory(campaign=cast.campaign, speed=18, spaces_drone=3, drone_chart=drones)
        inputs = {"spaces": 3, "weapon_type": "drone", "chart": drones.entries}
        entry = resolve(cast, "booby_trap.fill_weapons", trap, inputs, [1, 2, 2, 2])
        trap.refresh_from_db()
        assert trap.weapons_drone == ["Drone rack B (FA)", "Drone rack A (FA)"]
        assert trap.drone_racks == [
            {"weapon": "Drone rack B (FA)", "capacity": 6, "loaded": 6},
            {"weapon": "Drone rack A (FA)", "capacity": 4, "loaded": 4},
        ]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        trap.refresh_from_db()
        assert trap.weapons_drone is None and trap.drone_racks == []

    def test_phasers_fill_from_the_gms_chart(self, cast):
        phasers = WeaponChartFactory(campaign=cast.campaign, weapon_type="phaser", entries=phaser_entries())
        trap = BoobyTrapFactory(campaign=cast.campaign, speed=18, spaces_phaser=2, phaser_chart=phasers)
        inputs = {"spaces": 2, "weapon_type": "phaser", "chart": phasers.entries}
        resolve(cast, "booby_trap.fill_weapons", trap, inputs, [3, 4, 1, 1])
        trap.refresh_from_db()
        assert trap.weapons_phaser == ["Phaser-1 (FA)", "Phaser-2 (FA)"]

    def test_drone_and_phaser_weapons_need_a_chart(self, cast):
        trap = BoobyTrapFactory(campaign=cast.campaign, spaces_phaser=2)
        with pytest.raises(rules.InputError) as error:
            resolve(cast, "booby_trap.fill_weapons", trap, {"spaces": 2, "weapon_type": "phaser"}, [3, 4])
        assert "the rulebook prints no phaser-hit chart" in error.value.message
        assert not LogEntry.objects.exists()


def test_terrain_pursuit_is_prefilled_from_the_trap_and_the_turn(cast):
    cast.campaign.turn = 40
    cast.campaign.save()
    trap = BoobyTrapFactory(
        campaign=cast.campaign,
        course="pursuit",
        target="Frigate",
        target_kind="unit",
        terrain_priority="terrain",
        terrain_cooldown_until=35,
    )
    text = page(cast, "booby_trap.terrain_pursuit", trap).text
    assert value_of(text, "current_turn") == "40" and value_of(text, "terrain_cooldown_until") == "35"
    assert re.search(r'name="unit_target"[^>]*checked', text)
    assert re.search(r'<option value="terrain" selected', text)


def test_upkeep_is_prefilled_with_the_traps_racks(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"weapon": "A", "capacity": 4, "loaded": 1}])
    text = page(cast, "booby_trap.turn_upkeep", trap).text
    assert shown(text, "booby_trap.turn_upkeep", "drone_racks") == [{"capacity": 4, "loaded": 1}]
    resolve(
        cast,
        "booby_trap.turn_upkeep",
        trap,
        {"drone_racks": [{"capacity": 4, "loaded": 1}], "turns": 5},
        None,
    )
    trap.refresh_from_db()
    assert trap.drone_racks == [{"weapon": "A", "capacity": 4, "loaded": 4}]


def test_a_calculator_run_without_a_trap_leaves_its_effects_for_the_gm(cast):
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="booby_trap.speed_by_year",
        inputs={"year": 90},
        dice=None,
        actor=cast.gm,
    )
    assert [e["field"] for e in entry.pending] == ["speed", "year_band"] and entry.effects == []


class TestEffectRules:
    """An effect the trap cannot hold is left pending, never guessed."""

    @pytest.mark.parametrize(
        "field,value",
        [
            ("speed", 40),
            ("speed", "fast"),
            ("spaces", {"torp": 1}),
            ("spaces", {"torp": 9, "drone": 1, "phaser": 1}),
            ("weapons", {"torp": "Photon", "drone": None, "phaser": None}),
            ("weapons.torp", None),
            ("drone_racks[3].loaded", 2),
            ("drone_racks[0].loaded", True),
            ("drone_racks_loaded", "half"),
            ("course", "orbit"),
            ("terrain_cooldown_until", -1),
            ("heading", "A"),
        ],
    )
    def test_it_is_pending(self, cast, field, value):
        trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"capacity": 4, "loaded": 1}])
        effect = {"target": "booby_trap", "field": field, "op": "set", "value": value}
        recorder = ChangeRecorder()
        pending = apply_effects(
            [effect], {"booby_trap": trap}, Context(campaign=cast.campaign, objects={}), recorder
        )
        assert pending == [effect] and recorder.changes == {}

    def test_a_rack_never_goes_past_its_capacity_or_below_empty(self, cast):
        trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"capacity": 4, "loaded": 1}])
        effects = [
            {"target": "booby_trap", "field": "drone_racks[0].loaded", "op": "add", "value": 9},
        ]
        recorder = ChangeRecorder()
        apply_effects(effects, {"booby_trap": trap}, Context(campaign=cast.campaign, objects={}), recorder)
        assert trap.drone_racks == [{"capacity": 4, "loaded": 4}]
        effects[0].update(value=-9)
        apply_effects(effects, {"booby_trap": trap}, Context(campaign=cast.campaign, objects={}), recorder)
        assert trap.drone_racks == [{"capacity": 4, "loaded": 0}]
        change = next(iter(recorder.changes.values()))
        assert change["before"] == [{"capacity": 4, "loaded": 1}]  # the record keeps the old list
