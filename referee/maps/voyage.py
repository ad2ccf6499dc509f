"""The voyage on the star map: where systems lie in light-years, the jumps a ship has made,
and a route of jumps planned ahead with the drive's charge time between them.

The planner is plain arithmetic (no database, no dice): a jump carries a ship at most
30 light-years (the K-F drive's reach), and every jump but a first one made on a drive
already charged waits for a charge. The arrival is the start plus every charge's time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .geometry import distance

JUMP_LIMIT_LY = 30.0
MAX_JUMPS = 20  # a route of more jumps than this is a campaign's worth: plan it in parts


class RouteError(ValueError):
    """A route that cannot be flown; the message is for the GM."""


def plain_ly(value: float) -> str:
    """``12.35``: light-years to two places, trailing zeros dropped."""
    text = f"{value:,.2f}".rstrip("0").rstrip(".")
    return text or "0"


@dataclass(frozen=True, slots=True)
class Stop:
    code: str
    name: str
    at: tuple[float, float] | None  # None: the system is not placed on the star map


@dataclass(frozen=True, slots=True)
class Leg:
    origin: Stop
    destination: Stop
    ly: float
    charge: timedelta  # the wait before this jump
    jumps_at: datetime


def plan(
    *,
    start: Stop,
    stops: list[Stop],
    now: datetime,
    charge: timedelta,
    ready_at: datetime | None,
    charges: dict[str, timedelta] | None = None,
) -> list[Leg]:
    """The jumps from ``start`` through ``stops`` in order. ``ready_at`` is when the drive
    is charged for the first jump (now or a charge under way), None when it must first be
    charged; every later jump waits ``charge``, or the charge in the system it leaves from
    ``charges`` (by the system's code: a jump sail charges in its star's hours). A jump longer than the drive's reach, or
    to or from a system not on the map, is refused in words."""
    if not stops:
        raise RouteError("Choose at least one system to jump to.")
    if len(stops) > MAX_JUMPS:
        raise RouteError(f"Plan at most {MAX_JUMPS} jumps at a time.")
    if charge < timedelta(0) or any(c < timedelta(0) for c in (charges or {}).values()):
        raise RouteError("A charge takes 0 hours or more.")
    legs: list[Leg] = []
    here, clock = start, now
    for number, stop in enumerate(stops, 1):
        if here.at is None:
            raise RouteError(f"{here.name} is not placed on the star map: give its coordinates first.")
        if stop.at is None:
            raise RouteError(f"{stop.name} is not placed on the star map: give its coordinates first.")
        if stop.code == here.code:
            raise RouteError(f"Jump {number} goes from {here.name} to {here.name}: choose another system.")
        ly = distance(here.at, stop.at)
        if ly > JUMP_LIMIT_LY:
            raise RouteError(
                f"Jump {number}, {here.name} to {stop.name}, is {plain_ly(ly)} light-years: a K-F drive "
                f"jumps at most {JUMP_LIMIT_LY:g}. Add a system between them."
            )
        first_ready = number == 1 and ready_at is not None
        wait = max(ready_at - clock, timedelta(0)) if first_ready else (charges or {}).get(here.code, charge)
        clock = clock + wait
        legs.append(Leg(here, stop, ly, wait, clock))
        here = stop
    return legs


def arrival(legs: list[Leg]) -> datetime:
    return legs[-1].jumps_at
