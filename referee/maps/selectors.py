"""Reads behind the map pages: the drawing, the distances, the lists beside the map."""

from __future__ import annotations

from dataclasses import dataclass

from referee.campaigns.models import Campaign
from referee.fleet.models import StarSystem
from referee.play.models import LogEntry
from referee.terrain.models import Battlefield

from . import state as map_state
from . import svg
from .geometry import distance, plain_au
from .models import PLAN_SAVE, PlanStatus, RoutePlan
from .starmap import JUMP_PROCEDURE

MODES = {"fit": "Fitted", "log": "Log scale"}


@dataclass(frozen=True)
class SystemMap:
    svg: str
    objects: list[svg.MapObject]
    ships: list[dict]  # drawn or listed (not placed)
    unplaced: list[dict]
    pirates: list[dict]
    at_seq: int | None
    mode: str


def _at_seq(campaign: Campaign, at: int | None) -> int | None:
    """A log entry's number, when it names one of this campaign's entries."""
    if at is None:
        return None
    last = (
        LogEntry.objects.filter(campaign=campaign).order_by("-seq").values_list("seq", flat=True).first() or 0
    )
    return at if 0 <= at < last else None


def system_map(
    campaign: Campaign, system: StarSystem, role: str, *, mode: str = "fit", at: int | None = None
) -> SystemMap:
    """The system's map as ``role`` may see it, now or just after entry ``at`` (the views
    let only the GM ask for an entry)."""
    at = _at_seq(campaign, at)
    if at is None:
        current = map_state.system_state(campaign, system=system)
    else:
        current = map_state.rewind(map_state.system_state(campaign, everything=True), campaign, at)
    code = str(system.code)
    record = current.of("starsystem").get(code) or {
        "name": system.name,
        "spectral_class": system.spectral_class,
        "jump_point_au": system.jump_point_au,
    }
    ships = map_state.for_role(map_state.ships_in(current, code), role)
    pirates = map_state.for_role(map_state.pirates_in(current, code), role)
    when = f", as it stood after entry #{at}" if at is not None else ""
    drawing, _ = svg.system_svg(
        record,
        ships,
        pirates,
        mode=mode if mode in MODES else "fit",
        title=f"Map of the {record['name']} system{when}",
    )
    placed = [s for s in ships if s["at"] is not None]
    return SystemMap(
        svg=drawing,
        objects=svg.system_objects(record, placed, pirates),
        ships=ships,
        unplaced=[s for s in ships if s["at"] is None],
        pirates=pirates,
        at_seq=at,
        mode=mode if mode in MODES else "fit",
    )


def distances_from(objects: list[svg.MapObject], code: str) -> tuple[svg.MapObject | None, list[dict]]:
    """Every object's distance from the one named ``code``, nearest first."""
    origin = next((o for o in objects if o.code == code), None)
    if origin is None:
        return None, []
    rows = [
        {"label": o.label, "au": distance((origin.x, origin.y), (o.x, o.y))}
        for o in objects
        if o.code != origin.code
    ]
    rows.sort(key=lambda r: (r["au"], r["label"]))
    for row in rows:
        row["text"] = f"{plain_au(row['au'])} AU"
        row["km"] = f"{row['au'] * 149_597_870.7:,.0f} km"
    return origin, rows


def battlefield_map(
    campaign: Campaign, battlefield: Battlefield, role: str, *, at: int | None = None, links: str = ""
):
    """The battlefield's hex map as ``role`` may see it, now or after entry ``at``."""
    at = _at_seq(campaign, at)
    current = map_state.battlefield_state(campaign)
    if at is not None:
        current = map_state.rewind(current, campaign, at)
    code = str(battlefield.code)
    field = current.of("battlefield").get(code) or {}
    field = {
        "name": field.get("name") or battlefield.name,
        "columns": field.get("columns") or battlefield.columns,
        "rows": field.get("rows") or battlefield.rows,
        "weather": field.get("weather") if field.get("weather") is not None else battlefield.weather,
    }
    hexes = [
        h
        for h in current.of("hex").values()
        if h.get("battlefield") == code and h.get("name") and (role == "gm" or h.get("shared"))
    ]
    units_by_code = current.of("unit")
    units = []
    for placement in current.of("unitplacement").values():
        unit = units_by_code.get(placement.get("unit") or "")
        if placement.get("battlefield") != code or unit is None or not placement.get("hex"):
            continue
        if role != "gm" and not unit.get("shared"):
            continue
        units.append({**placement, "name": unit.get("name", ""), "unit_code": placement["unit"]})
    units.sort(key=lambda u: (u["hex"], u["name"]))
    when = f", as it stood after entry #{at}" if at is not None else ""
    drawing = svg.battlefield_svg(
        field,
        hexes,
        units,
        role=role,
        title=f"Map of {field['name']}{when}",
        links=links if at is None else "",
    )
    return drawing, units, at


# --- saved routes ----------------------------------------------------------------------------

NO_SUCH_SYSTEM = "a system no longer in the campaign"


def route_words(campaign: Campaign, plans: list[RoutePlan]) -> list[RoutePlan]:
    """Each plan with ``systems`` (the system its ship left from, then each one jumped to:
    (code, name) pairs, by the names the systems have now) and ``words`` ("Galax → Outreach
    → Harlech"). One read for all the plans."""
    codes = {code for plan in plans for code in [str(plan.origin or ""), *plan.stop_codes] if code}
    names = {}
    if codes:
        rows = StarSystem.objects.in_campaign(campaign).filter(code__in=codes).values_list("code", "name")
        names = {str(code): name for code, name in rows}
    for plan in plans:
        plan.systems = [
            (code, names.get(code, NO_SUCH_SYSTEM)) for code in [str(plan.origin or ""), *plan.stop_codes]
        ]
        plan.words = " → ".join(name for _, name in plan.systems)
    return plans


def planned_routes(campaign: Campaign) -> list[RoutePlan]:
    """The routes the GM saved and has not dropped, soonest arrival first, with their words."""
    plans = RoutePlan.objects.in_campaign(campaign).filter(status=PlanStatus.PLANNED)
    return route_words(campaign, list(plans.select_related("ship", "ship__star_system")))


def _arrivals_since_saved(campaign: Campaign, plans: list[RoutePlan]) -> dict[str, list[str]]:
    """By plan code: the systems its ship jumped to since the entry that saved the plan,
    in the order of the log, each jump standing (an undone jump was not made)."""
    entries = LogEntry.objects.in_campaign(campaign).standing()
    saved_at: dict[str, int] = {}
    wanted = {str(plan.code) for plan in plans}
    for seq, effects in entries.filter(procedure=PLAN_SAVE).values_list("seq", "effects"):
        for change in effects or []:
            if change.get("target") == "routeplan" and change.get("code") in wanted:
                saved_at[change["code"]] = seq
    if not saved_at:
        return {}
    ships = {str(plan.ship.code) for plan in plans}
    jumps: dict[str, list[tuple[int, str]]] = {}
    moves = entries.filter(
        procedure=JUMP_PROCEDURE,
        seq__gt=min(saved_at.values()),
        effects__contains=[{"target": "ship", "field": "star_system"}],
    )
    for seq, effects in moves.order_by("seq").values_list("seq", "effects"):
        for change in effects:
            code = str(change.get("code"))
            if change.get("target") != "ship" or change.get("field") != "star_system" or code not in ships:
                continue
            if change.get("after") and change.get("after") != change.get("before"):
                jumps.setdefault(code, []).append((seq, str(change["after"])))
    return {
        str(plan.code): [
            system for seq, system in jumps.get(str(plan.ship.code), []) if seq > saved_at[str(plan.code)]
        ]
        for plan in plans
        if str(plan.code) in saved_at
    }


def route_progress(campaign: Campaign, plans: list[RoutePlan]) -> list[RoutePlan]:
    """How far along each plan (with its ``systems``, see ``route_words``) its ship is:
    ``jumps_made``, the ``remaining`` stops by code, and ``off_route`` (the system's name
    when the ship is not where the jumps made along the plan put it).

    The position is matched from the ship's jumps since the plan was saved, one stop at a
    time: a jump to the plan's next stop advances it, any other jump leaves it where it
    was. Where the ship is now says nothing about the plan by itself, since a route may
    come back to a system (A → B → A is back at A, not at its start); and a position kept
    on the plan would have to follow every jump and every undo of one, where the log
    already holds both. A ship that strays keeps its next stop, and the plan's rest is
    planned from wherever it is; a ship moved to its next stop by hand, not by a jump, is
    there."""
    arrivals = _arrivals_since_saved(campaign, plans)
    for plan in plans:
        stops = plan.stop_codes
        made = 0
        for system in arrivals.get(str(plan.code), []):
            if made < len(stops) and system == stops[made]:
                made += 1
        ship = plan.ship
        here = str(ship.star_system.code) if ship.star_system_id else ""
        if made < len(stops) and here == stops[made]:
            made += 1
        plan.jumps_made, plan.remaining = made, stops[made:]
        expected = plan.systems[made][0]  # the system these jumps along the plan end in
        plan.off_route = ""
        if expected and here != expected:
            plan.off_route = f"off the route, in {ship.star_system.name if here else 'no star system'}"
    return plans
