"""Character templates printed in the seeds (static data, no procedure).

Seed B (004_a36b5ea8439b26e7.txt), "Explorer MechWarrior"; catalogue section 13.
Plain JSON-style data so the web app can create the character in one click:
call :func:`explorer_mechwarrior` for a fresh copy it may change.
"""

import copy

EXPLORER_MECHWARRIOR = {
    "template": "explorer_mechwarrior",
    "name": "Explorer MechWarrior",
    "reference": "004_a36b5ea8439b26e7.txt, Explorer MechWarrior",
    # value and target number ("BLD 4 (8+)")
    "attributes": {
        "BLD": {"value": 4, "target": 8},
        "REF": {"value": 5, "target": 7},
        "INT": {"value": 5, "target": 7},
        "LRN": {"value": 5, "target": 7},
        "CHA": {"value": 3, "target": 9},
    },
    # characteristic -> target number
    "characteristics": {"athletic": 9, "physical": 8, "mental": 8, "social": 10},
    "advantages": [{"name": "Well-Equipped", "points": 2}],
    "skill_package": "MechWarrior",
    "skills": [
        {"name": "Communications/Conventional", "level": 1, "target": 7},
        {"name": "Gunnery/BattleMech", "level": 3, "target": 5},
        {"name": "Leadership", "level": 1, "target": 9},
        {"name": "Medtech", "level": 1, "target": 7},
        {"name": "Perception", "level": 1, "target": 7},
        {"name": "Piloting/BattleMech", "level": 2, "target": 6},
        {"name": "Security Systems", "level": 1, "target": 7},
        {"name": "Small Arms", "level": 2, "target": 6},
        {"name": "Survival", "level": 2, "target": 6},
        {"name": "Technician/BattleMech", "level": 1, "target": 7},
        {"name": "Tracking", "level": 1, "target": 7},
        {"name": "Unarmed Combat", "level": 2, "target": 7},
        {"name": "Zero-G Operations", "level": 1, "target": 7},
    ],
    "edge": 1,
    "assets_cbills": 500,
    "battlemech": "light",
    "equipment": [
        "Climbing Gear",
        "Environment Suit, Light",
        "Field Kit, Deluxe",
        "Lock-Pick Kit, Mechanical",
        "2 Medkits",
        "Noteputer",
        "Personal Communicator, Long-Range",
        "3 Power Packs, High Capacity",
        "Rangefinder Binoculars",
        "Recharger, Solar",
        "Respirator",
        "Satchel Battery, High Capacity",
        "Security Bypass Kit, Advanced",
        "Tool Kit, Deluxe",
    ],
    "weapons_and_armor": [
        "Bayonet",
        "Body Suit, Flak",
        "Helmet",
        "Imperator SMG w/10 reloads",
        "Needler Pistol w/10 reloads",
        "Pump Shotgun w/10 reloads",
        "Sonic Stunner",
        "Vest, Plate",
    ],
    # The same template in the fleet Character's terms: attribute values and skill
    # target numbers (no Navigation skill is printed, so that is left to the model's default).
    "character_fields": {
        "role": "mechwarrior",
        "bld": 4,
        "ref": 5,
        "piloting": 6,
        "gunnery": 5,
        "leadership": 9,
    },
}

TEMPLATES = {"explorer_mechwarrior": EXPLORER_MECHWARRIOR}


def explorer_mechwarrior() -> dict:
    """A fresh, independent copy of the Explorer MechWarrior template."""
    return copy.deepcopy(EXPLORER_MECHWARRIOR)
