"""Terrain, weather, heat and fire tables (Seed B: Advanced Terrain and Weather Rules,
Expanded Movement Cost and Terrain Table and Key, Expanded Heat Point Table)."""

# --- Expanded Movement Cost and Terrain Table -------------------------------------------

FLAG_NAMES = ("bog_down_possible", "skid", "psr_on_entry_fall", "psr_on_entry_damage", "poor_visibility")
# The table key's letters for the same flags (A, B, F, G, K), accepted in GM-entered rows.
FLAG_LETTERS = {
    "A": "psr_on_entry_fall",
    "B": "psr_on_entry_damage",
    "F": "bog_down_possible",
    "G": "skid",
    "K": "poor_visibility",
}

UNIT_CATEGORIES = ("battlemech", "infantry", "wheeled", "tracked", "hover", "vtol", "naval")
# "Ground" in the seed denotes wheeled, tracked and hover vehicles (not infantry or 'Mechs).
GROUND = ("wheeled", "tracked", "hover")

# unit_type input -> unit category used in `prohibited`.
UNIT_CATEGORY = {
    "battlemech_biped": "battlemech",
    "battlemech_quad": "battlemech",
    "infantry_foot": "infantry",
    "infantry_jump": "infantry",
    "wheeled": "wheeled",
    "tracked": "tracked",
    "hover": "hover",
    "vtol": "vtol",
    "naval": "naval",
}

# Base terrain: (mp_cost, to_hit, psr, prohibited, flags). mp_cost None = GM-data [A9].
BASE_ROWS = {
    "clear": (1, 0, 0, ("naval",), ()),
    "building_light": (2, 0, 0, ("naval",), ("psr_on_entry_damage",)),
    "building_medium": (3, 0, 0, ("naval",), ("psr_on_entry_damage",)),
    "building_heavy": (4, 0, 0, ("naval",), ("psr_on_entry_damage",)),
    "building_hardened": (5, 0, 0, ("naval",), ("psr_on_entry_damage",)),
    # The seed's own example (W1): 3 MP, +2 to-hit; ground and naval units may not enter.
    "heavy_woods": (3, 2, 0, ("hover", "naval", "tracked", "wheeled"), ()),
    # Impassable to most ground units including 'Mechs; +3 to-hit; MP cost not printed [A9].
    "ultra_heavy_woods": (None, 3, 0, ("battlemech", "hover", "naval", "tracked", "wheeled"), ()),
    # Sand: an absolute cost of 1 (2 for some units, see SAND_MP), +1 PSR [A8].
    "sand": (1, 0, 1, ("naval",), ()),
}
BUILDINGS = frozenset({"building_light", "building_medium", "building_heavy", "building_hardened"})
INFANTRY_BUILDING_MP = 1  # key B: infantry pay only 1 MP to enter or leave any building

# Sand costs 2 MP for wheeled vehicles (not dune buggies) and foot infantry [A8].
SAND_SLOW_UNITS = frozenset({"wheeled", "infantry_foot"})
SAND_SLOW_MP = 2

# Terrain conditions: (mp, to_hit, psr, prohibited, flags, cost letters).
# I: hovercraft ignore the MP cost; J: infantry ignore it, others may (careful movement).
CONDITION_ROWS = {
    "deep_snow": (1, 0, 1, ("wheeled",), ("bog_down_possible",), "I"),
    "geyser": (1, 2, 1, ("infantry", "wheeled"), (), ""),
    "ice": (1, 0, 4, (), ("skid",), "IJ"),
    "mud": (1, 0, 1, (), ("bog_down_possible",), "I"),
    "rapids": (1, 0, 2, (), (), ""),
}

# Weather: (mp, to_hit ballistic, to_hit energy, psr, flags, cost letters).
WEATHER_ROWS = {
    "blizzard": (0, 2, 1, 1, ("poor_visibility",), ""),
    "blowing_sand": (0, 1, 2, 0, (), ""),
    "dusk_dawn": (0, 1, 1, 0, (), ""),
    "fire": (0, 0, 0, 0, (), ""),
    "fog": (2, 0, 1, 0, ("poor_visibility",), "J"),
    "heavy_snowfall": (0, 1, 1, 1, (), ""),
    "rain_light": (0, 1, 1, 0, (), ""),
    "rain_heavy": (0, 1, 1, 1, (), ""),
    "wind_moderate": (0, 1, 0, 0, (), ""),
    "wind_high": (0, 2, 0, 2, (), ""),
}
# Intensities of one weather that cannot both hold in a hex.
EXCLUSIVE_WEATHER = (("rain_light", "rain_heavy"), ("wind_moderate", "wind_high"))

# Fog and ice together cost +2 MP in total, not +3 (Careful Movement, W23).
FOG_AND_ICE_MP = 2
# Hovercraft skid in all terrain in these weathers.
HOVER_SKID_WEATHER = frozenset({"wind_high", "blizzard"})
MISCALIBRATED_TO_HIT = 2

# --- Clearing (Jungle, Ultra-heavy Woods) ------------------------------------------------

# One step per successful clearing attack.
CLEARING_CHAINS = {
    "ultra_heavy_jungle": ("heavy_jungle", "light_jungle", "rough"),
    "heavy_jungle": ("light_jungle", "rough"),
    "light_jungle": ("rough",),
    "ultra_heavy_woods": ("heavy_woods",),
}
# LOS height of heavy woods made from ultra-heavy woods (ultra-heavy woods rise 3 levels).
CLEARED_WOODS_LOS_HEIGHT = 2

TERRAIN_NAMES = {
    "ultra_heavy_jungle": "ultra-heavy jungle",
    "heavy_jungle": "heavy jungle",
    "light_jungle": "light jungle",
    "rough": "rough",
    "ultra_heavy_woods": "ultra-heavy woods",
    "heavy_woods": "heavy woods",
}

# --- Magma ---------------------------------------------------------------------------------

LEGS = ("LL", "RL")
# A fall exposes every location, rolled in this order (C.9).
FALL_ORDER = ("LL", "RL", "LA", "RA", "LT", "RT", "CT", "HD")
CRUST_BREAKS_ON = 6
CRUST_BARRED = frozenset({"infantry", "wheeled"})  # may not enter Magma Crust
MAGMA_IMMUNE = frozenset({"hover", "vtol"})  # no crust roll, not harmed
# Heat Phase: occupying the hex, and per hex moved out of.
MAGMA_END_HEAT = {"other": 0, "none": 0, "crust": 5, "liquid": 10}
MAGMA_EXIT_HEAT = {"other": 0, "crust": 2, "liquid": 5}

# --- Geyser --------------------------------------------------------------------------------

GEYSER_ERUPTS_ON = 1

# --- Bog Down ------------------------------------------------------------------------------

# Tundra (also moor, bog, quicksand), Magma Crust, deep snow and mud: -1 to the PSR,
# replacing the usual +1 terrain modifier. Swamp and Liquid Magma use the Swamp rules.
BOG_MINUS_ONE = frozenset({"tundra", "magma_crust", "deep_snow", "mud"})
BOG_MINUS_ONE_MOD = -1

# --- Careful Movement ------------------------------------------------------------------------

# J cost not paid per hex: fog 2, ice 1, both 2.
CAREFUL_MP_SAVED = {(True, False): 2, (False, True): 1, (True, True): 2}

# --- Earthquake and winds --------------------------------------------------------------------

QUAD_PSR_MOD = -2  # the standard four-legged 'Mech modifier (BTC:RoW p. 87) [A44]

# Missile Hits Table roll modifier; high winds and blizzard do not stack [A40].
WIND_MISSILE_MOD = {"none": 0, "moderate": -2, "high": -4}
BLIZZARD_MISSILE_MOD = -4
MISSILE_TABLE_MIN = 2

# --- Expanded Heat Point Table -----------------------------------------------------------------

MOVEMENT_HEAT = {"none": 0, "walk": 1, "run": 2}
JUMP_HEAT_MIN = 3  # +1 per hex, minimum 3
ENGINE_HEAT = (0, 5, 10)  # by fusion engine hits (10 is the total for two hits)
UNDERWATER_BONUS_MAX = 6
DOUBLE_SINK_FACTOR = 2
COLD_LIMIT_C = -30
HOT_LIMIT_C = 50
TEMPERATURE_STEP_C = 10

# --- Intentional Fires ----------------------------------------------------------------------

DAMPENING_WEATHER = frozenset({"rain", "thick_fog", "falling_snow", "blizzard"})
DAMPENING_START_MOD = 2
DAMPENING_SPREAD_MOD = 1
HIGH_WINDS_START_MOD = -1
HIGH_WINDS_DOWNWIND_HEXES = 2
