"""G-Force Thresholds Table (Seed B), as the catalogue reads its garbled layout [A19]."""

# 2 Thrust Points per turn = 1 G (12 TP = 6 G).
TP_PER_G = 2

# Primary (blackout) threshold in G.
PRIMARY_NO_SUIT = 6
PRIMARY_G_SUIT = 11  # "short periods"
PRIMARY_G_SUIT_EXTENDED = 6  # "extended periods" (GM option)

# Secondary (fatigue) threshold in G by role.
SECONDARY = {"aerospace_pilot": 6, "crew": 3, "passenger": 3}

# Thrust Points a vessel spends in one turn, at most: the bruise roll is 1D6 per TP. The
# table's highest threshold is 23 TP (11 G in a G-suit); no craft of the rules thrusts
# harder than 30 TP (15 G), so more is a typing slip, not a manoeuvre.
MAX_THRUST_POINTS = 30

# Tactical use of unexpected G-forces (boarding-action system).
BOARDING_COLUMN_SHIFT = 2
BOARDING_ROLL_MODIFIER = -2
BOARDING_MIN_RESULT = 2

ROLE_NAMES = {"aerospace_pilot": "aerospace pilot", "crew": "crew member", "passenger": "passenger"}
