"""How long things take, worked out as a GM does by hand (no database, no dice)."""

from __future__ import annotations

import math
from datetime import timedelta

AU_M = 149_597_870_700
STANDARD_G = 9.80665  # m/s² in one G
MAX_G = 20.0  # far beyond what any crew survives for long; the form's bound


class TravelError(ValueError):
    """A figure no transit can be worked out from; the message is for the GM."""


def transit_time(distance_au: float, thrust_g: float) -> timedelta:
    """Constant thrust with turnover at the midpoint: accelerate half the way, turn over,
    decelerate the rest, arriving at rest. t = 2 √(d / a)."""
    if not (isinstance(distance_au, (int, float)) and math.isfinite(distance_au)) or distance_au < 0:
        raise TravelError("The distance must be a finite number of AU, 0 or more.")
    if not (isinstance(thrust_g, (int, float)) and math.isfinite(thrust_g)) or not 0 < thrust_g <= MAX_G:
        raise TravelError(f"Give the thrust in G, above 0 and at most {MAX_G:g}.")
    seconds = 2 * math.sqrt(distance_au * AU_M / (thrust_g * STANDARD_G))
    return timedelta(seconds=round(seconds))


def plain_duration(span: timedelta) -> str:
    """``3 days 4 h 20 min``: a GM's words for a span of time, to the minute."""
    minutes = round(span.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days} day{'s' if days != 1 else ''}"] if days else []
    parts += [f"{hours} h"] if hours else []
    parts += [f"{mins} min"] if mins or not parts else []
    return " ".join(parts)


def burn_days(span: timedelta, thrust_g: float) -> float:
    """A normal burn-day is a day at 1 G (station-keeping at 0.1 G uses a tenth of one)."""
    return span.total_seconds() / 86400 * thrust_g
