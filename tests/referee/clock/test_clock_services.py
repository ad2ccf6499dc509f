"""What takes time takes time: a charge started by its roll, completed when the clock
passes its due time (each completion its own undoable entry), transit on the map, the
day's meals when the clock moves, and Advance to the next event."""

import html
from datetime import timedelta

import pytest
from django.urls import reverse

from referee.clock import services
from referee.clock.models import EventStatus, TimedEvent
from referee.clock.selectors import agenda_context, ship_lines, stock_warnings
from referee.clock.travel import TravelError, plain_duration, transit_time
from referee.fleet.forms import ShipForm
from referee.logistics.models import ShipStores
from referee.play import services as play
from referee.play.models import LogEntry
from tests.factories import ShipFactory, StarSystemFactory
from tests.referee.play.test_hand_edits import form_data

pytestmark = pytest.mark.django_db


def charge(cast, ship, hours=160, method="reactor", **extra):
    return play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="drive.charge",
        inputs={"system": "kf_drive", "method": method, "target_hours": hours, **extra},
        dice=None,
        actor=cast.gm,
        subjects={"ship": ship.code},
    )


def jump(cast, ship, **kw):
    return play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.malfunction",
        inputs={"kf_integrity": 4, "kf_integrity_max": 4},
        dice=[1, 1],
        actor=cast.gm,
        subjects={"ship": ship.code},
        **kw,
    )


def advance(cast, hours):
    cast.campaign.refresh_from_db()
    return play.campaign_clock_advance(
        campaign=cast.campaign, seconds=int(hours * 3600), reason="", actor=cast.gm
    )


@pytest.fixture
def ship(cast):
    return ShipFactory(campaign=cast.campaign, name="Marauder's Pride", shared=True)


def test_a_charge_is_done_only_when_the_clock_passes_its_hours(cast, ship):
    start = cast.campaign.clock
    entry = charge(cast, ship, hours=160)
    ship.refresh_from_db()
    assert ship.drive_charged is False
    due = start + timedelta(hours=160)
    assert f"done {due:%Y-%m-%d %H:%M}" in entry.summary
    assert ship_lines(cast.campaign.id, "player")[ship.id] == [f"charging, done {due:%Y-%m-%d %H:%M}"]
    with pytest.raises(play.PlayError, match="K-F drive, or its lithium-fusion battery, is charged"):
        jump(cast, ship)
    advance(cast, 159)
    ship.refresh_from_db()
    assert ship.drive_charged is False
    advance(cast, 1)
    ship.refresh_from_db()
    assert ship.drive_charged is True and ship.charged_from_reactor is True
    done = LogEntry.objects.filter(campaign=cast.campaign, procedure=services.DUE).get()
    assert done.title == "Marauder's Pride's K-F drive charge is done"
    assert done.visibility == "everyone"
    assert ship_lines(cast.campaign.id, "gm") == {}
    assert jump(cast, ship).result["jump_proceeds"] is True


def test_a_gm_ruling_jumps_before_the_charge_is_done_on_the_record(cast, ship):
    charge(cast, ship)
    entry = jump(cast, ship, gm_ruling=True)
    assert "GM ruling" in entry.summary and "is charged" in entry.summary


def test_undoing_the_completion_makes_it_due_again_and_undoing_the_start_voids_it(cast, ship):
    start = charge(cast, ship)
    advance(cast, 200)
    done = LogEntry.objects.get(campaign=cast.campaign, procedure=services.DUE)
    with pytest.raises(play.PlayError, match=f"#{done.seq}"):
        play.log_entry_reverse(entry=start, actor=cast.gm)
    play.log_entry_reverse(entry=done, actor=cast.gm)
    ship.refresh_from_db()
    event = TimedEvent.objects.get()
    assert ship.drive_charged is False and event.status == EventStatus.WAITING
    play.log_entry_reverse(entry=start, actor=cast.gm)
    event.refresh_from_db()
    assert event.status == EventStatus.VOID
    assert agenda_context(cast.campaign)["events"] == []
    advance(cast, 1)
    ship.refresh_from_db()
    assert ship.drive_charged is False


def test_events_complete_in_due_order_each_its_own_entry(cast, ship):
    other = ShipFactory(campaign=cast.campaign, name="Acheron")
    charge(cast, ship, hours=180)
    charge(cast, other, hours=155)
    advance(cast, 24 * 9)
    titles = list(
        LogEntry.objects.filter(campaign=cast.campaign, procedure=services.DUE)
        .order_by("seq")
        .values_list("title", "visibility")
    )
    assert titles == [
        ("Acheron's K-F drive charge is done", "gm"),
        ("Marauder's Pride's K-F drive charge is done", "everyone"),
    ]


def test_a_ship_cannot_charge_twice_at_once(cast, ship):
    charge(cast, ship)
    with pytest.raises(play.PlayError, match="already charging, done"):
        charge(cast, ship)
    assert TimedEvent.objects.count() == 1


def test_a_sail_charge_takes_the_deployment_then_the_star_class_hours(cast, ship):
    start = cast.campaign.clock
    entry = charge(cast, ship, hours=176, method="sail")
    due = start + timedelta(minutes=90, hours=176)
    assert f"done {due:%Y-%m-%d %H:%M}" in entry.summary and "deploy the sail" in entry.summary
    unknown = charge(cast, ShipFactory(campaign=cast.campaign), hours=None, method="sail")
    assert f"done {start + timedelta(minutes=90, hours=151):%Y-%m-%d %H:%M}" in unknown.summary
    assert "the least any star takes" in unknown.summary


def test_a_failed_charge_waits_for_nothing(cast, ship):
    play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="drive.charge",
        inputs={"system": "kf_drive", "method": "reactor", "target_hours": 10},
        dice=None,
        actor=cast.gm,
        subjects={"ship": ship.code},
    )
    assert TimedEvent.objects.count() == 0


def test_a_plot_takes_its_dice_times_thirty_minutes(cast, ship):
    ship.drive_charged = True
    ship.save()
    start = cast.campaign.clock
    entry = play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="jump.nonstandard_plot",
        inputs={"navigation_tn": 5},
        dice=[6, 6, 3, 4],
        actor=cast.gm,
        subjects={"ship": ship.code},
    )
    assert entry.result["plot_minutes"] == 210
    assert f"done {start + timedelta(minutes=210):%Y-%m-%d %H:%M}" in entry.summary
    assert entry.pending == []  # the plot lands when it is done
    done = services.clock_to_next_event(campaign=cast.campaign, actor=cast.gm)
    assert [e.procedure for e in done] == ["clock.advance", services.DUE]
    assert done[1].pending and done[1].pending[0]["field"] == "plot"
    cast.campaign.refresh_from_db()
    assert cast.campaign.clock == start + timedelta(minutes=210)


def test_next_event_with_nothing_under_way_is_refused(cast):
    with pytest.raises(play.PlayError, match="Nothing is under way"):
        services.clock_to_next_event(campaign=cast.campaign, actor=cast.gm)


def test_a_new_turn_completes_what_came_due(cast, ship):
    cast.campaign.turn_length_s = 3600
    cast.campaign.save()
    charge(cast, ship, hours=0.5)  # under 16 h: certain damage, no charge
    assert TimedEvent.objects.count() == 0
    ship.lf_battery = True
    ship.save()
    play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="drive.charge",
        inputs={"system": "lf_battery", "method": "sail", "target_hours": 0.1},
        dice=None,
        actor=cast.gm,
        subjects={"ship": ship.code},
    )
    for _ in range(8):  # through the End Phase into the next turns
        cast.campaign.refresh_from_db()
        play.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    ship.refresh_from_db()
    assert ship.lf_battery_charged is True


def test_transit_times_are_a_gms_by_hand():
    # 1 AU at 1 G with turnover: 2 sqrt(1.496e11 m / 9.80665 m/s²) = 247,022 s
    assert plain_duration(transit_time(1, 1)) == "2 days 20 h 37 min"
    assert transit_time(0, 1) == timedelta(0)
    for bad in (float("nan"), float("inf"), -1):
        with pytest.raises(TravelError):
            transit_time(bad, 1)
    for bad in (0, -1, 21, float("nan"), float("inf")):
        with pytest.raises(TravelError):
            transit_time(1, bad)


def test_a_transit_arrives_where_it_was_going(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", jump_point_au=10)
    ship.star_system, ship.x_au, ship.y_au, ship.position = system, 0.0, 10.0, "zenith jump point"
    ship.save()
    plan = services.transit_plan(ship=ship, x_au=0.0, y_au=1.0, thrust_g=1)
    assert plan["words"] == "8 days 13 h 51 min"  # 9 AU: three times 1 AU
    entry = services.transit_start(
        campaign=cast.campaign,
        ship=ship,
        x_au=0.0,
        y_au=1.0,
        position="Tharkad IV",
        thrust_g=1,
        actor=cast.gm,
    )
    assert "arriving" in entry.summary and entry.visibility == "everyone"
    advance(cast, 24 * 9)
    ship.refresh_from_db()
    assert (ship.x_au, ship.y_au, ship.position) == (0.0, 1.0, "Tharkad IV")
    with pytest.raises(play.PlayError, match="more than ten years"):
        services.transit_plan(ship=ship, x_au=9999, y_au=9999, thrust_g=0.0001)
    loose = ShipFactory(campaign=cast.campaign)
    with pytest.raises(play.PlayError, match="no place on a system map"):
        services.transit_plan(ship=loose, x_au=0, y_au=0, thrust_g=1)


def test_moving_the_clock_eats_the_days_and_warns_before_food_runs_out(cast, ship):
    ship.crew = 200
    ship.save()
    stores = ShipStores.objects.create(
        campaign=cast.campaign, ship=ship, name="s", food_t=5, food_accounted_to=cast.campaign.clock
    )
    warnings = [str(w)[:44] for w in stock_warnings(cast.campaign)]
    assert warnings == ["Marauder's Pride's food runs out in 5.0 days"]
    advance(cast, 48)
    stores.refresh_from_db()
    assert stores.food_t == 3
    assert LogEntry.objects.filter(campaign=cast.campaign, procedure="cargo.food").count() == 1


def test_a_transit_burns_its_burn_days_of_fuel_cargo_cells_first(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", jump_point_au=1)
    ship.star_system, ship.x_au, ship.y_au = system, 0.0, 1.0
    ship.save()
    stores = ShipStores.objects.create(
        campaign=cast.campaign,
        ship=ship,
        name="s",
        burn_day_fuel_t=2,
        fuel_t=10,
        cargo_fuel_capacity_t=5,
        cargo_fuel_t=1,
    )
    plan = services.transit_plan(ship=ship, x_au=0.0, y_au=0.0, thrust_g=2)
    # 1 AU at 2 G: 174,672 s = 2.0217 days, 4.0434 burn-days, 8.087 t
    assert round(plan["fuel_t"], 3) == 8.087 and plan["fuel_left_t"] == 11
    services.transit_start(
        campaign=cast.campaign, ship=ship, x_au=0.0, y_au=0.0, position="the star", thrust_g=2, actor=cast.gm
    )
    services.clock_to_next_event(campaign=cast.campaign, actor=cast.gm)
    stores.refresh_from_db()
    assert (stores.cargo_fuel_t, stores.fuel_t) == (0.0, 2.913)
    arrival = LogEntry.objects.get(procedure=services.DUE)
    assert "burning 8.09 t of fuel (4.04 burn-days)" in arrival.summary
    play.log_entry_reverse(entry=arrival, actor=cast.gm)
    stores.refresh_from_db()
    assert (stores.cargo_fuel_t, stores.fuel_t) == (1.0, 10.0)


def keeping(cast, ship, **fields):
    values = {"burn_day_fuel_t": 5, "fuel_t": 20, "cargo_fuel_capacity_t": 5, "cargo_fuel_t": 1}
    return ShipStores.objects.create(
        campaign=cast.campaign,
        ship=ship,
        name="s",
        fuel_accounted_to=cast.campaign.clock,
        **{**values, **fields},
    )


def test_moving_the_clock_burns_station_keeping_fuel_once_a_day_and_undo_gives_it_back(cast, ship):
    stores = keeping(cast, ship)
    start = stores.fuel_accounted_to
    moved = advance(cast, 60)  # two whole days and 12 h
    stores.refresh_from_db()
    # a tenth of a 5 t burn-day a day, two days: 1 t, the cargo cell's 1 t first
    assert (stores.cargo_fuel_t, stores.fuel_t) == (0.0, 20.0)
    assert stores.fuel_accounted_to == start + timedelta(days=2)
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=services.STATION_KEEPING)
    assert entry.seq > moved.seq and entry.visibility == "everyone"
    assert entry.title == "Marauder's Pride burns 1 t of fuel keeping station"
    assert "kept station for 2 days" in entry.summary and "20 t left" in entry.summary
    assert "Spare Parts, Ammunition, Fuel" in entry.reference
    advance(cast, 12)  # the half day left and 12 h more make the third day, counted once
    advance(cast, 1)
    stores.refresh_from_db()
    assert stores.fuel_t == 19.5 and stores.fuel_accounted_to == start + timedelta(days=3)
    assert LogEntry.objects.filter(procedure=services.STATION_KEEPING).count() == 2
    last = LogEntry.objects.filter(procedure=services.STATION_KEEPING).latest("seq")
    play.log_entry_reverse(entry=last, actor=cast.gm)
    stores.refresh_from_db()
    assert stores.fuel_t == 20.0 and stores.fuel_accounted_to == start + timedelta(days=2)


def test_station_keeping_is_not_counted_twice_after_a_gms_own_roll(cast, ship):
    stores = keeping(cast, ship, cargo_fuel_t=0)
    play.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="cargo.stores",
        inputs={"tankage_t": 0, "burn_day_fuel_t": 5, "station_keeping_days": 3},
        dice=None,
        actor=cast.gm,
        subjects={"ship": ship.code},
    )
    stores.refresh_from_db()
    assert stores.fuel_t == 18.5
    advance(cast, 72)
    stores.refresh_from_db()
    assert stores.fuel_t == 18.5  # the three days were counted by the GM's roll
    assert not LogEntry.objects.filter(procedure=services.STATION_KEEPING).exists()


def test_days_in_transit_burn_burn_days_not_station_keeping(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", jump_point_au=1)
    ship.star_system, ship.x_au, ship.y_au = system, 0.0, 1.0
    ship.save()
    stores = keeping(cast, ship, fuel_t=30, cargo_fuel_t=0, burn_day_fuel_t=2)
    start = stores.fuel_accounted_to
    services.transit_start(
        campaign=cast.campaign, ship=ship, x_au=0.0, y_au=0.0, position="the star", thrust_g=2, actor=cast.gm
    )
    advance(cast, 24)  # under way: no station-keeping
    assert not LogEntry.objects.filter(procedure=services.STATION_KEEPING).exists()
    advance(cast, 24 * 3)  # arrives after 2.02 days, keeps station for the rest
    stores.refresh_from_db()
    event = TimedEvent.objects.get(ship=ship)
    transit = event.due_at - event.started_at  # 2 days 31 min
    assert stores.fuel_accounted_to == start + transit + timedelta(days=1)
    # 8.087 t of burn-days in transit, then one day keeping station: 0.2 t
    assert stores.fuel_t == round(round(30 - 8.087, 3) - 0.2, 3)


def edit_ship(cast, ship, **changes):
    """The GM's ship form, posted as the browser posts it, with ``changes``."""
    shown = ShipForm(instance=ship, campaign=cast.campaign)
    url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
    page = cast.client("gm").post(url, form_data(shown) | changes)
    assert page.status_code in (200, 302), page.content.decode()
    ship.refresh_from_db()


@pytest.mark.parametrize("carrier_shared", [True, False])
def test_a_docked_ship_rides_free_and_once_undocked_burns_only_its_own_days(cast, ship, carrier_shared):
    carrier = ShipFactory(
        campaign=cast.campaign, name="Invisible Truth", kind="jumpship", shared=carrier_shared
    )
    ship.kind = "dropship"
    ship.save()
    stores = keeping(cast, ship)  # 0.5 t a day
    start = stores.fuel_accounted_to
    edit_ship(cast, ship, docked_on=carrier.pk)
    assert ship.docked_on == carrier
    advance(cast, 24 * 10)
    stores.refresh_from_db()
    assert (stores.cargo_fuel_t, stores.fuel_t) == (1.0, 20.0)
    assert stores.fuel_accounted_to == start + timedelta(days=10)
    # Nothing burnt: the ship rides on its carrier's thrust, its days counted in one entry
    # that players see only when they know the ship and its carrier.
    (ride,) = LogEntry.objects.filter(procedure=services.STATION_KEEPING)
    assert ride.title == "Marauder's Pride rides docked"
    assert ride.summary == (
        "Riding docked, no station-keeping fuel burnt: Marauder's Pride on Invisible Truth (10 days)."
    )
    assert ride.visibility == ("everyone" if carrier_shared else "gm")
    edit_ship(cast, ship, docked_on="")
    assert ship.docked_on is None
    advance(cast, 24)
    stores.refresh_from_db()
    entry = LogEntry.objects.filter(procedure=services.STATION_KEEPING).latest("seq")
    assert entry.title == "Marauder's Pride burns 0.5 t of fuel keeping station"
    assert "kept station for 1 day, burning 0.5 t" in entry.summary and "20.5 t left" in entry.summary
    assert (stores.cargo_fuel_t, stores.fuel_t) == (0.5, 20.0)
    assert stores.fuel_accounted_to == start + timedelta(days=11)


def test_the_docked_ships_of_one_clock_move_share_one_entry_and_undoing_it_counts_their_days_again(
    cast, ship
):
    carrier = ShipFactory(campaign=cast.campaign, name="Invisible Truth", kind="jumpship", shared=True)
    other = ShipFactory(campaign=cast.campaign, name="Union Jack", kind="dropship", shared=True)
    ship.kind = "dropship"
    ship.save()
    marks = {}
    for docked in (ship, other):
        marks[docked.pk] = keeping(cast, docked).fuel_accounted_to
        edit_ship(cast, docked, docked_on=carrier.pk)
    advance(cast, 24 * 3)
    (ride,) = LogEntry.objects.filter(procedure=services.STATION_KEEPING)
    assert ride.title == "2 docked ships ride free"
    assert ride.summary == (
        "Riding docked, no station-keeping fuel burnt: Marauder's Pride on Invisible Truth (3 days), "
        "Union Jack on Invisible Truth (3 days)."
    )
    for docked in (ship, other):
        assert ShipStores.objects.get(ship=docked).fuel_accounted_to == marks[docked.pk] + timedelta(days=3)
    response = cast.client("gm").post(reverse("play:undo", args=[cast.campaign.code, ride.seq]))
    assert response.status_code in (200, 302)
    for docked in (ship, other):
        assert ShipStores.objects.get(ship=docked).fuel_accounted_to == marks[docked.pk]


@pytest.mark.parametrize(
    ("burn_day_t", "fuel_t", "days", "burnt", "left", "outlook", "warned"),
    [
        # 0.2 t a day: 0.6 t over three days, 2.4 t left for twelve more
        (2, 3, 3, "0.6", 2.4, ", enough for only 12.0 more days of station-keeping.", ["12.0"]),
        # 0.011 t a day: 0.154 t left is fourteen days to the gram, not under the warning
        (0.11, 0.187, 3, "0.033", 0.154, ".", []),
    ],
)
def test_a_burn_over_days_says_how_long_the_fuel_left_lasts_as_the_agenda_does(
    cast, ship, burn_day_t, fuel_t, days, burnt, left, outlook, warned
):
    stores = keeping(cast, ship, burn_day_fuel_t=burn_day_t, fuel_t=fuel_t, cargo_fuel_t=0)
    advance(cast, 24 * days)
    stores.refresh_from_db()
    assert (stores.cargo_fuel_t, stores.fuel_t) == (0.0, left)
    entry = LogEntry.objects.get(procedure=services.STATION_KEEPING)
    assert entry.title == f"Marauder's Pride burns {burnt} t of fuel keeping station"
    assert entry.summary == (
        f"Marauder's Pride kept station for {days} days, burning {burnt} t of fuel (a tenth of a "
        f"{burn_day_t:g} t burn-day a day, cargo cells first); {left:g} t left{outlook}"
    )
    assert [str(w).split(" days")[0].rsplit(" ", 1)[-1] for w in stock_warnings(cast.campaign)] == warned


def test_the_gm_is_warned_before_the_fuel_runs_out_and_an_unshared_ship_burns_in_secret(cast):
    secret = ShipFactory(campaign=cast.campaign, name="Black Widow", shared=False)
    stores = keeping(cast, secret, fuel_t=5, cargo_fuel_t=0)  # 0.5 t a day: ten days
    assert [str(w)[:45] for w in stock_warnings(cast.campaign)] == [
        "Black Widow's fuel runs out in 10.0 days, 306"
    ]
    advance(cast, 24)
    entry = LogEntry.objects.get(procedure=services.STATION_KEEPING)
    assert entry.visibility == "gm"
    assert "enough for only 9.0 more days of station-keeping" in entry.summary
    advance(cast, 24 * 12)
    stores.refresh_from_db()
    assert stores.fuel_t == 0.0
    assert (
        "0 t left, 1.5 t short: the tanks ran dry"
        in LogEntry.objects.filter(procedure=services.STATION_KEEPING).latest("seq").summary
    )
    assert [str(w) for w in stock_warnings(cast.campaign)] == ["Black Widow's fuel has run out."]


def test_a_transit_that_runs_the_tanks_dry_is_warned_of(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", jump_point_au=1)
    ship.star_system, ship.x_au, ship.y_au = system, 0.0, 1.0
    ship.save()
    keeping(cast, ship, fuel_t=100, cargo_fuel_t=0, burn_day_fuel_t=2)
    assert stock_warnings(cast.campaign) == []
    services.transit_start(
        campaign=cast.campaign, ship=ship, x_au=0.0, y_au=0.0, position="the star", thrust_g=2, actor=cast.gm
    )
    assert stock_warnings(cast.campaign) == []  # 8.087 t needed, 100 t in the tanks
    ShipStores.objects.filter(ship=ship).update(fuel_t=4)
    (warning,) = stock_warnings(cast.campaign)
    assert str(warning).startswith("Marauder's Pride runs out of fuel in 1.0 days, ")
    assert str(warning).endswith(", before it arrives.")


def test_a_sail_charge_reads_the_star_systems_hours(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", sail_charge_hours=183)
    ship.star_system = system
    ship.save()
    start = cast.campaign.clock
    entry = charge(cast, ship, hours=None, method="sail")
    assert f"done {start + timedelta(minutes=90, hours=183):%Y-%m-%d %H:%M}" in entry.summary
    assert "183 h of charging, the star system's" in entry.summary


def test_the_charge_form_leaves_the_hours_to_the_gm_so_a_reactor_charge_never_reads_the_sails(cast, ship):
    """A star system's sail hours (183) in a reactor charge's hours would make the charge
    too slow to fail: the form leaves the hours blank, and a sail charge left blank takes
    the star system's hours when its time is counted."""
    from django.urls import reverse

    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", sail_charge_hours=183)
    ship.kind, ship.star_system = "jumpship", system
    ship.save()
    page = cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, "drive.charge"]), {"ship": ship.code}
    )
    text = page.content.decode()
    assert page.status_code == 200
    assert 'value="183' not in text


def test_sail_hours_the_gm_types_are_not_called_the_star_systems(cast, ship):
    system = StarSystemFactory(campaign=cast.campaign, name="Tharkad", sail_charge_hours=183)
    ship.star_system = system
    ship.save()
    entry = charge(cast, ship, hours=183, method="sail")
    assert "183 h of charging" in entry.summary
    assert "the star system's" not in entry.summary


def test_the_gm_gives_a_star_systems_sail_hours_on_its_form(cast):
    from django.urls import reverse

    from referee.fleet.models import StarSystem

    client = cast.client("gm")
    new = reverse("campaigns:object-create", args=[cast.campaign.code, "systems"])
    bad = client.post(new, {"name": "Tharkad", "sail_charge_hours": "100"})
    assert bad.status_code in (400, 422) and "from 151 to 2,000" in bad.content.decode()
    assert not StarSystem.objects.filter(name="Tharkad").exists()
    client.post(new, {"name": "Tharkad", "sail_charge_hours": "183"})
    assert StarSystem.objects.get(name="Tharkad").sail_charge_hours == 183


def test_stores_a_rule_makes_count_station_keeping_from_that_time(cast, ship):
    from referee.logistics.bindings import stores_for

    stores = stores_for(ship)
    assert stores.fuel_accounted_to == cast.campaign.clock
    ShipStores.objects.filter(pk=stores.pk).update(burn_day_fuel_t=5, fuel_t=20)
    advance(cast, 48)
    stores.refresh_from_db()
    assert stores.fuel_t == 19.0


def test_stores_kept_before_station_keeping_start_counting_at_the_clock():
    from importlib import import_module

    from django.apps import apps

    from tests.factories import CampaignFactory

    campaign = CampaignFactory()
    ship = ShipFactory(campaign=campaign)
    stores = ShipStores.objects.create(campaign=campaign, ship=ship, name="s", burn_day_fuel_t=5)
    assert stores.fuel_accounted_to is None
    import_module("referee.logistics.migrations.0006_stores_fuel_counted_from_now").counted_from_now(
        apps, None
    )
    stores.refresh_from_db()
    assert stores.fuel_accounted_to == campaign.clock


@pytest.mark.parametrize(
    ("when", "words"),
    [("9999-12-31 23:00", "up to the campaign's clock"), ("2500-01-01 00:00", "within ten years before")],
)
def test_the_stores_form_refuses_a_counted_up_to_after_the_clock_or_long_before(cast, ship, when, words):
    from django.urls import reverse

    page = cast.client("gm").post(
        reverse("campaigns:object-create", args=[cast.campaign.code, "supplies"]),
        {"ship": ship.pk, "food_mode": "sourcebook", "auto_fuel": "on", "fuel_accounted_to": when},
    )
    assert page.status_code in (400, 422)
    assert words in html.unescape(page.content.decode())
    assert not ShipStores.objects.filter(ship=ship).exists()
