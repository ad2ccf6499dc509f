"""Shipboard combat: compartments aboard ships, their surfaces, pressure and fuel lines.

A :class:`Compartment` holds what the rules change about a space aboard a ship
(pressure, a hull breach still open, leaking fuel, what critical hits knocked out).
Its :class:`Surface` rows are the bulkheads, doors and objects a shot can hit, each
with the Damage Capacities and Thresholds Table's values; capacity damage is stored,
so it adds up across shots and turns [A25].
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from referee.fleet.models import CampaignObject, CampaignObjectQuerySet, Ship
from rules.tables import shipboard as tables

STANDARD_PRESSURE_PA = tables.STANDARD_PRESSURE_PA

# The critical-hit results that put one of a compartment's systems out of use, and
# the field that remembers it (the engine's ``<system>_disabled`` effects).
DISABLED_FIELDS = tuple(f"{system}_disabled" for system in tables.DISABLING_CRITICALS)


class SurfaceType(models.TextChoices):
    MINOR_BULKHEAD = "minor_bulkhead", tables.DAMAGE_CAPACITIES["minor_bulkhead"].label
    MAJOR_BULKHEAD = "major_bulkhead", tables.DAMAGE_CAPACITIES["major_bulkhead"].label
    EXTERNAL_BULKHEAD = "external_bulkhead", tables.DAMAGE_CAPACITIES["external_bulkhead"].label
    OBSERVATION_PORT = "observation_port", tables.DAMAGE_CAPACITIES["observation_port"].label
    DOOR = "door", tables.DAMAGE_CAPACITIES["door"].label
    PRESSURE_DOOR = "pressure_door", tables.DAMAGE_CAPACITIES["pressure_door"].label
    COMPUTER_CONSOLE = "computer_console", tables.DAMAGE_CAPACITIES["computer_console"].label
    CUSTOM = "custom", "Other object or surface (GM values)"


class SurfaceKind(models.TextChoices):
    BULKHEAD = "bulkhead", "Bulkhead (a pierce goes through; no ricochet)"
    OBJECT = "object", "Object (excess can ricochet)"


class CompartmentQuerySet(CampaignObjectQuerySet):
    def in_campaign(self, campaign):
        return super().in_campaign(campaign).select_related("ship")


class Compartment(CampaignObject):
    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="compartments")
    pressure_pa = models.PositiveIntegerField(
        "pressure (Pa)", default=STANDARD_PRESSURE_PA, help_text="Standard is 100,000 Pa."
    )
    breach_points = models.PositiveSmallIntegerField(
        "open breach (points)",
        default=0,
        help_text="Penetrating points of a pierced pressure boundary not yet sealed: the compartment "
        "loses 10,000 Pa per point each round (the End Phase runs one round per turn). Zero means sealed.",
    )
    bulkheads_closed = models.BooleanField(
        default=False, help_text="The compartment's bulkheads close on their own at 50,000 Pa or less."
    )
    fuel_line_crits = models.PositiveSmallIntegerField(
        "fuel-line critical hits",
        default=0,
        help_text="Each unrepaired fuel line leaks 1 point per turn (set 0 when repaired).",
    )
    fuel_leak_points = models.PositiveIntegerField("leaked fuel (points)", default=0)
    visibility_mod = models.PositiveSmallIntegerField(
        "visibility modifier", default=0, help_text="+1 for each hydraulics or fuel line spraying."
    )
    lights_damaged = models.BooleanField(default=False, help_text="Partial darkness.")
    power_line_disabled = models.BooleanField("power line dead", default=False)
    comm_panel_disabled = models.BooleanField("comm panel unusable", default=False)
    emergency_equipment_disabled = models.BooleanField("emergency locker unusable", default=False)
    cable_mechanism_disabled = models.BooleanField("cable hand-line unusable", default=False)
    communications_lines_disabled = models.BooleanField("communications lines failed", default=False)
    notes = models.TextField(blank=True)

    objects = CompartmentQuerySet.as_manager()

    class Meta(CampaignObject.Meta):
        ordering = ["ship__name", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["ship", "name"], name="compartment_name_unique_per_ship"),
            models.CheckConstraint(condition=Q(pressure_pa__gte=0), name="compartment_pressure_not_negative"),
            models.CheckConstraint(
                condition=Q(pressure_pa__lte=10 * STANDARD_PRESSURE_PA), name="compartment_pressure_sane"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ship.name} · {self.name}"

    @classmethod
    def player_visible(cls) -> Q:
        return Q(ship__shared=True)

    @property
    def pressure_pct(self) -> float:
        return min(100.0, 100 * self.pressure_pa / STANDARD_PRESSURE_PA)

    @property
    def disabled_systems(self) -> list[str]:
        return [str(self._meta.get_field(f).verbose_name) for f in DISABLED_FIELDS if getattr(self, f)]

    def clean(self) -> None:
        errors = {}
        if self.ship_id and self.ship.campaign_id != self.campaign_id:
            errors["ship"] = "That ship belongs to another campaign."
        if self.pressure_pa > 10 * STANDARD_PRESSURE_PA:
            errors["pressure_pa"] = "Pressure runs from 0 to 1,000,000 Pa (standard is 100,000)."
        if (
            self.ship_id
            and self.name
            and Compartment.objects.filter(ship_id=self.ship_id, name__iexact=self.name)
            .exclude(pk=self.pk)
            .exists()
        ):
            errors["name"] = f"{self.ship.name} already has a compartment of that name."
        if errors:
            raise ValidationError(errors)


class SurfaceQuerySet(CampaignObjectQuerySet):
    def in_campaign(self, campaign):
        return super().in_campaign(campaign).select_related("compartment__ship")


class Surface(CampaignObject):
    """A bulkhead section, door or object of a compartment that shots can hit."""

    compartment = models.ForeignKey(Compartment, on_delete=models.CASCADE, related_name="surfaces")
    surface_type = models.CharField("type", max_length=20, choices=SurfaceType.choices)
    surface_kind = models.CharField(
        "kind",
        max_length=10,
        choices=SurfaceKind.choices,
        default=SurfaceKind.OBJECT,
        help_text="Set by the table; the GM chooses for other objects.",
    )
    capacity = models.PositiveIntegerField(
        "damage capacity", help_text="Undamaged; bulkheads per section (the table's value)."
    )
    capacity_left = models.IntegerField(
        "capacity left", help_text="Not clamped at 0: a destroyed surface may show how far below it went."
    )
    threshold = models.PositiveIntegerField()
    armor_rating = models.FloatField(
        "armour rating", default=tables.DEFAULT_ARMOR_RATING, help_text="Multiplier; ½ halves the damage."
    )
    pressure_boundary = models.BooleanField(
        default=False,
        help_text="An external bulkhead, or a wall between areas at different pressures: a pierce "
        "decompresses.",
    )
    destroyed = models.BooleanField(default=False, editable=False)

    objects = SurfaceQuerySet.as_manager()

    class Meta(CampaignObject.Meta):
        ordering = ["compartment__ship__name", "compartment__name", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["compartment", "name"], name="surface_name_unique_per_compartment"
            ),
            models.CheckConstraint(
                condition=Q(surface_type__in=[t.value for t in SurfaceType]), name="surface_type_valid"
            ),
            models.CheckConstraint(
                condition=Q(surface_kind__in=[k.value for k in SurfaceKind]), name="surface_kind_valid"
            ),
            models.CheckConstraint(condition=Q(capacity__gte=1), name="surface_capacity_positive"),
            models.CheckConstraint(
                condition=Q(capacity_left__lte=F("capacity")), name="surface_capacity_left_within_capacity"
            ),
            models.CheckConstraint(
                condition=Q(armor_rating__gte=0), name="surface_armor_rating_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(destroyed=True, capacity_left__lte=0) | Q(destroyed=False, capacity_left__gt=0),
                name="surface_destroyed_iff_no_capacity_left",
            ),
            models.CheckConstraint(
                condition=~Q(surface_type="external_bulkhead") | Q(pressure_boundary=True),
                name="surface_external_bulkhead_is_a_pressure_boundary",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.compartment} · {self.name}"

    @classmethod
    def player_visible(cls) -> Q:
        return Q(compartment__ship__shared=True)

    @property
    def row(self) -> tables.SurfaceRow | None:
        return tables.DAMAGE_CAPACITIES.get(self.surface_type)

    @property
    def column(self) -> str | None:
        """Its column of the critical-hit table (internal bulkheads only)."""
        return tables.CRITICAL_COLUMN.get(self.surface_type)

    @property
    def capacity_pct(self) -> float:
        return max(0.0, min(100.0, 100 * self.capacity_left / self.capacity)) if self.capacity else 0.0

    def apply_table(self) -> None:
        """Fill what the table fixes for its type: kind, and an external bulkhead's boundary."""
        row = self.row
        if row is not None:
            self.surface_kind = row.kind
            self.pressure_boundary = self.pressure_boundary or row.pressure_boundary

    def clean(self) -> None:
        errors = {}
        if self.compartment_id and self.compartment.campaign_id != self.campaign_id:
            errors["compartment"] = "That compartment belongs to another campaign."
        if self.capacity is not None and self.capacity < 1:
            errors["capacity"] = "A surface has a damage capacity of at least 1."
        if (
            self.capacity is not None
            and self.capacity_left is not None
            and self.capacity_left > self.capacity
        ):
            errors["capacity_left"] = f"Cannot be more than the damage capacity ({self.capacity})."
        if self.armor_rating is not None and self.armor_rating < 0:
            errors["armor_rating"] = "The armour rating is a multiplier of 0 or more (½ halves)."
        if (
            self.compartment_id
            and self.name
            and Surface.objects.filter(compartment_id=self.compartment_id, name__iexact=self.name)
            .exclude(pk=self.pk)
            .exists()
        ):
            errors["name"] = "This compartment already has a surface of that name."
        if self.surface_type == SurfaceType.EXTERNAL_BULKHEAD and not self.pressure_boundary:
            errors["pressure_boundary"] = "An external bulkhead is always a pressure boundary."
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        # Destroyed exactly when no capacity is left; kept with capacity_left in one write.
        self.destroyed = self.capacity_left is not None and self.capacity_left <= 0
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "capacity_left" in update_fields:
            kwargs["update_fields"] = {*update_fields, "destroyed"}
        super().save(*args, **kwargs)
