"""A shot's steps against stored compartments: pre-filled from state, applied, undone."""

import html
import re

import pytest
from django.urls import reverse

from referee.play import families, services
from referee.play.bindings import Context
from referee.play.models import LogEntry
from referee.shipboard.models import Compartment, Surface
from tests.factories import CharacterFactory, ShipFactory
from tests.referee.conftest import form_data, htmx

from .factories import CompartmentFactory, SurfaceFactory

pytestmark = pytest.mark.django_db


def initial(cast, procedure_id, **objects) -> dict:
    """The engine inputs the binding pre-fills for these records."""
    binding = families.binding(procedure_id)
    return binding.initial(Context(campaign=cast.campaign, objects=objects))


def resolve(cast, procedure_id, dice, objects, **inputs) -> LogEntry:
    """Resolve as the GM's form would: pre-filled from state, then the GM's own values."""
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id=procedure_id,
        inputs={**initial(cast, procedure_id, **objects), **inputs},
        dice=dice,
        actor=cast.gm,
        subjects={name: obj.code for name, obj in objects.items()},
    )


def page(cast, procedure_id, **objects):
    query = "&".join(f"{name}={obj.code}" for name, obj in objects.items())
    response = cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]) + f"?{query}"
    )
    assert response.status_code == 200
    return response.text


def value_of(text: str, name: str) -> str | None:
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', text)
    return m.group(1) if m else None


def selected(text: str, name: str) -> str | None:
    select = re.search(rf'<select name="{name}".*?</select>', text, re.S)
    m = select and re.search(r'<option value="([^"]*)" selected', select.group(0))
    return m.group(1) if m else None


@pytest.fixture
def corridor(cast):
    return CompartmentFactory(campaign=cast.campaign, name="Corridor")


@pytest.fixture
def door(corridor):
    return SurfaceFactory(compartment=corridor, name="Door", surface_type="door")


@pytest.fixture
def bulkhead(corridor):
    return SurfaceFactory(compartment=corridor, name="Bulkhead", surface_type="minor_bulkhead")


class TestBulkheadHit:
    def test_the_form_is_prefilled_from_the_surface(self, cast, door):
        door.capacity_left = 44
        door.save()
        text = page(cast, "shipboard.bulkhead_hit", struck_surface=door)
        assert selected(text, "surface") == "door"
        assert value_of(text, "capacity") == "50"
        assert value_of(text, "threshold") == "4"
        assert value_of(text, "capacity_left") == "44"

    def test_w5_the_door_keeps_44_of_its_50(self, cast, door):
        entry = resolve(
            cast, "shipboard.bulkhead_hit", [6, 4], {"struck_surface": door}, damage_dice=2, damage_bonus=3
        )
        door.refresh_from_db()
        assert entry.result["inflicted"] == 6 and entry.result["excess"] == 2
        assert entry.result["next_steps"] == ["ricochet"]
        assert door.capacity_left == 44 and door.destroyed is False
        assert entry.pending == []
        assert entry.effects == [
            {
                "target": "surface",
                "code": str(door.code),
                "name": str(door),
                "field": "capacity_left",
                "label": "capacity left",
                "before": 50,
                "after": 44,
            }
        ]

    def test_capacity_damage_adds_up_across_shots_and_turns(self, cast, door):
        resolve(
            cast, "shipboard.bulkhead_hit", [6, 4], {"struck_surface": door}, damage_dice=2, damage_bonus=3
        )
        for _ in range(4):  # a whole turn later
            services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        cast.campaign.refresh_from_db()
        assert cast.campaign.turn == 2
        door.refresh_from_db()
        second = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=20)
        assert second.inputs["capacity_left"] == 44  # the form started from what the first shot left
        door.refresh_from_db()
        assert door.capacity_left == 34

    def test_a_door_worn_down_is_destroyed_and_the_excess_goes_through(self, cast, door):
        door.capacity_left = 5
        door.save()
        entry = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=14)
        door.refresh_from_db()
        assert door.capacity_left == -2  # not clamped at 0 (C.9)
        assert door.destroyed is True
        assert entry.result["next_steps"] == ["pass_through"]
        fields = {c["field"]: (c["before"], c["after"]) for c in entry.effects}
        assert fields == {"capacity_left": (5, -2), "destroyed": (False, True)}

    def test_undo_restores_capacity_and_the_door(self, cast, door):
        door.capacity_left = 5
        door.save()
        entry = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=14)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        door.refresh_from_db()
        assert door.capacity_left == 5 and door.destroyed is False

    def test_undo_of_the_first_of_two_shots_waits_for_the_second(self, cast, door):
        first = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=13)
        door.refresh_from_db()
        second = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=13)
        with pytest.raises(services.PlayError, match=f"Undo #{second.seq} first"):
            services.log_entry_reverse(entry=first, actor=cast.gm)
        services.log_entry_reverse(entry=second, actor=cast.gm)
        services.log_entry_reverse(entry=first, actor=cast.gm)
        door.refresh_from_db()
        assert door.capacity_left == 50

    def test_w8_aet_rounds_halve_the_damage_potential_through_the_binding(self, cast, bulkhead):
        entry = resolve(
            cast, "shipboard.bulkhead_hit", [], {"struck_surface": bulkhead}, raw_damage=12, ammo="aet"
        )
        bulkhead.refresh_from_db()
        assert entry.result["damage_potential"] == 6
        assert entry.result["inflicted"] == 3  # then the ½ armour rating [A26]
        assert bulkhead.capacity_left == 47

    def test_frangible_rounds_leave_the_capacity_alone_by_default(self, cast, door):
        entry = resolve(
            cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=30, ammo="frangible"
        )
        door.refresh_from_db()
        assert entry.result["pierced"] is False and door.capacity_left == 50
        assert entry.effects == []  # the engine set the same value

    def test_a_shot_at_a_destroyed_surface_is_refused_with_the_rule(self, cast, door):
        door.capacity_left = -3
        door.save()
        response = cast.client("gm").post(
            reverse("play:procedure", args=[cast.campaign.code, "shipboard.bulkhead_hit"]),
            {
                **_form(initial(cast, "shipboard.bulkhead_hit", struck_surface=door)),
                "struck_surface": str(door.code),
                "raw_damage": "10",
                "action": "roll",
                "visibility": "everyone",
            },
            **htmx(),
        )
        assert response.status_code == 422
        assert "already destroyed" in html.unescape(response.text)
        assert not LogEntry.objects.filter(procedure="shipboard.bulkhead_hit").exists()

    def test_an_effect_for_another_type_of_surface_stays_pending(self, cast, door):
        entry = resolve(
            cast,
            "shipboard.bulkhead_hit",
            [],
            {"struck_surface": door},
            surface="major_bulkhead",
            raw_damage=10,
        )
        door.refresh_from_db()
        assert door.capacity_left == 50
        assert [p["field"] for p in entry.pending] == ["surfaces.major_bulkhead.capacity_left"]

    def test_a_custom_object_uses_the_gms_values(self, cast, corridor):
        locker = SurfaceFactory(
            compartment=corridor,
            name="Locker",
            surface_type="custom",
            capacity=30,
            capacity_left=30,
            threshold=6,
            surface_kind="object",
        )
        entry = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": locker}, raw_damage=16)
        locker.refresh_from_db()
        assert entry.result["excess"] == 2 and entry.result["next_steps"] == ["ricochet"]
        assert locker.capacity_left == 22


def _form(values: dict, procedure_id: str = "shipboard.bulkhead_hit") -> dict:
    """Engine values as the procedure form posts them."""
    return form_data(procedure_id, values)


class TestThroughTheBrowser:
    def test_two_shots_posted_from_the_form_wear_the_bulkhead_down(self, cast, bulkhead):
        url = reverse("play:procedure", args=[cast.campaign.code, "shipboard.bulkhead_hit"])
        client = cast.client("gm")
        for expected in (43, 36):
            bulkhead.refresh_from_db()
            data = _form(initial(cast, "shipboard.bulkhead_hit", struck_surface=bulkhead))
            data.update(
                struck_surface=str(bulkhead.code),
                damage_dice="2",
                damage_bonus="3",
                dice="6 5",
                action="enter",
                visibility="everyone",
            )
            response = client.post(url, data, **htmx())
            assert response.status_code == 200, response.text[:500]
            bulkhead.refresh_from_db()
            assert bulkhead.capacity_left == expected
        assert "campaign-changed" in response.headers["HX-Trigger"]


class TestCriticalHits:
    def test_w6_the_critical_check_is_prefilled_from_the_pierce(self, cast, corridor, bulkhead):
        hit = resolve(
            cast,
            "shipboard.bulkhead_hit",
            [6, 5],
            {"struck_surface": bulkhead},
            damage_dice=2,
            damage_bonus=3,
        )
        assert hit.result["excess"] == 2 and hit.result["next_steps"] == ["critical"]
        bulkhead.refresh_from_db()
        assert bulkhead.capacity_left == 43
        text = page(cast, "shipboard.bulkhead_critical", compartment=corridor, pierced_bulkhead=bulkhead)
        assert value_of(text, "excess") == "2" and selected(text, "bulkhead") == "minor"
        crit = resolve(
            cast,
            "shipboard.bulkhead_critical",
            [3, 5, 3],
            {"compartment": corridor, "pierced_bulkhead": bulkhead},
        )
        corridor.refresh_from_db()
        assert crit.result["results"] == ["emergency_equipment"]
        assert corridor.emergency_equipment_disabled is True
        assert crit.pending == []

    def test_fuel_and_hydraulics_lines_in_a_major_bulkhead(self, cast, corridor):
        major = SurfaceFactory(compartment=corridor, surface_type="major_bulkhead")
        entry = resolve(
            cast,
            "shipboard.bulkhead_critical",
            [5, 5, 3, 2],
            {"compartment": corridor, "pierced_bulkhead": major},
            excess=2,
        )
        corridor.refresh_from_db()
        assert entry.result["results"] == ["fuel_line", "hydraulics_line"]
        assert corridor.fuel_line_crits == 1 and corridor.visibility_mod == 2
        # The ship's Control Roll modifier is not kept by the campaign: the GM applies it.
        assert entry.pending == [{"target": "ship", "field": "control_roll_mod", "op": "add", "value": 1}]

    def test_lights_and_power_line(self, cast, corridor):
        major = SurfaceFactory(compartment=corridor, surface_type="major_bulkhead")
        entry = resolve(
            cast,
            "shipboard.bulkhead_critical",
            [6, 6, 1, 5],
            {"compartment": corridor, "pierced_bulkhead": major},
            excess=1,
        )
        corridor.refresh_from_db()
        assert corridor.power_line_disabled is True and corridor.lights_damaged is True
        assert entry.pending == [{"target": "ship", "field": "power_points", "op": "add", "value": -1}]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        corridor.refresh_from_db()
        assert corridor.power_line_disabled is False and corridor.lights_damaged is False

    def test_a_bulkhead_of_another_compartment_is_refused(self, cast, corridor):
        elsewhere = SurfaceFactory(
            compartment=CompartmentFactory(campaign=cast.campaign, ship=corridor.ship, name="Bridge"),
            surface_type="minor_bulkhead",
        )
        with pytest.raises(services.PlayError, match="is not in"):
            resolve(
                cast,
                "shipboard.bulkhead_critical",
                [6, 6, 1, 1],
                {"compartment": corridor, "pierced_bulkhead": elsewhere},
                excess=2,
            )
        corridor.refresh_from_db()
        assert corridor.power_line_disabled is False
        assert not LogEntry.objects.filter(procedure="shipboard.bulkhead_critical").exists()

    def test_only_internal_bulkheads_are_offered_for_the_check(self, cast, corridor, door, bulkhead):
        text = page(cast, "shipboard.bulkhead_critical", compartment=corridor)
        select = re.search(r'<select name="pierced_bulkhead".*?</select>', text, re.S).group(0)
        assert str(bulkhead.code) in select and str(door.code) not in select


class TestDecompression:
    @pytest.fixture
    def hull(self, corridor):
        return SurfaceFactory(compartment=corridor, name="Hull", surface_type="external_bulkhead")

    def test_a_pierced_hull_decompresses_and_the_bulkheads_close_at_50000(self, cast, corridor, hull):
        hit = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": hull}, raw_damage=50)
        assert hit.result["excess"] == 5 and hit.result["next_steps"] == ["decompression"]
        text = page(cast, "shipboard.decompression", compartment=corridor)
        assert value_of(text, "penetrating_points") == "5"
        assert value_of(text, "pressure_pa") == "100000"
        entry = resolve(cast, "shipboard.decompression", None, {"compartment": corridor})
        corridor.refresh_from_db()
        assert corridor.pressure_pa == 50_000
        assert corridor.bulkheads_closed is True
        assert entry.result["explosive"] is False  # exactly 50,000 Pa is not "more than" [A31]
        assert corridor.breach_points == 5  # open until the crew seal it
        assert entry.pending == []

    def test_more_than_50000_in_a_round_is_explosive_and_the_build_saves_are_pending(self, cast, corridor):
        entry = resolve(
            cast, "shipboard.decompression", None, {"compartment": corridor}, penetrating_points=6
        )
        corridor.refresh_from_db()
        assert entry.result["explosive"] is True
        assert corridor.pressure_pa == 40_000 and corridor.bulkheads_closed is True
        assert entry.pending == [
            {"target": "character", "field": "build_save_required", "op": "set", "value": True}
        ]

    def test_above_50000_the_bulkheads_stay_open(self, cast, corridor):
        resolve(cast, "shipboard.decompression", None, {"compartment": corridor}, penetrating_points=2)
        corridor.refresh_from_db()
        assert corridor.pressure_pa == 80_000 and corridor.bulkheads_closed is False

    def test_undo_restores_pressure_bulkheads_and_the_breach(self, cast, corridor):
        entry = resolve(
            cast, "shipboard.decompression", None, {"compartment": corridor}, penetrating_points=5
        )
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        corridor.refresh_from_db()
        assert corridor.pressure_pa == 100_000
        assert corridor.bulkheads_closed is False and corridor.breach_points == 0

    def test_an_earlier_turns_pierce_is_not_offered_again(self, cast, corridor, hull):
        resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": hull}, raw_damage=50)
        for _ in range(4):
            services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        cast.campaign.refresh_from_db()
        assert "penetrating_points" not in initial(cast, "shipboard.decompression", compartment=corridor)


class TestFuelLeak:
    def test_the_form_starts_from_the_leak_kept(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(fuel_line_crits=1, fuel_leak_points=3)
        corridor.refresh_from_db()
        values = initial(cast, "shipboard.fuel_leak", compartment=corridor)
        assert values["fuel_line_crits"] == 1 and values["leaked_points"] == 3
        assert values["turns_leaking"] == 0  # the End Phase has already counted the turns

    def test_a_spark_blows_the_leaked_fuel_and_burns_it(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(fuel_line_crits=1, fuel_leak_points=3)
        corridor.refresh_from_db()
        entry = resolve(
            cast, "shipboard.fuel_leak", [4, 4, 1, 2, 3], {"compartment": corridor}, weapon_kind="other"
        )
        corridor.refresh_from_db()
        assert entry.result["ignited"] is True and entry.result["blast_damage"] == 6
        assert corridor.fuel_leak_points == 0  # burnt [A56]
        assert corridor.fuel_line_crits == 1  # the line still leaks
        assert entry.pending == [{"target": "character", "field": "damage", "op": "add", "value": 6}]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        corridor.refresh_from_db()
        assert corridor.fuel_leak_points == 3

    def test_a_failed_ignition_roll_leaves_the_fuel(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(fuel_line_crits=1, fuel_leak_points=3)
        corridor.refresh_from_db()
        entry = resolve(cast, "shipboard.fuel_leak", [3, 4], {"compartment": corridor}, weapon_kind="other")
        corridor.refresh_from_db()
        assert entry.result["ignited"] is False and corridor.fuel_leak_points == 3

    def test_a_flamer_always_ignites(self, cast, corridor):
        Compartment.objects.filter(pk=corridor.pk).update(fuel_line_crits=1, fuel_leak_points=1)
        corridor.refresh_from_db()
        entry = resolve(cast, "shipboard.fuel_leak", [5], {"compartment": corridor}, weapon_kind="flamer")
        assert entry.result["ignition_roll"] is None and entry.result["blast_damage"] == 5


class TestRicochet:
    def test_the_ricochet_starts_from_the_hit_it_came_off(self, cast, corridor, door, bulkhead):
        resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=30)  # excess 11
        values = initial(cast, "shipboard.ricochet", from_surface=door, struck_surface=bulkhead)
        assert values["excess"] == 11 and values["reduction"] is True
        assert values["miss_surface"] == "minor_bulkhead" and values["miss_capacity_left"] == 50
        entry = resolve(
            cast, "shipboard.ricochet", [1, 1, 1], {"from_surface": door, "struck_surface": bulkhead}
        )
        bulkhead.refresh_from_db()
        assert entry.result["net"] == 10 and entry.result["attack_hit"] is False
        assert entry.result["bulkhead_inflicted"] == 5
        assert bulkhead.capacity_left == 45  # a missed ricochet wears the bulkhead [A30]

    def test_a_shot_through_a_destroyed_door_has_no_reduction(self, cast, door):
        door.capacity_left = 3
        door.save()
        resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=14)  # excess 3
        values = initial(cast, "shipboard.ricochet", from_surface=door)
        assert values["excess"] == 3 and values["reduction"] is False  # [A60]

    def test_an_undone_hit_is_not_the_source(self, cast, door):
        entry = resolve(cast, "shipboard.bulkhead_hit", [], {"struck_surface": door}, raw_damage=30)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        assert "excess" not in initial(cast, "shipboard.ricochet", from_surface=door)

    def test_a_ricochet_onto_a_destroyed_surface_is_refused(self, cast, bulkhead):
        Surface.objects.filter(pk=bulkhead.pk).update(capacity_left=0, destroyed=True)
        bulkhead.refresh_from_db()
        from rules import InputError

        with pytest.raises(InputError) as error:
            resolve(cast, "shipboard.ricochet", [1, 1, 1], {"struck_surface": bulkhead}, excess=5)
        assert error.value.field == "miss_capacity_left"


class TestMissedShot:
    def test_candidates_are_the_characters_aboard_but_not_the_firer(self, cast, corridor):
        firer = CharacterFactory(campaign=cast.campaign, name="Richard", ship=corridor.ship)
        CharacterFactory(campaign=cast.campaign, name="Liao crewman", ship=corridor.ship)
        CharacterFactory(campaign=cast.campaign, name="Elsewhere", ship=ShipFactory(campaign=cast.campaign))
        values = initial(cast, "shipboard.missed_shot", compartment=corridor, firer=firer)
        assert values["candidates"] == [{"id": "Liao crewman", "distance_m": None}]
        text = page(cast, "shipboard.missed_shot", compartment=corridor, firer=firer)
        # The distance is the GM's to give: its cell is blank, not 0.
        assert 'name="candidates-0-id" id="id_candidates-0-id" value="Liao crewman"' in text
        assert 'name="candidates-0-distance_m" id="id_candidates-0-distance_m" value=""' in text

    def test_the_gm_must_give_the_distances(self, cast, corridor):
        CharacterFactory(campaign=cast.campaign, name="Liao crewman", ship=corridor.ship)
        data = _form(
            {**initial(cast, "shipboard.missed_shot", compartment=corridor), "tn": 8}, "shipboard.missed_shot"
        )
        data.update(compartment=str(corridor.code), action="roll", visibility="everyone")
        response = cast.client("gm").post(
            reverse("play:procedure", args=[cast.campaign.code, "shipboard.missed_shot"]), data, **htmx()
        )
        assert response.status_code == 422
        assert "Row 1, Distance (m): Fill in distance (m)." in html.unescape(response.text)

    def test_w4_the_second_crewman_is_hit(self, cast, corridor):
        entry = resolve(
            cast,
            "shipboard.missed_shot",
            [2, 3, 4, 5],
            {"compartment": corridor},
            tn=8,
            candidates=[{"id": "Crewman 1", "distance_m": 5}, {"id": "Crewman 2", "distance_m": 2}],
        )
        assert entry.result["mof"] == 3 and entry.result["character_id"] == "Crewman 2"
        assert entry.effects == [] and entry.pending == []


class TestOverPenetration:
    def test_w7_the_arm_threshold_comes_from_bld(self, cast):
        crewman = CharacterFactory(campaign=cast.campaign, bld=3)
        assert initial(cast, "shipboard.over_penetration", character=crewman)["part_threshold"] == 9
        entry = resolve(
            cast, "shipboard.over_penetration", [6, 3], {"character": crewman}, damage_dice=2, damage_bonus=3
        )
        assert entry.result["over"] == 3 and entry.result["next_step"] == "ricochet"
        # No Condition Monitor in the campaign: the GM marks the damage.
        assert entry.pending == [{"target": "character", "field": "damage", "op": "add", "value": 12}]
