"""Low-tech 'Mech tables (Seed B: Low-Tech 'Mechs)."""

from fractions import Fraction

# An internal combustion engine weighs this many times the fusion engine of the same rating.
ICE_WEIGHT_FACTOR = 2
# Power amplifiers: 1 t per 10 t of energy weapons, rounded up to this step [A47].
POWER_AMP_T_PER_ENERGY_T = Fraction(1, 10)
POWER_AMP_STEP_T = Fraction(1, 10)
# Utility 'Mechs allocate this share of their tonnage to internal structure.
UTILITY_STRUCTURE_SHARE = Fraction(20, 100)
# A lift hoist lifts cargo up to this share of the 'Mech's tonnage.
LIFT_HOIST_SHARE = Fraction(1, 2)

# Additional equipment table: system -> tons, criticals, notes.
EQUIPMENT = {
    "cargo_bay": {
        "name": "Cargo bay (utility 'Mechs only)",
        "tons": None,  # "special": the tons of cargo carried
        "criticals": "1 per ton",
        "notes": "Enclosed cargo as per p. 81, BTC:RoW; never in an ICE BattleMech",
    },
    "combine": {
        "name": "Combine (AgroMech)",
        "tons": 5,
        "criticals": "4 in each arm",
        "notes": "May inflict 1D6 damage against infantry",
    },
    "lift_hoist": {
        "name": "Lift hoist (CargoMech)",
        "tons": 3,
        "criticals": "3",
        "notes": "May lift cargo equal to half the 'Mech's tonnage",
    },
    "chainsaw": {
        "name": "Chainsaw (LoggerMech)",
        "tons": 5,
        "criticals": "5",
        "notes": "Logging tool, too slow for use as a weapon",
    },
}

# ICE engine explosion check: 2D6 + modifier by engine hit number; explodes on 10+.
ENGINE_HIT_MODIFIER = {1: 0, 2: 3, 3: 6}
EXPLODES_AT = 10
# The third engine hit destroys the 'Mech for play whatever the explosion roll says.
DESTROYED_FOR_PLAY_AT_HIT = 3

# Determining Critical Hits Table against utility 'Mechs: 2D6 + 2, a modified 13 is read as 12 [A38].
UTILITY_CRIT_MODIFIER = 2
UTILITY_ROW_REMAP = {13: 12}
# Table row -> location kind -> (critical hits, blown off). Rows 2-7, 8-9, 10-11, 12, 14.
UTILITY_CRIT_BANDS = (
    (7, {"head_limb": (0, False), "torso": (0, False)}),
    (9, {"head_limb": (1, False), "torso": (1, False)}),
    (11, {"head_limb": (2, False), "torso": (2, False)}),
    (12, {"head_limb": (0, True), "torso": (3, False)}),
    (None, {"head_limb": (0, True), "torso": (4, False)}),
)

LOCATION_KIND_TEXT = {"head_limb": "head or limb", "torso": "torso"}
