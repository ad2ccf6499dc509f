"""Reads of the campaign clock: the GM's agenda, the ships' status lines, the stocks that
run low, and the places a ship can be sent on its map."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship
from referee.logistics.models import ShipStores
from referee.maps import selectors as map_selectors
from referee.maps.geometry import plain_au
from referee.maps.models import PiratePoint
from referee.play.models import LogEntry

from .models import EventKind, EventStatus, TimedEvent
from .travel import burn_days

PANEL = "clock/panel.html#agenda-panel"
PLAYER_PANEL = "clock/player_panel.html#under-way"
# A stock that lasts fewer days than this is named on the agenda before it runs out.
WARN_DAYS = 14


@dataclass(frozen=True)
class Warning:
    ship: Ship
    stock: str
    days: float
    runs_out: datetime
    in_transit: bool = False  # the stock runs out on the way, before the ship arrives

    def __str__(self) -> str:
        if self.in_transit:
            if self.days <= 0:
                return f"{self.ship}'s tanks run dry in transit."
            when = f"{self.days:.1f} days, {self.runs_out:%Y-%m-%d %H:%M}"
            return f"{self.ship} runs out of {self.stock} in {when}, before it arrives."
        if self.days <= 0:
            return f"{self.ship}'s {self.stock} has run out."
        return f"{self.ship}'s {self.stock} runs out in {self.days:.1f} days, {self.runs_out:%Y-%m-%d %H:%M}."


def _under_way(campaign: Campaign, role: str):
    return (
        TimedEvent.objects.in_campaign(campaign)
        .visible_to(role)
        .filter(status=EventStatus.WAITING)
        .select_related("ship")
        .order_by("due_at", "pk")
    )


def started_by(campaign: Campaign, events: list[TimedEvent]) -> dict[str, int]:
    """Each event's starting entry, by the event's code (one query for all of them)."""
    if not events:
        return {}
    codes = {str(e.code) for e in events}
    found: dict[str, int] = {}
    starts = LogEntry.objects.filter(
        campaign=campaign,
        reversal_of__isnull=True,
        effects__contains=[{"target": "timedevent", "field": "status", "after": EventStatus.WAITING}],
    ).values_list("seq", "effects")
    for seq, effects in starts.order_by("seq"):
        for change in effects:
            if change.get("target") == "timedevent" and change.get("code") in codes:
                found[change["code"]] = seq
    return found


def food_per_day(stores: ShipStores) -> float:
    """What the ship's people eat a day, as the Food procedure counts it."""
    outcome = rules.resolve(
        "cargo.food",
        {"crew": stores.ship.crew, "passengers": stores.ship.passengers, "days": 1, "mode": stores.food_mode},
        [],
    )
    return outcome.result["tons_per_day"]


def station_keeping_per_day(stores: ShipStores) -> float:
    """Station-keeping fuel a day (a tenth of a burn-day, as the stores procedure counts it)."""
    if not stores.burn_day_fuel_t:
        return 0.0
    outcome = rules.resolve(
        "cargo.stores", {"burn_day_fuel_t": stores.burn_day_fuel_t, "station_keeping_days": 1}, []
    )
    return outcome.result["station_keeping_fuel_t"] or 0.0


def stock_warnings(campaign: Campaign, under_way: list[TimedEvent] | None = None) -> list[Warning]:
    """The food and fuel stocks that run out within ``WARN_DAYS`` at the rate they are used
    (``under_way``: the events under way, when the caller has read them)."""
    found = []
    stores = ShipStores.objects.in_campaign(campaign).select_related("ship").order_by("ship__name", "pk")
    if under_way is None:
        under_way = TimedEvent.objects.in_campaign(campaign).filter(status=EventStatus.WAITING)
    transits = {e.ship_id: e for e in under_way if e.kind == EventKind.TRANSIT}
    for s in stores:
        fuel_left = s.fuel_t + s.cargo_fuel_t
        transit = transits.get(s.ship_id)
        # A docked ship rides on its carrier's thrust; one in transit burns burn-days.
        keeping = 0.0 if s.ship.docked_on_id or transit else station_keeping_per_day(s)
        for stock, left, rate in (
            ("food", s.food_t, food_per_day(s) if s.people else 0.0),
            ("fuel", fuel_left, keeping),
        ):
            if rate > 0 and left / rate < WARN_DAYS:
                days = left / rate
                found.append(Warning(s.ship, stock, days, campaign.clock + timedelta(days=days)))
        if transit is not None and s.burn_day_fuel_t:
            span = transit.due_at - transit.started_at
            need = s.burn_day_fuel_t * burn_days(span, transit.thrust_g or 1)
            if need > fuel_left:
                dry = transit.started_at + span * (fuel_left / need)
                days = max(0.0, (dry - campaign.clock).total_seconds() / 86400)
                found.append(Warning(s.ship, "fuel", days, max(dry, campaign.clock), in_transit=True))
    return found


def agenda_context(campaign: Campaign) -> dict:
    """What is due, when and for which record; what runs low."""
    events = list(_under_way(campaign, "gm"))
    starts = started_by(campaign, events)
    for event in events:
        event.started_seq = starts.get(str(event.code))
        event.overdue = event.due_at <= campaign.clock
    plans = map_selectors.planned_routes(campaign)
    return {
        "events": events,
        "warnings": stock_warnings(campaign, events),
        "plans": plans,
        "campaign": campaign,
    }


def agenda_records(context: dict) -> int:
    return len(context["events"]) + len(context["warnings"]) + len(context["plans"])


def player_context(campaign: Campaign) -> list[TimedEvent]:
    """What the shared ships are doing, for the players' page."""
    return list(_under_way(campaign, "player"))


def ship_lines(campaign_id: int, role: str) -> dict[int, list[str]]:
    """Each ship's status lines ("charging, done 3067-03-21 14:00"), by ship id."""
    events = (
        TimedEvent.objects.filter(campaign_id=campaign_id, status=EventStatus.WAITING)
        .visible_to(role)
        .order_by("due_at", "pk")
    )
    lines: dict[int, list[str]] = {}
    for event in events:
        lines.setdefault(event.ship_id, []).append(event.status_line())
    return lines


def places(ship: Ship) -> list[dict]:
    """Where the ship can be sent on its system's map: the star, the jump points, the
    pirate points and the other ships placed there."""
    system = ship.star_system
    if system is None:
        return []
    found = [{"label": f"{system} (the star)", "x": 0.0, "y": 0.0}]
    for name, (x, y) in system.jump_points().items():
        found.append({"label": f"{name} jump point", "x": x, "y": y})
    for point in PiratePoint.objects.in_campaign(ship.campaign).filter(star_system=system).order_by("name"):
        found.append(_place(point.name, point.x_au, point.y_au, shared=point.shared))
    others = Ship.objects.in_campaign(ship.campaign).filter(
        star_system=system, x_au__isnull=False, y_au__isnull=False
    )
    for other in others.exclude(pk=ship.pk).order_by("name"):
        found.append(_place(str(other), other.x_au, other.y_au, shared=other.shared))
    return found


def _place(label: str, x: float, y: float, *, shared: bool) -> dict:
    """A place the GM may send a ship to. Its ``position`` is what the transit writes where
    players may read it (the ship's position, the log, its status line): a pirate point or a
    ship not shared with them is written as coordinates, never by name."""
    where = label if shared else f"x {plain_au(x)}, y {plain_au(y)} AU"
    return {"label": label, "x": x, "y": y, "position": where}
