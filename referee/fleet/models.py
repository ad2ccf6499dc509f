"""What a campaign keeps: star systems, ships, ground units and characters."""

from __future__ import annotations

import math
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from referee.campaigns.models import Campaign, CampaignScoped
from rules.tables import drive as drive_tables

FACINGS = ("nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft")
FACING_LABELS = {
    "nose": "Nose",
    "fore_left": "Fore-left",
    "fore_right": "Fore-right",
    "aft_left": "Aft-left",
    "aft_right": "Aft-right",
    "aft": "Aft",
}


class CampaignObjectQuerySet(models.QuerySet):
    """Reads shared by everything a campaign keeps."""

    def in_campaign(self, campaign: Campaign):
        return self.filter(campaign=campaign)

    def visible_to(self, role: str | None):
        """GMs see everything; players what is shared with them; anyone else nothing."""
        if role == "gm":
            return self
        if role == "player":
            return self.filter(self.model.player_visible())
        return self.none()


class CampaignObject(CampaignScoped):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=120)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CampaignObjectQuerySet.as_manager()

    class Meta(CampaignScoped.Meta):
        abstract = True
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def player_visible(cls) -> Q:
        """What players may read: what is shared with them; nothing, for a model that
        cannot be shared and says nothing else (override to open it up)."""
        if any(f.name == "shared" for f in cls._meta.fields):
            return Q(shared=True)
        return Q(pk__in=[])


def _between(field: str, low, high, name: str) -> models.CheckConstraint:
    """``low <= field <= high`` (high may be another field)."""
    return models.CheckConstraint(condition=Q(**{f"{field}__gte": low, f"{field}__lte": high}), name=name)


# The farthest a jump point or a map position may lie from its star: far beyond any jump
# point a star's class gives, near enough that every distance stays a finite, plain figure.
MAP_LIMIT_AU = 10_000
# The farthest a star system may lie from the star map's origin, in light-years: the Inner
# Sphere and the Periphery and far beyond, every figure finite and plain.
STAR_MAP_LIMIT_LY = 5_000
SAIL_HOURS_MIN = drive_tables.SAIL_HOURS_MIN
SAIL_HOURS_MAX = 2_000  # far beyond the slowest star: a figure no table gives


class StarSystem(CampaignObject):
    spectral_class = models.CharField(max_length=16, blank=True, help_text="e.g. G2V")
    # The seed names its Jump Point Distance table but does not print it: the GM's figure.
    jump_point_au = models.FloatField(
        "jump point distance (AU)",
        null=True,
        blank=True,
        help_text="How far the zenith and nadir jump points lie from the star, from the "
        "sourcebook's Jump Point Distance table for its spectral class.",
    )
    # The seed's table of sail-charging time by star class is not transcribed: the GM's figure.
    sail_charge_hours = models.FloatField(
        "jump-sail charging time (h)",
        null=True,
        blank=True,
        help_text=f"How long a jump sail takes to charge a drive at this star: {SAIL_HOURS_MIN} to more "
        "than 200 hours by its class, from the sourcebook's table. Leave empty if not known.",
    )
    notes = models.TextField(blank=True)
    # Where it lies on the interstellar map (None: not placed yet), and what players know.
    x_ly = models.FloatField("x (light-years)", null=True, blank=True)
    y_ly = models.FloatField("y (light-years)", null=True, blank=True)
    explored = models.BooleanField(
        default=True, help_text="Unexplored: drawn hollow, its name with a question mark."
    )
    shared = models.BooleanField(
        default=True, help_text="Players see the system, on the star map and elsewhere."
    )

    class Meta(CampaignObject.Meta):
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="star_system_name_unique"),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{axis}__isnull": True})
                    | Q(**{f"{axis}__gte": -STAR_MAP_LIMIT_LY, f"{axis}__lte": STAR_MAP_LIMIT_LY}),
                    name=f"star_system_{axis}_on_the_map",
                )
                for axis in ("x_ly", "y_ly")
            ],
            models.CheckConstraint(
                condition=Q(jump_point_au__isnull=True)
                | Q(jump_point_au__gt=0, jump_point_au__lte=MAP_LIMIT_AU),
                name="star_system_jump_point_bounded",
            ),
            models.CheckConstraint(
                condition=Q(sail_charge_hours__isnull=True)
                | Q(sail_charge_hours__gte=SAIL_HOURS_MIN, sail_charge_hours__lte=SAIL_HOURS_MAX),
                name="star_system_sail_hours_bounded",
            ),
        ]

    def jump_points(self) -> dict[str, tuple[float, float]]:
        """The zenith and nadir jump points on the map: straight above and below the star
        (the map is a side view, zenith up), where the GM gave their distance."""
        if self.jump_point_au is None:
            return {}
        return {"zenith": (0.0, self.jump_point_au), "nadir": (0.0, -self.jump_point_au)}

    def clean(self) -> None:
        value = self.jump_point_au
        if value is not None and not (math.isfinite(value) and 0 < value <= MAP_LIMIT_AU):
            raise ValidationError(
                {"jump_point_au": f"Give a distance above 0 and at most {MAP_LIMIT_AU:,} AU."}
            )
        hours = self.sail_charge_hours
        if hours is not None and not (math.isfinite(hours) and SAIL_HOURS_MIN <= hours <= SAIL_HOURS_MAX):
            raise ValidationError(
                {"sail_charge_hours": f"Give the sail's hours from {SAIL_HOURS_MIN} to {SAIL_HOURS_MAX:,}."}
            )
        for axis in ("x_ly", "y_ly"):
            value = getattr(self, axis)
            if value is not None and not (math.isfinite(value) and abs(value) <= STAR_MAP_LIMIT_LY):
                raise ValidationError(
                    {axis: f"Give a figure from -{STAR_MAP_LIMIT_LY:,} to {STAR_MAP_LIMIT_LY:,} light-years."}
                )

    @classmethod
    def player_visible(cls) -> Q:
        return Q(shared=True)


class ShipKind(models.TextChoices):
    WARSHIP = "warship", "WarShip"
    JUMPSHIP = "jumpship", "JumpShip"
    DROPSHIP = "dropship", "DropShip"
    SMALL_CRAFT = "small_craft", "Small craft"
    FIGHTER_SQUADRON = "fighter_squadron", "Fighter squadron"
    STATION = "station", "Station"


class Ship(CampaignObject):
    class_name = models.CharField("class", max_length=80, blank=True)
    kind = models.CharField(max_length=20, choices=ShipKind.choices)
    military = models.BooleanField(default=False)
    mass_t = models.PositiveIntegerField("mass (t)", default=0)
    crew = models.PositiveIntegerField(default=0)
    passengers = models.PositiveIntegerField(default=0)

    # Kearny-Fuchsida drive
    kf_integrity = models.PositiveSmallIntegerField("K-F integrity", default=0)
    kf_integrity_max = models.PositiveSmallIntegerField("K-F integrity (undamaged)", default=0)
    drive_charged = models.BooleanField(default=False)
    charged_from_reactor = models.BooleanField(default=False)
    lf_battery = models.BooleanField("lithium-fusion battery fitted", default=False)
    lf_battery_charged = models.BooleanField("lithium-fusion battery charged", default=False)
    helium_tank_boxes = models.PositiveSmallIntegerField(default=0)
    helium_tank_boxes_max = models.PositiveSmallIntegerField(default=0)
    last_jump_at = models.DateTimeField(null=True, blank=True, help_text="In-game time of the last jump.")

    # Docking
    dropship_capacity = models.PositiveSmallIntegerField("DropShip capacity", default=0)
    docked_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="docked"
    )

    # Armour per facing: current and undamaged
    armor_nose = models.PositiveIntegerField(default=0)
    armor_nose_max = models.PositiveIntegerField(default=0)
    armor_fore_left = models.PositiveIntegerField(default=0)
    armor_fore_left_max = models.PositiveIntegerField(default=0)
    armor_fore_right = models.PositiveIntegerField(default=0)
    armor_fore_right_max = models.PositiveIntegerField(default=0)
    armor_aft_left = models.PositiveIntegerField(default=0)
    armor_aft_left_max = models.PositiveIntegerField(default=0)
    armor_aft_right = models.PositiveIntegerField(default=0)
    armor_aft_right_max = models.PositiveIntegerField(default=0)
    armor_aft = models.PositiveIntegerField(default=0)
    armor_aft_max = models.PositiveIntegerField(default=0)

    radar_crit_boxes = models.PositiveSmallIntegerField("radar critical boxes", default=0)
    heat_sinks = models.PositiveIntegerField(default=0)

    # Fighter squadrons
    fighters = models.PositiveSmallIntegerField("fighters in the squadron", default=0)
    heat = models.PositiveIntegerField(default=0, help_text="Heat generated this turn (fighters).")
    overburn = models.PositiveSmallIntegerField(default=0)
    shutdown = models.BooleanField(default=False)

    velocity = models.IntegerField(default=0)
    heading = models.CharField(max_length=12, choices=[(f, FACING_LABELS[f]) for f in FACINGS], blank=True)
    fuel_points = models.PositiveIntegerField(default=0)

    star_system = models.ForeignKey(
        StarSystem, null=True, blank=True, on_delete=models.SET_NULL, related_name="ships"
    )
    position = models.CharField(max_length=120, blank=True, help_text="e.g. zenith jump point, hex 0412")
    x_au = models.FloatField(
        "x (AU)", null=True, blank=True, help_text="In-system position; pre-fills sensor distances."
    )
    y_au = models.FloatField("y (AU)", null=True, blank=True)

    shared = models.BooleanField("shared with players", default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="ships"
    )
    sheet = models.JSONField(
        "record sheet", default=dict, blank=True, help_text="The ship's record sheet; empty until it has one."
    )

    @classmethod
    def owned_by(cls, user) -> Q:
        """The records ``user`` plays: they may start the procedures these are the subject of."""
        return Q(owner=user)

    class Meta(CampaignObject.Meta):
        constraints = [
            _between("kf_integrity", 0, F("kf_integrity_max"), "ship_kf_integrity_within_max"),
            _between("helium_tank_boxes", 0, F("helium_tank_boxes_max"), "ship_helium_within_max"),
            _between("overburn", 0, 15, "ship_overburn_0_15"),
            *[_between(f"armor_{f}", 0, F(f"armor_{f}_max"), f"ship_armor_{f}_within_max") for f in FACINGS],
            models.CheckConstraint(
                condition=Q(docked_on__isnull=True) | ~Q(docked_on=F("id")), name="ship_not_docked_on_itself"
            ),
            models.CheckConstraint(condition=Q(kind__in=[k.value for k in ShipKind]), name="ship_kind_valid"),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{axis}__isnull": True})
                    | Q(**{f"{axis}__gte": -MAP_LIMIT_AU, f"{axis}__lte": MAP_LIMIT_AU}),
                    name=f"ship_{axis}_on_the_map",
                )
                for axis in ("x_au", "y_au")
            ],
        ]

    def armor(self) -> list[dict]:
        """Armour by facing, for status displays."""
        return [
            {
                "facing": f,
                "label": FACING_LABELS[f],
                "current": getattr(self, f"armor_{f}"),
                "max": getattr(self, f"armor_{f}_max"),
            }
            for f in FACINGS
        ]

    def map_position(self) -> tuple[float, float] | None:
        """Where the ship is on its system's map: a docked ship rides with its carrier."""
        carrier = self.docked_on if self.docked_on_id else self
        if carrier.x_au is None or carrier.y_au is None:
            return None
        return (carrier.x_au, carrier.y_au)

    def map_system_id(self) -> int | None:
        return self.docked_on.star_system_id if self.docked_on_id else self.star_system_id

    def distance_au(self, other: Ship) -> float | None:
        """Straight-line distance on the map to another ship in the same system, when both are placed."""
        system = self.map_system_id()
        if system is None or system != other.map_system_id():
            return None
        here, there = self.map_position(), other.map_position()
        if here is None or there is None:
            return None
        return math.hypot(here[0] - there[0], here[1] - there[1])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.kf_integrity > self.kf_integrity_max:
            errors["kf_integrity"] = (
                f"K-F integrity cannot exceed its undamaged maximum ({self.kf_integrity_max})."
            )
        if self.helium_tank_boxes > self.helium_tank_boxes_max:
            errors["helium_tank_boxes"] = f"Cannot exceed the maximum ({self.helium_tank_boxes_max})."
        for f in FACINGS:
            if getattr(self, f"armor_{f}") > getattr(self, f"armor_{f}_max"):
                errors[f"armor_{f}"] = f"{FACING_LABELS[f]} armour cannot exceed its maximum."
        if self.overburn > 15:
            errors["overburn"] = "Overburn runs from 0 to 15."
        for axis in ("x_au", "y_au"):
            value = getattr(self, axis)
            if value is not None and not (math.isfinite(value) and abs(value) <= MAP_LIMIT_AU):
                errors[axis] = f"Give a position within {MAP_LIMIT_AU:,} AU of the star."
        if self.docked_on_id:
            carrier = self.docked_on
            if carrier.pk == self.pk:
                errors["docked_on"] = "A ship cannot dock on itself."
            elif carrier.campaign_id != self.campaign_id:
                errors["docked_on"] = "The carrier belongs to another campaign."
            elif self.kind != ShipKind.DROPSHIP:
                errors["docked_on"] = "Only DropShips dock on a carrier's collars."
            else:
                others = carrier.docked.exclude(pk=self.pk).count()
                if others >= carrier.dropship_capacity:
                    errors["docked_on"] = (
                        f"{carrier.name} carries at most {carrier.dropship_capacity} DropShip(s)."
                    )
        if self.star_system_id and self.star_system.campaign_id != self.campaign_id:
            errors["star_system"] = "That star system belongs to another campaign."
        if errors:
            raise ValidationError(errors)


class UnitKind(models.TextChoices):
    BATTLEMECH = "battlemech", "BattleMech"
    BATTLE_ARMOR = "battle_armor", "Battle armour"
    VEHICLE = "vehicle", "Vehicle"
    INFANTRY = "infantry", "Infantry"


class EngineType(models.TextChoices):
    FUSION = "fusion", "Fusion"
    ICE = "ice", "Internal combustion (ICE)"


class TonnageField(models.FloatField):
    """Tons, fractions kept (a 20.5 t support vehicle): a whole tonnage reads as a whole number
    (35, not 35.0), so forms and rolls show it as a GM writes it."""

    def from_db_value(self, value, expression, connection):
        return self.to_python(value)

    def to_python(self, value):
        value = super().to_python(value)
        return int(value) if isinstance(value, float) and value.is_integer() else value


class Unit(CampaignObject):
    kind = models.CharField(max_length=16, choices=UnitKind.choices)
    # Support vehicles weigh in half tons and less (a 20.5 t truck): the record keeps the fraction.
    tonnage = TonnageField(default=0, validators=[MinValueValidator(0), MaxValueValidator(100_000)])
    armor_factor = models.PositiveIntegerField(default=0)
    jump_mp = models.PositiveSmallIntegerField("jump MP", default=0)
    piloting = models.PositiveSmallIntegerField(default=5)
    gunnery = models.PositiveSmallIntegerField(default=4)
    engine_type = models.CharField(max_length=8, choices=EngineType.choices, default=EngineType.FUSION)
    engine_hits = models.PositiveSmallIntegerField(default=0)
    heat = models.PositiveIntegerField(default=0)
    fuel_points = models.PositiveIntegerField("fuel points in space", default=0)
    landed_on = models.ForeignKey(
        Ship, null=True, blank=True, on_delete=models.SET_NULL, related_name="boarders"
    )
    landed_location = models.CharField(max_length=40, blank=True, help_text="Where on the ship it landed.")
    shared = models.BooleanField("shared with players", default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="units"
    )
    sheet = models.JSONField(
        "record sheet", default=dict, blank=True, help_text="The unit's record sheet; empty until it has one."
    )

    @classmethod
    def owned_by(cls, user) -> Q:
        return Q(owner=user)

    class Meta(CampaignObject.Meta):
        constraints = [
            _between("engine_hits", 0, 3, "unit_engine_hits_0_3"),
            _between("tonnage", 0, 100_000, "unit_tonnage_0_100000"),
            _between("piloting", 0, 8, "unit_piloting_0_8"),
            _between("gunnery", 0, 8, "unit_gunnery_0_8"),
            models.CheckConstraint(condition=Q(kind__in=[k.value for k in UnitKind]), name="unit_kind_valid"),
        ]

    def clean(self) -> None:
        if self.landed_on_id and self.landed_on.campaign_id != self.campaign_id:
            raise ValidationError({"landed_on": "That ship belongs to another campaign."})
        if self.engine_hits > 3:
            raise ValidationError({"engine_hits": "A unit takes at most 3 engine hits."})


class CharacterRole(models.TextChoices):
    AEROSPACE_PILOT = "aerospace_pilot", "Aerospace pilot"
    CREW = "crew", "Crew"
    PASSENGER = "passenger", "Passenger"
    MECHWARRIOR = "mechwarrior", "MechWarrior"


class Character(CampaignObject):
    role = models.CharField(max_length=16, choices=CharacterRole.choices)
    bld = models.PositiveSmallIntegerField("BLD", default=5)
    ref = models.PositiveSmallIntegerField("REF", default=5)
    piloting = models.PositiveSmallIntegerField(default=5, help_text="Skill target number")
    gunnery = models.PositiveSmallIntegerField(default=5, help_text="Skill target number")
    navigation = models.PositiveSmallIntegerField(default=8, help_text="Skill target number")
    leadership = models.PositiveSmallIntegerField(default=8, help_text="Skill target number")
    g_suit = models.BooleanField("G-suit", default=False)
    unconscious_until = models.DateTimeField(null=True, blank=True)
    ship = models.ForeignKey(
        Ship, null=True, blank=True, on_delete=models.SET_NULL, related_name="characters"
    )
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.SET_NULL, related_name="characters"
    )

    class Meta(CampaignObject.Meta):
        constraints = [
            models.CheckConstraint(
                condition=Q(ship__isnull=True) | Q(unit__isnull=True), name="character_on_ship_or_unit"
            ),
            _between("bld", 1, 12, "character_bld_1_12"),
            _between("ref", 1, 12, "character_ref_1_12"),
            models.CheckConstraint(
                condition=Q(role__in=[r.value for r in CharacterRole]), name="character_role_valid"
            ),
        ]

    @classmethod
    def player_visible(cls) -> Q:
        return Q(ship__shared=True) | Q(unit__shared=True)

    @classmethod
    def owned_by(cls, user) -> Q:
        """A character is played by whoever owns the ship or unit it serves on."""
        return Q(ship__owner=user) | Q(unit__owner=user)

    def clean(self) -> None:
        if self.ship_id and self.unit_id:
            raise ValidationError("A character is assigned to a ship or a unit, not both.")
        for field in ("ship", "unit"):
            target = getattr(self, field)
            if target is not None and target.campaign_id != self.campaign_id:
                raise ValidationError({field: "That belongs to another campaign."})


class MarkerKind(models.TextChoices):
    SCREEN = "screen", "Screen (launcher detonation)"
    NEUTRINO_WATCH = "neutrino_watch", "Neutrino detector watch"


class Marker(CampaignObject):
    """Something on the map with state the End Phase works on: a screen laid by a
    screen launcher, a ship's neutrino detector watch."""

    kind = models.CharField(max_length=20, choices=MarkerKind.choices)
    star_system = models.ForeignKey(
        StarSystem, null=True, blank=True, on_delete=models.SET_NULL, related_name="markers"
    )
    position = models.CharField(max_length=120, blank=True, help_text="e.g. hex 0412")
    ship = models.ForeignKey(
        Ship,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="markers",
        help_text="The ship it belongs to.",
    )
    active = models.BooleanField(default=True, help_text="A screen still in place; a watch still running.")
    laid_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Screens: the turn it was laid.")
    calibrated_at = models.DateTimeField(null=True, blank=True, help_text="Neutrino watch: calibrated from.")
    next_check_at = models.DateTimeField(
        null=True, blank=True, help_text="Neutrino watch: next hourly check."
    )
    tracking = models.JSONField(
        default=dict, blank=True, help_text="Neutrino watch: hours tracked per vessel."
    )
    shared = models.BooleanField("shared with players", default=False)

    class Meta(CampaignObject.Meta):
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in MarkerKind]), name="marker_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind="screen") | Q(ship__isnull=False) | Q(active=False),
                name="marker_watch_has_a_ship",
            ),
        ]

    def clean(self) -> None:
        if self.kind == MarkerKind.NEUTRINO_WATCH and self.ship_id is None and self.active:
            raise ValidationError({"ship": "A neutrino watch is kept by a ship's detector: choose the ship."})
        if self.ship_id and self.ship.campaign_id != self.campaign_id:
            raise ValidationError({"ship": "That ship belongs to another campaign."})
