"""Terrain and weather: GM-filled terrain rows, battlefields with their weather, and the
hexes on them (terrain, conditions, geysers) that the terrain procedures read and change."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from referee.fleet.models import CampaignObject, CampaignObjectQuerySet, StarSystem, Unit

from . import catalog

SLUG = re.compile(r"[a-z0-9_]{1,40}")


# Hexes each way on one battlefield map: hex numbers are four digits (XXYY).
MAX_MAP_HEXES = 99
MIN_LEVEL, MAX_LEVEL = -20, 50
HEX_NUMBER = re.compile(r"(\d{2})(\d{2})")


def hex_number(label: str) -> tuple[int, int] | None:
    """Column and row of a map-sheet hex number ("0412": column 4, row 12)."""
    found = HEX_NUMBER.fullmatch(label or "")
    if found is None:
        return None
    column, row = int(found[1]), int(found[2])
    return (column, row) if column >= 1 and row >= 1 else None


class RowKind(models.TextChoices):
    BASE = "base", "Base terrain"
    CONDITION = "condition", "Terrain condition"
    WEATHER = "weather", "Weather (heat row)"


def _bounded(field: str, low: int, high: int, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": low, f"{field}__lte": high}),
        name=name,
    )


def _known(values, allowed, what: str) -> str | None:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return f"Give the {what} as a list of names."
    bad = [v for v in values if v not in allowed]
    if bad:
        return f"Unknown {what} {', '.join(bad)}: choose among {', '.join(allowed)}."
    return None


class TerrainRow(CampaignObject):
    """One row of the movement or heat table that the seed names but does not print [A9],
    as this campaign's GM rules it (Heavy jungle, Magma crust, Swamp, heat in rain...),
    or a terrain of the GM's own. A blank value is one the GM has not filled in yet."""

    key = models.SlugField(
        max_length=40,
        help_text="The short name hexes use for this row: lower-case words joined by underscores, as in the built-in rows.",
    )
    kind = models.CharField(max_length=12, choices=RowKind.choices)
    mp_cost = models.SmallIntegerField(
        "MP cost",
        null=True,
        blank=True,
        help_text="Base terrain: MP per hex. Condition: the extra MP (+).",
    )
    to_hit = models.SmallIntegerField("to-hit modifier", null=True, blank=True)
    psr = models.SmallIntegerField("PSR modifier", null=True, blank=True)
    prohibited = models.JSONField("prohibited units", default=list, blank=True)
    flags = models.JSONField(default=list, blank=True)
    heat = models.SmallIntegerField(
        "heat per turn", null=True, blank=True, help_text="Weather rows: heat points per turn (−2 cools)."
    )
    notes = models.TextField(blank=True)

    class Meta(CampaignObject.Meta):
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="terrain_row_key_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in RowKind]), name="terrain_row_kind_valid"
            ),
            _bounded("mp_cost", 0, 20, "terrain_row_mp_cost_0_20"),
            _bounded("to_hit", -10, 10, "terrain_row_to_hit_bounded"),
            _bounded("psr", -10, 10, "terrain_row_psr_bounded"),
            _bounded("heat", -30, 30, "terrain_row_heat_bounded"),
            models.CheckConstraint(
                condition=~Q(kind="weather") | Q(mp_cost__isnull=True, to_hit__isnull=True, psr__isnull=True),
                name="terrain_row_weather_has_heat_only",
            ),
            models.CheckConstraint(
                condition=Q(kind="weather") | Q(heat__isnull=True), name="terrain_row_heat_on_weather_only"
            ),
        ]

    @classmethod
    def player_visible(cls) -> Q:
        return Q(pk__in=[])  # the GM's rulings

    @property
    def seed(self) -> catalog.SeedRow | None:
        return catalog.SEED_ROWS.get(self.key)

    def missing(self) -> list[str]:
        """Labels of the values still blank that the engine needs."""
        needs = (
            self.seed.needs()
            if self.seed
            else (("heat",) if self.kind == RowKind.WEATHER else catalog.NUMERIC_FIELDS)
        )
        return [catalog.FIELD_LABELS[f] for f in needs if getattr(self, f) is None]

    def clean(self) -> None:
        errors: dict[str, str] = {}
        seed = self.seed
        if not SLUG.fullmatch(self.key or ""):
            errors["key"] = "Use lower-case letters, digits and underscores, e.g. heavy_jungle."
        elif self.key in catalog.ENGINE_BASE and self.key not in catalog.SEED_ROWS:
            errors["key"] = f"{catalog.ENGINE_BASE[self.key]} is printed in the seed; its row is not GM data."
        elif self.key in catalog.ENGINE_CONDITIONS or self.key == "geyser":
            errors["key"] = (
                f"{catalog.terrain_name(self.key)} is printed in the seed; its row is not GM data."
            )
        elif seed and self.kind != seed.kind:
            errors["kind"] = f"{seed.name} is a {RowKind(seed.kind).label.lower()} row."
        elif self.kind == RowKind.WEATHER and self.key not in catalog.ENGINE_WEATHER:
            errors["key"] = (
                "Weather rows give the heat of a weather the movement table knows: "
                f"{', '.join(catalog.ENGINE_WEATHER)}."
            )
        if self.kind == RowKind.WEATHER:
            for f in catalog.NUMERIC_FIELDS:
                if getattr(self, f) is not None:
                    errors[f] = "A weather row only gives heat; its movement modifiers are printed."
            if self.prohibited or self.flags:
                errors["prohibited"] = "A weather row only gives heat."
        else:
            if self.heat is not None:
                errors["heat"] = "Only weather rows give heat."
            if self.mp_cost is not None and not 0 <= self.mp_cost <= 20:
                errors["mp_cost"] = "MP cost runs from 0 to 20."
            if (msg := _known(self.prohibited, [*catalog.UNIT_CATEGORIES, "ground"], "units")) is not None:
                errors["prohibited"] = msg
            if (msg := _known(self.flags, catalog.FLAG_NAMES, "flags")) is not None:
                errors["flags"] = msg
        for f, low, high in (("to_hit", -10, 10), ("psr", -10, 10), ("heat", -30, 30)):
            value = getattr(self, f)
            if value is not None and not low <= value <= high and f not in errors:
                errors[f] = f"{catalog.FIELD_LABELS[f].capitalize()} runs from {low} to {high}."
        if errors:
            raise ValidationError(errors)


class Battlefield(CampaignObject):
    """A map in play on some world: the weather over it and its earthquakes."""

    star_system = models.ForeignKey(
        StarSystem, null=True, blank=True, on_delete=models.SET_NULL, related_name="battlefields"
    )
    world = models.CharField(max_length=120, blank=True, help_text="Planet or moon.")
    weather = models.JSONField(default=list, blank=True)
    earthquake = models.PositiveSmallIntegerField(
        "earthquake strength", default=0, help_text="Tremor strength this turn: 0 (none) to 5 (severe)."
    )
    ambient_c = models.FloatField("ambient temperature (°C)", null=True, blank=True)
    weapons_miscalibrated = models.BooleanField(
        "ballistic weapons mis-calibrated",
        default=False,
        help_text="Not calibrated for this gravity (+2 to-hit); never in zero-G, never energy weapons.",
    )
    active = models.BooleanField(
        "in play", default=True, help_text="The End Phase rolls the geysers of battlefields in play."
    )
    shared = models.BooleanField("shared with players", default=False)
    # A BattleTech map sheet is 16 hexes across and 17 down; bigger fields join sheets.
    columns = models.PositiveSmallIntegerField(
        "map columns", default=16, help_text="Hexes across (a map sheet has 16)."
    )
    rows = models.PositiveSmallIntegerField(
        "map rows", default=17, help_text="Hexes down (a map sheet has 17)."
    )

    class Meta(CampaignObject.Meta):
        constraints = [
            _bounded("columns", 1, MAX_MAP_HEXES, "battlefield_columns_bounded"),
            _bounded("rows", 1, MAX_MAP_HEXES, "battlefield_rows_bounded"),
            models.UniqueConstraint(fields=["campaign", "name"], name="battlefield_name_unique"),
            models.CheckConstraint(
                condition=Q(earthquake__gte=0, earthquake__lte=5), name="battlefield_earthquake_0_5"
            ),
            models.CheckConstraint(
                condition=Q(ambient_c__isnull=True) | Q(ambient_c__gte=-273.15),
                name="battlefield_ambient_above_absolute_zero",
            ),
        ]

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if (msg := _weather_error(self.weather)) is not None:
            errors["weather"] = msg
        if not 0 <= self.earthquake <= 5:
            errors["earthquake"] = "Earthquake strength runs from 0 (none) to 5 (severe)."
        if self.ambient_c is not None and self.ambient_c < -273.15:
            errors["ambient_c"] = "Nothing is colder than −273.15 °C."
        if self.star_system_id and self.star_system.campaign_id != self.campaign_id:
            errors["star_system"] = "That star system belongs to another campaign."
        for f in ("columns", "rows"):
            if not 1 <= (getattr(self, f) or 0) <= MAX_MAP_HEXES:
                errors[f] = f"A map runs from 1 to {MAX_MAP_HEXES} hexes each way."
        if errors:
            raise ValidationError(errors)


def _weather_error(weather) -> str | None:
    if (msg := _known(weather, list(catalog.ENGINE_WEATHER), "weather")) is not None:
        return msg
    for a, b in catalog.EXCLUSIVE_WEATHER:
        if a in weather and b in weather:
            return f"Choose {catalog.terrain_name(a)} or {catalog.terrain_name(b)}, not both."
    return None


class HexQuerySet(CampaignObjectQuerySet):
    def in_campaign(self, campaign):
        return super().in_campaign(campaign).select_related("battlefield")

    def visible_to(self, role: str | None):
        if role == "gm":
            return self
        if role == "player":
            return self.filter(shared=True, battlefield__shared=True)
        return self.none()


class Hex(CampaignObject):
    """One hex of a battlefield: its terrain, conditions and local weather, and a geyser
    when one sits there (the End Phase rolls it; how long it erupts is the GM's secret)."""

    battlefield = models.ForeignKey(Battlefield, on_delete=models.CASCADE, related_name="hexes")
    terrain = models.CharField(
        "base terrain", max_length=40, default="clear", help_text="What the hex is when no condition holds."
    )
    level = models.SmallIntegerField(
        default=0, help_text="Height in levels above (or depth below) the map's base, as printed in the hex."
    )
    conditions = models.JSONField(default=list, blank=True)
    weather = models.JSONField(
        "local weather", default=list, blank=True, help_text="Weather over this hex beyond the battlefield's."
    )
    geyser = models.BooleanField(default=False)
    volcanic = models.BooleanField(
        default=False, help_text="A magma geyser: the hex is Liquid Magma after it erupts."
    )
    eruption_turn_counts = models.BooleanField(
        "eruption turn counts",
        default=True,
        help_text="Count the turn it erupts as the first of its 1D6 turns of eruption. The rules leave it open.",
    )
    erupting_turns_left = models.PositiveSmallIntegerField(
        "erupting turns left", default=0, help_text="Zero means dormant. Kept from the players."
    )
    shared = models.BooleanField("shared with players", default=False)
    notes = models.TextField(blank=True)

    objects = HexQuerySet.as_manager()

    class Meta(CampaignObject.Meta):
        verbose_name_plural = "hexes"
        ordering = ["battlefield__name", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["battlefield", "name"], name="hex_label_unique_per_battlefield"),
            models.CheckConstraint(condition=~Q(terrain=""), name="hex_has_terrain"),
            _bounded("level", MIN_LEVEL, MAX_LEVEL, "hex_level_bounded"),
            models.CheckConstraint(condition=Q(geyser=True) | Q(volcanic=False), name="hex_volcanic_geyser"),
            models.CheckConstraint(
                condition=Q(geyser=True) | Q(erupting_turns_left=0), name="hex_only_geysers_erupt"
            ),
        ]

    def __str__(self) -> str:
        return f"Hex {self.name} ({self.battlefield.name})" if self.battlefield_id else f"Hex {self.name}"

    @property
    def erupting(self) -> bool:
        return self.geyser and self.erupting_turns_left > 0

    def clean(self) -> None:
        # Which keys exist is the form's business (they change as the GM adds rows); a hex
        # whose row was deleted since stays valid and reports the row as missing.
        errors: dict[str, str] = {}
        if self.battlefield_id and self.battlefield.campaign_id != self.campaign_id:
            errors["battlefield"] = "That battlefield belongs to another campaign."
        if not SLUG.fullmatch(self.terrain or ""):
            errors["terrain"] = "Give the terrain as a key such as heavy_jungle."
        if not isinstance(self.conditions, list) or not all(
            isinstance(c, str) and SLUG.fullmatch(c) for c in self.conditions
        ):
            errors["conditions"] = "Give the conditions as a list of keys such as mud."
        if (msg := _weather_error(self.weather)) is not None:
            errors["weather"] = msg
        if not MIN_LEVEL <= (self.level or 0) <= MAX_LEVEL:
            errors["level"] = f"Levels run from {MIN_LEVEL} to {MAX_LEVEL}."
        if self.volcanic and not self.geyser:
            errors["volcanic"] = "Only a geyser can be volcanic: tick geyser too."
        if self.erupting_turns_left and not self.geyser:
            errors["erupting_turns_left"] = "Only a geyser erupts: tick geyser, or set this to 0."
        if errors:
            raise ValidationError(errors)


class Facing(models.TextChoices):
    """The six hex sides a unit can face, clockwise from the top of the map sheet."""

    N = "n", "North"
    NE = "ne", "North-east"
    SE = "se", "South-east"
    S = "s", "South"
    SW = "sw", "South-west"
    NW = "nw", "North-west"


class UnitPlacementQuerySet(CampaignObjectQuerySet):
    def in_campaign(self, campaign):
        return super().in_campaign(campaign).select_related("unit", "battlefield")


class UnitPlacement(CampaignObject):
    """Where a unit stands on a battlefield map: its hex (as numbered on the map sheet) and
    the hex side it faces. Players see it when both the unit and the battlefield are shared."""

    unit = models.OneToOneField(Unit, on_delete=models.CASCADE, related_name="placement")
    battlefield = models.ForeignKey(Battlefield, on_delete=models.CASCADE, related_name="placements")
    hex = models.CharField("hex", max_length=4, help_text="Hex number as on the map sheet, e.g. 0412.")
    facing = models.CharField(max_length=2, choices=Facing.choices, default=Facing.N)

    objects = UnitPlacementQuerySet.as_manager()

    class Meta(CampaignObject.Meta):
        verbose_name = "unit on a map"
        verbose_name_plural = "units on maps"
        constraints = [
            models.CheckConstraint(condition=Q(hex__regex=r"^[0-9]{4}$"), name="unit_placement_hex_number"),
            models.CheckConstraint(
                condition=Q(facing__in=[f.value for f in Facing]), name="unit_placement_facing_valid"
            ),
        ]

    @classmethod
    def player_visible(cls) -> Q:
        return Q(unit__shared=True, battlefield__shared=True)

    def hex_row(self) -> Hex | None:
        """The battlefield's hex row the unit stands in, when the GM has described that hex."""
        return self.battlefield.hexes.filter(name=self.hex).first()

    def clean(self) -> None:
        errors: dict[str, str] = {}
        place = hex_number(self.hex)
        if place is None:
            errors["hex"] = (
                "Give the hex number as on the map sheet: four digits, column then row, e.g. 0412."
            )
        elif self.battlefield_id and (
            place[0] > self.battlefield.columns or place[1] > self.battlefield.rows
        ):
            errors["hex"] = (
                f"{self.battlefield} is {self.battlefield.columns} hexes across and "
                f"{self.battlefield.rows} down; hex {self.hex} is off the map."
            )
        if self.battlefield_id and self.battlefield.campaign_id != self.campaign_id:
            errors["battlefield"] = "That battlefield belongs to another campaign."
        if self.unit_id and self.unit.campaign_id != self.campaign_id:
            errors["unit"] = "That unit belongs to another campaign."
        if errors:
            raise ValidationError(errors)
