"""The record sheets of the seed's unit and ship classes, as their published record sheets
print them. The demo campaign carries them as designs and on its records.

Values from MegaMek's unit files of the published designs where one exists (the Victor
VTR-9K as Technical Readout 3050 prints it); the notes on each say what could not be confirmed.
"""

from __future__ import annotations

from . import document

_EMPTY = None


def _slots(*names: str | None) -> list[dict]:
    return [{"name": name, "hit": False} for name in names]


def _arm(*rest: str | None) -> list[dict]:
    return _slots("Shoulder", "Upper Arm Actuator", "Lower Arm Actuator", *rest)


def _leg(*rest: str | None) -> list[dict]:
    return _slots("Hip", "Upper Leg Actuator", "Lower Leg Actuator", "Foot Actuator", *rest)


def _loc(name: str, armor: int, structure: int, rear: int | None = None) -> dict:
    loc = {
        "name": name,
        "armor": armor,
        "armor_max": armor,
        "structure": structure,
        "structure_max": structure,
    }
    if rear is not None:
        loc.update(rear_armor=rear, rear_armor_max=rear)
    return loc


def victor_vtr_9k() -> dict:
    """Victor VTR-9K (Technical Readout 3050): 80 t, fusion 320, 4/6/4, 15 single heat sinks,
    endo steel, 200 armour points; Gauss rifle in the right arm, two medium pulse lasers in
    the left, an SRM 4 in the left torso, CASE in both side torsos."""
    e = "Endo Steel"
    return document.normalise(
        {
            "format": 1,
            "unit_type": "mech",
            "chassis": "Victor",
            "model": "VTR-9K",
            "tonnage": 80,
            "tech_base": "Inner Sphere",
            "year": 3049,
            "rules_level": 2,
            "config": "Biped",
            "engine": {"rating": 320, "type": "Fusion"},
            "movement": {"walk": 4, "run": 6, "jump": 4},
            "heat_sinks": {"count": 15, "type": "single"},
            "armor_type": "Standard",
            "structure_type": "Endo Steel",
            "locations": [
                _loc("Head", 9, 3),
                _loc("Center Torso", 34, 25, rear=15),
                _loc("Left Torso", 23, 17, rear=10),
                _loc("Right Torso", 23, 17, rear=10),
                _loc("Left Arm", 18, 13),
                _loc("Right Arm", 18, 13),
                _loc("Left Leg", 20, 17),
                _loc("Right Leg", 20, 17),
            ],
            "criticals": {
                "Head": _slots("Life Support", "Sensors", "Cockpit", "Heat Sink", "Sensors", "Life Support"),
                "Center Torso": _slots(
                    *["Fusion Engine"] * 3, *["Gyro"] * 4, *["Fusion Engine"] * 3, "Jump Jet", "Jump Jet"
                ),
                "Left Torso": _slots("SRM 4", "SRM 4 Ammo", "CASE", *[e] * 7, _EMPTY, _EMPTY),
                "Right Torso": _slots("Gauss Ammo", "Gauss Ammo", "CASE", *[e] * 7, _EMPTY, _EMPTY),
                "Left Arm": _arm("Hand Actuator", "Medium Pulse Laser", "Medium Pulse Laser", *[_EMPTY] * 6),
                "Right Arm": _arm(*["Gauss Rifle"] * 7, _EMPTY, _EMPTY),
                "Left Leg": _leg("Heat Sink", "Jump Jet"),
                "Right Leg": _leg("Heat Sink", "Jump Jet"),
            },
            "weapons": [
                {"name": "Gauss Rifle", "location": "Right Arm"},
                {"name": "Medium Pulse Laser", "location": "Left Arm"},
                {"name": "Medium Pulse Laser", "location": "Left Arm"},
                {"name": "SRM 4", "location": "Left Torso"},
            ],
            "equipment": [
                {"name": "Gauss Ammo", "location": "Right Torso", "shots": 16},
                {"name": "SRM 4 Ammo", "location": "Left Torso", "shots": 25},
                {"name": "CASE", "location": "Left Torso"},
                {"name": "CASE", "location": "Right Torso"},
            ],
            "pilot": {"name": "", "gunnery": 4, "piloting": 5, "hits": 0},
        }
    )
