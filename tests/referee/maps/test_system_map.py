"""The system map: what it draws, for whom, moves on it, and the map as it stood at an entry."""

import re

import pytest
from django.urls import reverse

from referee.fleet.models import Ship
from referee.maps.models import PiratePoint
from referee.play import services as play_services
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


@pytest.fixture
def galax(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Galax", jump_point_au=1.5)
    ShipFactory(
        campaign=cast.campaign,
        name="Waterloo",
        kind="jumpship",
        star_system=system,
        x_au=0,
        y_au=1.5,
        shared=True,
    )
    ShipFactory(
        campaign=cast.campaign, name="Valley Forge", kind="warship", star_system=system, x_au=0, y_au=-1.5
    )
    PiratePoint.objects.create(campaign=cast.campaign, star_system=system, name="Secret L4", x_au=2, y_au=-1)
    return system


def url(cast, system, name="maps:system", **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse(name, args=[cast.campaign.code, system.code]) + (f"?{query}" if query else "")


def ship(cast, name):
    return Ship.objects.get(campaign=cast.campaign, name=name)


class TestWhoSeesWhat:
    @pytest.mark.parametrize(
        "who, status", [("anonymous", 404), ("outsider", 404), ("player", 200), ("gm", 200)]
    )
    def test_the_map_page_is_for_members(self, cast, galax, who, status):
        assert cast.client(who).get(url(cast, galax)).status_code == status
        assert cast.client(who).get(url(cast, galax, "maps:system-svg")).status_code == status

    def test_the_gm_sees_every_ship_the_jump_points_and_the_pirate_point(self, cast, galax):
        svg = cast.client("gm").get(url(cast, galax, "maps:system-svg")).content.decode()
        assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
        for text in ("Waterloo", "Valley Forge", "Secret L4", "Zenith jump point", "Nadir jump point"):
            assert text in svg
        assert "href=" not in svg and "<script" not in svg  # no external asset, no script

    def test_a_player_sees_only_what_is_shared(self, cast, galax):
        client = cast.client("player")
        for response in (
            client.get(url(cast, galax)),
            client.get(url(cast, galax, "maps:system-svg")),
            client.get(url(cast, galax, "maps:system-panel")),
            client.get(url(cast, galax) + "?from=star"),
        ):
            text = response.content.decode()
            assert "Waterloo" in text
            assert "Valley Forge" not in text and "Secret L4" not in text
            assert "Move a ship" not in text

    def test_a_player_cannot_read_the_map_at_an_earlier_entry(self, cast, galax):
        text = cast.client("player").get(url(cast, galax, "maps:system-svg", at=0)).content.decode()
        assert "as it stood" not in text and "Valley Forge" not in text

    def test_the_gm_exports_what_players_see(self, cast, galax):
        svg = cast.client("gm").get(url(cast, galax, "maps:system-svg", **{"as": "players"})).content.decode()
        assert "Waterloo" in svg and "Valley Forge" not in svg and "Secret L4" not in svg

    def test_players_cannot_move_ships_or_add_pirate_points(self, cast, galax):
        client = cast.client("player")
        waterloo = ship(cast, "Waterloo")
        move = client.post(
            url(cast, galax, "maps:move"), {"ship": waterloo.code, "anchor": "xy", "x_au": 1, "y_au": 1}
        )
        assert move.status_code == 403
        add = client.post(url(cast, galax, "maps:pirate-add"), {"name": "Mine", "x_au": 1, "y_au": 1})
        assert add.status_code == 403
        assert ship(cast, "Waterloo").x_au == 0 and not PiratePoint.objects.filter(name="Mine").exists()


class TestDistances:
    def test_the_distance_list_measures_from_the_chosen_object(self, cast, galax):
        waterloo = ship(cast, "Waterloo")
        text = cast.client("gm").get(url(cast, galax) + f"?from=ship-{waterloo.code}").content.decode()
        table = text[text.index('data-testid="distances"') :]
        assert re.search(r"Valley Forge</th><td>3 AU</td>", table)
        assert re.search(r"Zenith jump point</th><td>0 AU</td>", table)

    def test_every_ship_says_its_name_kind_and_place_on_hover(self, cast, galax):
        svg = cast.client("gm").get(url(cast, galax, "maps:system-svg")).content.decode()
        assert "<title>Waterloo: JumpShip, at x 0, y 1.5 AU</title>" in svg


class TestMoving:
    def test_a_move_by_coordinates_is_logged_and_undoable(self, cast, galax):
        waterloo = ship(cast, "Waterloo")
        response = cast.client("gm").post(
            url(cast, galax, "maps:move"),
            {"ship": waterloo.code, "anchor": "xy", "x_au": "2.5", "y_au": "-1"},
        )
        assert response.status_code == 302
        waterloo.refresh_from_db()
        assert (waterloo.x_au, waterloo.y_au) == (2.5, -1.0)
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure="map.move")
        assert entry.visibility == "everyone"
        assert {c["field"]: (c["before"], c["after"]) for c in entry.effects}["x_au"] == (0.0, 2.5)
        play_services.log_entry_reverse(entry=entry, actor=cast.gm)
        waterloo.refresh_from_db()
        assert (waterloo.x_au, waterloo.y_au) == (0.0, 1.5)

    def test_a_move_to_a_jump_point_with_an_offset(self, cast, galax):
        forge = ship(cast, "Valley Forge")
        cast.client("gm").post(
            url(cast, galax, "maps:move"), {"ship": forge.code, "anchor": "zenith", "offset_au": "0.5"}
        )
        forge.refresh_from_db()
        assert (forge.x_au, forge.y_au) == (0.0, 2.0)
        assert forge.position == "0.5 AU beyond the zenith jump point"
        # An unshared ship's move is the GM's alone.
        assert LogEntry.objects.get(procedure="map.move").visibility == "gm"

    def test_a_move_to_a_pirate_point(self, cast, galax):
        forge, point = ship(cast, "Valley Forge"), PiratePoint.objects.get(name="Secret L4")
        PiratePoint.objects.filter(pk=point.pk).update(shared=True)
        cast.client("gm").post(
            url(cast, galax, "maps:move"), {"ship": forge.code, "anchor": f"pirate-{point.code}"}
        )
        forge.refresh_from_db()
        assert (forge.x_au, forge.y_au) == (2.0, -1.0) and forge.position == "Secret L4"

    @pytest.mark.parametrize("offset", ["", "0.5"])
    def test_a_shared_ships_move_to_an_unshared_pirate_point_never_names_it_to_players(
        self, cast, galax, offset
    ):
        waterloo, point = ship(cast, "Waterloo"), PiratePoint.objects.get(name="Secret L4")
        move = {"ship": waterloo.code, "anchor": f"pirate-{point.code}", "offset_au": offset}
        assert cast.client("gm").post(url(cast, galax, "maps:move"), move).status_code in (200, 302)
        waterloo.refresh_from_db()
        assert "Secret L4" not in waterloo.position and waterloo.position.endswith(" AU")
        entry = LogEntry.objects.get(procedure="map.move")
        assert entry.visibility == "everyone" and "Secret L4" not in entry.summary + entry.title
        player = cast.client("player")
        for page in (
            reverse("campaigns:detail", args=[cast.campaign.code]),
            url(cast, galax),
            url(cast, galax, "maps:system-svg"),
            reverse("play:export", args=[cast.campaign.code, "csv"]),
        ):
            response = player.get(page)
            text = b"".join(response.streaming_content) if response.streaming else response.content
            assert response.status_code == 200 and b"Secret L4" not in text, page

    def test_a_docked_ship_rides_with_its_carrier(self, cast, galax):
        waterloo = ship(cast, "Waterloo")
        waterloo.dropship_capacity = 2
        waterloo.save()
        dropship = ShipFactory(campaign=cast.campaign, name="John Wayne", kind="dropship", docked_on=waterloo)
        svg = cast.client("gm").get(url(cast, galax, "maps:system-svg")).content.decode()
        assert "+ John Wayne (docked)" in svg
        forge = ship(cast, "Valley Forge")
        assert dropship.distance_au(forge) == pytest.approx(3.0)
        refused = cast.client("gm").post(
            url(cast, galax, "maps:move"), {"ship": dropship.code, "anchor": "xy", "x_au": 1, "y_au": 1}
        )
        assert refused.status_code == 422  # not offered: it rides with its carrier

    @pytest.mark.parametrize(
        "values",
        [
            {"x_au": "nan", "y_au": "1"},
            {"x_au": "inf", "y_au": "1"},
            {"x_au": "1e300", "y_au": "1"},
            {"x_au": "-20000", "y_au": "1"},
            {"x_au": "1\x00", "y_au": "1"},
            {"x_au": "", "y_au": "1"},
            {"anchor": "zenith", "offset_au": "9999"},
            {"anchor": "pirate-nonsense"},
            {"anchor": "xy\x00"},
        ],
    )
    def test_hostile_positions_are_refused_without_a_write(self, cast, galax, values):
        waterloo = ship(cast, "Waterloo")
        before = LogEntry.objects.count()
        data = {"ship": waterloo.code, "anchor": "xy", **values}
        response = cast.client("gm").post(url(cast, galax, "maps:move"), data, **htmx())
        assert response.status_code == 422
        assert LogEntry.objects.count() == before
        waterloo.refresh_from_db()
        assert (waterloo.x_au, waterloo.y_au) == (0.0, 1.5)

    @pytest.mark.parametrize(
        "query", ["at=abc", "at=99999999999", "mode=weird", "at=%00", "from=" + "x" * 200]
    )
    def test_hostile_reading_options_are_a_400(self, cast, galax, query):
        assert cast.client("gm").get(url(cast, galax) + "?" + query).status_code == 400

    def test_pirate_points_are_logged_and_gm_only_until_shared(self, cast, galax):
        response = cast.client("gm").post(
            url(cast, galax, "maps:pirate-add"), {"name": "Trojan", "x_au": "-2", "y_au": "0.5"}
        )
        assert response.status_code == 302
        entry = LogEntry.objects.get(procedure="record.create")
        assert entry.visibility == "gm" and "Trojan" in entry.title
        assert "Trojan" not in cast.client("player").get(url(cast, galax, "maps:system-svg")).content.decode()


class TestJumpArrival:
    def test_a_jump_that_goes_ahead_arrives_at_the_zenith_jump_point(self, cast, galax):
        home = StarSystemFactory(campaign=cast.campaign, name="Home", jump_point_au=2.0)
        waterloo = ship(cast, "Waterloo")
        waterloo.kf_integrity = waterloo.kf_integrity_max = 4
        waterloo.drive_charged = True
        waterloo.star_system = home
        waterloo.save()
        play_services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="jump.malfunction",
            inputs={"hours_since_last_jump": None, "kf_integrity": 4, "kf_integrity_max": 4},
            dice=[3, 4],
            actor=cast.gm,
            subjects={"ship": waterloo.code},
            extras={"destination": galax},
        )
        waterloo.refresh_from_db()
        assert waterloo.star_system == galax and (waterloo.x_au, waterloo.y_au) == (0.0, 1.5)


class TestReplay:
    def test_the_map_as_it_stood_at_an_entry(self, cast, galax):
        waterloo = ship(cast, "Waterloo")
        client = cast.client("gm")
        client.post(
            url(cast, galax, "maps:move"), {"ship": waterloo.code, "anchor": "xy", "x_au": "7", "y_au": "0"}
        )
        client.post(
            url(cast, galax, "maps:move"), {"ship": waterloo.code, "anchor": "xy", "x_au": "9", "y_au": "0"}
        )
        first, second = LogEntry.objects.filter(procedure="map.move").order_by("seq")
        now = client.get(url(cast, galax, "maps:system-svg")).content.decode()
        then = client.get(url(cast, galax, "maps:system-svg", at=first.seq)).content.decode()
        before = client.get(url(cast, galax, "maps:system-svg", at=first.seq - 1)).content.decode()
        assert "Waterloo: JumpShip, at x 9, y 0 AU" in now
        assert "Waterloo: JumpShip, at x 7, y 0 AU" in then and f"after entry #{first.seq}" in then
        assert "Waterloo: JumpShip, at x 0, y 1.5 AU" in before
        assert second.seq > first.seq

    def test_a_ship_added_later_is_not_on_the_earlier_map(self, cast, galax):
        client = cast.client("gm")
        client.post(url(cast, galax, "maps:pirate-add"), {"name": "Early", "x_au": "1", "y_au": "1"})
        mark = LogEntry.objects.latest("seq").seq
        client.post(url(cast, galax, "maps:pirate-add"), {"name": "Late", "x_au": "2", "y_au": "1"})
        then = client.get(url(cast, galax, "maps:system-svg", at=mark)).content.decode()
        assert "Early" in then and "Late" not in then


class TestBoundedInputs:
    @pytest.mark.parametrize(
        "values",
        [
            {"name": "P", "x_au": "nan", "y_au": "1"},
            {"name": "P", "x_au": "1", "y_au": "-inf"},
            {"name": "P", "x_au": "1e20", "y_au": "1"},
            {"name": "P\x00", "x_au": "1", "y_au": "1"},
            {"name": "P" * 500, "x_au": "1", "y_au": "1"},
            {"name": "", "x_au": "1", "y_au": "1"},
        ],
    )
    def test_a_hostile_pirate_point_is_refused_without_a_write(self, cast, galax, values):
        before = (LogEntry.objects.count(), PiratePoint.objects.count())
        response = cast.client("gm").post(url(cast, galax, "maps:pirate-add"), values, **htmx())
        assert response.status_code == 422
        assert (LogEntry.objects.count(), PiratePoint.objects.count()) == before

    @pytest.mark.parametrize("distance", ["nan", "inf", "-1", "0", "1e9"])
    def test_a_jump_point_distance_must_be_a_plain_positive_figure(self, cast, galax, distance):
        edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "systems", galax.code])
        data = {"name": "Galax", "spectral_class": "G2V", "jump_point_au": distance}
        response = cast.client("gm").post(edit, data, **htmx())
        assert response.status_code == 422
        galax.refresh_from_db()
        assert galax.jump_point_au == 1.5

    def test_the_gm_sets_a_jump_point_distance_and_the_map_follows(self, cast, galax):
        edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "systems", galax.code])
        data = {"name": "Galax", "spectral_class": "G2V", "jump_point_au": "2.25"}
        assert cast.client("gm").post(edit, data, **htmx()).status_code == 200
        svg = cast.client("player").get(url(cast, galax, "maps:system-svg")).content.decode()
        assert "Zenith jump point: 2.25 AU from the star" in svg
