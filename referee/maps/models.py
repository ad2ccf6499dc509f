"""What the maps keep beyond the records they draw: the pirate points a GM marks in a system."""

from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from referee.fleet.models import MAP_LIMIT_AU, CampaignObject, Ship, StarSystem


class PiratePoint(CampaignObject):
    """A non-standard jump point the GM knows of (a Lagrange point, a pirate point): drawn on
    the system map, a place a move can name. GM-only until shared."""

    star_system = models.ForeignKey(StarSystem, on_delete=models.CASCADE, related_name="pirate_points")
    x_au = models.FloatField("x (AU)")
    y_au = models.FloatField("y (AU)")
    shared = models.BooleanField("shared with players", default=False)
    notes = models.TextField(blank=True)

    class Meta(CampaignObject.Meta):
        verbose_name = "pirate point"
        constraints = [
            models.UniqueConstraint(fields=["star_system", "name"], name="pirate_point_name_unique"),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{axis}__gte": -MAP_LIMIT_AU, f"{axis}__lte": MAP_LIMIT_AU}),
                    name=f"pirate_point_{axis}_on_the_map",
                )
                for axis in ("x_au", "y_au")
            ],
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        for axis in ("x_au", "y_au"):
            value = getattr(self, axis)
            if value is not None and not (math.isfinite(value) and abs(value) <= MAP_LIMIT_AU):
                errors[axis] = f"Give a position within {MAP_LIMIT_AU:,} AU of the star."
        if self.star_system_id and self.star_system.campaign_id != self.campaign_id:
            errors["star_system"] = "That star system belongs to another campaign."
        if errors:
            raise ValidationError(errors)


# The turn-log procedures that save a route plan and drop it.
PLAN_SAVE, PLAN_DROP = "map.plan", "map.plan_drop"


class PlanStatus(models.TextChoices):
    VOID = "void", "not saved"  # made by a save that was undone (or not yet logged)
    PLANNED = "planned", "planned"
    DROPPED = "dropped", "dropped"


class RoutePlan(CampaignObject):
    """A route of jumps the GM worked out on the star map and kept, to come back to: the
    ship, the system it left from and the systems in order, how each charge is made, and
    the arrival it gave when it was saved. GM-only. Its ``status`` changes only through the
    log, so undoing the entry that saved or dropped it takes that back. Making the first
    jump is still the Jump.

    Systems are kept by code, never by name: a system renamed since reads by its new name.
    How far along the route the ship is is read from its jumps in the log, not kept here."""

    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="route_plans")
    origin = models.UUIDField(
        "from", null=True, blank=True, help_text="The system the ship left from, by code (empty: not known)."
    )
    route = models.CharField(max_length=20 * 37, help_text="The systems in order, by code.")
    method = models.CharField("charge", max_length=10, default="reactor")
    hours = models.FloatField("hours each charge", null=True, blank=True)
    arrives_at = models.DateTimeField("arrives", help_text="In-game arrival the route gave when saved.")
    status = models.CharField(max_length=10, choices=PlanStatus.choices, default=PlanStatus.VOID)

    class Meta(CampaignObject.Meta):
        verbose_name = "route plan"
        ordering = ["arrives_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in PlanStatus]), name="route_plan_status_valid"
            ),
            models.CheckConstraint(condition=~Q(route=""), name="route_plan_has_a_route"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def stop_codes(self) -> list[str]:
        """The systems jumped to, in order, by code."""
        return [code for code in self.route.split(",") if code]
