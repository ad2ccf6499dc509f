"""The terrain a hex can carry: what the engine prints, and what the seed names but
leaves to the GM.

Seed B's Expanded Movement Cost and Terrain Table has no rows for Jungle, Magma,
Tundra or the MP cost of Ultra-heavy Woods, and its heat table has no snow or rain
rows [A9]. Those are campaign data (:class:`~referee.terrain.models.TerrainRow`);
``SEED_ROWS`` says which they are and what the text does state about them, so the
app can name what is still missing instead of guessing a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.tables import terrain as engine

NUMERIC_FIELDS = ("mp_cost", "to_hit", "psr")
FIELD_LABELS = {"mp_cost": "MP cost", "to_hit": "to-hit modifier", "psr": "PSR modifier", "heat": "heat"}

UNIT_CATEGORIES = engine.UNIT_CATEGORIES
FLAG_NAMES = engine.FLAG_NAMES
FLAG_LABELS = {
    "bog_down_possible": "bog-down possible (F)",
    "skid": "skidding (G)",
    "psr_on_entry_fall": "PSR on entry or fall (A)",
    "psr_on_entry_damage": "PSR on entry or damage (B)",
    "poor_visibility": "poor visibility (K)",
}

# Rows the engine prints itself (catalogue 2.1).
ENGINE_BASE = {
    "clear": "Clear",
    "building_light": "Building, light",
    "building_medium": "Building, medium",
    "building_heavy": "Building, heavy",
    "building_hardened": "Building, hardened",
    "heavy_woods": "Heavy woods",
    "ultra_heavy_woods": "Ultra-heavy woods",
    "sand": "Sand",
}
# "geyser" is not offered: a hex has it while its own geyser erupts.
ENGINE_CONDITIONS = {"deep_snow": "Deep snow", "ice": "Ice", "mud": "Mud", "rapids": "Rapids"}
ENGINE_WEATHER = {
    "blizzard": "Blizzard",
    "blowing_sand": "Blowing sand",
    "dusk_dawn": "Dusk/Dawn",
    "fire": "Fire",
    "fog": "Fog",
    "heavy_snowfall": "Heavy snowfall",
    "rain_light": "Light rain",
    "rain_heavy": "Heavy rain",
    "wind_moderate": "Moderate wind",
    "wind_high": "High wind",
}
EXCLUSIVE_WEATHER = engine.EXCLUSIVE_WEATHER
assert set(ENGINE_BASE) == set(engine.BASE_ROWS)
assert set(ENGINE_WEATHER) == set(engine.WEATHER_ROWS)


@dataclass(frozen=True)
class SeedRow:
    """A row the seed names without printing it: the GM's to fill."""

    key: str
    name: str
    kind: str  # base | condition | weather
    source: str  # where the seed names it
    known: dict = field(default_factory=dict)  # what the text does state

    def needs(self) -> tuple[str, ...]:
        """The values this row must have before the engine can use it."""
        fields = ("heat",) if self.kind == "weather" else NUMERIC_FIELDS
        return tuple(f for f in fields if f not in self.known)


_BOG = ["bog_down_possible"]
SEED_ROWS = {
    r.key: r
    for r in (
        SeedRow(
            "ultra_heavy_woods",
            "Ultra-heavy woods",
            "base",
            "Ultra-heavy Woods: +3 to-hit and impassable to most ground units, MP cost not printed",
            {
                "to_hit": 3,
                "psr": 0,
                "prohibited": ["battlemech", "hover", "naval", "tracked", "wheeled"],
                "flags": [],
            },
        ),
        SeedRow("light_jungle", "Light jungle", "base", "Jungle: the table's row is missing"),
        SeedRow("heavy_jungle", "Heavy jungle", "base", "Jungle: the table's row is missing"),
        SeedRow("ultra_heavy_jungle", "Ultra-heavy jungle", "base", "Jungle: the table's row is missing"),
        SeedRow(
            "magma_crust",
            "Magma crust",
            "base",
            "Magma: no infantry or wheeled vehicles; bog-down possible; the row is missing",
            {"prohibited": ["infantry", "wheeled"], "flags": _BOG},
        ),
        SeedRow(
            "liquid_magma",
            "Liquid magma",
            "base",
            "Magma: bogs down as a swamp; the row is missing",
            {"flags": _BOG},
        ),
        SeedRow(
            "tundra",
            "Tundra (moor, bog, quicksand)",
            "base",
            "Tundra: bog-down possible; the row is missing",
            {"flags": _BOG},
        ),
        SeedRow("rough", "Rough", "base", "BTC:RoW base terrain (what cleared light jungle becomes)"),
        SeedRow("light_woods", "Light woods", "base", "BTC:RoW base terrain"),
        SeedRow("paved", "Paved", "base", "BTC:RoW base terrain"),
        SeedRow("water", "Water", "base", "BTC:RoW base terrain"),
        SeedRow("road_bridge", "Road/Bridge", "condition", "BTC:RoW terrain condition"),
        SeedRow("rubble", "Rubble", "condition", "BTC:RoW terrain condition"),
        SeedRow("swamp", "Swamp", "condition", "BTC:RoW terrain condition", {"flags": _BOG}),
        SeedRow(
            "heavy_snowfall",
            "Heavy snowfall",
            "weather",
            "Heavy Snowfall reduces heat 'as shown in the table', which has no such row",
        ),
        SeedRow("rain_light", "Light rain", "weather", "Rainfall reduces heat; the heat row is missing"),
        SeedRow("rain_heavy", "Heavy rain", "weather", "Rainfall reduces heat; the heat row is missing"),
    )
}

# The terrain procedures speak of these hexes.
MAGMA_HEX = {"magma_crust": "crust", "liquid_magma": "liquid"}
CLEARABLE = ("ultra_heavy_jungle", "heavy_jungle", "light_jungle", "ultra_heavy_woods")
BOG_TERRAIN = ("tundra", "magma_crust", "liquid_magma")
BOG_CONDITIONS = ("swamp", "deep_snow", "mud")


def terrain_name(key: str, rows: dict | None = None) -> str:
    """A readable name for a terrain, condition or weather key."""
    if rows and key in rows:
        return rows[key].name
    for names in (ENGINE_BASE, ENGINE_CONDITIONS, ENGINE_WEATHER):
        if key in names:
            return names[key]
    if key in SEED_ROWS:
        return SEED_ROWS[key].name
    return key.replace("_", " ").capitalize()


def seed_keys(kind: str) -> list[str]:
    return [k for k, r in SEED_ROWS.items() if r.kind == kind]


def merge_weather(battlefield: list[str], local: list[str]) -> list[str]:
    """The weather over a hex: the battlefield's, with the hex's own added; where the two
    name intensities of one weather (light and heavy rain), the hex's wins."""
    merged = list(dict.fromkeys(local))
    for name in battlefield:
        rival = {b for a, b in EXCLUSIVE_WEATHER if a == name} | {
            a for a, b in EXCLUSIVE_WEATHER if b == name
        }
        if name not in merged and not rival & set(merged):
            merged.append(name)
    order = list(ENGINE_WEATHER)
    return sorted(merged, key=order.index)
