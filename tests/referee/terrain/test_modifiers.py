"""A hex read as the movement table's inputs: printed rows, the GM's rows, and what is missing."""

import pytest

import rules
from referee.terrain.modifiers import read_hex, sheet
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory, TerrainRowFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(cast):
    return BattlefieldFactory(campaign=cast.campaign, name="Landing zone")


def hex_on(field, **kwargs):
    return HexFactory(battlefield=field, campaign=field.campaign, **kwargs)


def modifiers(hex_, **options) -> dict:
    reading = read_hex(hex_)
    assert reading.complete, reading.missing
    return rules.resolve("terrain.hex_modifiers", {**reading.inputs, **options}).result


def row(campaign, key, name, kind="base", **values):
    return TerrainRowFactory(campaign=campaign, key=key, name=name, kind=kind, **values)


class TestPrintedRows:
    def test_heavy_woods_and_mud_is_the_seeds_own_example(self, field):
        result = modifiers(hex_on(field, terrain="heavy_woods", conditions=["mud"]))  # W1
        assert result["mp_cost"] == 4 and result["to_hit_mod"] == 2 and result["psr_mod"] == 1
        assert result["flags"]["bog_down_possible"] is True
        assert result["prohibited"] == ["hover", "naval", "tracked", "wheeled"]

    def test_fog_over_the_battlefield_and_ice_in_the_hex_cost_2_not_3(self, field):
        field.weather = ["fog"]
        field.save()
        hex_ = hex_on(field, conditions=["ice"])
        mech = modifiers(hex_)
        assert mech["mp_cost"] == 1 + 2 and mech["skippable_mp"] == 2  # W23
        assert mech["psr_mod"] == 4 and mech["flags"]["skid"] and mech["flags"]["poor_visibility"]
        assert modifiers(hex_, unit_type="infantry_foot")["mp_cost"] == 1  # infantry ignore J costs
        assert modifiers(hex_, careful=True)["mp_cost"] == 1

    def test_the_battlefields_earthquake_shakes_every_hex(self, field):
        field.earthquake = 3
        field.save()
        hex_ = hex_on(field, terrain="sand")
        assert modifiers(hex_)["to_hit_mod"] == 3
        assert modifiers(hex_)["psr_mod"] == 1 + 3
        assert modifiers(hex_, unit_type="battlemech_quad")["psr_mod"] == 1 + 2  # ceil(3/2)
        assert modifiers(hex_, unit_type="wheeled")["mp_cost"] == 2

    def test_mis_calibrated_weapons_cost_ballistic_fire_2(self, field):
        field.weapons_miscalibrated = True
        field.weather = ["blowing_sand"]
        field.save()
        hex_ = hex_on(field)
        assert modifiers(hex_, weapon_class="ballistic")["to_hit_mod"] == 1 + 2
        assert modifiers(hex_, weapon_class="energy")["to_hit_mod"] == 2

    def test_the_hexs_own_weather_wins_over_the_battlefields_of_another_strength(self, field):
        field.weather = ["rain_light", "wind_high"]
        field.save()
        hex_ = hex_on(field, weather=["rain_heavy", "fog"])
        assert read_hex(hex_).weather == ["fog", "rain_heavy", "wind_high"]
        assert modifiers(hex_)["psr_mod"] == 1 + 2  # heavy rain, high wind

    def test_a_geyser_only_counts_while_it_erupts(self, field):
        dormant = hex_on(field, geyser=True)
        erupting = hex_on(field, geyser=True, erupting_turns_left=2)
        assert modifiers(dormant)["to_hit_mod"] == 0
        assert modifiers(erupting)["to_hit_mod"] == 2
        assert modifiers(erupting, unit_type="infantry_foot")["prohibited_for_unit"] is True


class TestGMRows:
    def test_a_terrain_the_seed_names_but_does_not_print_is_reported_by_name(self, field):
        reading = read_hex(hex_on(field, terrain="heavy_jungle"))
        assert not reading.complete and sheet(reading) == []
        (gap,) = reading.missing
        assert gap.name == "Heavy jungle" and gap.kind_label == "base terrain"
        assert gap.fields == ("MP cost", "to-hit modifier", "PSR modifier")
        assert str(gap) == "Heavy jungle: MP cost, to-hit modifier, PSR modifier not filled in"

    def test_once_the_gm_rules_on_it_the_row_is_used(self, field):
        row(field.campaign, "heavy_jungle", "Heavy jungle", mp_cost=4, to_hit=2, psr=1, prohibited=["ground"])
        hex_ = hex_on(field, terrain="heavy_jungle", conditions=["mud"])
        reading = read_hex(hex_)
        assert reading.missing == []
        result = modifiers(hex_)
        assert result["mp_cost"] == 5 and result["to_hit_mod"] == 2 and result["psr_mod"] == 2
        assert result["prohibited"] == ["hover", "tracked", "wheeled"]

    def test_a_half_filled_row_names_what_is_still_blank(self, field):
        row(field.campaign, "tundra", "Tundra", mp_cost=2)
        reading = read_hex(hex_on(field, terrain="tundra"))
        assert [(g.name, g.fields) for g in reading.missing] == [
            ("Tundra", ("to-hit modifier", "PSR modifier"))
        ]
        assert reading.missing[0].row is not None  # the panel links to completing it
        assert not reading.complete

    def test_an_unruled_mp_cost_leaves_the_mp_cost_open_but_the_rest_usable(self, field):
        row(field.campaign, "light_jungle", "Light jungle", to_hit=1, psr=0)
        reading = read_hex(hex_on(field, terrain="light_jungle"))
        assert reading.complete and [g.fields for g in reading.missing] == [("MP cost",)]
        assert modifiers(reading.hex)["mp_cost"] is None
        assert modifiers(reading.hex)["to_hit_mod"] == 1

    def test_what_the_text_states_about_magma_crust_always_applies(self, field):
        row(field.campaign, "magma_crust", "Magma crust", mp_cost=2, to_hit=0, psr=1)
        result = modifiers(hex_on(field, terrain="magma_crust"))
        assert result["prohibited"] == ["infantry", "wheeled"]
        assert result["flags"]["bog_down_possible"] is True

    def test_ultra_heavy_woods_needs_only_its_mp_cost(self, field):
        hex_ = hex_on(field, terrain="ultra_heavy_woods")
        reading = read_hex(hex_)
        assert reading.complete and [(g.name, g.fields) for g in reading.missing] == [
            ("Ultra-heavy woods", ("MP cost",))
        ]
        assert reading.inputs["base_terrain"] == "ultra_heavy_woods"
        assert modifiers(hex_)["mp_cost"] is None and modifiers(hex_)["to_hit_mod"] == 3
        row(field.campaign, "ultra_heavy_woods", "Ultra-heavy woods", mp_cost=4)
        result = modifiers(hex_, unit_type="infantry_foot")
        assert result["mp_cost"] == 4 and result["to_hit_mod"] == 3
        assert "battlemech" in result["prohibited"] and not result["prohibited_for_unit"]

    def test_a_btc_condition_is_gm_data_until_filled(self, field):
        hex_ = hex_on(field, conditions=["swamp", "mud"])
        reading = read_hex(hex_)
        assert not reading.complete and [g.name for g in reading.missing] == ["Swamp"]
        row(field.campaign, "swamp", "Swamp", kind="condition", mp_cost=2, to_hit=0, psr=2)
        reading = read_hex(hex_)
        assert reading.inputs["conditions"] == ["mud"]
        assert reading.inputs["custom_conditions"][0]["name"] == "Swamp"
        assert modifiers(hex_)["mp_cost"] == 1 + 2 + 1 and modifiers(hex_)["psr_mod"] == 3

    def test_the_gms_own_terrain_is_used_as_entered(self, field):
        row(field.campaign, "crystal_spires", "Crystal spires", mp_cost=3, to_hit=1, psr=2, flags=["skid"])
        result = modifiers(hex_on(field, terrain="crystal_spires"))
        assert (result["mp_cost"], result["to_hit_mod"], result["psr_mod"]) == (3, 1, 2)
        assert result["flags"]["skid"] is True

    def test_a_deleted_row_is_missing_again(self, field):
        ruled = row(field.campaign, "rough", "Rough", mp_cost=2, to_hit=0, psr=0)
        hex_ = hex_on(field, terrain="rough")
        assert read_hex(hex_).complete
        ruled.delete()
        assert [g.name for g in read_hex(hex_).missing] == ["Rough"]

    def test_a_key_nobody_knows_asks_for_a_row(self, field):
        hex_ = hex_on(field, terrain="glass_desert")
        (gap,) = read_hex(hex_).missing
        assert gap.name == "Glass desert" and "add one" in gap.source

    def test_snow_and_rain_heat_rows_are_gm_data_for_the_heat_table(self, field):
        field.weather = ["heavy_snowfall", "wind_moderate"]
        field.save()
        hex_ = hex_on(field)
        reading = read_hex(hex_)
        assert reading.complete  # the movement table does not need them
        assert [(g.name, g.fields, g.kind_label) for g in reading.missing_heat] == [
            ("Heavy snowfall", ("heat",), "heat table")
        ]
        assert reading.other_heat == 0
        row(field.campaign, "heavy_snowfall", "Heavy snowfall", kind="weather", heat=-2)
        reading = read_hex(hex_)
        assert reading.missing_heat == [] and reading.other_heat == -2

    def test_another_campaigns_rows_do_not_count(self, field):
        row(BattlefieldFactory().campaign, "heavy_jungle", "Heavy jungle", mp_cost=4, to_hit=2, psr=1)
        assert not read_hex(hex_on(field, terrain="heavy_jungle")).complete


class TestSheet:
    def test_every_unit_type_has_its_line(self, field):
        lines = sheet(read_hex(hex_on(field, terrain="heavy_woods", conditions=["deep_snow"])))
        by_type = {line["unit_type"]: line for line in lines}
        assert len(lines) == 9
        assert by_type["battlemech_biped"]["mp_cost"] == 4 and not by_type["battlemech_biped"]["prohibited"]
        assert by_type["wheeled"]["prohibited"] and by_type["naval"]["prohibited"]
        assert by_type["battlemech_biped"]["to_hit_ballistic"] == 2
        assert "bog-down possible (F)" in by_type["battlemech_biped"]["flags"]
