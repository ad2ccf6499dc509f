"""The record sheets of the seed's unit and ship classes. The demo campaign carries them as
designs and on its records.

Where the values come from, class by class:

- Victor VTR-9K: as Technical Readout 3050 prints it (MegaMek's unit file of the design):
  every location, slot and weapon below is the published sheet.
- Ships: facing armour is in BattleSpace boxes, the scale the campaign plays (the seed's
  own figures where it gives them: the Waterloo's K-F integrity 4 and three collars, the
  Valley Forge's 25 collars, the Garibaldi's one, the John Wayne's 14 crew and 28
  passengers, the Lightning's 12 heat sinks). Tonnage, heat sinks, fuel, bays, collars,
  crew and weapons of the Invader and the Scout are those of MegaMek's files of Technical
  Readout 3057R (the Scout weighs 90,000 t there). The Union's, the Potemkin's and the
  Lightning's weapon fits and the ships' structural integrity could not be confirmed here:
  their weapon lists are left empty (the GM adds them on the sheet, or imports the unit
  file), and structural integrity is marked as a GM's figure in each docstring.
- Elemental point: five troopers of 10 armour (the campaign's armour per trooper), jump 3,
  small laser and two-shot SRM 2 as Technical Readout 3050 arms the Elemental.
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


def _facings(
    nose: int, fore_left: int, fore_right: int, aft_left: int, aft_right: int, aft: int
) -> list[dict]:
    values = (nose, fore_left, fore_right, aft_left, aft_right, aft)
    return [
        {"name": n, "armor": v, "armor_max": v} for n, v in zip(document.SHIP_FACINGS, values, strict=True)
    ]


def invader() -> dict:
    """Invader JumpShip (TRO 3057R, 2631). Structural integrity 1 as MegaMek's file has it."""
    return document.normalise(
        {
            "unit_type": "jumpship",
            "chassis": "Invader",
            "model": "JumpShip",
            "tonnage": 152000,
            "year": 2631,
            "motion": "Aerodyne",
            "movement": {"safe_thrust": 0},
            "heat_sinks": {"count": 119, "type": "single"},
            "facings": _facings(9, 8, 8, 7, 7, 6),
            "structural_integrity": {"value": 1},
            "weapons": [
                {"name": "Large Laser", "location": "Fore-left", "bay": "Laser bay"},
                {"name": "Large Laser", "location": "Fore-right", "bay": "Laser bay"},
            ],
            "bays": [
                {"type": "Small Craft", "capacity": 2, "doors": 1},
                {"type": "Cargo", "capacity": 262, "doors": 1},
                {"type": "Cargo", "capacity": 262, "doors": 1},
            ],
            "docking_collars": 3,
            "kf_drive": {"integrity": 4, "integrity_max": 4},
            "crew": {"crew": 24, "officers": 4, "gunners": 1, "passengers": 0},
            "fuel": {"tons": 250},
        }
    )


def scout() -> dict:
    """Scout JumpShip (TRO 3057R, 2712): 90,000 t, one collar, no weapons."""
    return document.normalise(
        {
            "unit_type": "jumpship",
            "chassis": "Scout",
            "model": "JumpShip",
            "tonnage": 90000,
            "year": 2712,
            "motion": "Aerodyne",
            "movement": {"safe_thrust": 0},
            "heat_sinks": {"count": 158, "type": "single"},
            "facings": _facings(4, 3, 3, 3, 3, 2),
            "structural_integrity": {"value": 1},
            "bays": [
                {"type": "Small Craft", "capacity": 1, "doors": 1},
                {"type": "Cargo", "capacity": 518, "doors": 1},
                {"type": "Cargo", "capacity": 519.5, "doors": 1},
            ],
            "docking_collars": 1,
            "kf_drive": {"integrity": 3, "integrity_max": 3},
            "crew": {"crew": 10, "officers": 2, "passengers": 0},
            "fuel": {"tons": 460},
        }
    )


def union() -> dict:
    """Union DropShip: 3,500 t spheroid carrying a company of twelve 'Mechs and two fighters.
    Structural integrity 9 is a GM's figure; weapons not confirmed (left for the GM)."""
    return document.normalise(
        {
            "unit_type": "dropship",
            "chassis": "Union",
            "model": "DropShip",
            "tonnage": 3500,
            "motion": "Spheroid",
            "movement": {"safe_thrust": 3, "max_thrust": 5},
            "heat_sinks": {"count": 90, "type": "single"},
            # a DropShip's record sheet: four armoured arcs, each side one value
            "facings": [
                {"name": name, "armor": value}
                for name, value in zip(document.DROPSHIP_FACINGS, (13, 11, 11, 8), strict=True)
            ],
            "structural_integrity": {"value": 9},
            "bays": [
                {"type": "Mech", "capacity": 12, "doors": 3},
                {"type": "Fighter", "capacity": 2, "doors": 1},
            ],
            "crew": {"crew": 14, "passengers": 28},
            "fuel": {"points": 80},
        }
    )


def potemkin() -> dict:
    """Potemkin WarShip: 1,100,000 t troop carrier with 25 docking collars. Structural
    integrity 50 is a GM's figure; its naval weapons are not confirmed (left for the GM)."""
    return document.normalise(
        {
            "unit_type": "warship",
            "chassis": "Potemkin",
            "model": "WarShip",
            "tonnage": 1100000,
            "year": 2611,
            "motion": "Aerodyne",
            "heat_sinks": {"count": 2596, "type": "single"},
            "facings": _facings(42, 38, 38, 34, 34, 30),
            "structural_integrity": {"value": 50},
            "docking_collars": 25,
            "kf_drive": {"integrity": 5, "integrity_max": 5},
            "crew": {"crew": 480, "passengers": 0},
        }
    )


def lightning() -> dict:
    """Lightning aerospace fighter (LTN-G15), 50 t, 12 heat sinks as the seed's overburn
    example has it. Thrust and armour per arc as the campaign's squadron row; weapons not
    confirmed (left for the GM)."""
    return document.normalise(
        {
            "unit_type": "aerospace_fighter",
            "chassis": "Lightning",
            "model": "LTN-G15",
            "tonnage": 50,
            "motion": "Aerodyne",
            "movement": {"safe_thrust": 6, "max_thrust": 9},
            "heat_sinks": {"count": 12, "type": "single"},
            "locations": [
                {"name": "Nose", "armor": 6},
                {"name": "Left Wing", "armor": 5},
                {"name": "Right Wing", "armor": 5},
                {"name": "Aft", "armor": 4},
            ],
            "structural_integrity": {"value": 5},
            "pilot": {"name": "", "gunnery": 4, "piloting": 4, "hits": 0},
            "fuel": {"points": 20},
        }
    )


def elemental_point() -> dict:
    """A Clan Elemental point: five troopers, 10 armour each, jump 3, small laser and a
    two-shot SRM 2 each (Technical Readout 3050)."""
    return document.normalise(
        {
            "unit_type": "battle_armor",
            "chassis": "Elemental",
            "model": "Point",
            "tonnage": 5,
            "tech_base": "Clan",
            "motion": "Jump",
            "movement": {"walk": 1, "jump": 3},
            "troopers": [{"armor": 10, "armor_max": 10, "alive": True} for _ in range(5)],
            "weapons": [
                {"name": "Small Laser", "location": "Right Arm", "count": 5},
                {"name": "SRM 2", "location": "Body", "count": 5},
            ],
            "equipment": [
                {"name": "SRM 2 Ammo", "location": "Body", "shots": 2},
                {"name": "Battle Claw", "location": "Left Arm"},
            ],
            "pilot": {"name": "", "gunnery": 3, "piloting": 5, "hits": 0},
        }
    )


# The demo's designs, by the name a GM picks them under.
SEED_CLASSES = {
    "Invader JumpShip": invader,
    "Union DropShip": union,
    "Potemkin WarShip": potemkin,
    "Scout JumpShip": scout,
    "Lightning LTN-G15": lightning,
    "Victor VTR-9K": victor_vtr_9k,
    "Elemental point": elemental_point,
}
