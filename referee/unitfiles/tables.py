"""What the formats and the record sheet agree on: location names, structure, equipment words."""

from __future__ import annotations

import math
import re

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
# The engine codes of building-block files (MegaMek's BLKFile constants). They are not
# MegaMek's own Engine type numbers: in a .blk file 0 is a fusion engine and 1 an ICE.
BLK_ENGINE_CODES = {
    0: "Fusion",
    1: "ICE",
    2: "XL",
    3: "XXL",
    4: "Light",
    5: "Compact",
    6: "Fuel Cell",
    7: "Fission",
    8: "None",
    9: "Maglev",
    10: "Steam",
    11: "Battery",
    12: "Solar",
    13: "External",
}
BLK_ENGINE_CODE_OF = {name: code for code, name in BLK_ENGINE_CODES.items()}
# Engines that burn fuel rather than fuse it: the record's engine type is "ice" for these.
COMBUSTION_ENGINES = ("ICE", "Fuel Cell", "Steam", "Battery", "Solar", "External", "Maglev", "None")


def suspension_factor(motion: str, tonnage: float) -> int:
    """A vehicle's suspension factor (TechManual, Combat Vehicles): its engine rating is
    cruising MP times tonnage less this."""
    motion = motion.lower()
    steps = {
        "hover": ((10, 40), (20, 85), (30, 130), (40, 175), (50, 235)),
        "hydrofoil": (
            (10, 60), (20, 105), (30, 150), (40, 195), (50, 255),
            (60, 300), (70, 345), (80, 390), (90, 435), (100, 480),
        ),
        "vtol": ((10, 50), (20, 95), (30, 140)),
        "wige": ((15, 45), (30, 80), (45, 115), (80, 140)),
    }  # fmt: skip
    if motion in ("naval", "submarine"):
        if tonnage <= 300:
            return 30
        factor = math.ceil(tonnage / 10)
        return factor + factor % 5
    if motion == "wheeled":
        return 20 if tonnage <= 80 else 40
    for most, factor in steps.get(motion, ()):
        if tonnage <= most:
            return factor
    if motion == "hover":
        return 235 + 45 * math.ceil((tonnage - 50) / 25)
    if motion == "hydrofoil":
        return 480
    if motion == "vtol":
        return 140 + 45 * math.ceil((tonnage - 30) / 20)
    if motion == "wige":
        return 140 + 35 * math.ceil((tonnage - 80) / 30)
    return 0


def vehicle_engine_rating(motion: str, tonnage: float, cruise: int) -> int:
    """Cruising MP × tonnage − suspension factor, at least 10, rounded up to a multiple of 5."""
    rating = max(10, cruise * int(tonnage) - suspension_factor(motion, tonnage))
    return rating + (-rating) % 5


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
    "mash",
    "medical",
    "paramedic",
    "field kitchen",
    "field base",
    "crane",
    "bulldozer",
    "drone",
    "manipulator",
    "adaptor",
    "modular",
    "sponson",
    "pintle",
    "seat",
    "storage",
    "tracks",
    "camera",
    "command console",
    "remote sensor",
    "spotlight",
    "trailer",
    "armored",
    "ladder",
    "bay",
    "quarters",
    "kit",
    "dispenser",
    "battery",
    # electronics and ship's systems that MegaMek keeps as equipment, not as weapons
    "computer",  # targeting computer, tactical analysis computer
    "fire control",  # a support vehicle's basic or advanced fire control
    "firecontrol",
    "capacitor",  # a PPC capacitor
    "insulator",
    "apollo",
    "cews",
    "signature",  # null and void signature systems
    "chameleon",
    "interface",  # enhanced imaging interface
    "interrupt",  # damage interrupt circuit
    "scanner",  # naval comm-scanner suites
    "imager",
    "radar",
    "self destruct",
    "selfdestruct",
    "hardpoint",
    "sail",
    "flotation",
    "off-road",
    "umu",
    "resistant",  # fire-resistant and impact-resistant armour in a suit's or 'Mech's slots
    "mimetic",
    "ballistic-reinforced",
    "anti-penetrative",
    "heat-dissipating",
    "chassis",  # chassis modifications (STOL, armored, amphibious...)
    "chaff",
    "amplifier",
    "cowl",
    "weapon pack",
    "suction",
    "sprayer",
    "extinguisher",
)


# The same words as MegaMek's internal names write them, run together ("ISMobileFieldBase").
_JOINED_WORDS = tuple(word.replace(" ", "") for word in _EQUIPMENT_WORDS if " " in word)


def is_weapon(name: str) -> bool:
    # a re-engineered laser has no engine, a gyrojet rifle no gyro
    low = name.lower().replace("re-engineered", "").replace("gyrojet", "")
    if low.endswith(("mga", "machine gun array")):  # the array, not its machine guns
        return False
    joined = re.sub(r"[\s_-]", "", low)
    return not any(word in low for word in _EQUIPMENT_WORDS) and not any(
        word in joined for word in _JOINED_WORDS
    )
