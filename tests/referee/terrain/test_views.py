"""Terrain pages and the dashboard's terrain panels: access, forms, bad input, what is missing."""

import re

import pytest
from django.urls import reverse

from referee.terrain.models import Battlefield, Hex, TerrainRow
from tests.referee.conftest import htmx
from tests.referee.menus import dashboard_with_menus
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory, TerrainRowFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(cast):
    return BattlefieldFactory(campaign=cast.campaign, name="Jungle ridge", weather=["fog"], earthquake=2)


def hex_url(cast, hex_):
    return reverse("terrain:hex", args=[cast.campaign.code, hex_.code])


def fill_url(cast, key):
    return reverse("terrain:row-fill", args=[cast.campaign.code, key])


def create_url(cast, kind):
    return reverse("campaigns:object-create", args=[cast.campaign.code, kind])


class TestAccess:
    @pytest.mark.parametrize("page", ["hex", "fill"])
    def test_only_the_gm_opens_terrain_pages(self, cast, field, page):
        hex_ = HexFactory(battlefield=field, campaign=cast.campaign)
        url = hex_url(cast, hex_) if page == "hex" else fill_url(cast, "heavy_jungle")
        assert cast.client("anonymous").get(url).status_code == 404
        assert cast.client("outsider").get(url).status_code == 404
        assert cast.client("player").get(url).status_code == 403
        assert cast.client("gm").get(url).status_code == 200
        assert cast.client("gm").post(url).status_code == 405
        assert cast.client("player").post(url).status_code == 403

    def test_another_campaigns_hex_is_not_found(self, cast):
        stranger = HexFactory()
        assert cast.client("gm").get(hex_url(cast, stranger)).status_code == 404

    def test_a_row_the_seed_does_not_name_cannot_be_filled(self, cast):
        assert cast.client("gm").get(fill_url(cast, "lava_lake")).status_code == 404

    @pytest.mark.parametrize("kind", ["battlefields", "hexes", "terrain-rows"])
    def test_players_cannot_create_terrain_records(self, cast, field, kind):
        assert cast.client("player").get(create_url(cast, kind)).status_code == 403
        assert cast.client("outsider").post(create_url(cast, kind), {"name": "x"}).status_code == 404


class TestDashboard:
    def test_the_gm_dashboard_lists_battlefields_hexes_and_the_rows_to_fill(self, cast, field):
        HexFactory(battlefield=field, campaign=cast.campaign, name="0412", terrain="heavy_jungle")
        HexFactory(battlefield=field, campaign=cast.campaign, name="0413", geyser=True, erupting_turns_left=2)
        page = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code]))
        assert page.status_code == 200
        for panel in ("battlefields-panel", "hexes-panel", "terrain-rows-panel"):
            assert f'id="{panel}"' in page.text
        assert "Jungle ridge" in page.text and "Fog" in page.text and "earthquake 2" in page.text
        missing = re.search(r'data-testid="missing-0412">(.*?)</small>', page.text, re.S).group(1)
        assert "Heavy jungle: MP cost, to-hit modifier, PSR modifier not filled in" in missing
        assert "erupting, 2 turns left" in page.text
        to_fill = re.search(r'data-testid="rows-to-fill">(.*?)</ul>', page.text, re.S).group(1)
        assert "Magma crust" in to_fill and "Swamp" in to_fill and "Heavy snowfall" in to_fill
        assert fill_url(cast, "magma_crust") in to_fill

    def test_the_roll_menus_offer_the_terrain_procedures(self, cast, field):
        HexFactory(battlefield=field, campaign=cast.campaign, name="0101", geyser=True)
        HexFactory(battlefield=field, campaign=cast.campaign, name="0202", terrain="ultra_heavy_jungle")
        page = dashboard_with_menus(cast.client("gm"), cast.campaign)
        geyser_row = re.search(r'id="hex-[^"]+">\s*<td><a[^>]*><strong>0101</strong>.*?</tr>', page, re.S)
        jungle_row = re.search(r'id="hex-[^"]+">\s*<td><a[^>]*><strong>0202</strong>.*?</tr>', page, re.S)
        assert "Geyser (End Phase)" in geyser_row.group(0) and "Hex modifiers" in geyser_row.group(0)
        assert "Clear jungle or woods" not in geyser_row.group(0)
        assert "Clear jungle or woods" in jungle_row.group(0) and "Geyser" not in jungle_row.group(0)
        assert "Missile hits in wind" in page

    def test_players_do_not_see_the_terrain_panels(self, cast, field):
        HexFactory(battlefield=field, campaign=cast.campaign, geyser=True, erupting_turns_left=3)
        page = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code]))
        assert page.status_code == 200 and "hexes-panel" not in page.text and "erupting" not in page.text


class TestForms:
    def test_a_battlefield_is_created_with_its_weather(self, cast):
        data = {
            "name": "Dune sea",
            "weather": ["blowing_sand", "wind_high"],
            "earthquake": "1",
            "active": "on",
        }
        response = cast.client("gm").post(create_url(cast, "battlefields"), data, **htmx())
        assert response.status_code == 200 and 'id="battlefields-panel"' in response.text
        field = Battlefield.objects.get(campaign=cast.campaign, name="Dune sea")
        assert field.weather == ["blowing_sand", "wind_high"] and field.earthquake == 1 and field.active

    @pytest.mark.parametrize(
        ("data", "text"),
        [
            ({"name": "X", "earthquake": "6"}, "Earthquake strength runs from 0 (none) to 5"),
            ({"name": "X", "earthquake": "0", "weather": ["rain_light", "rain_heavy"]}, "not both"),
            ({"name": "X", "earthquake": "0", "weather": ["hail"]}, "not one of the available choices"),
            ({"name": "Jungle ridge", "earthquake": "0"}, "already has a battlefield of that name"),
        ],
    )
    def test_a_bad_battlefield_comes_back_with_the_reason(self, cast, field, data, text):
        response = cast.client("gm").post(create_url(cast, "battlefields"), data, **htmx())
        assert response.status_code == 422 and text in response.text

    def test_a_hex_is_created_with_terrain_conditions_and_a_geyser(self, cast, field):
        data = {
            "battlefield": str(field.pk),
            "name": "0412",
            "terrain": "magma_crust",
            "conditions": ["mud", "swamp"],
            "weather": ["rain_heavy"],
            "geyser": "on",
            "volcanic": "on",
            "eruption_turn_counts": "on",
            "erupting_turns_left": "0",
        }
        response = cast.client("gm").post(create_url(cast, "hexes"), data, **htmx())
        assert response.status_code == 200, response.text
        hex_ = Hex.objects.get(campaign=cast.campaign, name="0412")
        assert (hex_.terrain, hex_.conditions, hex_.weather) == (
            "magma_crust",
            ["mud", "swamp"],
            ["rain_heavy"],
        )
        assert hex_.geyser and hex_.volcanic and hex_.battlefield == field

    def test_the_gms_own_rows_become_choices_for_hexes(self, cast, field):
        TerrainRowFactory(campaign=cast.campaign, key="crystal_spires", name="Crystal spires")
        TerrainRowFactory(campaign=cast.campaign, key="tar_pits", name="Tar pits", kind="condition")
        form = cast.client("gm").get(create_url(cast, "hexes"))
        assert 'value="crystal_spires"' in form.text and 'value="tar_pits"' in form.text

    @pytest.mark.parametrize(
        ("change", "text"),
        [
            ({"terrain": "lava_lake"}, "Select a valid choice"),
            ({"conditions": ["geyser"]}, "Select a valid choice"),
            ({"volcanic": "on"}, "Only a geyser can be volcanic"),
            ({"erupting_turns_left": "-1"}, "greater than or equal to 0"),
            ({"name": "0101"}, "Jungle ridge already has a hex 0101"),
        ],
    )
    def test_a_bad_hex_comes_back_with_the_reason(self, cast, field, change, text):
        HexFactory(battlefield=field, campaign=cast.campaign, name="0101")
        data = {
            "battlefield": str(field.pk),
            "name": "0412",
            "terrain": "clear",
            "erupting_turns_left": "0",
            **change,
        }
        response = cast.client("gm").post(create_url(cast, "hexes"), data, **htmx())
        assert response.status_code == 422 and text in response.text

    def test_a_hex_cannot_be_put_on_another_campaigns_battlefield(self, cast):
        stranger = BattlefieldFactory()
        data = {
            "battlefield": str(stranger.pk),
            "name": "0101",
            "terrain": "clear",
            "erupting_turns_left": "0",
        }
        response = cast.client("gm").post(create_url(cast, "hexes"), data, **htmx())
        assert response.status_code == 422 and not Hex.objects.exists()

    def test_the_gm_fills_in_a_row_the_seed_names(self, cast, field):
        form = cast.client("gm").get(fill_url(cast, "magma_crust"), **htmx())
        assert form.status_code == 200 and form.headers["HX-Retarget"] == "#form-slot"
        assert re.search(r'value="magma_crust"', form.text)
        assert re.search(r'value="infantry"[^>]*checked', form.text)  # what the text states
        assert re.search(r'value="bog_down_possible"[^>]*checked', form.text)
        data = {
            "key": "magma_crust",
            "name": "Magma crust",
            "kind": "base",
            "mp_cost": "2",
            "to_hit": "0",
            "psr": "1",
            "prohibited": ["infantry", "wheeled"],
            "flags": ["bog_down_possible"],
        }
        response = cast.client("gm").post(create_url(cast, "terrain-rows"), data, **htmx())
        assert response.status_code == 200 and 'id="terrain-rows-panel"' in response.text
        row = TerrainRow.objects.get(campaign=cast.campaign, key="magma_crust")
        assert (row.mp_cost, row.to_hit, row.psr, row.missing()) == (2, 0, 1, [])
        to_fill = re.search(r'data-testid="rows-to-fill">(.*?)</ul>', response.text, re.S).group(1)
        assert "Magma crust" not in to_fill

    def test_filling_a_row_already_started_edits_it(self, cast):
        row = TerrainRowFactory(campaign=cast.campaign, key="tundra", name="Tundra", mp_cost=2)
        form = cast.client("gm").get(fill_url(cast, "tundra"))
        assert (
            reverse("campaigns:object-edit", args=[cast.campaign.code, "terrain-rows", row.code]) in form.text
        )

    @pytest.mark.parametrize(
        ("change", "text"),
        [
            ({"key": "clear", "name": "Clear"}, "printed in the seed"),
            ({"kind": "condition"}, "is a base terrain row"),
            ({"key": "rain_heavy", "kind": "weather", "mp_cost": "1"}, "only gives heat"),
            ({"to_hit": "15"}, "To-hit modifier runs from -10 to 10"),
            ({"prohibited": ["mechs"]}, "Select a valid choice"),
            ({"key": "swamp", "kind": "condition"}, "already has a row with that key"),
        ],
    )
    def test_a_bad_row_comes_back_with_the_reason(self, cast, change, text):
        TerrainRowFactory(campaign=cast.campaign, key="swamp", name="Swamp", kind="condition")
        data = {"key": "heavy_jungle", "name": "Heavy jungle", "kind": "base", **change}
        response = cast.client("gm").post(create_url(cast, "terrain-rows"), data, **htmx())
        assert response.status_code == 422 and text in response.text


class TestHexPage:
    def test_a_missing_row_is_named_and_no_modifiers_are_guessed(self, cast, field):
        hex_ = HexFactory(
            battlefield=field, campaign=cast.campaign, terrain="heavy_jungle", conditions=["rubble"]
        )
        page = cast.client("gm").get(hex_url(cast, hex_))
        missing = re.search(r'data-testid="missing">(.*?)</div>', page.text, re.S).group(1)
        assert (
            "<strong>Heavy jungle</strong> (base terrain): MP cost, to-hit modifier, PSR modifier missing"
            in missing
        )
        assert "<strong>Rubble</strong> (terrain condition)" in missing
        assert 'data-testid="no-modifiers"' in page.text and 'data-testid="hex-modifiers"' not in page.text

    def test_once_filled_the_hex_shows_its_modifiers_for_every_unit(self, cast, field):
        TerrainRowFactory(
            campaign=cast.campaign, key="heavy_jungle", name="Heavy jungle", mp_cost=4, to_hit=2, psr=1
        )
        hex_ = HexFactory(battlefield=field, campaign=cast.campaign, terrain="heavy_jungle")
        page = cast.client("gm").get(hex_url(cast, hex_))
        assert 'data-testid="missing"' not in page.text
        line = re.search(r'data-testid="line-battlemech_biped">(.*?)</tr>', page.text, re.S).group(1)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", line, re.S)
        # 4 MP + fog 2; PSR +1 + quake 2; to-hit +2 + quake 2 (+ fog 1 for energy); fog may be skipped
        assert cells[1:6] == ["6", "+3", "+4", "+5", "may skip 2 MP"]
        assert "?hex=" + str(hex_.code) in page.text

    def test_ultra_heavy_woods_says_its_mp_cost_is_not_printed(self, cast, field):
        hex_ = HexFactory(battlefield=field, campaign=cast.campaign, terrain="ultra_heavy_woods")
        page = cast.client("gm").get(hex_url(cast, hex_))
        assert "Ultra-heavy woods</strong> (base terrain): MP cost missing" in page.text
        line = re.search(r'data-testid="line-infantry_foot">(.*?)</tr>', page.text, re.S).group(1)
        assert "not printed" in line
        assert "may not enter" in re.search(
            r'data-testid="line-battlemech_biped">(.*?)</tr>', page.text, re.S
        ).group(1)

    def test_a_magma_hex_points_to_the_magma_roll(self, cast, field):
        hex_ = HexFactory(battlefield=field, campaign=cast.campaign, terrain="liquid_magma")
        assert "liquid magma" in cast.client("gm").get(hex_url(cast, hex_)).text
