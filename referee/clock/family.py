"""The campaign clock as a family: what takes time starts as a logged entry with its due
time, and is completed, in due order, when the clock passes it."""

from __future__ import annotations

from referee.play.families import Family, Panel, Timer

from . import services
from .selectors import PANEL, PLAYER_PANEL, agenda_context, agenda_records, player_context

FAMILY = Family(
    name="clock",
    title="Campaign clock",
    group="space",
    panels=(Panel("agenda", PANEL, agenda_context, order=1, records=agenda_records),),
    player_panels=(Panel("under_way", PLAYER_PANEL, player_context, order=5),),
    timers=(
        Timer("drive.charge", services.charge_started),
        Timer("jump.nonstandard_plot", services.plot_started),
    ),
    on_clock=(services.due_events_complete, services.station_keeping_burn),
)
