"""Boarding actions (Seed B: Boarding Actions, Boarding Failure Table, Converting BattleSpace
Damage to BattleTech)."""

# Landing Control Roll: 'Mech Piloting + 2 + damage modifiers; battle armour 6 + modifiers.
CONTROL_PSR_MOD = 2
BA_CONTROL_TN = 6
LEG_MOUNTED_JETS_MULTIPLIER = 2  # damaged leg-actuator modifiers double with leg-mounted jets

TARGET_TEXT = {"dropship": "DropShip", "warship": "WarShip", "jumpship": "JumpShip"}

# Boarding Failure Table: Margin of Failure -> (outcome, Damage Points, landed?).
FAILURE_BANDS = (
    (1, ("hard_landing", 1, True)),
    (2, ("very_hard_landing", 2, True)),
    (3, ("glancing_collision", 1, False)),
    (4, ("collision", 2, False)),
    (5, ("hard_collision", 3, False)),
    (None, ("off_target", 0, False)),
)
OFF_TARGET = "off_target"

OUTCOME_TEXT = {
    "clean": "lands cleanly",
    "hard_landing": "hard landing: lands, takes 1 Damage Point",
    "very_hard_landing": "very hard landing: lands, takes 2 Damage Points",
    "glancing_collision": "glancing collision: bounces off the hull, takes 1 Damage Point, does not land",
    "collision": "collision: bounces off the hull, takes 2 Damage Points, does not land",
    "hard_collision": "hard collision: bounces off the hull, takes 3 Damage Points, does not land",
    "off_target": "off target: misses the vessel and may make no more movement this turn",
}

# Locations on the target vessel a landed unit can stand on.
LOCATION_TEXT = {
    "nose": "nose",
    "fore_left": "fore-left",
    "fore_right": "fore-right",
    "aft_left": "aft-left",
    "aft_right": "aft-right",
    "aft": "aft",
}
# Maneuvering thrusters: a unit in either side location may attack that side's thrusters.
THRUSTER_LOCATIONS = frozenset({"fore_left", "fore_right", "aft_left", "aft_right"})
# The transit drive: only from the aft location.
TRANSIT_DRIVE_LOCATIONS = frozenset({"aft"})
# Bay doors: Bay 1 fore-left, Bay 2 fore-right, Bay 3 either aft side.
BAY_DOOR_LOCATIONS = {
    1: frozenset({"fore_left"}),
    2: frozenset({"fore_right"}),
    3: frozenset({"aft_left", "aft_right"}),
}

ATTACK_TEXT = {
    "hull": "hull",
    "weapon_bay": "weapon bay",
    "bay_door": "bay door",
    "door": "door",
    "thruster": "maneuvering thrusters",
    "transit_drive": "transit drive",
}

# Melee weapons against the hull: BattleTech damage / 10, rhu [A41].
MELEE_DIVISOR = 10

# Converting BattleSpace damage to BattleTech: each box is 10 Damage Points to one location
# ('Mech) or one trooper eliminated (battle armour). The Front column of the BattleMech Hit
# Location Table (BTC:RoW, not printed in the seed; the GM may supply another table).
DAMAGE_PER_BOX = 10
# Boxes converted at once, at most: a 100-ton 'Mech has 307 armour and 152 internal
# structure points, 46 boxes of 10; more would destroy any 'Mech twice over.
MAX_BOXES = 46
FRONT_HIT_LOCATION = {
    2: "CT",
    3: "RA",
    4: "RA",
    5: "RL",
    6: "RT",
    7: "CT",
    8: "LT",
    9: "LL",
    10: "LA",
    11: "LA",
    12: "HD",
}
CRIT_CHECK_ROLL = 2  # a 2 hits the CT with a through-armour critical check
# A box's location is rolled again until it lands on one that is not re-rolled, however
# many rolls that takes (C.9). The odds of the rolls themselves (``location_rolls``) list
# up to this many per box and lump the (vanishing) tail beyond into it (C.6, C.9).
LOCATION_ROLLS_ODDS_CAP = 1000
