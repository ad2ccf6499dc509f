"""What takes campaign time: a drive charging, a jump being plotted, a ship in transit.

A timed event is started by a logged entry (the roll, or the GM's order of a transit) and
completed by another when the clock passes its due time. Its ``status`` is changed only
through the log's change recorder, so undoing the entry that started it voids it again,
and undoing the one that completed it makes it due again."""

from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from referee.fleet.models import MAP_LIMIT_AU, CampaignObject, Ship

# The longest one event may take: ten years, the most the clock moves in one step.
MAX_DURATION_H = 10 * 365 * 24


class EventKind(models.TextChoices):
    CHARGE = "charge", "Drive charge"
    PLOT = "plot", "Non-standard jump plot"
    TRANSIT = "transit", "Transit"


class EventStatus(models.TextChoices):
    VOID = "void", "not under way"  # made by a start that was undone (or not yet logged)
    WAITING = "waiting", "under way"
    DONE = "done", "done"


class TimedEvent(CampaignObject):
    kind = models.CharField(max_length=12, choices=EventKind.choices)
    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="timed_events")
    status = models.CharField(max_length=10, choices=EventStatus.choices, default=EventStatus.VOID)
    started_at = models.DateTimeField("started", help_text="In-game time the event began.")
    due_at = models.DateTimeField("due", help_text="In-game time it is done.")
    # The procedure that started it and the engine effects it keeps back until it is done.
    procedure = models.CharField(max_length=60, blank=True)
    held = models.JSONField("changes when done", default=list, blank=True)
    # A transit's destination on the ship's system map.
    to_x_au = models.FloatField("to x (AU)", null=True, blank=True)
    to_y_au = models.FloatField("to y (AU)", null=True, blank=True)
    to_position = models.CharField("to", max_length=120, blank=True)
    thrust_g = models.FloatField("thrust (G)", null=True, blank=True)

    class Meta(CampaignObject.Meta):
        verbose_name = "timed event"
        ordering = ["due_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(due_at__gte=models.F("started_at")), name="event_due_after_start"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in EventKind]), name="event_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in EventStatus]), name="event_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(thrust_g__isnull=True) | Q(thrust_g__gt=0, thrust_g__lte=20),
                name="event_thrust_bounded",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{axis}__isnull": True})
                    | Q(**{f"{axis}__gte": -MAP_LIMIT_AU, f"{axis}__lte": MAP_LIMIT_AU}),
                    name=f"event_{axis}_on_the_map",
                )
                for axis in ("to_x_au", "to_y_au")
            ],
        ]
        indexes = [models.Index(fields=["campaign", "status", "due_at"], name="event_due")]

    @classmethod
    def player_visible(cls) -> Q:
        return Q(ship__shared=True)  # a void event is read by nobody (the selectors leave it out)

    def clean(self) -> None:
        if self.started_at and self.due_at and self.due_at < self.started_at:
            raise ValidationError({"due_at": "An event cannot be done before it starts."})
        for axis in ("to_x_au", "to_y_au"):
            value = getattr(self, axis)
            if value is not None and not (math.isfinite(value) and abs(value) <= MAP_LIMIT_AU):
                raise ValidationError({axis: f"Give a position within {MAP_LIMIT_AU:,} AU of the star."})

    @property
    def doing(self) -> str:
        """What the ship is doing, as its status line says it ("charging", "in transit")."""
        return {
            EventKind.CHARGE: "charging",
            EventKind.PLOT: "plotting a jump",
            EventKind.TRANSIT: "in transit",
        }[self.kind]

    def status_line(self) -> str:
        where = f" to {self.to_position}" if self.kind == EventKind.TRANSIT and self.to_position else ""
        return f"{self.doing}{where}, done {self.due_at:%Y-%m-%d %H:%M}"
