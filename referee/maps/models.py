"""What the maps keep beyond the records they draw: the pirate points a GM marks in a system."""

from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from referee.fleet.models import MAP_LIMIT_AU, CampaignObject, StarSystem


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
