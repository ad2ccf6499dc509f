"""Booby-trap tables (Seed A: IR107.211 Speed, IR107.212, IR107.31 Weapons, IR107.332)."""

# IR107.211: year -> speed, as ((last year of the band, speed), ...) for lookup_band [A51].
SPEED_BY_YEAR = (
    (69, 1),
    (74, 2),
    (79, 3),
    (84, 4),
    (89, 5),
    (94, 6),
    (99, 7),
    (104, 8),
    (109, 9),
    (114, 10),
    (119, 11),
    (124, 12),
    (129, 13),
    (134, 14),
    (139, 15),
    (144, 16),
    (149, 17),
    (154, 18),
    (159, 19),
    (164, 20),
    (169, 21),
    (174, 22),
    (179, 23),
    (184, 24),
    (189, 25),
    (194, 26),
    (199, 27),
    (204, 28),
    (209, 29),
    (214, 30),
    (219, 31),
    (None, 32),
)

# The printed year band of each speed (IR107.211), used to work back from speed to year (IR107.31).
YEAR_BAND = {
    1: "<70",
    2: "70-74",
    3: "75-79",
    4: "80-84",
    5: "85-89",
    6: "90-94",
    7: "95-99",
    8: "100-104",
    9: "105-109",
    10: "110-114",
    11: "115-119",
    12: "120-124",
    13: "125-129",
    14: "130-134",
    15: "135-139",
    16: "140-144",
    17: "145-149",
    18: "150-154",
    19: "155-159",
    20: "160-164",
    21: "165-169",
    22: "170-174",
    23: "175-179",
    24: "180-184",
    25: "185-189",
    26: "190-194",
    27: "195-199",
    28: "200-204",
    29: "205-209",
    30: "210-214",
    31: "215-219",
    32: "220+",
}

MIN_SPEED = 1
MAX_SPEED = 32

# Speed -> weapon-space year column: the largest header <= the band's start year,
# years below 80 use column 80 [A12]. ((highest speed, column), ...) for lookup_band.
COLUMN_BY_SPEED = (
    (7, "80"),
    (11, "100"),
    (15, "120"),
    (19, "140"),
    (23, "160"),
    (27, "180"),
    (31, "200"),
    (None, "220+"),
)

# IR107.212: 2D6 -> signed number of D6 added to (or taken from) the speed.
SPEED_ADJUST_DICE = {2: -4, 3: -3, 4: -2, 5: -1, 6: 0, 7: 0, 8: 0, 9: 1, 10: 2, 11: 3, 12: 4}

# IR107.31: 2D6 -> spaces, one value per column in COLUMNS order.
# Row 7 / column 120 really is 1 (lower than rows 6 and 8), as printed.
COLUMNS = ("80", "100", "120", "140", "160", "180", "200", "220+")
SPACES = {
    2: (3, 3, 4, 4, 5, 5, 6, 6),
    3: (2, 3, 3, 4, 4, 5, 5, 6),
    4: (2, 2, 3, 3, 4, 4, 5, 5),
    5: (1, 2, 2, 3, 3, 4, 4, 5),
    6: (1, 1, 2, 2, 3, 3, 4, 4),
    7: (1, 1, 1, 2, 2, 3, 3, 4),
    8: (1, 1, 2, 2, 3, 3, 4, 4),
    9: (1, 2, 2, 3, 3, 4, 4, 5),
    10: (2, 2, 3, 3, 4, 4, 5, 5),
    11: (2, 3, 3, 4, 4, 5, 5, 6),
    12: (3, 3, 4, 4, 5, 5, 6, 6),
}

# Spaces of one weapon type, at most: the largest entry of the table above.
MAX_SPACES = max(max(row) for row in SPACES.values())
# Fill rolls, at most: the catalogue's loop cap [A15] (its default) is also the ceiling.
MAX_FILL_ROLLS = 1000

WEAPON_TYPES = ("torp", "drone", "phaser")
WEAPON_TYPE_NAMES = {"torp": "torpedo-hit", "drone": "drone-hit", "phaser": "phaser-hit"}

# IR107.332: the printed torpedo-hit chart, in the contract's `chart` JSON shape
# (keys "2".."12"; weight defaults to spaces). Drone and phaser charts are GM-data [A11].
TORPEDO_CHART = {
    "2": {"weapon": "Plasma-R (FA)", "spaces": 2, "weight": 2},
    "3": {"weapon": "TR-H (FA)", "spaces": 2, "weight": 2},
    "4": {"weapon": "Plasma-G (FA)", "spaces": 2, "weight": 2},
    "5": {"weapon": "Plasma-F (FA)", "spaces": 1, "weight": 1},
    "6": {"weapon": "Disruptor (FA)", "spaces": 1, "weight": 1},
    "7": {"weapon": "Fusion (FA)", "spaces": 1, "weight": 1},
    "8": {"weapon": "Particle Cannon (FA)", "spaces": 1, "weight": 1},
    "9": {"weapon": "Photon (FA)", "spaces": 1, "weight": 1},
    "10": {"weapon": "TR-L (FA)", "spaces": 1, "weight": 1},
    "11": {"weapon": "Plasma-S (FA)", "spaces": 2, "weight": 2},
    "12": {"weapon": "WARG (FA)", "spaces": 2, "weight": 2},
}

# IR107.32: weapons no chart may hold (Maulers, SFGs = stasis field generators), matched
# case-insensitively anywhere in the weapon's name.
FORBIDDEN_WEAPON_WORDS = (("mauler", "Maulers"), ("sfg", "SFGs"), ("stasis field", "SFGs"))

# IR107.23: inter-sector terrain is detected automatically within this range; the lockout
# after passing through lasts this many turns [A14].
TERRAIN_DETECTION_HEXES = 300
TERRAIN_LOCKOUT_TURNS = 500

# IR107.342: each drone rack regains this many spaces per turn.
DRONE_RELOAD_PER_TURN = 1

# booby_trap.generate has no max_rolls input: it fills until full, however many rolls that
# takes (C.9); odds that count its rolls would stop counting at this many [A15].
FILL_ROLLS_ODDS_CAP = 1000
