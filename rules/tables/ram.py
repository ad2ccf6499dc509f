"""BattleSpace ramming tables (Seed B: Accidental Collisions, Ramming Attacks Table)."""

# Accidental collision check: 2D6 at or above this means the craft collide.
COLLISION_AT = 10

# Which Out-of-Control movers roll against which occupants (C.10 7.1). A fighter unit
# entering a fighter unit's hex never rolls; the seed names only "a large ship" for
# fighters, and "another large vessel or space station" for large ships.
LARGE_SHIPS = frozenset({"dropship", "jumpship", "warship"})
COLLISION_CHECK = {
    "large": LARGE_SHIPS | {"station"},
    "fighter_unit": LARGE_SHIPS,
}

# Collision damage 1D6: 1-5 both craft destroyed, 6 a glancing collision.
GLANCING_ON = 6

# Crew agreement for a deliberate ram: 2D6 at or above this; the MechWarrior
# Leadership roll instead takes the skill's target number + 4 (+ GM modifiers).
CONVINCE_AT = 11
LEADERSHIP_MODIFIER = 4

# Ramming Attacks Table: target -> (base to-hit number, may take the -2 when it
# cannot accelerate). Only the footnoted WarShip and DropShip rows get the -2 [A55].
RAMMING_TN = {
    "warship": (7, True),
    "jumpship": (6, False),
    "station": (5, False),
    "dropship": (8, True),
}
CANNOT_ACCELERATE_MODIFIER = -2

NAMES = {
    "dropship": "DropShip",
    "jumpship": "JumpShip",
    "warship": "WarShip",
    "station": "station",
    "fighter_unit": "fighter unit",
    "large": "ramming ship",
}
