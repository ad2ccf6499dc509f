"""Invariants of the terrain records: readable messages from clean(), constraints in the database."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.terrain.models import Battlefield, Hex, TerrainRow
from tests.factories import CampaignFactory, StarSystemFactory
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory, TerrainRowFactory

pytestmark = pytest.mark.django_db


def messages(obj) -> dict:
    with pytest.raises(ValidationError) as caught:
        obj.full_clean()
    return caught.value.message_dict


def refused_by_the_database(obj) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        obj.save()


class TestTerrainRow:
    def new(self, **values) -> TerrainRow:
        values = {"key": "heavy_jungle", "name": "Heavy jungle", "kind": "base", **values}
        return TerrainRow(campaign=CampaignFactory(), **values)

    def test_a_row_the_seed_names_may_be_left_blank_until_ruled_on(self):
        row = self.new()
        row.full_clean()
        assert row.missing() == ["MP cost", "to-hit modifier", "PSR modifier"]
        assert self.new(key="ultra_heavy_woods", name="UHW").missing() == ["MP cost"]

    @pytest.mark.parametrize(
        ("values", "field", "text"),
        [
            ({"key": "clear", "name": "Clear"}, "key", "Clear is printed in the seed"),
            ({"key": "mud", "kind": "condition"}, "key", "Mud is printed in the seed"),
            ({"key": "geyser", "kind": "condition"}, "key", "printed in the seed"),
            ({"kind": "condition"}, "kind", "Heavy jungle is a base terrain row"),
            ({"key": "Heavy-Jungle"}, "key", "lower-case letters"),
            ({"key": "hail", "kind": "weather"}, "key", "Weather rows give the heat"),
            ({"key": "rain_heavy", "kind": "weather", "mp_cost": 1}, "mp_cost", "only gives heat"),
            ({"heat": -2}, "heat", "Only weather rows give heat"),
            ({"prohibited": ["mechs"]}, "prohibited", "Unknown units mechs"),
            ({"flags": ["slippery"]}, "flags", "Unknown flags slippery"),
            ({"to_hit": 11}, "to_hit", "runs from -10 to 10"),
            ({"mp_cost": 21}, "mp_cost", "MP cost runs from 0 to 20"),
        ],
    )
    def test_clean_explains_what_is_wrong(self, values, field, text):
        assert text in " ".join(messages(self.new(**values))[field])

    @pytest.mark.parametrize(
        "values",
        [
            {"mp_cost": -1},
            {"to_hit": 11},
            {"psr": -11},
            {"kind": "weather", "key": "rain_heavy", "heat": 31},
            {"kind": "weather", "key": "rain_heavy", "psr": 1},
            {"heat": 1},
            {"kind": "terrain"},
        ],
    )
    def test_the_database_refuses_bad_rows(self, values):
        refused_by_the_database(self.new(**values))

    def test_one_row_per_key_in_a_campaign(self):
        row = TerrainRowFactory()
        refused_by_the_database(TerrainRow(campaign=row.campaign, key=row.key, name="again", kind="base"))
        TerrainRowFactory(key=row.key)  # another campaign may rule otherwise

    def test_players_never_read_the_gms_rulings(self):
        row = TerrainRowFactory()
        assert not TerrainRow.objects.in_campaign(row.campaign).visible_to("player").exists()
        assert TerrainRow.objects.in_campaign(row.campaign).visible_to("gm").count() == 1


class TestBattlefield:
    def test_earthquakes_run_from_0_to_5(self):
        field = BattlefieldFactory.build(campaign=CampaignFactory(), earthquake=6)
        assert "0 (none) to 5" in messages(field)["earthquake"][0]
        refused_by_the_database(field)

    def test_light_and_heavy_rain_cannot_fall_together(self):
        field = BattlefieldFactory.build(campaign=CampaignFactory(), weather=["rain_light", "rain_heavy"])
        assert messages(field)["weather"] == ["Choose Light rain or Heavy rain, not both."]

    def test_unknown_weather_is_named(self):
        field = BattlefieldFactory.build(campaign=CampaignFactory(), weather=["hail"])
        assert "Unknown weather hail" in messages(field)["weather"][0]

    def test_nothing_is_colder_than_absolute_zero(self):
        field = BattlefieldFactory.build(campaign=CampaignFactory(), ambient_c=-300)
        assert "−273.15" in messages(field)["ambient_c"][0]
        refused_by_the_database(field)

    def test_the_star_system_must_be_the_campaigns(self):
        field = BattlefieldFactory.build(campaign=CampaignFactory(), star_system=StarSystemFactory())
        assert "another campaign" in messages(field)["star_system"][0]

    def test_names_are_unique_in_a_campaign(self):
        field = BattlefieldFactory()
        refused_by_the_database(Battlefield(campaign=field.campaign, name=field.name))


class TestHex:
    def test_only_a_geyser_is_volcanic_or_erupts(self):
        field = BattlefieldFactory()
        volcanic = HexFactory.build(battlefield=field, campaign=field.campaign, volcanic=True)
        assert "Only a geyser can be volcanic" in messages(volcanic)["volcanic"][0]
        refused_by_the_database(volcanic)
        erupting = HexFactory.build(battlefield=field, campaign=field.campaign, erupting_turns_left=2)
        assert "Only a geyser erupts" in messages(erupting)["erupting_turns_left"][0]
        refused_by_the_database(erupting)

    def test_terrain_and_conditions_are_keys(self):
        field = BattlefieldFactory()
        hex_ = HexFactory.build(
            battlefield=field, campaign=field.campaign, terrain="Heavy Jungle", conditions="mud"
        )
        errors = messages(hex_)
        assert "key such as heavy_jungle" in errors["terrain"][0]
        assert "list of keys" in errors["conditions"][0]
        refused_by_the_database(HexFactory.build(battlefield=field, campaign=field.campaign, terrain=""))

    def test_a_hex_whose_row_was_deleted_stays_valid(self):
        field = BattlefieldFactory()
        HexFactory.build(battlefield=field, campaign=field.campaign, terrain="glass_desert").full_clean()

    def test_the_battlefield_must_be_the_campaigns(self):
        hex_ = HexFactory.build(battlefield=BattlefieldFactory(), campaign=CampaignFactory())
        assert "another campaign" in messages(hex_)["battlefield"][0]

    def test_one_label_per_battlefield(self):
        hex_ = HexFactory(name="0412")
        refused_by_the_database(
            Hex(battlefield=hex_.battlefield, campaign=hex_.campaign, name="0412", terrain="clear")
        )
        HexFactory(name="0412")  # another battlefield

    def test_players_see_only_shared_hexes_of_shared_battlefields(self):
        field = BattlefieldFactory(shared=True)
        shown = HexFactory(battlefield=field, campaign=field.campaign, shared=True)
        HexFactory(battlefield=field, campaign=field.campaign, shared=False)
        hidden_field = BattlefieldFactory(campaign=field.campaign, shared=False)
        HexFactory(battlefield=hidden_field, campaign=field.campaign, shared=True)
        assert list(Hex.objects.in_campaign(field.campaign).visible_to("player")) == [shown]
        assert Hex.objects.in_campaign(field.campaign).visible_to(None).count() == 0

    def test_deleting_a_battlefield_deletes_its_hexes(self):
        hex_ = HexFactory()
        hex_.battlefield.delete()
        assert not Hex.objects.filter(pk=hex_.pk).exists()
