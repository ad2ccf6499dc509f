"""What the formats and the record sheet agree on: location names, structure, equipment words."""

from __future__ import annotations

import math

from referee.sheets.document import STRUCTURE_TABLE

# 'Mech internal structure by tonnage, the record sheet's own table (Total Warfare): centre torso,
# each side torso, each arm, each leg. The head always has 3.
MECH_STRUCTURE = STRUCTURE_TABLE

HEAD, CT, LT, RT = "Head", "Center Torso", "Left Torso", "Right Torso"
LA, RA, LL, RL = "Left Arm", "Right Arm", "Left Leg", "Right Leg"
FLL, FRL, RLL, RRL, CL = "Front Left Leg", "Front Right Leg", "Rear Left Leg", "Rear Right Leg", "Center Leg"

# Sheet order of each configuration's locations.
MECH_LOCATIONS = {
    "Biped": (HEAD, CT, LT, RT, LA, RA, LL, RL),
    "LAM": (HEAD, CT, LT, RT, LA, RA, LL, RL),
    "Quad": (HEAD, CT, LT, RT, FLL, FRL, RLL, RRL),
    "QuadVee": (HEAD, CT, LT, RT, FLL, FRL, RLL, RRL),
    "Tripod": (HEAD, CT, LT, RT, LA, RA, LL, RL, CL),
}
# The order MegaMek writes armour lines and critical blocks in.
MTF_ARMOR_ORDER = {
    "Biped": (LA, RA, LT, RT, CT, HEAD, LL, RL),
    "Quad": (FLL, FRL, LT, RT, CT, HEAD, RLL, RRL),
    "Tripod": (LA, RA, LT, RT, CT, HEAD, LL, RL, CL),
}
MTF_ARMOR_ORDER["LAM"] = MTF_ARMOR_ORDER["Biped"]
MTF_ARMOR_ORDER["QuadVee"] = MTF_ARMOR_ORDER["Quad"]

MTF_ARMOR_CODES = {
    "HD": HEAD,
    "CT": CT,
    "LT": LT,
    "RT": RT,
    "LA": LA,
    "RA": RA,
    "LL": LL,
    "RL": RL,
    "FLL": FLL,
    "FRL": FRL,
    "RLL": RLL,
    "RRL": RRL,
    "CL": CL,
}
MTF_CODE_OF = {name: code for code, name in MTF_ARMOR_CODES.items()}
MTF_REAR_CODES = {"RTC": CT, "RTL": LT, "RTR": RT}
MTF_REAR_CODE_OF = {name: code for code, name in MTF_REAR_CODES.items()}
REAR_LOCATIONS = (CT, LT, RT)

ALL_MECH_LOCATIONS = (HEAD, CT, LT, RT, LA, RA, LL, RL, FLL, FRL, RLL, RRL, CL)
LEGS = (LL, RL, FLL, FRL, RLL, RRL, CL)


def mech_slots(config: str, location: str) -> int:
    """Critical slots of a location: 6 in the head and legs, 12 elsewhere."""
    return 6 if location == HEAD or location in LEGS else 12


def mech_structure(tonnage: int, location: str) -> int:
    ct, side, arm, leg = MECH_STRUCTURE[tonnage]
    if location == HEAD:
        return 3
    if location == CT:
        return ct
    if location in (LT, RT):
        return side
    if location in (LA, RA):
        return arm
    return leg


def mech_armor_max(tonnage: int, location: str) -> int:
    """The most armour a location can carry (front and rear together): 9 on the head, else twice its structure."""
    return 9 if location == HEAD else 2 * mech_structure(tonnage, location)


def run_mp(walk: int) -> int:
    return math.ceil(walk * 1.5)


def tech_base_of(text: str) -> str | None:
    """'Inner Sphere' / 'Clan' / 'Mixed' from how MegaMek files spell it ('IS Level 2', 'Mixed (IS Chassis)')."""
    low = text.strip().lower()
    if low.startswith("mixed"):
        return "Mixed"
    if low.startswith("clan"):
        return "Clan"
    if low.startswith(("is", "inner sphere")):
        return "Inner Sphere"
    return None


ENGINE_TYPES = ("Fusion", "XL", "XXL", "Light", "Compact", "ICE", "Fuel Cell", "Fission")
# MegaMek's engine codes in building-block files.
BLK_ENGINE_CODES = {
    0: "ICE",
    1: "Fusion",
    2: "XL",
    3: "XXL",
    4: "Fuel Cell",
    5: "Light",
    6: "Compact",
    7: "Fission",
    8: "None",
    9: "Maglev",
    10: "Steam",
    11: "Battery",
    12: "Solar",
    13: "External",
}
BLK_ENGINE_CODE_OF = {name: code for code, name in BLK_ENGINE_CODES.items()}

# Words that make an item equipment rather than a weapon. Unit files do not say which is which;
# MegaMek looks every name up in its equipment tables, which this reader does not carry.
_EQUIPMENT_WORDS = (
    "ammo",
    "case",
    "heat sink",
    "heatsink",
    "jump jet",
    "jumpjet",
    "armor",
    "armour",
    "actuator",
    "probe",
    "ecm",
    "cargo",
    "handles",
    "stealth",
    "claw",
    "swarm",
    "legattack",
    "leg attack",
    "apmount",
    "ap mount",
    "booster",
    "quarters",
    "searchlight",
    "sensor",
    "communications",
    "module",
    "c3",
    "artemis",
    "masc",
    "tsm",
    "endo",
    "ferro",
    "shield",
    "mast",
    "lift hoist",
    "ejection",
    "life support",
    "cockpit",
    "gyro",
    "engine",
    "hitch",
    "fuel",
    "camo",
    "spikes",
    "door",
    "collar",
    "grav deck",
    "hpg",
    "reflective",
    "reactive",
    "hardened",
    "clamp",
    "mine dispenser",
    "minesweeper",
    "beagle",
    "bloodhound",
    "guardian",
    "angel",
    "watchdog",
    "radical",
    "supercharger",
    "partial wing",
    "harjel",
    "coolant",
    "escape pod",
    "life boat",
    "lifeboat",
    "bridge",
    "chassis mod",
    "environmental",
    "turret",
)


def is_weapon(name: str) -> bool:
    low = name.lower()
    return not any(word in low for word in _EQUIPMENT_WORDS)
