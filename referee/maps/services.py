"""Writes made on the maps: a ship moved, a unit placed or turned. Each is one transaction
that locks the campaign row and appends one turn-log entry holding every field's before
and after, so the log's Undo takes it back like any resolution."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, StarSystem, Unit
from referee.play import sharing
from referee.play.effects import ChangeRecorder
from referee.play.models import LogEntry, Visibility
from referee.play.resolution import PlayError, campaign_lock, changes_save, row_start
from referee.play.services import log_append
from referee.terrain.models import Battlefield, Facing, UnitPlacement

from . import selectors
from .geometry import plain_au
from .models import PLAN_DROP, PLAN_SAVE, PlanStatus, RoutePlan

MOVE, PLACE = "map.move", "map.place"


def _what(changes: list[dict]) -> str:
    def plain(value) -> str:
        return "—" if value in (None, "") else str(value)

    return "; ".join(f"{c['label']} {plain(c['before'])} → {plain(c['after'])}" for c in changes)


@transaction.atomic
def ship_move(
    *, campaign: Campaign, ship: Ship, system: StarSystem, x_au: float, y_au: float, position: str, actor
) -> LogEntry | None:
    """Put a ship at (x, y) AU on ``system``'s map, with ``position`` as its words (the
    players' status reads them). A docked ship rides with its carrier: move the carrier."""
    campaign = campaign_lock(campaign)
    ship = (
        Ship.objects.select_for_update(of=("self",))
        .select_related("docked_on")
        .get(pk=ship.pk, campaign=campaign)
    )
    if ship.docked_on_id:
        raise PlayError(
            f"{ship} is docked on {ship.docked_on} and rides with it: move {ship.docked_on} instead."
        )
    recorder = ChangeRecorder()
    recorder.set(ship, "star_system", system)
    recorder.set(ship, "x_au", float(x_au))
    recorder.set(ship, "y_au", float(y_au))
    recorder.set(ship, "position", position[:120])
    changes = changes_save(recorder)
    if not changes:
        return None
    riders = list(ship.docked.values_list("name", flat=True))
    carried = f" with {', '.join(riders)} docked" if riders else ""
    return log_append(
        campaign=campaign,
        procedure=MOVE,
        title=f"{ship} moved on the map",
        summary=f"The GM moved {ship}{carried} to {position or f'x {plain_au(x_au)}, y {plain_au(y_au)} AU'} "
        f"in {system}: {_what(changes)}.",
        actor=actor,
        inputs={"@ship": {"code": str(ship.code), "name": str(ship)}, "x_au": x_au, "y_au": y_au},
        effects=sorted(changes, key=lambda c: c["field"]),
        visibility=Visibility.EVERYONE if sharing.seen_by_players(ship) else Visibility.GM,
    )


@transaction.atomic
def unit_place(
    *, campaign: Campaign, unit: Unit, battlefield: Battlefield, hex_label: str, facing: str, actor
) -> LogEntry | None:
    """Put a unit in a hex of a battlefield map, facing one of the hex sides."""
    campaign = campaign_lock(campaign)
    unit = Unit.objects.select_for_update().get(pk=unit.pk, campaign=campaign)
    if facing not in Facing.values:
        raise PlayError("Choose the hex side the unit faces.")
    placement = UnitPlacement.objects.select_for_update().filter(unit=unit).first()
    creating = placement is None
    if creating:
        placement = UnitPlacement(campaign=campaign, unit=unit, name=unit.name, battlefield=battlefield)
    recorder = ChangeRecorder()
    if creating:
        # A new row: each field's before is blank, and the row itself is recorded so that
        # Undo can take it away (it is saved before the recorder compares values).
        try:
            placement.hex, placement.facing = hex_label, facing
            placement.full_clean()
            placement.save()
        except ValidationError as error:
            raise PlayError("; ".join(error.messages)) from None
        changes = [
            {
                "target": "unitplacement",
                "code": str(placement.code),
                "name": str(placement),
                "field": name,
                "label": label,
                "before": None,
                "after": value,
            }
            for name, label, value in (
                ("battlefield", "battlefield", str(battlefield.code)),
                ("hex", "hex", hex_label),
                ("facing", "facing", facing),
                ("unit", "unit", str(unit.code)),
                ("name", "name", unit.name),
            )
        ]
    else:
        recorder.set(placement, "battlefield", battlefield)
        recorder.set(placement, "hex", hex_label)
        recorder.set(placement, "facing", facing)
        changes = changes_save(recorder)
    if not changes:
        return None
    facing_label = Facing(facing).label.lower()
    visible = unit.shared and battlefield.shared
    record = {"target": "unitplacement", "code": str(placement.code), "name": str(placement)}
    inputs = {"@unit": {"code": str(unit.code), "name": str(unit)}, "hex": hex_label, "facing": facing}
    if creating:
        record["fields"] = {c["field"]: c["after"] for c in changes}
        inputs["@record"] = record
    return log_append(
        campaign=campaign,
        procedure="record.create" if creating else PLACE,
        title=f"{unit} placed on {battlefield}" if creating else f"{unit} moved on {battlefield}",
        summary=f"The GM put {unit} in hex {hex_label} of {battlefield}, facing {facing_label}.",
        actor=actor,
        inputs=inputs,
        effects=sorted(changes, key=lambda c: c["field"]),
        visibility=Visibility.EVERYONE if visible else Visibility.GM,
    )


@transaction.atomic
def route_plan_save(
    *,
    campaign: Campaign,
    ship: Ship,
    stops: list[StarSystem],
    method: str,
    hours: float | None,
    arrives_at,
    actor,
) -> LogEntry:
    """Keep the route the planner worked out, as a GM-only plan on the star map and the
    agenda. The entry that saves it is the entry that undoes it."""
    campaign = campaign_lock(campaign)
    if not stops:
        raise PlayError("Choose at least one system to jump to before saving the route.")
    if not ship.star_system_id:
        raise PlayError(f"{ship} is in no star system: say where it is before planning its route.")
    words = " → ".join(str(s) for s in [ship.star_system, *stops])
    plan = RoutePlan(
        campaign=campaign,
        ship=ship,
        name=f"{ship} to {stops[-1]}"[:120],
        origin=ship.star_system.code,
        route=",".join(str(s.code) for s in stops),
        method=method,
        hours=hours,
        arrives_at=arrives_at,
        status=PlanStatus.VOID,
    )
    recorder = ChangeRecorder()
    row_start(plan, recorder, "status", PlanStatus.PLANNED)
    jumps = len(stops)
    return log_append(
        campaign=campaign,
        procedure=PLAN_SAVE,
        title=f"The GM plans {ship}'s route to {stops[-1]}",
        summary=(
            f"The GM plans {ship}'s route: {words}, {jumps} jump{'s' if jumps != 1 else ''}, "
            f"arriving {arrives_at:%Y-%m-%d %H:%M} as planned now."
        ),
        actor=actor,
        inputs={"@ship": {"code": str(ship.code), "name": str(ship)}, "method": method, "hours": hours},
        effects=changes_save(recorder),
        visibility=Visibility.GM,
    )


@transaction.atomic
def route_plan_drop(*, campaign: Campaign, plan: RoutePlan, actor) -> LogEntry:
    """The GM no longer means to fly a saved route: it leaves the star map and the agenda."""
    campaign = campaign_lock(campaign)
    plan = RoutePlan.objects.select_for_update().get(pk=plan.pk, campaign=campaign)
    if plan.status != PlanStatus.PLANNED:
        raise PlayError(f"The route {plan} is not a saved plan any more.")
    recorder = ChangeRecorder()
    recorder.set(plan, "status", PlanStatus.DROPPED)
    (plan,) = selectors.route_words(campaign, [plan])
    return log_append(
        campaign=campaign,
        procedure=PLAN_DROP,
        title=f"The GM drops the route {plan}",
        summary=f"The GM drops the route {plan} ({plan.words}).",
        actor=actor,
        effects=changes_save(recorder),
        visibility=Visibility.GM,
    )
