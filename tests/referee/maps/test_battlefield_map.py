"""The battlefield map: hexes as on a map sheet, units with facing, geysers kept from players."""

import pytest
from django.urls import reverse

from referee.play import services as play_services
from referee.play.models import LogEntry
from referee.terrain.models import Hex, UnitPlacement
from tests.factories import UnitFactory
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(cast):
    battlefield = BattlefieldFactory(
        campaign=cast.campaign, name="Ridge", columns=6, rows=5, shared=True, weather=["rain_light"]
    )
    HexFactory(battlefield=battlefield, name="0203", terrain="heavy_woods", level=2, shared=True)
    HexFactory(battlefield=battlefield, name="0404", terrain="clear", conditions=["mud"], shared=True)
    HexFactory(battlefield=battlefield, name="0505", terrain="clear", geyser=True, shared=True)
    return battlefield


def url(cast, field, name="maps:battlefield", *extra, query=""):
    return reverse(name, args=[cast.campaign.code, field.code, *extra]) + (f"?{query}" if query else "")


def svg_of(cast, field, who="gm", query=""):
    return cast.client(who).get(url(cast, field, "maps:battlefield-svg", query=query)).content.decode()


class TestTheSheet:
    def test_hexes_are_numbered_and_even_columns_sit_lower(self, cast, field):
        svg = svg_of(cast, field)
        for label in ("0101", "0601", "0605", "0203"):
            assert f'data-hex="{label}"' in svg
        assert 'data-hex="0701"' not in svg and 'data-hex="0106"' not in svg
        from referee.maps.geometry import hex_center

        assert hex_center(2, 1)[1] > hex_center(1, 1)[1] == hex_center(3, 1)[1]

    def test_terrain_level_conditions_and_weather_are_drawn(self, cast, field):
        svg = svg_of(cast, field)
        assert "Hex 0203; Heavy woods; level 2" in svg
        assert "Hex 0404; Clear; Mud" in svg
        assert "weather: Light rain" in svg

    @pytest.mark.parametrize(
        "who, status", [("anonymous", 404), ("outsider", 404), ("player", 200), ("gm", 200)]
    )
    def test_the_page_is_for_members(self, cast, field, who, status):
        assert cast.client(who).get(url(cast, field)).status_code == status

    def test_an_unshared_battlefield_is_not_found_by_players(self, cast, field):
        field.shared = False
        field.save()
        assert cast.client("player").get(url(cast, field)).status_code == 404
        assert cast.client("player").get(url(cast, field, "maps:battlefield-svg")).status_code == 404


class TestGeysersAndSharing:
    def test_a_dormant_geyser_is_the_gms_alone(self, cast, field):
        assert "geyser (dormant)" in svg_of(cast, field)
        for text in (
            svg_of(cast, field, "player"),
            cast.client("player").get(url(cast, field)).content.decode(),
            cast.client("player").get(url(cast, field, "maps:battlefield-panel")).content.decode(),
            svg_of(cast, field, query="as=players"),
        ):
            assert "geyser" not in text.lower()

    def test_an_erupting_geyser_shows_but_not_how_long(self, cast, field):
        Hex.objects.filter(name="0505").update(erupting_turns_left=3)
        player = svg_of(cast, field, "player")
        assert "geyser (erupting)" in player and "turn(s) left" not in player
        assert "3 turn(s) left" in svg_of(cast, field)

    def test_unshared_hexes_and_units_stay_hidden(self, cast, field):
        HexFactory(battlefield=field, name="0101", terrain="sand", shared=False)
        hidden = UnitFactory(campaign=cast.campaign, name="Hidden Hunchback", shared=False)
        UnitPlacement.objects.create(
            campaign=cast.campaign, unit=hidden, battlefield=field, name="x", hex="0102"
        )
        player = svg_of(cast, field, "player")
        assert "Sand" not in player and "Hidden Hunchback" not in player
        assert "Sand" in svg_of(cast, field) and "Hidden Hunchback" in svg_of(cast, field)


class TestPlacingAndEditing:
    def test_placing_and_moving_a_unit_is_logged_and_undoable(self, cast, field):
        unit = UnitFactory(campaign=cast.campaign, name="Victor", shared=True)
        client = cast.client("gm")
        response = client.post(
            url(cast, field, "maps:place"), {"unit": unit.code, "hex": "0304", "facing": "se"}
        )
        assert response.status_code == 302
        placed = LogEntry.objects.latest("seq")
        assert placed.title == "Victor placed on Ridge" and placed.visibility == "everyone"
        assert "Victor in hex 0304, facing south-east" in svg_of(cast, field, "player")
        client.post(url(cast, field, "maps:place"), {"unit": unit.code, "hex": "0405", "facing": "n"})
        moved = LogEntry.objects.latest("seq")
        assert moved.procedure == "map.place"
        play_services.log_entry_reverse(entry=moved, actor=cast.gm)
        assert UnitPlacement.objects.get(unit=unit).hex == "0304"
        play_services.log_entry_reverse(entry=placed, actor=cast.gm)
        assert not UnitPlacement.objects.filter(unit=unit).exists()

    @pytest.mark.parametrize("hex_label", ["0799", "9999", "12", "abcd", "04\x0004", "0000", ""])
    def test_a_hex_off_the_map_is_refused(self, cast, field, hex_label):
        unit = UnitFactory(campaign=cast.campaign)
        before = LogEntry.objects.count()
        response = cast.client("gm").post(
            url(cast, field, "maps:place"), {"unit": unit.code, "hex": hex_label}
        )
        assert response.status_code == 422 and LogEntry.objects.count() == before

    def test_clicking_a_hex_opens_its_form_and_saving_it_is_logged(self, cast, field):
        client = cast.client("gm")
        page = client.get(url(cast, field, query="hex=0302")).content.decode()
        assert "Hex 0302" in page and 'id="hex-form"' in page
        assert 'href="/c/' in svg_of(cast, field) or "?hex=" in page  # hexes are links on the GM's page
        response = client.post(
            url(cast, field, "maps:hex-save", "0302"),
            {"terrain": "heavy_woods", "level": "3", "shared": "on", "erupting_turns_left": "0"},
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        row = Hex.objects.get(battlefield=field, name="0302")
        assert (row.terrain, row.level) == ("heavy_woods", 3)
        assert LogEntry.objects.latest("seq").procedure == "record.create"

    def test_players_cannot_edit_hexes_or_place_units(self, cast, field):
        unit = UnitFactory(campaign=cast.campaign)
        client = cast.client("player")
        assert (
            client.post(url(cast, field, "maps:place"), {"unit": unit.code, "hex": "0101"}).status_code == 403
        )
        assert client.post(url(cast, field, "maps:hex-save", "0101"), {"terrain": "sand"}).status_code == 403
        assert "hex-form" not in client.get(url(cast, field, query="hex=0101")).content.decode()


class TestTerrainProceduresReadTheHexUnderAUnit:
    def test_the_hex_a_unit_stands_in_fills_the_form(self, cast, field):
        unit = UnitFactory(campaign=cast.campaign, kind="battlemech")
        UnitPlacement.objects.create(
            campaign=cast.campaign, unit=unit, battlefield=field, name="x", hex="0404"
        )
        mud = Hex.objects.get(name="0404")
        response = cast.client("gm").get(
            reverse("play:procedure", args=[cast.campaign.code, "terrain.bog_down"]) + f"?unit={unit.code}"
        )
        assert response.status_code == 200
        assert f'value="{mud.code}" selected' in response.content.decode()


class TestReplay:
    def test_the_battlefield_as_it_stood_at_an_entry(self, cast, field):
        unit = UnitFactory(campaign=cast.campaign, name="Victor", shared=True)
        client = cast.client("gm")
        client.post(url(cast, field, "maps:place"), {"unit": unit.code, "hex": "0304", "facing": "n"})
        first = LogEntry.objects.latest("seq").seq
        client.post(url(cast, field, "maps:place"), {"unit": unit.code, "hex": "0601", "facing": "s"})
        then = svg_of(cast, field, query=f"at={first}")
        assert "Victor in hex 0304, facing north" in then and "0601, facing" not in then
        assert "Victor in hex 0601, facing south" in svg_of(cast, field)
