"""Turn controls: phases, the clock, End Phase automation, and what players' pages poll."""

import json
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from referee.campaigns.models import Campaign, Phase
from referee.fleet.models import Ship
from referee.play.models import LogEntry, Visibility
from tests.factories import MembershipFactory, ShipFactory
from tests.referee.conftest import htmx
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]


def next_phase(cast, who: str = "gm", **extra):
    return cast.client(who).post(reverse("play:next-phase", args=[cast.campaign.code]), **extra)


def advance_clock(cast, who: str = "gm", **data):
    return cast.client(who).post(reverse("play:clock", args=[cast.campaign.code]), data, **htmx())


def status(client, cast, version):
    return client.get(reverse("play:status", args=[cast.campaign.code]), {"v": version})


def fresh(campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def log_entries(cast):
    return list(LogEntry.objects.filter(campaign=cast.campaign).order_by("seq"))


# --- phases and turns -------------------------------------------------------------------


def test_the_gm_walks_the_phases_into_the_next_turn_and_the_clock_moves_one_turn(cast):
    cast.campaign.turn_length_s = 90
    cast.campaign.save()
    start = fresh(cast.campaign).clock
    seen = []
    for _ in range(4):
        response = next_phase(cast, **htmx())
        assert response.status_code == 200
        assert "campaign-changed" in json.loads(response["HX-Trigger"])
        campaign = fresh(cast.campaign)
        seen.append((campaign.turn, campaign.phase, campaign.clock - start))
        assert f'data-testid="phase">{campaign.get_phase_display()}<' in response.text
    assert seen == [
        (1, Phase.MOVEMENT, timedelta(0)),
        (1, Phase.COMBAT, timedelta(0)),
        (1, Phase.END, timedelta(0)),
        (2, Phase.INITIATIVE, timedelta(seconds=90)),
    ]
    entries = log_entries(cast)
    assert [e.procedure for e in entries] == ["turn.advance"] * 4
    assert [e.summary for e in entries] == [
        "Turn 1: Movement Phase begins.",
        "Turn 1: Combat Phase begins.",
        "Turn 1: End Phase begins.",
        f"Turn 2 begins at {start + timedelta(seconds=90):%Y-%m-%d %H:%M:%S}. The log's fingerprint "
        f"at the end of turn 1 is {entries[2].hash}: keep it to check later copies of the log against it.",
    ]
    assert entries[-1].result == {"log_fingerprint": entries[2].hash}
    last = {c["field"]: (c["before"], c["after"]) for c in entries[-1].effects}
    assert last["turn"] == (1, 2) and last["phase"] == ("end", "initiative")
    assert entries[-1].actor == cast.gm


def test_without_htmx_the_advance_redirects_to_the_dashboard(cast):
    response = next_phase(cast)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[cast.campaign.code])
    assert fresh(cast.campaign).phase == Phase.MOVEMENT


# --- the clock ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount,unit,delta,text",
    [
        ("3", "hours", timedelta(hours=3), "3 hours"),
        ("2", "days", timedelta(days=2), "2 days"),
        ("90", "minutes", timedelta(minutes=90), "1 hour 30 minutes"),
    ],
)
def test_advancing_the_clock_is_logged(cast, amount, unit, delta, text):
    before = fresh(cast.campaign)
    response = advance_clock(cast, amount=amount, unit=unit, reason="recharging")
    assert response.status_code == 200
    after = fresh(cast.campaign)
    assert after.clock == before.clock + delta
    assert (after.turn, after.phase) == (before.turn, before.phase)
    [entry] = log_entries(cast)
    assert entry.procedure == "clock.advance"
    assert entry.summary.startswith(f"Clock advanced {text} (recharging): now ")
    assert entry.effects[0]["field"] == "clock"


@pytest.mark.parametrize(
    "data,message",
    [
        ({"amount": "0", "unit": "hours"}, "positive amount"),
        ({"amount": "-4", "unit": "days"}, "positive amount"),
        ({"amount": "three", "unit": "hours"}, "Enter a whole number"),
        ({"amount": "1.5", "unit": "hours"}, "Enter a whole number"),
        ({"amount": "", "unit": "hours"}, "Enter a whole number"),
        ({"amount": "2", "unit": "fortnights"}, "Enter a whole number"),
        ({"amount": "4000", "unit": "days"}, "at most ten years"),
        ({"amount": "9" * 5000, "unit": "days"}, "at most ten years"),
        # Digits of other scripts are refused, never read as a number the GM did not type.
        ({"amount": "٣", "unit": "hours"}, "Type it in the digits 0 to 9."),  # Arabic-Indic 3
        ({"amount": "۲۴", "unit": "hours"}, "Type it in the digits 0 to 9."),  # Persian 24
        ({"amount": "３", "unit": "days"}, "Type it in the digits 0 to 9."),  # full-width 3
        ({"amount": "1٠", "unit": "hours"}, "Type it in the digits 0 to 9."),  # mixed
        ({"amount": "1_000", "unit": "minutes"}, "Enter a whole number"),
        ({"amount": "+3", "unit": "hours"}, "Enter a whole number"),
    ],
)
def test_a_bad_clock_advance_is_422_with_a_message_and_changes_nothing(cast, data, message):
    before = fresh(cast.campaign)
    response = advance_clock(cast, **data)
    assert response.status_code == 422
    assert message in response.text and 'role="alert"' in response.text
    after = fresh(cast.campaign)
    assert (after.clock, after.turn, after.phase, after.state_version) == (
        before.clock,
        before.turn,
        before.phase,
        before.state_version,
    )
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


@pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_moves_turns_and_the_clock(cast, who, status):
    before = fresh(cast.campaign)
    assert next_phase(cast, who, **htmx()).status_code == status
    assert advance_clock(cast, who, amount="1", unit="hours").status_code == status
    after = fresh(cast.campaign)
    assert (after.clock, after.turn, after.phase) == (before.clock, before.turn, before.phase)
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


def test_turn_controls_only_answer_post(cast):
    assert cast.client("gm").get(reverse("play:next-phase", args=[cast.campaign.code])).status_code == 405
    assert cast.client("gm").get(reverse("play:clock", args=[cast.campaign.code])).status_code == 405


# --- End Phase automation --------------------------------------------------------------------


def test_entering_the_end_phase_runs_overburn_for_squadrons_with_heat(cast):
    hot = ShipFactory(
        campaign=cast.campaign,
        name="Hammer Flight",
        kind="fighter_squadron",
        kf_integrity=0,
        kf_integrity_max=0,
        fighters=6,
        heat_sinks=2,
        heat=6,
    )
    cold = ShipFactory(
        campaign=cast.campaign,
        name="Anvil Flight",
        kind="fighter_squadron",
        kf_integrity=0,
        kf_integrity_max=0,
    )
    for _ in range(2):
        next_phase(cast, **htmx())
    assert not LogEntry.objects.filter(procedure="fighter.overburn").exists()
    assert next_phase(cast, **htmx()).status_code == 200  # Combat -> End

    entries = log_entries(cast)
    assert [e.procedure for e in entries] == ["turn.advance"] * 3 + ["fighter.overburn"]
    overburn = entries[-1]
    assert (overburn.turn, overburn.phase) == (1, Phase.END)
    assert overburn.inputs["heat_generated_this_turn"] == 6 and overburn.inputs["heat_sinks"] == 2
    assert overburn.result["overburn"] == 4  # 0 carried + 6 heat - 2 sinks
    assert overburn.inputs["@ship"]["code"] == str(hot.code)
    changes = {c["field"]: (c["before"], c["after"]) for c in overburn.effects}
    assert changes["overburn"] == (0, 4) and changes["heat"] == (6, 0)
    hot.refresh_from_db()
    cold.refresh_from_db()
    assert (hot.overburn, hot.heat, hot.shutdown) == (4, 0, False)
    assert (cold.overburn, cold.heat) == (0, 0)

    next_phase(cast, **htmx())  # End -> Initiative: nothing more to burn off
    assert LogEntry.objects.filter(procedure="fighter.overburn").count() == 1


# --- what players' pages poll ------------------------------------------------------------------


def test_the_status_poll_answers_204_until_something_changes(cast):
    player = cast.client("player")
    version = fresh(cast.campaign).state_version
    assert status(player, cast, version).status_code == 204
    assert status(player, cast, version).status_code == 204
    next_phase(cast, **htmx())
    response = status(player, cast, version)
    assert response.status_code == 200
    new_version = fresh(cast.campaign).state_version
    assert new_version > version
    assert f"?v={new_version}" in response.text  # the panel polls from the new version on
    assert 'data-testid="phase">Movement Phase<' in response.text
    assert status(player, cast, new_version).status_code == 204


def test_any_change_a_player_could_see_moves_the_version(cast):
    ship = ShipFactory(campaign=cast.campaign, shared=True)
    version = fresh(cast.campaign).state_version
    Ship.objects.filter(pk=ship.pk).update(kf_integrity=3)
    assert status(cast.client("player"), cast, version).status_code == 200


def test_the_204_poll_costs_one_query_and_writes_no_session(cast):
    player = cast.client("player")
    version = fresh(cast.campaign).state_version
    status(player, cast, version)  # warm up: content types, prepared plans
    with CaptureQueriesContext(connection) as queries:
        response = status(player, cast, version)
    assert response.status_code == 204
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "state_version" in queries[0]["sql"] and "django_session" in queries[0]["sql"]
    assert "Set-Cookie" not in response.headers


def test_the_204_poll_stays_within_one_query(cast, django_assert_max_num_queries):
    player = cast.client("player")
    version = fresh(cast.campaign).state_version
    with django_assert_max_num_queries(1):
        assert status(player, cast, version).status_code == 204


def test_a_poll_with_a_stale_or_odd_version_gets_the_panel_not_a_204(cast):
    player = cast.client("player")
    version = fresh(cast.campaign).state_version
    for odd in (version - 1, "", "abc", f"{version}\x00", " " + str(version), "9" * 400):
        response = status(player, cast, odd)
        assert response.status_code == 200, odd
        assert 'id="status-panel"' in response.text


def test_the_quick_poll_trusts_no_session_that_no_longer_holds(cast):
    """A password change logs the user out everywhere, an inactive user is nobody, an
    expired session is nothing: the quick answer falls through to the usual checks."""
    version = fresh(cast.campaign).state_version
    player = cast.client("player")
    cast.player.set_password("a new secret passphrase")
    cast.player.save()
    assert status(player, cast, version).status_code == 404

    player = cast.client("player")
    cast.player.is_active = False
    cast.player.save()
    assert status(player, cast, version).status_code == 404

    cast.player.is_active = True
    cast.player.save()
    player = cast.client("player")
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert status(player, cast, version).status_code == 404


def test_a_forged_session_cookie_gets_nothing(cast):
    version = fresh(cast.campaign).state_version
    for cookie in ("x" * 32, "", "'; DROP TABLE django_session; --", "a" * 500):
        client = Client()
        client.cookies["sessionid"] = cookie
        assert status(client, cast, version).status_code == 404


def test_a_member_of_another_campaign_cannot_poll_this_one(cast):
    other = MembershipFactory(role="gm").user
    client = Client()
    client.force_login(other)
    assert status(client, cast, fresh(cast.campaign).state_version).status_code == 404


@pytest.mark.parametrize("who,code", [("anonymous", 404), ("outsider", 404)])
def test_outsiders_cannot_poll(cast, who, code):
    assert status(cast.client(who), cast, 0).status_code == code


def test_the_gm_may_poll_too(cast):
    assert status(cast.client("gm"), cast, fresh(cast.campaign).state_version).status_code == 204


# --- secrets stay secret until revealed -----------------------------------------------------------


@pytest.fixture
def secret(cast):
    ship = ShipFactory(
        campaign=cast.campaign, name="Black Lion", shared=True, kf_integrity=8, kf_integrity_max=8
    )
    ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=MICRO_FRACTURES, visibility=Visibility.GM)
    assert entry.seq == 2 and entry.secret
    return entry


def _shows(text: str, seq: int) -> bool:
    return f'id="entry-{seq}"' in text


def player_views(cast) -> dict[str, str]:
    player = cast.client("player")
    code = cast.campaign.code
    return {
        "log panel": player.get(reverse("play:log", args=[code]), **htmx()).text,
        "log page": player.get(reverse("play:log", args=[code])).text,
        "status panel": status(player, cast, -1).text,
        "player page": player.get(reverse("campaigns:detail", args=[code])).text,
        "csv": b"".join(player.get(reverse("play:export", args=[code, "csv"])).streaming_content).decode(),
    }


def test_gm_only_entries_never_reach_players_until_revealed(cast, secret):
    views = player_views(cast)
    for name in ("log panel", "log page", "status panel", "player page"):
        assert _shows(views[name], 1), name
        assert not _shows(views[name], 2), name
        assert "micro-fractures" not in views[name].lower(), name
    assert {line.split(",")[0] for line in views["csv"].splitlines()[1:]} == {"1"}
    player = cast.client("player")
    assert player.get(reverse("play:entry", args=[cast.campaign.code, 2])).status_code == 404
    assert cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, 2])).status_code == 200

    response = cast.client("gm").post(reverse("play:reveal", args=[cast.campaign.code, 2]), **htmx())
    assert response.status_code == 200
    views = player_views(cast)
    for name in ("log panel", "log page", "status panel", "player page"):
        assert _shows(views[name], 2), name
    assert {line.split(",")[0] for line in views["csv"].splitlines()[1:]} == {"1", "2"}
    assert player.get(reverse("play:entry", args=[cast.campaign.code, 2])).status_code == 200


def test_a_secret_entry_about_an_unshared_record_moves_nothing_a_player_polls(cast):
    """A GM-only roll that changes only what players cannot see does not wake their poll
    (it would tell them the GM is busy with something hidden), and shows them nothing."""
    ship = ShipFactory(campaign=cast.campaign, shared=False)
    client = cast.client("player")
    before = client.get(reverse("play:status", args=[cast.campaign.code]), {"watch": "1"})[
        "X-Campaign-Version"
    ]
    ruled_jump(cast.campaign, cast.gm, ship, dice=MICRO_FRACTURES, visibility=Visibility.GM)
    response = client.get(reverse("play:status", args=[cast.campaign.code]), {"v": before})
    assert response.status_code == 204 and response["X-Campaign-Version"] == before
    panel = client.get(reverse("play:status", args=[cast.campaign.code]), {"v": "0"})
    assert not _shows(panel.text, 1)
    assert ship.name not in panel.text


def test_only_the_gm_reveals(cast, secret):
    for who, code in (("anonymous", 404), ("outsider", 404), ("player", 403)):
        assert cast.client(who).post(reverse("play:reveal", args=[cast.campaign.code, 2])).status_code == code
    assert LogEntry.objects.get(pk=secret.pk).secret
