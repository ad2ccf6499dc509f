"""The star map: systems placed in light-years (a logged, undoable record edit), ships where
they are, the jumps made drawn from the log, the route planner's arithmetic, and what a
player may never see (a system not shared is not named or drawn)."""

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from referee.fleet.models import Ship, StarSystem
from referee.maps import voyage
from referee.play import services as play
from referee.play.models import LogEntry, Numbering
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.conftest import posted_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def sky(cast):
    c = cast.campaign
    systems = {
        "Galax": StarSystemFactory(campaign=c, name="Galax", x_ly=0, y_ly=0),
        "Outreach": StarSystemFactory(campaign=c, name="Outreach", x_ly=20, y_ly=0),
        "Harlech": StarSystemFactory(campaign=c, name="Harlech", x_ly=40, y_ly=10, explored=False),
        "Secret Base": StarSystemFactory(campaign=c, name="Secret Base", x_ly=10, y_ly=-15, shared=False),
        "Far Away": StarSystemFactory(campaign=c, name="Far Away", x_ly=200, y_ly=0),
    }
    ShipFactory(campaign=c, name="Waterloo", kind="jumpship", star_system=systems["Galax"], shared=True)
    ShipFactory(campaign=c, name="Ghost Ship", kind="warship", star_system=systems["Galax"], shared=False)
    ShipFactory(
        campaign=c, name="Hidden Hull", kind="jumpship", star_system=systems["Secret Base"], shared=True
    )
    return systems


def url(cast, name="maps:stars", **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse(name, args=[cast.campaign.code]) + (f"?{query}" if query else "")


def jump(cast, vessel, destination):
    return play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.malfunction",
        inputs={"kf_integrity": 4, "kf_integrity_max": 4},
        dice=[3, 4],
        actor=cast.gm,
        subjects={"ship": vessel.code},
        extras={"destination": destination},
    )


def charged(vessel):
    vessel.drive_charged = True
    vessel.kf_integrity = vessel.kf_integrity_max = 4
    vessel.save()
    return vessel


class TestWhoSeesWhat:
    @pytest.mark.parametrize(
        "who, status", [("anonymous", 404), ("outsider", 404), ("player", 200), ("gm", 200)]
    )
    def test_the_star_map_is_for_members(self, cast, sky, who, status):
        for name in ("maps:stars", "maps:stars-svg", "maps:stars-panel"):
            assert cast.client(who).get(url(cast, name)).status_code == status

    def test_the_gm_sees_every_system_and_ship(self, cast, sky):
        svg = cast.client("gm").get(url(cast, "maps:stars-svg")).content.decode()
        assert svg.startswith("<svg") and "<script" not in svg and "href=" not in svg and "style=" not in svg
        for name in ("Galax", "Outreach", "Harlech (unexplored)", "Secret Base", "Waterloo", "Ghost Ship"):
            assert name in svg

    def test_a_player_never_reads_a_system_not_shared(self, cast, sky):
        client = cast.client("player")
        secret = sky["Secret Base"]
        for response in (
            client.get(url(cast)),
            client.get(url(cast, "maps:stars-svg")),
            client.get(url(cast, "maps:stars-panel")),
            client.get(url(cast, **{"from": f"sys-{sky['Galax'].code}"})),
            client.get(url(cast, "maps:stars-svg", **{"as": "players"})),
        ):
            text = response.content.decode()
            assert response.status_code == 200
            assert "Galax" in text and "Waterloo" in text
            for hidden in ("Secret Base", str(secret.code), "Ghost Ship", "Hidden Hull", "Plan a route"):
                assert hidden not in text
        index = client.get(reverse("maps:index", args=[cast.campaign.code])).content.decode()
        assert "Galax" in index and "Secret Base" not in index
        page = client.get(reverse("maps:system", args=[cast.campaign.code, secret.code]))
        assert page.status_code == 404
        svg = client.get(reverse("maps:system-svg", args=[cast.campaign.code, secret.code]))
        assert svg.status_code == 404

    def test_distances_in_light_years_and_the_jump_radius(self, cast, sky):
        waterloo = sky["Galax"].ships.get(name="Waterloo")
        text = cast.client("gm").get(url(cast, **{"from": f"ship-{waterloo.code}"})).content.decode()
        assert "From Waterloo (in Galax)" in text
        assert '<th scope="row">Outreach</th><td>20</td><td>within reach</td>' in text
        assert '<th scope="row">Far Away</th><td>200</td><td>too far</td>' in text
        assert 'class="reach"' in text and "30 light-year jump radius" in text

    @pytest.mark.parametrize("bad", ["\x00", "x" * 81])
    def test_a_bad_choice_is_a_400_in_words(self, cast, sky, bad):
        response = cast.client("gm").get(url(cast), {"from": bad})
        assert response.status_code == 400 and "No such system or ship" in response.content.decode()

    @pytest.mark.parametrize("bad", ["-1", "1e99", "12a", "\x00"])
    def test_a_bad_entry_number_is_a_400_in_words(self, cast, sky, bad):
        response = cast.client("gm").get(url(cast), {"at": bad})
        assert response.status_code == 400 and "log entry as a number" in response.content.decode()


class TestPlacing:
    def place(self, cast, system, **data):
        post = {"system": str(system.code), "x_ly": "5", "y_ly": "-7.5", "explored": "on", "shared": "on"}
        post.update(data)
        return cast.client("gm").post(url(cast, "maps:stars-place"), post)

    def test_placing_is_a_logged_undoable_record_edit(self, cast, sky):
        system = sky["Outreach"]
        response = self.place(cast, system, explored="")
        assert response.status_code == 302
        system.refresh_from_db()
        assert (system.x_ly, system.y_ly, system.explored) == (5.0, -7.5, False)
        entry = LogEntry.objects.filter(campaign=cast.campaign).latest("seq")
        assert entry.title == "The GM edited the star system Outreach"
        play.log_entry_reverse(entry=entry, actor=cast.gm)
        system.refresh_from_db()
        assert (system.x_ly, system.y_ly, system.explored) == (20.0, 0.0, True)

    def test_the_form_shows_the_chosen_systems_values_so_saving_it_as_shown_keeps_them(self, cast, sky):
        secret = sky["Secret Base"]
        page = cast.client("gm").get(url(cast, **{"from": f"sys-{secret.code}"})).content.decode()
        form = page[page.index('id="place-form"') : page.index("</form>", page.index('id="place-form"'))]
        data = posted_by(form, "x_ly")
        for name in ("y_ly", "explored", "shared"):
            data.update(posted_by(form, name))
        data["system"] = re.search(r'<option value="([^"]*)" selected>', form).group(1)
        before = LogEntry.objects.filter(campaign=cast.campaign).count()
        assert data["system"] == str(secret.code) and data["x_ly"] == "10.0" and "shared" not in data
        response = cast.client("gm").post(url(cast, "maps:stars-place"), data)
        assert response.status_code == 302
        secret.refresh_from_db()
        assert (secret.x_ly, secret.y_ly, secret.shared, secret.explored) == (10.0, -15.0, False, True)
        assert LogEntry.objects.filter(campaign=cast.campaign).count() == before  # nothing changed

    def test_picking_a_system_redraws_the_form_with_its_position(self, cast, sky):
        page = cast.client("gm").get(url(cast)).content.decode()
        form = page[page.index('id="place-form"') : page.index("</form>", page.index('id="place-form"'))]
        select = re.search(r'<select name="system"([^>]*)>', form).group(1)
        redraw = re.search(r'hx-get="([^"]*)"', select).group(1)
        assert 'hx-trigger="change"' in select and 'hx-target="#place-form"' in select
        assert redraw == url(cast, "maps:stars-place")
        secret = sky["Secret Base"]
        response = cast.client("gm").get(redraw, {"system": str(secret.code)}, HTTP_HX_REQUEST="true")
        text = response.content.decode()
        assert response.status_code == 200 and text.lstrip().startswith("<form")
        assert "<html" not in text and text.count('id="place-form"') == 1
        assert re.search(r'<option value="([^"]*)" selected>', text).group(1) == str(secret.code)
        data = posted_by(text, "x_ly")
        for name in ("y_ly", "shared"):
            data.update(posted_by(text, name))
        assert data["x_ly"] == "10.0" and data["y_ly"] == "-15.0" and "shared" not in data
        assert 'name="csrfmiddlewaretoken"' in text  # the redrawn form still saves
        # Without HTMX, the star map with that system chosen (the same form, filled in).
        plain = cast.client("gm").get(redraw, {"system": str(secret.code)})
        assert plain.status_code == 302 and plain["Location"].endswith(f"?from=sys-{secret.code}")

    @pytest.mark.parametrize("system", ["", "nope", "\x00", "00000000-0000-0000-0000-000000000000"])
    def test_a_redraw_for_a_system_that_is_not_there_is_a_400_in_words(self, cast, sky, system):
        response = cast.client("gm").get(
            url(cast, "maps:stars-place"), {"system": system}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 400
        assert "Choose one of the campaign's star systems" in response.content.decode()

    @pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_gets_the_form_redrawn(self, cast, sky, who, status):
        response = cast.client(who).get(
            url(cast, "maps:stars-place"), {"system": str(sky["Secret Base"].code)}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == status and "Secret Base" not in response.content.decode()

    def test_an_edit_of_a_system_not_shared_is_the_gms_alone(self, cast, sky):
        self.place(cast, sky["Secret Base"], shared="")
        entry = LogEntry.objects.filter(campaign=cast.campaign).latest("seq")
        assert entry.visibility == "gm"

    @pytest.mark.parametrize(
        "value, words",
        [
            ("nan", "Enter a number."),
            ("inf", "Enter a number."),
            ("-inf", "Enter a number."),
            ("1e400", "Enter a number."),
            ("5001", "less than or equal to 5000"),
            ("-5001", "greater than or equal to -5000"),
            ("", "This field is required."),
            ("1\x00", "Enter a number."),
        ],
    )
    def test_bad_coordinates_are_refused_in_words(self, cast, sky, value, words):
        system = sky["Outreach"]
        before = LogEntry.objects.filter(campaign=cast.campaign).count()
        response = self.place(cast, system, x_ly=value)
        assert 400 <= response.status_code < 500
        assert words in response.content.decode()
        system.refresh_from_db()
        assert system.x_ly == 20.0
        assert LogEntry.objects.filter(campaign=cast.campaign).count() == before

    def test_negative_coordinates_are_a_place_like_any_other(self, cast, sky):
        assert self.place(cast, sky["Outreach"], x_ly="-5000", y_ly="-0.25").status_code == 302

    @pytest.mark.parametrize("system", ["", "nope", "\x00", "00000000-0000-0000-0000-000000000000"])
    def test_a_system_that_is_not_there_is_a_400_in_words(self, cast, sky, system):
        response = cast.client("gm").post(
            url(cast, "maps:stars-place"), {"system": system, "x_ly": "1", "y_ly": "1"}
        )
        assert (
            response.status_code == 400
            and "Choose one of the campaign's star systems" in response.content.decode()
        )

    def test_only_the_gm_places(self, cast, sky):
        data = {"system": str(sky["Outreach"].code), "x_ly": "1", "y_ly": "1"}
        assert cast.client("player").post(url(cast, "maps:stars-place"), data).status_code == 403
        assert cast.client("outsider").post(url(cast, "maps:stars-place"), data).status_code == 404
        assert cast.client("anonymous").post(url(cast, "maps:stars-place"), data).status_code == 404
        assert StarSystem.objects.get(pk=sky["Outreach"].pk).x_ly == 20.0


class TestTheVoyage:
    def test_jumps_made_are_drawn_and_replayed(self, cast, sky):
        waterloo = charged(sky["Galax"].ships.get(name="Waterloo"))
        entry = jump(cast, waterloo, sky["Outreach"])
        assert entry.result["jump_proceeds"] is True
        gm = cast.client("gm").get(url(cast)).content.decode()
        assert f"Waterloo jumped from Galax to Outreach (entry #{entry.seq})" in gm
        assert f'Waterloo: Galax to Outreach <small class="muted">entry #{entry.seq}' in gm
        player = cast.client("player").get(url(cast)).content.decode()
        assert "Waterloo jumped from Galax to Outreach" in player
        before = cast.client("gm").get(url(cast, at=entry.seq - 1)).content.decode()
        assert "as it stood after entry" in before and "jumped from" not in before

    def test_players_read_a_jumps_entry_by_the_number_their_log_gives_it(self, cast, sky):
        ghost = charged(sky["Galax"].ships.get(name="Ghost Ship"))
        jump(cast, ghost, sky["Outreach"])  # the GM's secret: an entry players never see
        waterloo = charged(sky["Galax"].ships.get(name="Waterloo"))
        entry = jump(cast, waterloo, sky["Outreach"])
        shown = Numbering.for_campaign(cast.campaign, cast.player).number(entry.seq)
        assert shown == entry.seq - 1
        player = cast.client("player")
        for text in (
            player.get(url(cast)).content.decode(),
            player.get(url(cast, "maps:stars-svg")).content.decode(),
        ):
            assert f"Waterloo jumped from Galax to Outreach (entry #{shown})" in text
            assert f"entry #{entry.seq}" not in text
        page = player.get(url(cast)).content.decode()
        assert f'Waterloo: Galax to Outreach <small class="muted">entry #{shown}</small>' in page
        log = player.get(reverse("play:log", args=[cast.campaign.code])).content.decode()
        assert f"#{shown}" in log

    def test_a_jump_into_a_system_not_shared_is_not_the_players(self, cast, sky):
        waterloo = charged(sky["Galax"].ships.get(name="Waterloo"))
        jump(cast, waterloo, sky["Secret Base"])
        text = cast.client("player").get(url(cast)).content.decode()
        assert "jumped from" not in text and "Secret Base" not in text and "Waterloo" not in text
        assert (
            "Waterloo jumped from Galax to Secret Base" in cast.client("gm").get(url(cast)).content.decode()
        )

    def test_an_undone_jump_is_not_drawn(self, cast, sky):
        waterloo = charged(sky["Galax"].ships.get(name="Waterloo"))
        entry = jump(cast, waterloo, sky["Outreach"])
        play.log_entry_reverse(entry=entry, actor=cast.gm)
        assert "jumped from" not in cast.client("gm").get(url(cast, "maps:stars-svg")).content.decode()


NOW = datetime(3067, 1, 1, tzinfo=UTC)
A, B, C, D = (
    voyage.Stop("a", "Galax", (0.0, 0.0)),
    voyage.Stop("b", "Outreach", (30.0, 0.0)),
    voyage.Stop("c", "Harlech", (30.0, 29.0)),
    voyage.Stop("d", "Far Away", (30.0, 59.5)),
)


class TestThePlannersArithmetic:
    def test_arrival_is_now_plus_every_charge(self):
        legs = voyage.plan(start=A, stops=[B, C], now=NOW, charge=timedelta(hours=150), ready_at=None)
        assert [leg.ly for leg in legs] == [30.0, 29.0]
        assert voyage.arrival(legs) == NOW + timedelta(hours=300)

    def test_a_drive_already_charged_jumps_first_at_once(self):
        legs = voyage.plan(start=A, stops=[B, C], now=NOW, charge=timedelta(hours=150), ready_at=NOW)
        assert legs[0].charge == timedelta(0) and legs[0].jumps_at == NOW
        assert voyage.arrival(legs) == NOW + timedelta(hours=150)

    def test_a_charge_under_way_sets_the_first_jump(self):
        ready = NOW + timedelta(hours=40)
        legs = voyage.plan(start=A, stops=[B, C], now=NOW, charge=timedelta(hours=160), ready_at=ready)
        assert voyage.arrival(legs) == NOW + timedelta(hours=200)

    def test_thirty_light_years_is_the_bound(self):
        voyage.plan(start=A, stops=[B], now=NOW, charge=timedelta(hours=150), ready_at=None)
        with pytest.raises(
            voyage.RouteError,
            match=r"Jump 3, Harlech to Far Away, is 30.5 light-years: a K-F drive jumps at most 30",
        ):
            voyage.plan(start=A, stops=[B, C, D], now=NOW, charge=timedelta(hours=150), ready_at=None)

    def test_no_route_an_empty_one_or_too_long_a_one_or_a_stop_in_place(self):
        for stops, words in (
            ([], "at least one system"),
            ([B, A] * 11, "at most 20 jumps"),
            ([A], "from Galax to Galax"),
            ([voyage.Stop("x", "Nowhere", None)], "Nowhere is not placed"),
        ):
            with pytest.raises(voyage.RouteError, match=words):
                voyage.plan(start=A, stops=stops, now=NOW, charge=timedelta(hours=150), ready_at=None)


class TestThePlannerPage:
    def plan(self, cast, sky, stops, **extra):
        waterloo = sky["Galax"].ships.get(name="Waterloo")
        params = {
            "ship": str(waterloo.code),
            "route": ",".join(str(sky[n].code) for n in stops),
            "hours": "150",
        }
        params.update(extra)
        return cast.client("gm").get(url(cast), params)

    def test_a_route_gives_its_arrival_date(self, cast, sky):
        cast.campaign.refresh_from_db()
        response = self.plan(cast, sky, ["Outreach"], add=str(sky["Harlech"].code))
        text = response.content.decode()
        assert response.status_code == 200
        arrival = cast.campaign.clock + timedelta(hours=300)
        assert f"Arrives in Harlech on {arrival:%Y-%m-%d %H:%M}" in text
        assert "6 days 6 h" in text and 'class="route"' in text
        assert "play/jump.malfunction/?ship=" in text

    def test_a_jump_too_long_is_refused_in_words(self, cast, sky):
        text = self.plan(cast, sky, ["Far Away"]).content.decode()
        assert "Jump 1, Galax to Far Away, is 200 light-years: a K-F drive jumps at most 30" in text
        assert "Arrives in" not in text

    @pytest.mark.parametrize(
        "extra, words",
        [
            ({"hours": "nan"}, "Enter a number."),
            ({"hours": "inf"}, "Enter a number."),
            ({"hours": "-150"}, "greater than or equal to 16"),
            ({"hours": "1e9"}, "less than or equal to 2000"),
            ({"route": "nope"}, "does not have"),
            ({"route": "\x00"}, "Null characters are not allowed."),
            ({"ship": "\x00"}, "Null characters are not allowed."),
            ({"ship": "00000000-0000-0000-0000-000000000000"}, "Select a valid choice"),
        ],
    )
    def test_bad_planner_figures_are_a_400_in_words(self, cast, sky, extra, words):
        response = self.plan(cast, sky, ["Outreach"], **extra)
        assert response.status_code == 400 and words in response.content.decode()

    def test_players_plan_nothing(self, cast, sky):
        waterloo = sky["Galax"].ships.get(name="Waterloo")
        text = (
            cast.client("player")
            .get(url(cast), {"ship": str(waterloo.code), "route": str(sky["Outreach"].code)})
            .content.decode()
        )
        assert "Plan a route" not in text and "Arrives in" not in text


def test_hours_left_empty_are_the_safe_150(cast, sky):
    waterloo = sky["Galax"].ships.get(name="Waterloo")
    cast.campaign.refresh_from_db()
    text = (
        cast.client("gm")
        .get(url(cast), {"ship": str(waterloo.code), "route": str(sky["Outreach"].code)})
        .content.decode()
    )
    assert f"Arrives in Outreach on {cast.campaign.clock + timedelta(hours=150):%Y-%m-%d %H:%M}" in text


def test_the_live_refresh_answers_204_while_nothing_changed(cast, sky):
    client = cast.client("player")
    first = client.get(url(cast)).content.decode()
    version = first.split("?v=", 1)[1].split("&", 1)[0]
    assert client.get(url(cast, "maps:stars-panel", v=version)).status_code == 204
    data = {"system": str(sky["Outreach"].code), "x_ly": "21", "y_ly": "0", "explored": "on", "shared": "on"}
    assert cast.client("gm").post(url(cast, "maps:stars-place"), data).status_code == 302
    fresh = client.get(url(cast, "maps:stars-panel", v=version))
    assert fresh.status_code == 200 and "x 21, y 0 ly" in fresh.content.decode()


def test_the_gm_replays_a_placement_at_an_earlier_entry(cast, sky):
    data = {"system": str(sky["Outreach"].code), "x_ly": "-12", "y_ly": "3", "explored": "on", "shared": "on"}
    assert cast.client("gm").post(url(cast, "maps:stars-place"), data).status_code == 302
    entry = LogEntry.objects.filter(campaign=cast.campaign).latest("seq")
    now = cast.client("gm").get(url(cast, "maps:stars-svg")).content.decode()
    assert "Outreach: x -12, y 3 ly" in now
    then = cast.client("gm").get(url(cast, "maps:stars-svg", at=entry.seq - 1)).content.decode()
    assert "as it stood after entry" in then and "Outreach: x 20, y 0 ly" in then
    player = cast.client("player").get(url(cast, "maps:stars-svg", at=entry.seq - 1)).content.decode()
    assert "as it stood" not in player and "Outreach: x -12, y 3 ly" in player


def test_a_sail_route_charges_in_each_star_systems_hours(cast, sky):
    StarSystem.objects.filter(pk=sky["Galax"].pk).update(sail_charge_hours=160)
    StarSystem.objects.filter(pk=sky["Outreach"].pk).update(sail_charge_hours=190)
    waterloo = sky["Galax"].ships.get(name="Waterloo")
    cast.campaign.refresh_from_db()
    route = f"{sky['Outreach'].code},{sky['Harlech'].code}"
    text = (
        cast.client("gm")
        .get(url(cast), {"ship": str(waterloo.code), "route": route, "method": "sail"})
        .content.decode()
    )
    # 90 min to deploy the sail and 160 h at Galax, then 90 min and 190 h at Outreach
    arrival = cast.campaign.clock + timedelta(hours=160 + 190, minutes=180)
    assert f"Arrives in Harlech on {arrival:%Y-%m-%d %H:%M}" in text
    assert (
        "the star system&#x27;s sail charging time" in text or "the star system's sail charging time" in text
    )


class TestSavedRoutes:
    def save(self, cast, sky, stops, who="gm", **extra):
        waterloo = sky["Galax"].ships.get(name="Waterloo")
        data = {"ship": str(waterloo.code), "route": ",".join(str(sky[n].code) for n in stops), **extra}
        return cast.client(who).post(url(cast, "maps:plan-save"), data)

    def test_a_route_saved_is_on_the_star_map_and_the_agenda_until_dropped(self, cast, sky):
        from referee.maps.models import RoutePlan

        cast.campaign.refresh_from_db()
        page = cast.client("gm").get(
            url(cast),
            {"ship": str(sky["Galax"].ships.get(name="Waterloo").code), "route": str(sky["Outreach"].code)},
        )
        assert 'data-testid="save-plan"' in page.content.decode()
        empty = self.save(cast, sky, [])
        assert empty.status_code == 400 and "<html" in empty.content.decode()
        assert "at least one jump" in empty.content.decode() and not RoutePlan.objects.exists()
        response = self.save(cast, sky, ["Outreach", "Harlech"])
        assert response.status_code == 302
        plan = RoutePlan.objects.get()
        arrival = cast.campaign.clock + timedelta(hours=300)
        assert plan.status == "planned" and plan.arrives_at == arrival
        entry = LogEntry.objects.filter(campaign=cast.campaign).latest("seq")
        assert entry.title == "The GM plans Waterloo's route to Harlech" and entry.visibility == "gm"
        assert "Galax → Outreach → Harlech, 2 jumps" in entry.summary
        star = cast.client("gm").get(url(cast)).content.decode()
        assert "Saved routes" in star and "Waterloo: Galax → Outreach → Harlech, arriving" in star
        agenda = cast.client("gm").get(reverse("clock:agenda", args=[cast.campaign.code])).content.decode()
        assert "Routes planned" in agenda and "Galax → Outreach → Harlech" in agenda
        player = cast.client("player")
        code = cast.campaign.code
        for text in (
            player.get(url(cast)).content.decode(),
            player.get(reverse("play:log", args=[code])).content.decode(),
            player.get(reverse("play:status", args=[code]), HTTP_HX_REQUEST="true").content.decode(),
            *(
                b"".join(player.get(reverse("play:export", args=[code, fmt])).streaming_content).decode()
                for fmt in ("json", "csv", "md")
            ),
        ):
            assert "Outreach → Harlech" not in text and "plans Waterloo" not in text
        other = "00000000-0000-0000-0000-000000000000"
        drop = cast.client("gm").post(reverse("maps:plan-drop", args=[cast.campaign.code, other]))
        assert drop.status_code == 404 and "No such saved route" in drop.content.decode()
        assert "<html" in drop.content.decode()  # the star map again, not a page of bare text
        dropped = cast.client("gm").post(reverse("maps:plan-drop", args=[cast.campaign.code, plan.code]))
        assert dropped.status_code == 302
        plan.refresh_from_db()
        assert plan.status == "dropped"
        assert "Saved routes" not in cast.client("gm").get(url(cast)).content.decode()
        again = cast.client("gm").post(reverse("maps:plan-drop", args=[cast.campaign.code, plan.code]))
        assert again.status_code == 409 and "not a saved plan any more" in again.content.decode()
        play.log_entry_reverse(
            entry=LogEntry.objects.filter(campaign=cast.campaign).latest("seq"), actor=cast.gm
        )
        plan.refresh_from_db()
        assert plan.status == "planned"

    def fly(self, cast, sky, to):
        """Waterloo, its drive charged, jumps to ``to`` (read afresh: a jump moved it), the
        GM ruling that it need not wait for its K-F field to collapse after the last one."""
        waterloo = charged(Ship.objects.get(campaign=cast.campaign, name="Waterloo"))
        entry = play.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="jump.malfunction",
            inputs={"kf_integrity": 4, "kf_integrity_max": 4},
            dice=[3, 4],
            actor=cast.gm,
            subjects={"ship": waterloo.code},
            extras={"destination": sky[to]},
            gm_ruling=True,
        )
        assert entry.result["jump_proceeds"] is True
        return entry

    def saved(self, cast, sky) -> dict:
        """The saved route as the GM reads it on the star map: its line, and the stops
        its Show link plans (by name), or None when it offers none."""
        star = cast.client("gm").get(url(cast)).content.decode()
        plans = star[star.index('data-testid="plans"') :]
        line = re.sub(r"<[^>]+>", "", plans[plans.index("<li>") : plans.index("<form")])
        show = re.search(r'<a href="([^"]*)">Show</a>', plans)
        names = {str(system.code): name for name, system in sky.items()}
        if show is None:
            return {"line": " ".join(line.split()), "show": None}
        route = parse_qs(urlsplit(show.group(1).replace("&amp;", "&")).query)["route"][0]
        stops = [names[code] for code in route.split(",")]
        return {"line": " ".join(line.split()), "show": stops, "url": show.group(1).replace("&amp;", "&")}

    def test_a_round_trip_shows_the_ship_along_it_not_back_at_its_start(self, cast, sky):
        self.save(cast, sky, ["Outreach", "Galax"])
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Outreach", "Galax"] and "(0 of 2 jumps made)" in plan["line"]
        assert "(reached)" not in plan["line"]
        self.fly(cast, sky, "Outreach")
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Galax"] and "(1 of 2 jumps made)" in plan["line"]
        self.fly(cast, sky, "Galax")
        plan = self.saved(cast, sky)
        assert plan["show"] is None and "Waterloo: Galax → Outreach → Galax" in plan["line"]
        assert "(reached)" in plan["line"]

    def test_a_route_that_comes_back_to_a_system_counts_each_visit(self, cast, sky):
        self.save(cast, sky, ["Outreach", "Harlech", "Outreach", "Galax"])
        for stop in ("Outreach", "Harlech", "Outreach"):
            self.fly(cast, sky, stop)
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Galax"] and "(3 of 4 jumps made)" in plan["line"]
        page = cast.client("gm").get(plan["url"]).content.decode()
        assert "Outreach to Galax" in page and "Arrives in Galax" in page

    def test_a_ship_that_strays_keeps_its_next_stop_until_it_gets_there(self, cast, sky):
        self.save(cast, sky, ["Outreach", "Galax"])
        self.fly(cast, sky, "Secret Base")
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Outreach", "Galax"]
        assert "(0 of 2 jumps made; off the route, in Secret Base)" in plan["line"]
        page = cast.client("gm").get(plan["url"]).content.decode()
        assert "Secret Base to Outreach" in page and "Outreach to Galax" in page
        back = self.fly(cast, sky, "Outreach")
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Galax"] and "(1 of 2 jumps made)" in plan["line"]
        assert "off the route" not in plan["line"]
        play.log_entry_reverse(entry=back, actor=cast.gm)  # that jump was never made
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Outreach", "Galax"]
        assert "(0 of 2 jumps made; off the route, in Secret Base)" in plan["line"]

    def test_jumps_made_before_the_route_was_saved_are_not_along_it(self, cast, sky):
        self.fly(cast, sky, "Outreach")
        self.fly(cast, sky, "Galax")
        self.save(cast, sky, ["Outreach", "Galax"])
        plan = self.saved(cast, sky)
        assert plan["show"] == ["Outreach", "Galax"] and "(0 of 2 jumps made)" in plan["line"]

    def test_a_system_renamed_since_reads_by_its_new_name(self, cast, sky):
        from referee.maps.models import RoutePlan

        self.save(cast, sky, ["Outreach", "Harlech"])
        for old, new in (("Galax", "New Galax"), ("Outreach", "Outreach Prime")):
            sky[old].name = new
            sky[old].save()
        expected = "Waterloo: New Galax → Outreach Prime → Harlech, arriving"
        assert expected in self.saved(cast, sky)["line"]
        agenda = cast.client("gm").get(reverse("clock:agenda", args=[cast.campaign.code])).content.decode()
        assert "New Galax → Outreach Prime → Harlech" in agenda and "Galax → Outreach →" not in agenda
        plan = RoutePlan.objects.get()
        cast.client("gm").post(reverse("maps:plan-drop", args=[cast.campaign.code, plan.code]))
        entry = LogEntry.objects.filter(campaign=cast.campaign).latest("seq")
        assert entry.summary == f"The GM drops the route {plan} (New Galax → Outreach Prime → Harlech)."

    @pytest.mark.parametrize("jumped_since", [False, True])
    def test_a_route_saved_before_its_origin_was_kept_gets_it_from_the_log(self, cast, sky, jumped_since):
        """Plans saved when only their words were kept learn the system their ship left
        from: where it jumped from next, or where it is when it has not jumped since."""
        from importlib import import_module

        from django.apps import apps

        from referee.maps.models import RoutePlan

        self.save(cast, sky, ["Outreach", "Harlech"])
        if jumped_since:
            self.fly(cast, sky, "Secret Base")
        RoutePlan.objects.update(origin=None)
        import_module("referee.maps.migrations.0003_route_plan_origin").origin_fill(apps, None)
        assert RoutePlan.objects.get().origin == sky["Galax"].code
        assert "Waterloo: Galax → Outreach → Harlech, arriving" in self.saved(cast, sky)["line"]

    def test_a_saved_route_shows_what_is_left_once_the_first_jump_is_made(self, cast, sky):
        self.save(cast, sky, ["Outreach", "Harlech"])
        waterloo = charged(sky["Galax"].ships.get(name="Waterloo"))
        assert jump(cast, waterloo, sky["Outreach"]).result["jump_proceeds"] is True
        star = cast.client("gm").get(url(cast)).content.decode()
        show = re.search(r'<a href="([^"]*)">Show</a>', star).group(1).replace("&amp;", "&")
        assert f"route={sky['Harlech'].code}" in show
        planned = cast.client("gm").get(show).content.decode()
        assert "Arrives in Harlech" in planned and "Outreach to Harlech" in planned

    @pytest.mark.parametrize(
        "stops, extra, words",
        [
            ([], {}, "Plan a route of at least one jump"),
            (["Far Away"], {}, "is 200 light-years"),
            (["Outreach"], {"hours": "nan"}, "Enter a number."),
            (["Outreach"], {"ship": "\x00"}, "Null characters are not allowed."),
        ],
    )
    def test_a_route_that_cannot_be_flown_is_not_saved(self, cast, sky, stops, extra, words):
        from referee.maps.models import RoutePlan

        response = self.save(cast, sky, stops, **extra)
        assert response.status_code == 400 and words in response.content.decode()
        assert not RoutePlan.objects.exists()

    @pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_saves_a_route(self, cast, sky, who, status):
        from referee.maps.models import RoutePlan

        assert self.save(cast, sky, ["Outreach"], who=who).status_code == status
        assert not RoutePlan.objects.exists()
