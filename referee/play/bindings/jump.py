"""Jump drives: the jump itself, drive charging, and the jump calculators."""

from __future__ import annotations

from referee.fleet.models import Ship, StarSystem

from ..families import Family
from . import Binding, BindingList, Context, Extra, Role

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


def _jump_after(ctx: Context, outcome, recorder) -> None:
    """A jump that goes ahead carries the ship, and its docked DropShips, to the destination."""
    destination = ctx.extras.get("destination")
    if outcome.result["jump_proceeds"] is not True or destination is None:
        return
    ship = ctx.objects["ship"]
    for vessel in [ship, *ship.docked.select_for_update()]:
        recorder.set(vessel, "star_system", destination)
        recorder.set(vessel, "position", "arrival point")
        recorder.set(vessel, "x_au", None)
        recorder.set(vessel, "y_au", None)


BINDINGS.add(
    Binding(
        "jump.malfunction",
        roles=(Role("ship", Ship, "Jumping ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        extras=(
            Extra("destination", StarSystem, "Destination", "Where the ship arrives if the jump goes ahead."),
        ),
        label="Jump",
        prefill=_jump_prefill,
        after=_jump_after,
    )
)


def _charge_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    return {"system": "lf_battery" if ship.lf_battery and ship.drive_charged else "kf_drive"}


BINDINGS.add(
    Binding(
        "drive.charge",
        roles=(Role("ship", Ship, "Charging ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        label="Charge drive",
        prefill=_charge_prefill,
    )
)


def _ship_integrity(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    return {"kf_integrity": ship.kf_integrity} if ship else {}


for procedure_id, label in (
    ("jump.nonstandard_plot", "Non-standard jump plot"),
    ("jump.field_interference", "Objects in the K-F field"),
):
    BINDINGS.add(
        Binding(
            procedure_id,
            roles=(Role("ship", Ship, "Jumping ship", targets=("ship",), kinds=JUMP_CAPABLE),),
            label=label,
        )
    )

BINDINGS.add(
    Binding(
        "jump.nonstandard_arrival",
        roles=(Role("ship", Ship, "Arriving ship", targets=("ship",), kinds=JUMP_CAPABLE),),
        label="Non-standard arrival",
        prefill=_ship_integrity,
    )
)


FAMILY = Family(
    name="jump",
    title="Jump drives",
    procedure_titles={"jump": "Jump drives", "drive": "Drive charging"},
    bindings=tuple(BINDINGS),
)
