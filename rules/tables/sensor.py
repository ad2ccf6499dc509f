"""Sensor tables and constants (Seed B: Sensor Rules)."""

# Infrared Signature: an arriving JumpShip or WarShip is seen with no roll within this range [A50].
IR_AUTO_DETECT_KM = 50_000
IR_AUTO_DETECT_KINDS = frozenset({"jumpship", "warship"})
IR_MAX_LY = 30

# Emergence Wave: base TN = ceil(distance_au / 2 + 7), modifier = ceil((K-F + DropShips) / 10) [A2].
EMERGENCE_MAX_AU = 15
EMERGENCE_BASE_TN = 7
EMERGENCE_DISTANCE_DIVISOR = 2
EMERGENCE_MODIFIER_DIVISOR = 10
MINUTES_PER_AU = 8  # "about 8 minutes to travel 1 AU" (W13: 3 AU -> 24 min) [A2]

# Detection rolls against one target: one per hour (active radar, drive plumes).
MINUTES_BETWEEN_ROLLS = 60

LARGE_CRAFT = frozenset({"dropship", "warship", "jumpship", "station"})
SMALL_CRAFT = frozenset({"fighter", "small_craft"})

# Active Radar: range by detector class; 1,000 km for fighters and small craft whoever owns them [A48].
RADAR_RANGE_KM = {
    "dropship": 100_000,
    "warship": 100_000,
    "jumpship": 100_000,
    "station": 100_000,
    "fighter": 1_000,
    "small_craft": 1_000,
}
# TN 4 for military DropShips, WarShips and JumpShips; 6 for all other vessels [A48].
RADAR_MILITARY_TN_CLASSES = frozenset({"dropship", "warship", "jumpship"})
RADAR_MILITARY_TN = 4
RADAR_OTHER_TN = 6
RADAR_CRIT_BOX_MODIFIER = 1

# ESM/Passive Radar and Radio Triangulation. ESM = military craft other than fighters and small craft.
ESM_RADAR_RANGE_KM = 150_000
RADIO_RANGE_KM = {"esm": 1_000_000, "no_esm": 500_000}  # craft without ESM hear radio to 500,000 km (C.9)

# Drive Plumes: TN 5, +1 per 500,000 km or part of it.
PLUME_BASE_TN = 5
PLUME_STEP_KM = 500_000

# Neutrino Detectors.
NEUTRINO_RANGE_AU = 4  # roll only for vessels within 4 AU [A49]
NEUTRINO_DETECT_AT = 9
# Unbroken tracking hours -> neutrino profile: 6 h identifies the class, 12 h the individual ship.
PROFILE_BANDS = ((5, "none"), (11, "class"), (None, "individual"))

PROFILE_TEXT = {
    "none": "no profile yet",
    "class": "class profile",
    "individual": "individual profile (positive ID in later encounters)",
}

CLASS_TEXT = {
    "dropship": "DropShip",
    "warship": "WarShip",
    "jumpship": "JumpShip",
    "station": "station",
    "fighter": "fighter",
    "small_craft": "small craft",
}
