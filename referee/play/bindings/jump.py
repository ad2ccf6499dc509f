"""Jump drives: the jump itself, drive charging, and the jump calculators."""

from __future__ import annotations

from django.db import models

from referee.fleet.models import FACINGS, Ship, StarSystem

from .. import sharing
from ..families import Family
from . import (
    Binding,
    BindingList,
    Context,
    Extra,
    NextStep,
    Precondition,
    Role,
    subject,
)

BINDINGS = BindingList()

JUMP_CAPABLE = ("jumpship", "warship")


def hours_since_last_jump(ctx: Context, ship: Ship) -> float | None:
    if ship.last_jump_at is None:
        return None
    hours = (ctx.clock - ship.last_jump_at).total_seconds() / 3600
    return round(max(0.0, hours), 2)


def _jump_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    return {
        "hours_since_last_jump": hours_since_last_jump(ctx, ship),
        "charged_from_reactor": ship.charged_from_reactor,
        "kf_integrity": ship.kf_integrity,
        "kf_integrity_max": ship.kf_integrity_max,
    }


def _charged(ctx: Context, inputs: dict) -> bool:
    ship = ctx.objects["ship"]
    return ship.drive_charged or (ship.lf_battery and ship.lf_battery_charged)


CHARGED = Precondition(
    "The ship's K-F drive, or its lithium-fusion battery, is charged",
    "10.7 Drive Charging: a jump spends the charge (10.1: the drive is uncharged after any jump)",
    _charged,
    reads=("ship",),
)
INTACT = Precondition(
    "The K-F drive's integrity is above 0",
    "10.1 Drive-System Malfunctions Table, footnote: a vessel may not jump if its Drive Integrity falls to 0",
    lambda ctx, inputs: ctx.objects["ship"].kf_integrity > 0,
    reads=("ship",),
)
FIELD_COLLAPSED = Precondition(
    "At least 30 seconds have passed since the ship's last jump",
    "10.5 Double Jumping: the next jump waits at least 30 s, until the K-F field has collapsed",
    lambda ctx, inputs: (
        ctx.objects["ship"].last_jump_at is None
        or (ctx.clock - ctx.objects["ship"].last_jump_at).total_seconds() >= 30
    ),
    reads=("ship",),
)
JUMP_PRECONDITIONS = (CHARGED, INTACT, FIELD_COLLAPSED)


def _jump_after(ctx: Context, outcome, recorder) -> None:
    """A jump that goes ahead carries the ship, and its docked DropShips, to the destination."""
    destination = ctx.extras.get("destination")
    if outcome.result["jump_proceeds"] is not True or destination is None:
        return
    ship = ctx.objects["ship"]
    # The arrival point is the destination's zenith jump point, on its map when the GM
    # has given the star's jump point distance.
    x, y = destination.jump_points().get("zenith", (None, None))
    for vessel in [ship, *ship.docked.select_for_update()]:
        recorder.set(vessel, "star_system", destination)
        recorder.set(vessel, "position", "zenith jump point (arrival)")
        recorder.set(vessel, "x_au", x)
        recorder.set(vessel, "y_au", y)


BINDINGS.add(
    Binding(
        "jump.malfunction",
        gm_inputs=("static_discharge_keeps_charge",),
        roles=(Role("ship", Ship, "Jumping ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        extras=(
            Extra("destination", StarSystem, "Destination", "Where the ship arrives if the jump goes ahead."),
        ),
        label="Jump",
        prefill=_jump_prefill,
        after=_jump_after,
        preconditions=JUMP_PRECONDITIONS,
    )
)


def _charge_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    # The target hours stay blank: a reactor charge's hours are the GM's choice (a star
    # system's sail hours there would read as a charge too slow to fail), and a sail
    # charge left blank takes the star system's hours when its time is counted.
    return {"system": "lf_battery" if ship.lf_battery and ship.drive_charged else "kf_drive"}


def _after_charging(entry, campaign) -> NextStep | None:
    """The jump, once the drive is charged: a charge that takes time offers it only when the
    clock has passed its hours (the card says when that is)."""
    code = subject(entry, "ship")
    if not entry.result.get("charged") or not code:
        return None
    ready = (
        Ship.objects.in_campaign(campaign)
        .filter(code=code)
        .filter(models.Q(drive_charged=True) | models.Q(lf_battery_charged=True))
    )
    return NextStep("Jump", "jump.malfunction", {"ship": code}) if ready.exists() else None


BINDINGS.add(
    Binding(
        "drive.charge",
        gm_inputs=("simultaneous",),  # the hours aimed at are the roller's: a reactor charge needs them
        roles=(Role("ship", Ship, "Charging ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        label="Charge drive",
        prefill=_charge_prefill,
        next_step=_after_charging,
        preconditions=(
            Precondition(
                "A lithium-fusion battery is fitted, to charge one",
                "10.7 Drive Charging: the system charged is the K-F drive or the ship's lithium-fusion battery",
                lambda ctx, inputs: inputs.get("system") != "lf_battery" or ctx.objects["ship"].lf_battery,
                reads=("ship",),
            ),
        ),
    )
)


def _ship_integrity(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    return {"kf_integrity": ship.kf_integrity} if ship else {}


AU_M = 149_597_870_700


def _carried(ship: Ship) -> list[Ship]:
    """The DropShips docked on ``ship`` (their ``docked_on``), which jump and arrive with it."""
    return list(ship.docked.order_by("name", "pk"))


def _arrival_prefill(ctx: Context) -> dict:
    """The JumpShip, then each DropShip docked on it, every facing of each: the craft a
    non-standard arrival damages, by name."""
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    ships = [{"id": str(craft), "facings": list(FACINGS)} for craft in [ship, *_carried(ship)]]
    return {**_ship_integrity(ctx), "ships": ships}


def _carries_unshared(ctx: Context) -> bool:
    """The entry names the carried DropShips: GM-only when players cannot see one."""
    ship = ctx.objects.get("ship")
    return ship is not None and bool(sharing.unshared(_carried(ship)))


def _jumpships_near(ship: Ship) -> list[float]:
    """Distances (m) to the other JumpShips and WarShips placed in the ship's star system."""
    others = Ship.objects.in_campaign(ship.campaign).filter(
        star_system=ship.star_system_id, kind__in=JUMP_CAPABLE
    )
    distances = []
    for other in others.exclude(pk=ship.pk).order_by("name", "pk"):
        au = ship.distance_au(other)
        if au is not None:
            distances.append(round(au * AU_M, 1))
    return distances


def _interference_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None or ship.star_system_id is None:
        return {}
    return {"jumpship_distances_m": _jumpships_near(ship)}


for procedure_id, label, prefill in (
    ("jump.nonstandard_plot", "Non-standard jump plot", None),
    ("jump.field_interference", "Objects in the K-F field", _interference_prefill),
):
    BINDINGS.add(
        Binding(
            procedure_id,
            roles=(Role("ship", Ship, "Jumping ship", targets=("ship",), kinds=JUMP_CAPABLE),),
            label=label,
            preconditions=(CHARGED, INTACT),  # made at the moment of the jump
            prefill=prefill,
        )
    )


BINDINGS.add(
    Binding(
        "jump.nonstandard_arrival",
        roles=(Role("ship", Ship, "Arriving ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        label="Non-standard arrival",
        prefill=_arrival_prefill,
        secret=_carries_unshared,
    )
)


FAMILY = Family(
    name="jump",
    title="Jump drives",
    procedure_titles={"jump": "Jump drives", "drive": "Drive charging"},
    menu_first={"jump.malfunction": 10, "drive.charge": 20},
    menu_rank=10,
    bindings=tuple(BINDINGS),
)
