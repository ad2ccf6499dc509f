"""Writes of the campaign clock: starting what takes time, completing what has come due,
and moving the clock to the next event. Each runs in the caller's transaction with the
campaign row locked, or takes the lock itself, like every other write of the play loop."""

from __future__ import annotations

import math
from datetime import timedelta
from fractions import Fraction
from types import SimpleNamespace

from django.db import transaction

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, StarSystem
from referee.logistics.models import ShipStores
from referee.maps.geometry import plain_au
from referee.play import families, sharing
from referee.play.bindings import Context
from referee.play.effects import ChangeRecorder, apply_effects
from referee.play.models import LogEntry, Visibility
from referee.play.resolution import row_start
from referee.play.services import (
    PlayError,
    campaign_clock_advance,
    campaign_lock,
    changes_save,
    clock_moved,
    log_append,
)
from rules.tables import drive as drive_tables

from .models import MAX_DURATION_H, EventKind, EventStatus, TimedEvent
from .selectors import WARN_DAYS
from .travel import TravelError, burn_days, plain_duration, transit_time

DUE, TRANSIT, STATION_KEEPING = "clock.due", "clock.transit", "clock.station_keeping"
SYSTEM_WORDS = {"kf_drive": "K-F drive", "lf_battery": "lithium-fusion battery"}


def waiting(campaign: Campaign):
    """The events under way, soonest due first."""
    return (
        TimedEvent.objects.in_campaign(campaign).filter(status=EventStatus.WAITING).order_by("due_at", "pk")
    )


def _busy(ship: Ship, kind: str) -> TimedEvent | None:
    return waiting(ship.campaign).filter(ship=ship, kind=kind).first()


def event_start(
    *, ctx: Context, ship: Ship, kind: str, span: timedelta, what: str, recorder: ChangeRecorder, **fields
) -> TimedEvent:
    """A timed event for ``ship`` due ``span`` from now. It is made void and put under way
    through ``recorder``, so the entry that starts it is the entry that undoes it."""
    if span < timedelta(0) or span > timedelta(hours=MAX_DURATION_H):
        raise PlayError("Something that takes time takes from 0 hours to ten years.")
    if (already := _busy(ship, kind)) is not None:
        raise PlayError(f"{ship} is already {already.status_line()}.")
    event = TimedEvent(
        campaign=ctx.campaign,
        ship=ship,
        kind=kind,
        name=f"{ship}: {what}"[:120],
        started_at=ctx.clock,
        due_at=ctx.clock + span,
        status=EventStatus.VOID,
        **fields,
    )
    return row_start(event, recorder, "status", EventStatus.WAITING)


# -- What the rules give a duration -----------------------------------------------------


def charge_span(inputs: dict, star_system: StarSystem | None = None) -> tuple[timedelta, str]:
    """How long a charge takes (10.7 Drive Charging): from the reactor, the hours the GM
    chose; with a jump sail, the star class's hours after the sail is deployed: the hours
    given, else the star system's, else the least any star class takes."""
    hours = inputs.get("target_hours")
    if inputs.get("method") == "sail":
        deploy = timedelta(minutes=drive_tables.SAIL_DEPLOY_MINUTES)
        how = f"{drive_tables.SAIL_DEPLOY_MINUTES} min to deploy the sail, then "
        system_hours = star_system.sail_charge_hours if star_system is not None else None
        from_system = hours is None and system_hours is not None
        if from_system:
            hours = system_hours
        if hours is None:  # the star's hours not known: the least any star class takes
            hours = drive_tables.SAIL_HOURS_MIN
            how += (
                f"{hours:g} h of charging, the least any star takes "
                "(give the star system's sail charging time for another)"
            )
        elif from_system:
            how += f"{hours:g} h of charging, the star system's"
        else:
            how += f"{hours:g} h of charging"
        return deploy + timedelta(hours=hours), how
    return timedelta(hours=hours), f"{hours:g} h from the reactor"


def charge_started(ctx: Context, effects: list[dict], recorder: ChangeRecorder) -> tuple[list[dict], str]:
    """A charge that succeeds is done when its time is up: the drive is charged then."""
    held = [e for e in effects if e.get("target") == "ship"]
    ship = ctx.objects.get("ship")
    if not held or ship is None:  # a failed charge, or a calculator run: nothing to wait for
        return effects, ""
    inputs = dict(ctx.outcome.inputs)
    span, how = charge_span(inputs, ship.star_system)
    what = f"{SYSTEM_WORDS.get(inputs.get('system'), 'drive')} charge"
    event = event_start(
        ctx=ctx,
        ship=ship,
        kind=EventKind.CHARGE,
        span=span,
        what=what,
        recorder=recorder,
        procedure="drive.charge",
        held=held,
    )
    rest = [e for e in effects if e not in held]
    return rest, f"Charging ({how}): done {event.due_at:%Y-%m-%d %H:%M}."


def plot_started(ctx: Context, effects: list[dict], recorder: ChangeRecorder) -> tuple[list[dict], str]:
    """Plotting a non-standard jump point takes its 2D6 × 30 minutes, success or failure."""
    ship = ctx.objects.get("ship")
    minutes = ctx.outcome.result.get("plot_minutes")
    if ship is None or not minutes:
        return effects, ""
    event = event_start(
        ctx=ctx,
        ship=ship,
        kind=EventKind.PLOT,
        span=timedelta(minutes=minutes),
        what="non-standard jump plot",
        recorder=recorder,
        procedure="jump.nonstandard_plot",
        held=list(effects),
    )
    return (
        [],
        f"Plotting: done {event.due_at:%Y-%m-%d %H:%M} ({plain_duration(event.due_at - event.started_at)}).",
    )


# -- Transit on a system map --------------------------------------------------------------


def transit_plan(*, ship: Ship, x_au: float, y_au: float, thrust_g: float) -> dict:
    """The transit a GM would work out by hand, before committing to it."""
    here = ship.map_position()
    if ship.map_system_id() is None or here is None:
        raise PlayError(f"{ship} has no place on a system map yet: put it on the map first.")
    if ship.docked_on_id:
        raise PlayError(
            f"{ship} is docked on {ship.docked_on} and rides with it: send {ship.docked_on} instead."
        )
    distance = ((x_au - here[0]) ** 2 + (y_au - here[1]) ** 2) ** 0.5
    try:
        span = transit_time(distance, thrust_g)
    except TravelError as error:
        raise PlayError(str(error)) from None
    if span > timedelta(hours=MAX_DURATION_H):
        raise PlayError("That transit would take more than ten years: choose a nearer place or more thrust.")
    plan = {"distance_au": distance, "span": span, "words": plain_duration(span), "fuel_t": None}
    stores = ShipStores.objects.filter(ship=ship).first()
    if stores is not None and stores.burn_day_fuel_t:
        plan["fuel_t"] = stores.burn_day_fuel_t * burn_days(span, thrust_g)
        plan["fuel_left_t"] = stores.fuel_t + stores.cargo_fuel_t
    return plan


@transaction.atomic
def transit_start(
    *, campaign: Campaign, ship: Ship, x_au: float, y_au: float, position: str, thrust_g: float, actor
) -> LogEntry:
    """The ship sets off for (x, y) on its system's map at ``thrust_g``, turning over at the
    midpoint; it arrives when the clock passes the due time."""
    campaign = campaign_lock(campaign)
    ship = (
        Ship.objects.select_for_update(of=("self",))
        .select_related("docked_on")
        .get(pk=ship.pk, campaign=campaign)
    )
    plan = transit_plan(ship=ship, x_au=x_au, y_au=y_au, thrust_g=thrust_g)
    recorder = ChangeRecorder()
    ctx = Context(campaign=campaign, objects={"ship": ship})
    where = position.strip()[:120] or f"x {plain_au(x_au)}, y {plain_au(y_au)} AU"
    event = event_start(
        ctx=ctx,
        ship=ship,
        kind=EventKind.TRANSIT,
        span=plan["span"],
        what=f"transit to {where}",
        recorder=recorder,
        to_x_au=x_au,
        to_y_au=y_au,
        to_position=where,
        thrust_g=thrust_g,
    )
    changes = changes_save(recorder)
    return log_append(
        campaign=campaign,
        procedure=TRANSIT,
        title=f"{ship} sets off for {where}",
        summary=(
            f"{ship} sets off for {where}, {plan['distance_au']:.3g} AU away, at {thrust_g:g} G with turnover "
            f"at the midpoint: {plan['words']}, arriving {event.due_at:%Y-%m-%d %H:%M}."
        ),
        actor=actor,
        inputs={
            "@ship": {"code": str(ship.code), "name": str(ship)},
            "x_au": x_au,
            "y_au": y_au,
            "thrust_g": thrust_g,
        },
        effects=changes,
        visibility=Visibility.EVERYONE if sharing.seen_by_players(ship) else Visibility.GM,
    )


def _burn(recorder: ChangeRecorder, stores: ShipStores, days: float) -> str:
    """The transit's fuel, from the cargo cells first (which frees the bay), then the tanks."""
    burn = stores.burn_day_fuel_t * days
    short = _draw(recorder, stores, burn)
    words = f", burning {burn:.3g} t of fuel ({days:.3g} burn-days)"
    return words + (f"; the tanks ran dry {short:.3g} t short" if short else "")


# -- Completing what has come due -----------------------------------------------------------


def _complete(campaign: Campaign, event: TimedEvent, actor) -> LogEntry:
    ship = Ship.objects.select_for_update(of=("self",)).get(pk=event.ship_id)
    recorder = ChangeRecorder()
    pending: list = []
    if event.kind == EventKind.TRANSIT:
        recorder.set(ship, "x_au", event.to_x_au)
        recorder.set(ship, "y_au", event.to_y_au)
        recorder.set(ship, "position", event.to_position)
        done = f"{ship} arrives at {event.to_position}"
        stores = ShipStores.objects.select_for_update().filter(ship=ship).first()
        if stores is not None and stores.burn_day_fuel_t:
            done += _burn(recorder, stores, burn_days(event.due_at - event.started_at, event.thrust_g or 1))
        if stores is not None and stores.fuel_accounted_to is not None:
            # The days under thrust were burn-days, not days of station-keeping.
            recorder.set(
                stores, "fuel_accounted_to", stores.fuel_accounted_to + (event.due_at - event.started_at)
            )
    else:
        ctx = Context(campaign=campaign, objects={"ship": ship})
        ctx.outcome = SimpleNamespace(inputs={}, result={}, effects=event.held)
        binding = families.binding(event.procedure)
        pending = apply_effects(list(event.held), ctx.targets(binding), ctx, recorder, event.procedure)
        done = f"{ship}'s {event.name.split(': ', 1)[-1]} is done"
    recorder.set(event, "status", EventStatus.DONE)
    changes = changes_save(recorder)
    late = campaign.clock - event.due_at
    when = f"due {event.due_at:%Y-%m-%d %H:%M}" + (
        f", seen at {campaign.clock:%Y-%m-%d %H:%M}" if late else ""
    )
    return log_append(
        campaign=campaign,
        procedure=DUE,
        title=done,
        summary=f"{done} ({when}).",
        actor=actor,
        inputs={
            "@ship": {"code": str(ship.code), "name": str(ship)},
            "@event": {"code": str(event.code), "name": event.name},
        },
        effects=changes,
        pending=pending,
        visibility=Visibility.EVERYONE if sharing.seen_by_players(ship) else Visibility.GM,
    )


def due_events_complete(*, campaign: Campaign, actor) -> list[LogEntry]:
    """Each event whose due time the clock has reached, in due order, as its own entry."""
    events = waiting(campaign).filter(due_at__lte=campaign.clock).select_for_update(of=("self",))
    return [_complete(campaign, event, actor) for event in list(events)]


# -- Station-keeping ---------------------------------------------------------------------------


def keeping_station(campaign: Campaign):
    """The stores whose station-keeping is counted as the clock moves, a whole day or more
    since it last was; a ship in transit burns on arrival instead."""
    in_transit = waiting(campaign).filter(kind=EventKind.TRANSIT).values("ship_id")
    return (
        ShipStores.objects.in_campaign(campaign)
        .filter(
            auto_fuel=True, burn_day_fuel_t__gt=0, fuel_accounted_to__lte=campaign.clock - timedelta(days=1)
        )
        .exclude(ship_id__in=in_transit)
        .select_related("ship", "ship__docked_on")
        .select_for_update(of=("self",))
        .order_by("ship__name", "pk")
    )


def station_keeping_burn(*, campaign: Campaign, actor) -> list[LogEntry]:
    """Each ship burns its station-keeping fuel for the whole days the clock has passed, as
    the stores procedure counts it (a tenth of a burn-day a day), cargo cells first; the
    days are marked counted, so none is burnt twice and undoing the entry gives them back.
    A docked ship rides on its carrier's thrust: its days are counted without a burn, all
    the docked ships of one clock move in one entry (``ride_docked``)."""
    entries, riding = [], []
    for stores in list(keeping_station(campaign)):
        ship = stores.ship
        days = math.floor((campaign.clock - stores.fuel_accounted_to).total_seconds() / 86400)
        if ship.docked_on_id:
            riding.append((stores, days))
            continue
        recorder = ChangeRecorder()
        outcome = rules.resolve(
            "cargo.stores", {"burn_day_fuel_t": stores.burn_day_fuel_t, "station_keeping_days": days}, []
        )
        span = f"{days} day{'s' if days != 1 else ''}"
        burn = outcome.result["station_keeping_fuel_t"] or 0.0
        short = _draw(recorder, stores, burn)
        left = stores.fuel_t + stores.cargo_fuel_t
        summary = (
            f"{ship} kept station for {span}, burning {burn:.3g} t of fuel "
            f"(a tenth of a {stores.burn_day_fuel_t:g} t burn-day a day, cargo cells first); "
            f"{left:.3g} t left"
        )
        # The rate a day, from this burn read as the decimal it is (as the rule reads the GM's
        # numbers): the rate the agenda warns at, to the last digit, without a second resolve.
        per_day = float(Fraction(str(burn)) / days)
        summary += (
            f", {short:.3g} t short: the tanks ran dry." if short else f"{fuel_outlook(stores, per_day)}."
        )
        recorder.set(stores, "fuel_accounted_to", stores.fuel_accounted_to + timedelta(days=days))
        entries.append(
            log_append(
                campaign=campaign,
                procedure=STATION_KEEPING,
                title=f"{ship} burns {burn:.3g} t of fuel keeping station",
                summary=summary,
                actor=actor,
                inputs={
                    "@ship": {"code": str(ship.code), "name": str(ship)},
                    "burn_day_fuel_t": stores.burn_day_fuel_t,
                    "station_keeping_days": days,
                },
                result={"station_keeping_fuel_t": outcome.result["station_keeping_fuel_t"]},
                effects=changes_save(recorder),
                reference=outcome.reference,
                visibility=Visibility.EVERYONE if sharing.seen_by_players(ship) else Visibility.GM,
            )
        )
    return entries + ride_docked(campaign=campaign, actor=actor, riding=riding)


def ride_docked(*, campaign: Campaign, actor, riding: list[tuple[ShipStores, int]]) -> list[LogEntry]:
    """One entry for the docked ships of a clock move (one more, the GM's alone, for those
    players do not know of, or whose carrier they do not): their days are counted as
    ridden, so none is burnt once they undock, and undoing the entry counts them again."""
    groups: dict[str, list[tuple[ShipStores, int]]] = {}
    for stores, days in riding:
        seen = sharing.seen_by_players(stores.ship) and sharing.seen_by_players(stores.ship.docked_on)
        groups.setdefault(Visibility.EVERYONE if seen else Visibility.GM, []).append((stores, days))
    entries = []
    for visibility, group in groups.items():
        recorder = ChangeRecorder()
        rides = []
        for stores, days in group:
            recorder.set(stores, "fuel_accounted_to", stores.fuel_accounted_to + timedelta(days=days))
            rides.append(f"{stores.ship} on {stores.ship.docked_on} ({days} day{'s' if days != 1 else ''})")
        many = len(group) > 1
        entries.append(
            log_append(
                campaign=campaign,
                procedure=STATION_KEEPING,
                title=f"{len(group)} docked ships ride free" if many else f"{group[0][0].ship} rides docked",
                summary=f"Riding docked, no station-keeping fuel burnt: {', '.join(rides)}.",
                actor=actor,
                result={"station_keeping_fuel_t": 0.0},
                effects=changes_save(recorder),
                visibility=visibility,
            )
        )
    return entries


def _draw(recorder: ChangeRecorder, stores: ShipStores, burn: float) -> float:
    """Take ``burn`` tons of fuel as the stores procedure does (cargo cells first), kept to
    the kilogram; what the tanks could not give."""
    left = stores.fuel_left_after(burn)
    recorder.set(stores, "cargo_fuel_t", round(left.cargo_fuel_t, 3))
    recorder.set(stores, "fuel_t", round(left.fuel_t, 3))
    return left.short_t


def fuel_outlook(stores: ShipStores, per_day: float) -> str:
    """ ", enough for 9.5 more days of station-keeping" at ``per_day`` tons a day, when that is
    under the agenda's warning."""
    left = stores.fuel_t + stores.cargo_fuel_t
    if not per_day or left / per_day >= WARN_DAYS:
        return ""
    return f", enough for only {left / per_day:.1f} more days of station-keeping"


@transaction.atomic
def clock_to_next_event(*, campaign: Campaign, actor) -> list[LogEntry]:
    """Advance to the next event: the clock moves to the soonest due time (what is due
    already is completed without moving it)."""
    campaign = campaign_lock(campaign)
    upcoming = waiting(campaign).first()
    if upcoming is None:
        raise PlayError("Nothing is under way: no drive charging, no plot, no ship in transit.")
    seconds = int((upcoming.due_at - campaign.clock).total_seconds() + 0.999999)
    if seconds <= 0:
        return clock_moved(campaign=campaign, actor=actor)
    entry = campaign_clock_advance(
        campaign=campaign, seconds=seconds, reason=f"to {upcoming.name}", actor=actor
    )
    return [entry, *LogEntry.objects.filter(campaign=campaign, seq__gt=entry.seq).order_by("seq")]
