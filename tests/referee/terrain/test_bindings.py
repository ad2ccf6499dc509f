"""Terrain, weather, heat and fire procedures pre-filled from hexes, battlefields and units,
their effects applied (or left pending) and undone."""

import html
import re

import pytest
from django.urls import reverse

from referee.fleet.models import Unit
from referee.play import families, services
from referee.play.bindings import Context
from referee.play.models import LogEntry
from tests.factories import UnitFactory
from tests.referee.conftest import form_data, htmx, shown
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory, TerrainRowFactory, subject_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(cast):
    return BattlefieldFactory(campaign=cast.campaign, name="Hachiman ridge", ambient_c=65)


def hex_on(field, **kwargs):
    return HexFactory(battlefield=field, campaign=field.campaign, **kwargs)


def initial(cast, procedure_id, **objects) -> dict:
    binding = families.binding(procedure_id)
    return binding.initial(Context(campaign=cast.campaign, objects=objects))


def resolve(cast, procedure_id, inputs, dice, **subjects) -> LogEntry:
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id=procedure_id,
        inputs=inputs,
        dice=dice,
        actor=cast.gm,
        subjects={name: obj.code for name, obj in subjects.items()},
    )


def page(cast, procedure_id, **params):
    query = "&".join(f"{k}={v.code}" for k, v in params.items())
    return cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]) + f"?{query}"
    )


def pending_fields(entry) -> list[str]:
    return [e["field"] for e in entry.pending]


class TestHexModifiers:
    def test_the_calculator_is_filled_from_the_hex_the_battlefield_and_the_unit(self, cast, field):
        field.weather = ["fog", "wind_high"]
        field.earthquake = 1
        field.weapons_miscalibrated = True
        field.save()
        hex_ = hex_on(field, terrain="heavy_woods", conditions=["mud"])
        infantry = UnitFactory(campaign=cast.campaign, kind="infantry", jump_mp=0)
        values = initial(cast, "terrain.hex_modifiers", hex=hex_, unit=infantry)
        assert values["base_terrain"] == "heavy_woods" and values["conditions"] == ["mud"]
        assert values["weather"] == ["fog", "wind_high"] and values["earthquake"] == 1
        assert values["weapon_miscalibrated"] is True and values["unit_type"] == "infantry_foot"
        response = page(cast, "terrain.hex_modifiers", hex=hex_)
        assert re.search(r'<option value="heavy_woods" selected>', response.text)
        assert shown(response.text, "terrain.hex_modifiers", "weather") == ["fog", "wind_high"]

    def test_rolling_it_logs_the_seeds_example(self, cast, field):
        hex_ = hex_on(field, name="0412", terrain="heavy_woods", conditions=["mud"])
        entry = resolve(
            cast, "terrain.hex_modifiers", initial(cast, "terrain.hex_modifiers", hex=hex_), [], hex=hex_
        )
        assert entry.result["mp_cost"] == 4 and entry.result["psr_mod"] == 1  # W1
        assert entry.effects == [] and entry.inputs["@hex"]["name"] == "Hex 0412 (Hachiman ridge)"

    def test_a_gm_row_fills_the_custom_terrain(self, cast, field):
        TerrainRowFactory(
            campaign=cast.campaign, key="heavy_jungle", name="Heavy jungle", mp_cost=4, to_hit=2, psr=1
        )
        hex_ = hex_on(field, terrain="heavy_jungle")
        values = initial(cast, "terrain.hex_modifiers", hex=hex_)
        assert values["base_terrain"] == "custom"
        assert values["base_custom"] == {"mp_cost": 4, "to_hit": 2, "psr": 1, "prohibited": [], "flags": []}
        entry = resolve(cast, "terrain.hex_modifiers", values, None, hex=hex_)
        assert entry.result["mp_cost"] == 4

    def test_a_missing_row_is_refused_with_a_422_not_guessed(self, cast, field):
        hex_ = hex_on(field, terrain="heavy_jungle")
        values = initial(cast, "terrain.hex_modifiers", hex=hex_)
        assert values["base_custom"]["to_hit"] is None  # shown blank in the form, not 0
        data = {"hex": str(hex_.code), "visibility": "everyone", "action": "roll", "dice": ""}
        data.update(form_data("terrain.hex_modifiers", {k: v for k, v in values.items() if v is not None}))
        url = reverse("play:procedure", args=[cast.campaign.code, "terrain.hex_modifiers"])
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        text = html.unescape(response.text)
        assert "got null" not in text and "null" not in text
        assert "is required when the base terrain is custom: enter the GM's MP cost, to-hit" in text
        fill = reverse("terrain:row-fill", args=[cast.campaign.code, "heavy_jungle"])
        assert re.search(
            rf'Heavy jungle: (?i:[^<]*to-hit[^<]*) not ruled on yet: <a href="{fill}">Fill in its row</a>',
            text,
        )
        assert (
            "Explorer Corps: Expanded Movement Cost and Terrain Table and Key (Jungle: the table's row is missing)"
            in text
        )
        assert not LogEntry.objects.filter(campaign=cast.campaign).exists()

    def test_an_unruled_hex_asks_for_its_row_before_the_roll(self, cast, field):
        hex_ = hex_on(field, terrain="heavy_jungle")
        text = html.unescape(page(cast, "terrain.hex_modifiers", hex=hex_).text)
        fill = reverse("terrain:row-fill", args=[cast.campaign.code, "heavy_jungle"])
        assert 'data-testid="rulings"' in text and f'<a href="{fill}">Fill in its row</a>' in text
        TerrainRowFactory(
            campaign=cast.campaign, key="heavy_jungle", name="Heavy jungle", mp_cost=3, to_hit=2, psr=1
        )
        assert 'data-testid="rulings"' not in page(cast, "terrain.hex_modifiers", hex=hex_).text
        assert not LogEntry.objects.filter(procedure="terrain.hex_modifiers").exists()


class TestClearing:
    def test_clearing_changes_the_hex_and_undo_restores_it(self, cast, field):
        hex_ = hex_on(field, terrain="ultra_heavy_jungle")
        values = initial(cast, "terrain.clearing", hex=hex_)
        assert values["terrain"] == "ultra_heavy_jungle"
        entry = resolve(cast, "terrain.clearing", {**values, "successful_attacks": 2}, None, hex=hex_)
        hex_.refresh_from_db()
        assert hex_.terrain == "light_jungle" and entry.pending == []
        assert entry.effects == [
            {
                "target": "hex",
                "code": str(hex_.code),
                "name": str(hex_),
                "field": "terrain",
                "label": "base terrain",
                "before": "ultra_heavy_jungle",
                "after": "light_jungle",
            }
        ]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        hex_.refresh_from_db()
        assert hex_.terrain == "ultra_heavy_jungle"

    def test_only_jungle_and_ultra_heavy_woods_can_be_cleared(self, cast, field):
        woods = hex_on(field, terrain="heavy_woods")
        with pytest.raises(services.PlayError, match="No such jungle or ultra-heavy woods hex"):
            resolve(cast, "terrain.clearing", {"terrain": "ultra_heavy_woods"}, None, hex=woods)
        woods.refresh_from_db()
        assert woods.terrain == "heavy_woods"

    def test_too_many_attacks_are_refused_and_nothing_changes(self, cast, field):
        hex_ = hex_on(field, terrain="ultra_heavy_woods")
        with pytest.raises(Exception, match="clears in at most 1 step"):
            resolve(
                cast,
                "terrain.clearing",
                {"terrain": "ultra_heavy_woods", "successful_attacks": 2},
                None,
                hex=hex_,
            )
        hex_.refresh_from_db()
        assert hex_.terrain == "ultra_heavy_woods"


class TestGeyserByHand:
    def test_the_form_is_filled_from_the_geyser_and_defaults_to_gm_only(self, cast, field):
        hex_ = hex_on(field, geyser=True, volcanic=True, erupting_turns_left=2, eruption_turn_counts=False)
        assert initial(cast, "terrain.geyser", hex=hex_) == {
            "erupting_turns_left": 2,
            "volcanic": True,
            "eruption_turn_counts": False,
        }
        assert re.search(r'<option value="gm" selected', page(cast, "terrain.geyser", hex=hex_).text)
        entry = resolve(cast, "terrain.geyser", initial(cast, "terrain.geyser", hex=hex_), [], hex=hex_)
        assert entry.visibility == "gm"
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 1

    def test_a_hex_without_a_geyser_cannot_be_rolled_as_one(self, cast, field):
        plain = hex_on(field)
        with pytest.raises(services.PlayError, match="No such geyser"):
            resolve(cast, "terrain.geyser", {}, [1, 3], hex=plain)
        plain.refresh_from_db()
        assert plain.erupting_turns_left == 0


class TestMagma:
    def test_a_mech_in_liquid_magma_takes_heat_on_its_record_and_damage_pending(self, cast, field):
        hex_ = hex_on(field, terrain="liquid_magma")
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=5, heat=3)
        values = initial(cast, "terrain.magma", unit=mech, hex=hex_)
        assert (values["unit_type"], values["start_hex"], values["psr_tn"]) == ("battlemech", "liquid", 5)
        # stays put in liquid: LL base + extra, RL base + extra
        entry = resolve(cast, "terrain.magma", values, [1, 2, 3, 4, 5, 6, 1, 1], unit=mech)
        mech.refresh_from_db()
        assert (
            entry.result["damage"] == {"LL": 1 + 2 + 3 + 4, "RL": 5 + 6 + 1 + 1}
            and entry.result["heat"] == 10
        )
        assert mech.heat == 13
        assert pending_fields(entry) == ["locations.LL.damage", "locations.RL.damage"]
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        mech.refresh_from_db()
        assert mech.heat == 3

    def test_an_erupting_volcanic_geyser_is_liquid_magma_to_the_unit(self, cast, field):
        hex_ = hex_on(field, geyser=True, volcanic=True, erupting_turns_left=2)
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        assert initial(cast, "terrain.magma", unit=mech, hex=hex_)["start_hex"] == "liquid"
        dormant = hex_on(field, geyser=True, volcanic=True)
        assert initial(cast, "terrain.magma", unit=mech, hex=dormant)["start_hex"] == "other"

    def test_a_vehicle_breaking_the_crust_is_destroyed_pending_the_gm(self, cast, field):
        tank = UnitFactory(campaign=cast.campaign, kind="vehicle", heat=0)
        values = initial(cast, "terrain.magma", unit=tank)
        assert "unit_type" not in values or values["unit_type"] is None  # motive type is the GM's pick
        entry = resolve(
            cast, "terrain.magma", {"unit_type": "tracked", "movement_path": ["crust"]}, [6], unit=tank
        )
        assert entry.result["destroyed"] is True
        assert pending_fields(entry) == ["destroyed"] and entry.effects == []

    def test_infantry_entering_crust_is_refused(self, cast, field):
        squad = UnitFactory(campaign=cast.campaign, kind="infantry")
        values = {**initial(cast, "terrain.magma", unit=squad), "movement_path": ["crust"]}
        assert values["unit_type"] == "infantry"
        with pytest.raises(Exception, match="may not enter Magma Crust"):
            resolve(cast, "terrain.magma", values, None, unit=squad)


class TestHeat:
    def test_the_heat_phase_is_filled_from_the_mech_and_its_hex_and_applied_to_its_heat(self, cast, field):
        field.weather = ["rain_heavy"]
        field.save()
        TerrainRowFactory(
            campaign=cast.campaign, key="rain_heavy", name="Heavy rain", kind="weather", heat=-1
        )
        hex_ = hex_on(field)
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", engine_hits=1, heat=4)
        values = initial(cast, "heat.expanded", unit=mech, hex=hex_)
        assert values["fusion_engine_hits"] == 1 and values["ambient_c"] == 65 and values["other_heat"] == -1
        assert values["magma_end"] == "none"  # terrain.magma adds its own heat
        entry = resolve(
            cast,
            "heat.expanded",
            # what the campaign cannot answer (no sheet: its heat sinks) is blank, left to the engine
            {
                **{k: v for k, v in values.items() if v is not None},
                "movement": "run",
                "single_sinks_operational": 10,
            },
            [],
            unit=mech,
        )
        # run 2 + engine 5 - sinks 10 + temperature 1 - rain 1 = -3
        assert entry.result["heat"] == -3
        mech.refresh_from_db()
        assert mech.heat == 1

    def test_heat_never_drops_below_zero_and_undo_gives_it_back(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", heat=2)
        entry = resolve(cast, "heat.expanded", {"single_sinks_operational": 10}, [], unit=mech)
        mech.refresh_from_db()
        assert mech.heat == 0
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        mech.refresh_from_db()
        assert mech.heat == 2

    def test_ice_engine_hits_are_counted_as_such(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", engine_type="ice", engine_hits=2)
        values = initial(cast, "heat.expanded", unit=mech)
        assert values["ice_engine_hits"] == 2 and values["fusion_engine_hits"] == 0

    def test_a_bad_heat_input_names_the_field_in_a_422(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        url = reverse("play:procedure", args=[cast.campaign.code, "heat.expanded"])
        data = {
            "unit": str(mech.code),
            "movement": "jump",
            "jump_hexes": "0",
            "visibility": "everyone",
            "action": "roll",
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422 and "a jump covers at least 1 hex" in response.text
        mech.refresh_from_db()
        assert mech.heat == 0


class TestBogDownAndCarefulMovement:
    def test_bog_down_reads_the_pilot_and_the_hex(self, cast, field):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=5, jump_mp=4)
        muddy = hex_on(field, conditions=["mud"])
        values = initial(cast, "terrain.bog_down", unit=mech, hex=muddy)
        assert (values["piloting"], values["terrain"], values["jump_capable"]) == (5, "mud", True)
        entry = resolve(cast, "terrain.bog_down", values, [1, 2], unit=mech)
        assert entry.result == {"stuck": True, "tn": 4, "roll": 3}  # W2
        assert pending_fields(entry) == ["stuck"]  # the campaign does not keep "stuck"

    @pytest.mark.parametrize(
        ("hex_values", "terrain"),
        [
            ({"terrain": "tundra"}, "tundra"),
            ({"terrain": "magma_crust"}, "magma_crust"),
            ({"geyser": True, "volcanic": True, "erupting_turns_left": 1}, "liquid_magma"),
            ({"conditions": ["swamp", "mud"]}, "swamp"),
            ({"conditions": ["deep_snow"]}, "deep_snow"),
        ],
    )
    def test_the_bog_terrain_comes_from_the_hex(self, cast, field, hex_values, terrain):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        assert (
            initial(cast, "terrain.bog_down", unit=mech, hex=hex_on(field, **hex_values))["terrain"]
            == terrain
        )

    def test_careful_movement_reads_fog_and_ice(self, cast, field):
        field.weather = ["fog"]
        field.save()
        icy = hex_on(field, conditions=["ice"])
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=4)
        values = initial(cast, "terrain.careful_movement", unit=mech, hex=icy)
        assert (values["unit_kind"], values["fog"], values["ice"], values["psr_tn"]) == (
            "battlemech",
            True,
            True,
            4,
        )
        entry = resolve(
            cast, "terrain.careful_movement", {**values, "hexes": [{"clear": True}]}, [1, 1], unit=mech
        )
        assert entry.result["consequence"] == "fall" and entry.result["mp_saved_per_hex"] == 2
        assert pending_fields(entry) == ["prone"]

    def test_careful_movement_is_not_offered_to_infantry(self, cast):
        squad = UnitFactory(campaign=cast.campaign, kind="infantry")
        with pytest.raises(services.PlayError, match="No such unit moving carefully"):
            resolve(
                cast,
                "terrain.careful_movement",
                {"unit_kind": "vehicle", "fog": True, "psr_tn": 5},
                [],
                unit=squad,
            )


class TestWeatherAndFire:
    def test_the_earthquake_psr_uses_the_battlefields_strength(self, cast, field):
        field.earthquake = 3
        field.save()
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", piloting=5)
        values = initial(cast, "weather.earthquake", unit=mech, battlefield=field)
        assert values["strength"] == 3 and values["psr_tn"] == 5
        entry = resolve(cast, "weather.earthquake", values, [3, 3], unit=mech, battlefield=field)
        assert entry.result["psr_target"] == 8 and entry.result["fell"] is True
        assert pending_fields(entry) == ["prone"]

    def test_a_calm_battlefield_leaves_the_strength_to_the_gm(self, cast, field):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        assert "strength" not in initial(cast, "weather.earthquake", unit=mech, battlefield=field)
        with pytest.raises(Exception, match="strength"):
            resolve(cast, "weather.earthquake", {"strength": 0}, None, unit=mech)

    @pytest.mark.parametrize(
        ("weather", "wind", "blizzard"),
        [
            ([], "none", False),
            (["wind_moderate"], "moderate", False),
            (["wind_high", "blizzard"], "high", True),
        ],
    )
    def test_missile_hits_read_the_winds(self, cast, field, weather, wind, blizzard):
        field.weather = weather
        field.save()
        values = initial(cast, "weather.missile_hits_modifier", battlefield=field)
        assert (values["wind"], values["blizzard"]) == (wind, blizzard)

    def test_missile_hits_in_high_winds_can_all_miss(self, cast, field):
        field.weather = ["wind_high"]
        field.save()
        values = initial(cast, "weather.missile_hits_modifier", battlefield=field)
        entry = resolve(cast, "weather.missile_hits_modifier", values, [2, 3], battlefield=field)
        assert entry.result == {"all_miss": True, "modifier": -4, "modified_roll": 1, "table_row": None}

    def test_an_intentional_fire_reads_the_weather_over_the_hex(self, cast, field):
        field.weather = ["rain_light", "wind_high"]
        field.save()
        hex_ = hex_on(field, terrain="heavy_woods", weather=["rain_heavy", "fog"])
        values = initial(cast, "fire.intentional", hex=hex_)
        assert values["weather"] == ["thick_fog", "rain", "high_winds"]
        entry = resolve(cast, "fire.intentional", values, [], hex=hex_)
        assert entry.result == {"start_mod": 1, "spread_mod": 1, "downwind_hexes_per_turn": 2}


class TestEveryBindingRuns:
    @pytest.mark.parametrize(
        "procedure_id",
        [
            "terrain.hex_modifiers",
            "terrain.clearing",
            "terrain.magma",
            "terrain.geyser",
            "terrain.bog_down",
            "terrain.careful_movement",
            "weather.earthquake",
            "weather.missile_hits_modifier",
            "heat.expanded",
            "fire.intentional",
        ],
    )
    def test_its_page_opens_for_its_records_and_its_example_resolves_from_the_browser(
        self, cast, procedure_id
    ):
        binding = families.binding(procedure_id)
        assert binding.roles, "every terrain procedure is bound to campaign state"
        subjects = {}
        for role in binding.roles:
            if role.model is Unit:
                kind = (role.kinds or ("battlemech",))[0]
                subjects[role.name] = UnitFactory(campaign=cast.campaign, kind=kind)
            else:
                subjects[role.name] = subject_for(role, cast.campaign)
        client = cast.client("gm")
        url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
        assert (
            client.get(url + "?" + "&".join(f"{k}={v.code}" for k, v in subjects.items())).status_code == 200
        )
        procedure = binding.procedure
        values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
        values.update(procedure.example)
        data = {"visibility": "everyone", "action": "roll", "dice": ""}
        data.update({k: str(v.code) for k, v in subjects.items()})
        data.update(form_data(procedure_id, {k: v for k, v in values.items() if v is not None}))
        response = client.post(url, data, **htmx())
        assert response.status_code == 200, response.text[:1500]
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
        assert set(entry.result) == set(procedure.result_keys)
        assert {f"@{k}" for k in subjects} <= set(entry.inputs)
