"""Cargo, supplies, low-tech 'Mechs and special vehicles kept for the campaign.

The fleet's Ship and Unit stay as they are; what the supply and conversion rules need
beyond them lives here, one record per ship (its stores) and per unit (its refit)."""

from __future__ import annotations

import math
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from referee.fleet.models import CampaignObject, Character, Ship, Unit, UnitKind
from rules.tables import vehicle as vehicle_tables

MAX_LOCATIONS_BLOWN_OFF = 5  # the head and four limbs


def _at_least_zero(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__gte": 0}), name=name)


def _null_or_at_least_zero(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0}), name=name
    )


class FoodMode(models.TextChoices):
    SOURCEBOOK = "sourcebook", "Sourcebook (nearest ¼ t a day)"
    EXACT = "exact", "Exact (1 t feeds 200 people a day)"


class FuelLeft(NamedTuple):
    """A ship's fuel after a burn: what the cargo cells and the tanks still hold, and how
    much of the burn the tanks could not give."""

    cargo_fuel_t: float
    fuel_t: float
    short_t: float


class ShipStores(CampaignObject):
    """What a ship carries to live on: food, spare parts, fuel (tanks and cargo cells)."""

    ship = models.OneToOneField(Ship, on_delete=models.CASCADE, related_name="stores")
    food_t = models.FloatField("food (t)", default=0)
    food_mode = models.CharField(
        "food rationing", max_length=12, choices=FoodMode.choices, default=FoodMode.SOURCEBOOK
    )
    auto_food = models.BooleanField(
        "eat at the End Phase",
        default=True,
        help_text="Every End Phase, whole days elapsed since food was last counted are eaten.",
    )
    food_accounted_to = models.DateTimeField(
        "food counted up to",
        null=True,
        blank=True,
        help_text="In-game time up to which meals are already taken from the stock (leave empty for now).",
    )
    spare_parts_t = models.FloatField("spare parts (t)", default=0)
    spare_parts_need_t = models.FloatField(
        "spare parts needed (t)", null=True, blank=True, help_text="1% of the ship's mass."
    )
    spare_parts_long_trip_t = models.FloatField(
        "spare parts for long trips (t)", null=True, blank=True, help_text="Up to 5% of the ship's mass."
    )
    extra_ammo_t = models.FloatField("extra ammunition (t)", default=0, help_text="The GM's call.")
    fuel_t = models.FloatField("fuel in the tanks (t)", default=0)
    burn_day_fuel_t = models.FloatField(
        "fuel of one burn-day (t)", null=True, blank=True, help_text="Station-keeping burns 10% of it a day."
    )
    fuel_cell_bay_t = models.FloatField(
        "cargo space lined as fuel cells (t)", default=0, help_text="Each ton holds 0.9 t of fuel."
    )
    cargo_fuel_capacity_t = models.FloatField("cargo fuel cell capacity (t)", default=0)
    cargo_fuel_t = models.FloatField(
        "fuel in cargo cells (t)", default=0, help_text="Burnt first, which frees the bay again."
    )
    auto_fuel = models.BooleanField(
        "burn station-keeping fuel as the clock moves",
        default=True,
        help_text="Every whole day the clock passes burns a tenth of a burn-day of fuel; days in "
        "transit are counted on arrival as burn-days instead.",
    )
    fuel_accounted_to = models.DateTimeField(
        "fuel counted up to",
        null=True,
        blank=True,
        help_text="In-game time up to which station-keeping fuel is already taken from the stock "
        "(leave empty for now).",
    )

    class Meta(CampaignObject.Meta):
        verbose_name = "ship's stores"
        verbose_name_plural = "ships' stores"
        constraints = [
            _at_least_zero("food_t", "stores_food_not_negative"),
            _at_least_zero("spare_parts_t", "stores_spare_parts_not_negative"),
            _at_least_zero("extra_ammo_t", "stores_extra_ammo_not_negative"),
            _at_least_zero("fuel_t", "stores_fuel_not_negative"),
            _at_least_zero("fuel_cell_bay_t", "stores_fuel_cell_bay_not_negative"),
            _at_least_zero("cargo_fuel_capacity_t", "stores_cargo_fuel_capacity_not_negative"),
            _null_or_at_least_zero("burn_day_fuel_t", "stores_burn_day_fuel_not_negative"),
            _null_or_at_least_zero("spare_parts_need_t", "stores_spare_parts_need_not_negative"),
            _null_or_at_least_zero("spare_parts_long_trip_t", "stores_spare_parts_long_trip_not_negative"),
            models.CheckConstraint(
                condition=Q(cargo_fuel_t__gte=0, cargo_fuel_t__lte=F("cargo_fuel_capacity_t")),
                name="stores_cargo_fuel_within_capacity",
            ),
            models.CheckConstraint(
                condition=Q(food_mode__in=[m.value for m in FoodMode]), name="stores_food_mode_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ship.name}'s stores"  # follows a renamed ship, in forms and the log

    @classmethod
    def player_visible(cls) -> Q:
        return Q(ship__shared=True)

    @property
    def people(self) -> int:
        return self.ship.crew + self.ship.passengers

    def fuel_left_after(self, burn_t: float) -> FuelLeft:
        """The fuel left after burning ``burn_t`` tons: the cargo cells are burnt first, which
        frees the bay, then the tanks. Unrounded: each caller keeps tons to its own precision."""
        from_cells = min(self.cargo_fuel_t, burn_t)
        from_tanks = burn_t - from_cells
        return FuelLeft(
            cargo_fuel_t=self.cargo_fuel_t - from_cells,
            fuel_t=max(0.0, self.fuel_t - from_tanks),
            short_t=max(0.0, from_tanks - self.fuel_t),
        )

    def clean(self) -> None:
        errors: dict[str, str] = {}
        labels = {
            "food_t": "Food",
            "spare_parts_t": "Spare parts",
            "extra_ammo_t": "Extra ammunition",
            "fuel_t": "Fuel",
            "fuel_cell_bay_t": "Cargo space lined as fuel cells",
            "cargo_fuel_capacity_t": "Cargo fuel cell capacity",
            "cargo_fuel_t": "Fuel in cargo cells",
            "burn_day_fuel_t": "Fuel of one burn-day",
        }
        for field, label in labels.items():
            value = getattr(self, field)
            if value is not None and value < 0:
                errors[field] = f"{label} cannot be negative."
        if (self.cargo_fuel_t or 0) > (self.cargo_fuel_capacity_t or 0):
            errors["cargo_fuel_t"] = (
                f"The cargo fuel cells hold at most {self.cargo_fuel_capacity_t:g} t; "
                "burn or move the rest of the fuel first."
            )
        if self.ship_id and self.ship.campaign_id != self.campaign_id:
            errors["ship"] = "That ship belongs to another campaign."
        if errors:
            raise ValidationError(errors)


class TechBase(models.TextChoices):
    INNER_SPHERE = "inner_sphere", "Inner Sphere"
    CLAN = "clan", "Clan"


class Motive(models.TextChoices):
    TRACKED = "tracked", "Tracked"
    WHEELED = "wheeled", "Wheeled"
    HOVER = "hover", "Hover"
    VTOL = "vtol", "VTOL"
    NAVAL = "naval", "Naval"


class UnitRefit(CampaignObject):
    """A unit's low-tech build and special-vehicle conversions, and what they have cost it."""

    unit = models.OneToOneField(Unit, on_delete=models.CASCADE, related_name="refit")

    # Low-tech 'Mechs
    utility = models.BooleanField("utility 'Mech", default=False)
    tech_base = models.CharField(max_length=12, choices=TechBase.choices, default=TechBase.INNER_SPHERE)
    fusion_engine_weight_t = models.FloatField(
        "fusion engine of the same rating (t)",
        null=True,
        blank=True,
        help_text="From the BTC:RoW engine table.",
    )
    energy_weapon_tons = models.FloatField("energy weapons (t)", default=0)
    cargo_bay_t = models.FloatField("cargo bays (t)", default=0, help_text="Utility 'Mechs only.")
    ice_weight_t = models.FloatField("ICE weight (t)", null=True, blank=True)
    power_amps_t = models.FloatField("power amplifiers (t)", null=True, blank=True)
    internal_structure_t = models.FloatField("internal structure (t)", null=True, blank=True)
    engine_hits_checked = models.PositiveSmallIntegerField("engine hits checked for explosion", default=0)
    destroyed = models.BooleanField(default=False)
    engine_exploded = models.BooleanField(default=False)
    critical_hits = models.PositiveSmallIntegerField("critical hits taken", default=0)
    locations_blown_off = models.PositiveSmallIntegerField(default=0)

    # Special vehicles
    motive = models.CharField(max_length=8, choices=Motive.choices, blank=True)
    motive_damaged = models.BooleanField("motive damage", default=False)
    cruise_mp = models.PositiveSmallIntegerField("cruising MP", null=True, blank=True)
    amphibious = models.BooleanField(default=False)
    amphibious_disabled = models.BooleanField(default=False)
    amphibious_equipment_t = models.FloatField("amphibious equipment (t)", null=True, blank=True)
    amphibious_cost_cbills = models.FloatField("amphibious equipment cost (C-bills)", null=True, blank=True)
    dune_buggy = models.BooleanField(default=False)
    dune_buggy_cost_cbills = models.FloatField("dune buggy parts cost (C-bills)", null=True, blank=True)
    dune_buggy_days = models.FloatField("dune buggy conversion (days)", null=True, blank=True)
    dune_buggy_work_hours = models.FloatField("dune buggy conversion (work-hours)", null=True, blank=True)
    dune_buggy_techs = models.PositiveSmallIntegerField("techs on the conversion", null=True, blank=True)
    conversion_ready_at = models.DateTimeField(
        "conversion finished at", null=True, blank=True, help_text="In-game time the workshop is done."
    )

    class Meta(CampaignObject.Meta):
        verbose_name = "unit refit"
        constraints = [
            _at_least_zero("energy_weapon_tons", "refit_energy_weapons_not_negative"),
            _at_least_zero("cargo_bay_t", "refit_cargo_bay_not_negative"),
            _null_or_at_least_zero("fusion_engine_weight_t", "refit_fusion_weight_not_negative"),
            models.CheckConstraint(
                condition=Q(cargo_bay_t=0) | Q(utility=True), name="refit_cargo_bays_only_on_utility"
            ),
            models.CheckConstraint(
                condition=Q(engine_hits_checked__gte=0, engine_hits_checked__lte=3),
                name="refit_engine_hits_checked_0_3",
            ),
            models.CheckConstraint(
                condition=Q(locations_blown_off__gte=0, locations_blown_off__lte=MAX_LOCATIONS_BLOWN_OFF),
                name="refit_locations_blown_off_0_5",
            ),
            models.CheckConstraint(
                condition=Q(engine_exploded=False) | Q(destroyed=True),
                name="refit_exploded_means_destroyed",
            ),
            models.CheckConstraint(
                condition=Q(amphibious_disabled=False) | Q(amphibious=True),
                name="refit_disabled_only_if_amphibious",
            ),
            models.CheckConstraint(
                condition=Q(motive="") | Q(motive__in=[m.value for m in Motive]), name="refit_motive_valid"
            ),
            models.CheckConstraint(
                condition=Q(tech_base__in=[t.value for t in TechBase]), name="refit_tech_base_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.unit.name} (refit)"  # follows a renamed unit, in forms and the log

    @classmethod
    def player_visible(cls) -> Q:
        return Q(unit__shared=True)

    @property
    def flank_mp(self) -> int | None:
        if self.cruise_mp is None:
            return None
        return math.ceil(self.cruise_mp * vehicle_tables.FLANK_FACTOR)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        for field, label in (
            ("energy_weapon_tons", "Energy weapon tonnage"),
            ("cargo_bay_t", "Cargo bay tonnage"),
            ("fusion_engine_weight_t", "The fusion engine weight"),
        ):
            value = getattr(self, field)
            if value is not None and value < 0:
                errors[field] = f"{label} cannot be negative."
        if self.cargo_bay_t and not self.utility:
            errors["cargo_bay_t"] = "Only utility 'Mechs mount cargo bays."
        if self.engine_hits_checked > 3:
            errors["engine_hits_checked"] = "A unit takes at most 3 engine hits."
        if self.locations_blown_off > MAX_LOCATIONS_BLOWN_OFF:
            errors["locations_blown_off"] = (
                f"A 'Mech has only {MAX_LOCATIONS_BLOWN_OFF} locations to lose (head and four limbs)."
            )
        if self.engine_exploded and not self.destroyed:
            errors["destroyed"] = "An exploded engine destroys the 'Mech: mark it destroyed."
        if self.amphibious_disabled and not self.amphibious:
            errors["amphibious_disabled"] = (
                "Only an amphibious vehicle can have its amphibious drive disabled."
            )
        if self.unit_id:
            unit = self.unit
            if unit.campaign_id != self.campaign_id:
                errors["unit"] = "That unit belongs to another campaign."
            elif unit.kind != UnitKind.VEHICLE and (self.amphibious or self.dune_buggy or self.motive):
                errors["unit"] = f"{unit.name} is not a vehicle: only vehicles take motive systems."
            elif unit.kind != UnitKind.BATTLEMECH and self.utility:
                errors["utility"] = f"{unit.name} is not a 'Mech, so it cannot be a utility 'Mech."
        if errors:
            raise ValidationError(errors)


class CharacterSheet(CampaignObject):
    """The printed template a character was made from: what the fleet's Character has no fields for
    (INT, LRN, CHA, characteristics, skills, equipment, Edge, assets)."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="sheet")
    template = models.CharField(max_length=40)
    sheet = models.JSONField(default=dict)

    class Meta(CampaignObject.Meta):
        constraints = [models.CheckConstraint(condition=~Q(template=""), name="sheet_names_its_template")]

    @classmethod
    def player_visible(cls) -> Q:
        return Q(character__ship__shared=True) | Q(character__unit__shared=True)

    def clean(self) -> None:
        if self.character_id and self.character.campaign_id != self.campaign_id:
            raise ValidationError({"character": "That character belongs to another campaign."})
