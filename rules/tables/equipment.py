"""New equipment (Seed B): tele-operated missiles, screen launchers, mobile yards, HPGs."""

# Naval-Grade Missile Types Table, tele-operated versions, as printed (truncated) [A33].
# None = not printed: GM-data. Armour equals the Fire Factor (Barracuda-T armour 2 is
# from the text; its other statistics are not printed).
MISSILES = {
    "killer_whale_t": {
        "name": "Killer Whale-T",
        "type": "Capital Missile",
        "heat": 20,
        "fire_factor": 4,
        "max_range": "Extreme",
        "fuel": 30,
        "tons_per_shot": 50,
        "tons": 160,
        "cost": 165_000,
        "ammo_cost": 17_000,
        "mpv": 1_100,
    },
    "white_shark_t": {
        "name": "White Shark-T",
        "type": "Capital Missile",
        "heat": 15,
        "fire_factor": 3,
        "max_range": "Extreme",
        "fuel": 40,
        "tons_per_shot": 40,
        "tons": 140,
        "cost": 145_000,
        "ammo_cost": None,
        "mpv": None,
    },
    "barracuda_t": {"name": "Barracuda-T", "fire_factor": 2, "fuel": None},
    "kraken_t": {"name": "Kraken-T", "fire_factor": None, "fuel": None},
}

# Tele-operated missile To-Hit Number: base 2, +1 per TP this turn and per armour box
# lost, +6 with no fuel left.
MISSILE_BASE_TN = 2
MISSILE_NO_FUEL_MODIFIER = 6

# Screen launchers: canister range (short) and fighter damage per fighter by 2D6.
SCREEN_MAX_RANGE = 6
SCREEN_FIGHTER_DAMAGE = ((8, 0), (11, 1), (12, 2))  # 2-8 none, 9-11 1, 12 2
SCREEN_REMOVED_AT = 7

# Mobile yards: WarShips only; at most 10% of the ship's mass; a pressurized yard
# takes vessels of at most 100,000 t [A53].
YARD_SHIP_KINDS = frozenset({"warship"})
YARD_MAX_FRACTION_DENOMINATOR = 10
YARD_PRESSURIZED_MAX_VESSEL_T = 100_000

# Hyperpulse generators.
HPG_MASS_T = 50
HPG_STAR_LEAGUE_MOBILE_MASS_T = 9  # data only
HPG_MIN_POWER_POINTS = 4
HPG_BLIND_RADIUS_M = 1_000
HPG_RECOVERY_MIN_PER_COMM_MIN = 5
