"""The record-sheet document: one JSON dict per unit or ship, as a record sheet reads.

``normalise(doc)`` checks a sheet and gives it back in its one canonical shape (locations in
sheet order, every slot present, whole numbers as ints), or raises ``SheetError`` whose
message a GM can act on. The helpers below change a sheet the way the rules do (damage
through armour into structure and on inwards, critical hits, heat, pilot hits, trooper
losses); each returns the new sheet and what happened in plain words, never editing the
one it was given. ``record_fields`` gives the record's summary fields a sheet implies
(armour factor, facing armour, heat, engine hits...), so procedures that read those fields
keep reading what the sheet says.

The shape is the shared contract of the sheets and the unit-file import (format 1):
unit types ``mech``, ``vehicle``, ``battle_armor``, ``infantry``, ``aerospace_fighter``,
``small_craft``, ``dropship``, ``jumpship``, ``warship``, ``space_station``. Two liberties
taken while normalising: a DropShip's four armoured arcs of a unit file (Nose, Left Side,
Right Side, Aft) stay four (no side is counted twice; the record's fore facing of each side
holds it), and a mech's missing locations are added with no armour and the standard
internal structure for its tonnage.
"""

from __future__ import annotations

import copy
import json
import math
import re
from typing import Any

FORMAT = 1
MAX_SHEET_BYTES = 24 * 1024  # a sheet is logged whole (before and after) on every change
MAX_TEXT = 200
MAX_BOXES = 100_000  # armour points of a WarShip facing are in the thousands at most
MAX_LIST = 300

UNIT_TYPES = {
    "mech": "BattleMech",
    "vehicle": "Combat vehicle",
    "battle_armor": "Battle armour",
    "infantry": "Infantry",
    "aerospace_fighter": "Aerospace fighter",
    "small_craft": "Small craft",
    "dropship": "DropShip",
    "jumpship": "JumpShip",
    "warship": "WarShip",
    "space_station": "Space station",
}
UNIT_RECORD = {"mech", "vehicle", "battle_armor", "infantry"}  # these become Units, the rest Ships
SHIP_TYPES = {"dropship", "jumpship", "warship", "space_station"}
WINGED = {"aerospace_fighter", "small_craft"}

MECH_CONFIGS = ("Biped", "Quad", "Tripod", "LAM")
BIPED_LOCATIONS = (
    "Head",
    "Center Torso",
    "Left Torso",
    "Right Torso",
    "Left Arm",
    "Right Arm",
    "Left Leg",
    "Right Leg",
)
QUAD_LOCATIONS = (
    "Head",
    "Center Torso",
    "Left Torso",
    "Right Torso",
    "Front Left Leg",
    "Front Right Leg",
    "Rear Left Leg",
    "Rear Right Leg",
)
TRIPOD_LOCATIONS = (*BIPED_LOCATIONS, "Center Leg")
TORSOS = ("Center Torso", "Left Torso", "Right Torso")  # the locations with rear armour
SIX_SLOT_LOCATIONS = {"Head", "Left Leg", "Right Leg", "Center Leg", *QUAD_LOCATIONS[4:]}
VEHICLE_LOCATIONS = ("Front", "Left", "Right", "Rear", "Turret", "Front Turret", "Rotor")
VEHICLE_BASE = ("Front", "Left", "Right", "Rear")
WING_LOCATIONS = ("Nose", "Left Wing", "Right Wing", "Aft")
SHIP_FACINGS = ("Nose", "Fore-left", "Fore-right", "Aft-left", "Aft-right", "Aft")
# A DropShip's armour as its record sheet (and its unit file) gives it: four arcs, each side one.
DROPSHIP_FACINGS = ("Nose", "Left Side", "Right Side", "Aft")
SHIP_ARCS = (*SHIP_FACINGS, "Left Side", "Right Side", "Left Broadside", "Right Broadside", "Hull")
FOUR_ARCS = {"Left Side": ("Fore-left", "Aft-left"), "Right Side": ("Fore-right", "Aft-right")}
# The record's armour fields of each facing. A DropShip's side is one armour value: it is the
# record's fore facing of that side, and the aft facing of that side holds none of its own.
FACING_FIELDS = {
    **dict(
        zip(SHIP_FACINGS, ("nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"), strict=True)
    ),
    "Left Side": "fore_left",
    "Right Side": "fore_right",
}

# Where damage goes once a location is destroyed (the damage-transfer diagram).
TRANSFER = {
    "Left Arm": "Left Torso",
    "Right Arm": "Right Torso",
    "Left Leg": "Left Torso",
    "Right Leg": "Right Torso",
    "Front Left Leg": "Left Torso",
    "Rear Left Leg": "Left Torso",
    "Front Right Leg": "Right Torso",
    "Rear Right Leg": "Right Torso",
    "Center Leg": "Center Torso",
    "Left Torso": "Center Torso",
    "Right Torso": "Center Torso",
}
# A side torso destroyed takes its arm with it, and a four-legged 'Mech's front leg on that side
# (Total Warfare, Damage Transfer).
CARRIES = {"Left Torso": "Left Arm", "Right Torso": "Right Arm"}
QUAD_CARRIES = {"Left Torso": "Front Left Leg", "Right Torso": "Front Right Leg"}


def carried_with(doc: dict, name: str) -> str | None:
    """The location lost with ``name`` when it is destroyed: a side torso's arm, or on a quad
    its front leg."""
    table = QUAD_CARRIES if doc.get("config") == "Quad" else CARRIES
    return table.get(name)


# Standard internal structure by tonnage: centre torso, each side torso, each arm, each leg
# (the head always has 3). TechManual's table for Inner Sphere and Clan 'Mechs alike.
STRUCTURE_TABLE = {
    10: (4, 3, 1, 2),
    15: (5, 4, 2, 3),
    20: (6, 5, 3, 4),
    25: (8, 6, 4, 6),
    30: (10, 7, 5, 7),
    35: (11, 8, 6, 8),
    40: (12, 10, 6, 10),
    45: (14, 11, 7, 11),
    50: (16, 12, 8, 12),
    55: (18, 13, 9, 13),
    60: (20, 14, 10, 14),
    65: (21, 15, 10, 15),
    70: (22, 15, 11, 15),
    75: (23, 16, 12, 16),
    80: (25, 17, 13, 17),
    85: (27, 18, 14, 18),
    90: (29, 19, 15, 19),
    95: (30, 20, 16, 20),
    100: (31, 21, 17, 21),
}
HEAD_STRUCTURE = 3
HEAD_ARMOR_MAX = 9

CREW_KEYS = ("crew", "officers", "enlisted", "gunners", "pilots", "passengers", "marines", "battle_armor")
CREW_LABELS = {
    "crew": "Crew",
    "officers": "Officers",
    "enlisted": "Enlisted",
    "gunners": "Gunners",
    "pilots": "Pilots",
    "passengers": "Passengers",
    "marines": "Marines",
    "battle_armor": "Battle armour troopers",
}
# Engines that burn fuel (or draw power) rather than fuse it: the record's engine type "ice".
COMBUSTION_ENGINES = ("ICE", "I.C.E.", "FUEL CELL", "STEAM", "BATTERY", "SOLAR", "EXTERNAL", "MAGLEV", "NONE")
MOVEMENT_KEYS = ("walk", "run", "jump", "cruise", "flank", "safe_thrust", "max_thrust", "umu")
# A ship's systems that take critical boxes (from landed units' attacks), as the rules name them.
CRITICAL_SYSTEMS = ("Weapon bays", "Bay doors", "Doors", "Maneuvering thrusters", "Transit drive")
MAX_CRITICAL_BOXES = 1_000


class SheetError(ValueError):
    """A sheet that cannot be kept; the message says what to change, in plain words."""


# -- Names -------------------------------------------------------------------------------


def locations_for(unit_type: str, config: str = "Biped") -> tuple[str, ...]:
    """The location names a unit type's sheet may hold, in sheet order."""
    if unit_type == "mech":
        return {"Quad": QUAD_LOCATIONS, "Tripod": TRIPOD_LOCATIONS}.get(config, BIPED_LOCATIONS)
    if unit_type == "vehicle":
        return VEHICLE_LOCATIONS
    if unit_type in WINGED:
        return WING_LOCATIONS
    return ()


def structure_for(tonnage: float, config: str = "Biped") -> dict[str, int]:
    """Standard internal structure of each location of a 'Mech of this tonnage."""
    tons = int(tonnage)
    if tons not in STRUCTURE_TABLE:
        raise SheetError(
            f"There is no standard internal structure for a {tonnage:g}-ton 'Mech: "
            "'Mechs weigh 10 to 100 tons in steps of 5. Give each location's structure instead."
        )
    centre, side, arm, leg = STRUCTURE_TABLE[tons]
    by_name = {"Head": HEAD_STRUCTURE, "Center Torso": centre, "Left Torso": side, "Right Torso": side}
    for name in locations_for("mech", config):
        if "Arm" in name:
            by_name[name] = arm
        elif "Leg" in name:
            by_name[name] = leg
    return by_name


def display_name(doc: dict) -> str:
    return " ".join(p for p in (doc.get("chassis", ""), doc.get("model", "")) if p).strip()


def slots_for(location: str) -> int:
    return 6 if location in SIX_SLOT_LOCATIONS else 12


def blank(unit_type: str, *, tonnage: float = 0, config: str = "Biped", chassis: str = "") -> dict:
    """A sheet with every location and no armour, for a GM to fill in."""
    doc: dict[str, Any] = {"format": FORMAT, "unit_type": unit_type, "chassis": chassis, "tonnage": tonnage}
    if unit_type == "mech":
        doc["config"] = config
    return normalise(doc)


# -- Checking values ---------------------------------------------------------------------

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _number(value: Any, where: str, *, low: float = 0, high: float = MAX_BOXES, whole: bool = True):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, str) and value.strip():
            try:
                value = float(value.strip())
            except ValueError:
                raise SheetError(
                    f"{where} must be a number, not “{_UNSTORABLE.sub('', value)[:40]}”."
                ) from None
        else:
            raise SheetError(f"{where} must be a number.")
    if not math.isfinite(value):
        raise SheetError(f"{where} must be a finite number.")
    if whole and float(value) != int(value):
        raise SheetError(f"{where} must be a whole number, not {value:g}.")
    if not low <= value <= high:
        raise SheetError(f"{where} must be from {low:,g} to {high:,g}, not {value:,g}.")
    return int(value) if float(value).is_integer() else float(value)


def _text(value: Any, where: str, *, limit: int = MAX_TEXT) -> str:
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = f"{value:g}"
    if not isinstance(value, str):
        raise SheetError(f"{where} must be text.")
    if _UNSTORABLE.search(value):
        raise SheetError(f"{where} holds a character that cannot be stored (a NUL or a broken character).")
    value = value.strip()
    if len(value) > limit:
        raise SheetError(f"{where} is {len(value):,} characters long; at most {limit} are allowed.")
    return value


def _flag(value: Any, where: str) -> bool:
    if value in (None, ""):
        return False
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    raise SheetError(f"{where} must be yes or no.")


def _object(value: Any, where: str, allowed: tuple[str, ...] | None = None) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SheetError(f"{where} must be a group of named values.")
    if allowed is not None:
        unknown = [k for k in value if k not in allowed]
        if unknown:
            raise SheetError(
                f"{where} has a part a record sheet does not hold: “{_text(str(unknown[0]), where)[:40]}”."
            )
    return value


def _list(value: Any, where: str, limit: int = MAX_LIST) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SheetError(f"{where} must be a list.")
    if len(value) > limit:
        raise SheetError(f"{where} has {len(value):,} entries; at most {limit} are allowed.")
    return value


def _plain_json(value: Any, where: str, depth: int = 0) -> Any:
    """Anything kept as it came (a unit file's extras): plain JSON, bounded."""
    if depth > 6:
        raise SheetError(f"{where} is nested too deeply.")
    if isinstance(value, dict):
        if len(value) > MAX_LIST:
            raise SheetError(f"{where} has too many entries.")
        return {_text(k, where): _plain_json(v, where, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_json(v, where, depth + 1) for v in _list(value, where)]
    if isinstance(value, str):
        return _text(value, where, limit=2000)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(value, where, low=-(10**15), high=10**15, whole=False)
    if value is None or isinstance(value, bool):
        return value
    raise SheetError(f"{where} holds something that is not text, a number or yes/no.")


# -- Normalising -------------------------------------------------------------------------

TOP_KEYS = (
    "format",
    "unit_type",
    "chassis",
    "model",
    "tonnage",
    "tech_base",
    "year",
    "rules_level",
    "config",
    "motion",
    "engine",
    "movement",
    "heat_sinks",
    "heat",
    "armor_type",
    "structure_type",
    "locations",
    "criticals",
    "weapons",
    "equipment",
    "pilot",
    "troopers",
    "platoon",
    "facings",
    "structural_integrity",
    "bays",
    "docking_collars",
    "critical_boxes",
    "kf_drive",
    "crew",
    "fuel",
    "source",
    "destroyed",
)


def normalise(doc: Any) -> dict:
    """The sheet checked and in its canonical shape; ``SheetError`` when it cannot be kept."""
    if not isinstance(doc, dict):
        raise SheetError("A record sheet must be a group of named values (a JSON object).")
    doc = _object(doc, "The sheet", TOP_KEYS)
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise SheetError(
            f"This sheet is written in format {_text(str(fmt), 'The format')[:10]}; only format 1 is read."
        )
    unit_type = doc.get("unit_type")
    if unit_type not in UNIT_TYPES:
        raise SheetError("Say what the sheet is for: a " + ", ".join(UNIT_TYPES.values()) + ".")
    out: dict[str, Any] = {"format": FORMAT, "unit_type": unit_type}
    out["chassis"] = _text(doc.get("chassis"), "The chassis name", limit=80)
    out["model"] = _text(doc.get("model"), "The model", limit=80)
    out["tonnage"] = _number(doc.get("tonnage", 0), "The tonnage", high=10_000_000, whole=False)
    out["tech_base"] = _text(doc.get("tech_base") or "Inner Sphere", "The tech base", limit=40)
    for key, where, high in (("year", "The year", 5000), ("rules_level", "The rules level", 10)):
        if doc.get(key) not in (None, ""):
            out[key] = _number(doc[key], where, high=high)
    config = "Biped"
    if unit_type == "mech":
        config = _text(doc.get("config") or "Biped", "The 'Mech's configuration").title()
        config = "LAM" if config == "Lam" else config
        if config not in MECH_CONFIGS:
            raise SheetError("A 'Mech is a Biped, Quad, Tripod or LAM.")
        out["config"] = config
    if doc.get("motion") not in (None, ""):
        out["motion"] = _text(doc["motion"], "The motion type", limit=40)
    engine = _object(doc.get("engine"), "The engine", ("rating", "type"))
    if engine:
        out["engine"] = {
            "rating": _number(engine.get("rating", 0), "The engine rating", high=2000),
            "type": _text(engine.get("type") or "Fusion", "The engine type", limit=40),
        }
    movement = _object(doc.get("movement"), "The movement", MOVEMENT_KEYS)
    out["movement"] = {
        k: _number(v, f"{k.replace('_', ' ').capitalize()} MP", high=100) for k, v in movement.items()
    }
    sinks = _object(doc.get("heat_sinks"), "The heat sinks", ("count", "type"))
    if sinks or unit_type in ("mech", "aerospace_fighter"):
        kind = _text(sinks.get("type") or "single", "The heat sink type").lower()
        if kind not in ("single", "double"):
            raise SheetError("Heat sinks are single or double.")
        out["heat_sinks"] = {
            "count": _number(sinks.get("count", 0), "The number of heat sinks", high=100_000),
            "type": kind,
        }
    out["heat"] = _number(doc.get("heat", 0), "The heat", high=999)
    for key, where in (("armor_type", "The armour type"), ("structure_type", "The structure type")):
        if doc.get(key) not in (None, ""):
            out[key] = _text(doc[key], where, limit=60)

    names = locations_for(unit_type, config)
    out["locations"] = _locations(doc.get("locations"), unit_type, config, names, out["tonnage"])
    present = [loc["name"] for loc in out["locations"]]
    if unit_type == "mech":
        out["criticals"] = _criticals(doc.get("criticals"), present)
    elif doc.get("criticals"):
        out["criticals"] = _criticals(doc.get("criticals"), present or None)
    arcs = present or (SHIP_ARCS if unit_type in SHIP_TYPES else None)
    if unit_type == "vehicle":
        arcs = (*present, "Body")
    out["weapons"] = [
        _weapon(w, i, arcs) for i, w in enumerate(_list(doc.get("weapons"), "The weapons list"))
    ]
    out["equipment"] = [
        _equipment(e, i, arcs) for i, e in enumerate(_list(doc.get("equipment"), "The equipment list"))
    ]
    if unit_type in ("mech", "vehicle", "aerospace_fighter") or doc.get("pilot"):
        out["pilot"] = _pilot(doc.get("pilot"))
    if unit_type == "battle_armor" or doc.get("troopers"):
        out["troopers"] = [
            _trooper(t, i) for i, t in enumerate(_list(doc.get("troopers"), "The troopers", 30))
        ]
    if unit_type == "infantry" or doc.get("platoon"):
        out["platoon"] = _platoon(doc.get("platoon"))
    if unit_type in SHIP_TYPES or doc.get("facings"):
        out["facings"] = _facings(doc.get("facings"), unit_type)
    if unit_type in SHIP_TYPES or unit_type in WINGED or doc.get("structural_integrity"):
        si = _object(doc.get("structural_integrity"), "The structural integrity", ("value", "max"))
        out["structural_integrity"] = _pair(si, "value", "max", "Structural integrity", high=10_000)
    bays = _list(doc.get("bays"), "The bays", 100)
    if bays:
        out["bays"] = [_bay(b, i) for i, b in enumerate(bays)]
    if doc.get("docking_collars") not in (None, ""):
        out["docking_collars"] = _number(doc["docking_collars"], "The docking collars", high=100)
    crits = _object(doc.get("critical_boxes"), "The critical boxes", CRITICAL_SYSTEMS)
    if crits:
        out["critical_boxes"] = {
            name: _number(crits[name], f"{name} critical boxes", high=MAX_CRITICAL_BOXES)
            for name in CRITICAL_SYSTEMS
            if name in crits
        }
    kf = _object(doc.get("kf_drive"), "The K-F drive", ("integrity", "integrity_max", "lf_battery"))
    if kf:
        pair = _pair(kf, "integrity", "integrity_max", "K-F drive integrity", high=100)
        out["kf_drive"] = {**pair, "lf_battery": _flag(kf.get("lf_battery"), "The lithium-fusion battery")}
    crew = _object(doc.get("crew"), "The crew", CREW_KEYS)
    if crew:
        out["crew"] = {k: _number(v, f"The {k.replace('_', ' ')}", high=1_000_000) for k, v in crew.items()}
    fuel = _object(doc.get("fuel"), "The fuel", ("points", "tons"))
    if fuel:
        out["fuel"] = {
            k: _number(v, f"Fuel {k}", high=10_000_000, whole=(k == "points")) for k, v in fuel.items()
        }
    if doc.get("source"):
        source = _object(doc["source"], "The source", ("format", "extra"))
        fmt = _text(source.get("format"), "The source format", limit=10).lower()
        if fmt not in ("", "mtf", "blk"):
            raise SheetError("A sheet's source is a MegaMek .mtf or .blk file.")
        out["source"] = {
            "format": fmt,
            "extra": _plain_json(source.get("extra") or {}, "The source's extras"),
        }
    if _flag(doc.get("destroyed"), "Destroyed"):
        out["destroyed"] = True
    size = len(json.dumps(out, ensure_ascii=False).encode())
    if size > MAX_SHEET_BYTES:
        raise SheetError(
            f"This sheet is {size / 1024:,.0f} KB; a sheet holds at most {MAX_SHEET_BYTES // 1024} KB "
            "(leave out the unit file's extras, or list weapons by bay)."
        )
    return out


def _pair(obj: dict, key: str, max_key: str, what: str, *, high: int = MAX_BOXES) -> dict:
    """A current value and its undamaged maximum: either may be given for both."""
    current = obj.get(key, obj.get(max_key, 0))
    top = obj.get(max_key, current)
    top = _number(top, f"{what} (undamaged)", high=high)
    current = _number(current, what, high=high)
    if current > top:
        raise SheetError(f"{what} is {current:,}, more than its undamaged {top:,}.")
    return {key: current, max_key: top}


def _locations(value: Any, unit_type: str, config: str, names: tuple, tonnage) -> list[dict]:
    given = _list(value, "The locations", 20)
    if given and not names:
        raise SheetError(
            f"A {UNIT_TYPES[unit_type]}'s sheet has no locations; it has "
            + ("facings." if unit_type in SHIP_TYPES else "troopers.")
        )
    by_name: dict[str, dict] = {}
    for i, raw in enumerate(given):
        loc = _object(
            raw,
            f"Location {i + 1}",
            (
                "name",
                "armor",
                "armor_max",
                "rear_armor",
                "rear_armor_max",
                "structure",
                "structure_max",
                "destroyed",
            ),
        )
        name = _text(loc.get("name"), f"Location {i + 1}'s name")
        if name not in names:
            raise SheetError(
                f"A {UNIT_TYPES[unit_type]} has no location “{name}”: its locations are {', '.join(names)}."
            )
        if name in by_name:
            raise SheetError(f"The location {name} is listed twice.")
        by_name[name] = loc
    standard = {}
    unstated = any(
        "structure" not in by_name.get(n, {}) and "structure_max" not in by_name.get(n, {}) for n in names
    )
    if unit_type == "mech" and tonnage and unstated:
        standard = structure_for(tonnage, config)  # refuses a tonnage the table has not
    wanted = names
    if unit_type == "vehicle":
        wanted = tuple(n for n in names if n in VEHICLE_BASE or n in by_name)
    out = []
    for name in wanted:
        loc = by_name.get(name, {})
        entry = {"name": name, **_pair(loc, "armor", "armor_max", f"{name} armour")}
        if unit_type == "mech" and name in TORSOS:
            entry.update(_pair(loc, "rear_armor", "rear_armor_max", f"{name} rear armour"))
        if unit_type in ("mech", "vehicle"):
            if "structure" not in loc and "structure_max" not in loc and name in standard:
                loc = {**loc, "structure_max": standard[name]}
            entry.update(_pair(loc, "structure", "structure_max", f"{name} internal structure"))
        destroyed = _flag(loc.get("destroyed"), f"{name} destroyed")
        if destroyed or (entry.get("structure_max", 0) > 0 and entry.get("structure") == 0):
            entry["destroyed"] = True
        out.append(entry)
    return out


def _slot(raw: Any, where: str) -> dict:
    if raw is None or isinstance(raw, str):
        raw = {"name": raw}
    slot = _object(raw, where, ("name", "hit"))
    name = _text(slot.get("name"), f"{where}'s name", limit=80) or None
    if name is not None and name.lower() in ("-empty-", "empty"):
        name = None
    return {"name": name, "hit": _flag(slot.get("hit"), f"{where} hit")}


def _criticals(value: Any, names: list | None) -> dict:
    crits = _object(value, "The critical slots")
    out = {}
    for name in names or list(crits):
        name = _text(name, "A critical-slot location")
        if name not in crits and names is None:
            continue
        slots = _list(crits.get(name), f"{name}'s critical slots", 12)
        count = slots_for(name) if names is not None else len(slots)
        if len(slots) > count:
            raise SheetError(f"{name} has {count} critical slots, not {len(slots)}.")
        out[name] = [_slot(s, f"{name} slot {i + 1}") for i, s in enumerate(slots)]
        out[name] += [{"name": None, "hit": False}] * (count - len(slots))
    if names is not None:
        extra = [k for k in crits if k not in names]
        if extra:
            raise SheetError(
                f"There are critical slots for “{_text(str(extra[0]), 'A location')[:40]}”, which this unit does not have."
            )
    return out


def _where_on(raw: dict, what: str, arcs) -> str:
    location = _text(raw.get("location"), f"{what}'s location", limit=40)
    if arcs is not None and location and location not in arcs:
        raise SheetError(
            f"{what} sits in “{location}”, which this unit does not have: use one of {', '.join(arcs)}."
        )
    return location


def _weapon(raw: Any, i: int, arcs) -> dict:
    w = _object(raw, f"Weapon {i + 1}", ("name", "location", "rear", "destroyed", "bay", "count", "mount"))
    name = _text(w.get("name"), f"Weapon {i + 1}'s name", limit=80)
    if not name:
        raise SheetError(f"Weapon {i + 1} has no name.")
    return {
        "name": name,
        "location": _where_on(w, f"The {name}", arcs),
        "rear": _flag(w.get("rear"), f"The {name} rear-mounted"),
        "destroyed": _flag(w.get("destroyed"), f"The {name} destroyed"),
        "bay": _text(w.get("bay"), f"The {name}'s bay", limit=80) or None,
        "count": _number(w.get("count", 1), f"The number of {name}", low=1, high=1000),
        **_mount(w, name),
    }


def _mount(raw: dict, name: str) -> dict:
    """How an item is mounted, where the file says (a battle-armour pod, a modular mount, a
    turret): only present when given."""
    mount = _text(raw.get("mount"), f"The {name}'s mount", limit=80)
    return {"mount": mount} if mount else {}


def _equipment(raw: Any, i: int, arcs) -> dict:
    e = _object(
        raw,
        f"Equipment {i + 1}",
        ("name", "location", "shots", "rear", "destroyed", "count", "mount", "size"),
    )
    name = _text(e.get("name"), f"Equipment {i + 1}'s name", limit=80)
    if not name:
        raise SheetError(f"Equipment {i + 1} has no name.")
    out: dict[str, Any] = {"name": name, "location": _where_on(e, f"The {name}", arcs)}
    if e.get("shots") not in (None, ""):
        out["shots"] = _number(e["shots"], f"Shots of {name}", high=100_000)
    if e.get("size") not in (None, ""):
        out["size"] = _number(e["size"], f"The size of {name}", high=1_000_000, whole=False)
    for key in ("rear", "destroyed"):
        if e.get(key):
            out[key] = _flag(e[key], f"The {name} {key}")
    if e.get("count") not in (None, "", 1):
        out["count"] = _number(e["count"], f"The number of {name}", low=1, high=1000)
    return {**out, **_mount(e, name)}


def _pilot(raw: Any) -> dict:
    p = _object(raw, "The pilot", ("name", "gunnery", "piloting", "hits"))
    return {
        "name": _text(p.get("name"), "The pilot's name", limit=80),
        "gunnery": _number(p.get("gunnery", 4), "Gunnery", high=8),
        "piloting": _number(p.get("piloting", 5), "Piloting", high=8),
        "hits": _number(p.get("hits", 0), "Pilot hits", high=6),
    }


def _trooper(raw: Any, i: int) -> dict:
    t = _object(raw, f"Trooper {i + 1}", ("armor", "armor_max", "alive"))
    pair = _pair(t, "armor", "armor_max", f"Trooper {i + 1}'s armour", high=100)
    alive = t.get("alive", True)
    return {**pair, "alive": _flag(alive, f"Trooper {i + 1} alive")}


def _platoon(raw: Any) -> dict:
    p = _object(raw, "The platoon", ("troopers", "troopers_max", "weapon"))
    pair = _pair(p, "troopers", "troopers_max", "Troopers", high=200)
    return {**pair, "weapon": _text(p.get("weapon"), "The platoon's weapon", limit=80)}


def _listed(names) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


def _no_such_facing(name: str, unit_type: str) -> str:
    """The refusal of a facing the unit type has not, naming the facings it has: a
    DropShip's four arcs, or the six facings of a JumpShip, WarShip or station."""
    if unit_type == "dropship":
        return f"A DropShip has no facing “{name}”: its facings are {_listed(DROPSHIP_FACINGS)}."
    if unit_type in SHIP_TYPES:
        kind = UNIT_TYPES[unit_type] if unit_type != "space_station" else "space station"
        return f"A {kind} has no facing “{name}”: its facings are {_listed(SHIP_FACINGS)}."
    return (
        f"A ship has no facing “{name}”: a DropShip's are {_listed(DROPSHIP_FACINGS)}; a JumpShip's, "
        f"WarShip's or station's are {_listed(SHIP_FACINGS)}."
    )


def _facings(raw: Any, unit_type: str = "") -> list[dict]:
    """A ship's armour by facing, exactly as given: a DropShip's four arcs (Nose, Left Side,
    Right Side, Aft) or the six facings of a JumpShip, WarShip or station. A side is never
    copied onto two facings, so the sheet's armour is the file's."""
    given = _list(raw, "The facings", 10)
    by_name: dict[str, dict] = {}
    for i, f in enumerate(given):
        f = _object(f, f"Facing {i + 1}", ("name", "armor", "armor_max"))
        name = _text(f.get("name"), f"Facing {i + 1}'s name")
        if name not in SHIP_FACINGS and name not in DROPSHIP_FACINGS:
            raise SheetError(_no_such_facing(name, unit_type))
        if name in by_name:
            raise SheetError(f"The facing {name} is listed twice.")
        by_name[name] = f
    sides = [n for n in by_name if n in FOUR_ARCS]
    split = [n for n in by_name if n in SHIP_FACINGS and n not in DROPSHIP_FACINGS]
    if sides and split:
        raise SheetError(
            f"The facings mix a DropShip's side ({sides[0]}) with a facing of six ({split[0]}): "
            "give Nose, Left Side, Right Side and Aft, or all six facings."
        )
    names = DROPSHIP_FACINGS if sides or (not split and unit_type == "dropship") else SHIP_FACINGS
    return [{"name": n, **_pair(by_name.get(n, {}), "armor", "armor_max", f"{n} armour")} for n in names]


def _bay(raw: Any, i: int) -> dict:
    b = _object(raw, f"Bay {i + 1}", ("type", "capacity", "doors", "used"))
    out = {
        "type": _text(b.get("type"), f"Bay {i + 1}'s type", limit=40) or "Cargo",
        "capacity": _number(b.get("capacity", 0), f"Bay {i + 1}'s capacity", high=10_000_000, whole=False),
        "doors": _number(b.get("doors", 0), f"Bay {i + 1}'s doors", high=100),
    }
    if b.get("used") not in (None, ""):
        out["used"] = _number(b["used"], f"Bay {i + 1}'s use", high=out["capacity"], whole=False)
    return out


# -- Changing a sheet as the rules do ----------------------------------------------------


def location(doc: dict, name: str) -> dict:
    for loc in doc.get("locations", []):
        if loc["name"] == name:
            return loc
    for loc in doc.get("facings", []):
        if loc["name"] == name:
            return loc
    raise SheetError(f"{display_name(doc) or 'This unit'} has no location “{name}”.")


def damage(doc: dict, name: str, amount: int, *, rear: bool = False) -> tuple[dict, list[str]]:
    """``amount`` points of damage on location ``name``: armour first (rear armour for a
    rear hit on a torso), then internal structure, and what is left over goes on inwards
    as the transfer diagram says (arm or leg to its side torso, side torso to centre torso).
    Damage that passes on from a rear hit lands on the next location's rear armour (Total
    Warfare, Damage Transfer); a head hit that does no damage does not wound the pilot.
    Winged craft and ships take what passes the armour on their structural integrity.
    Returns the new sheet and one line per location hit."""
    amount = int(amount)
    if amount < 0:
        raise SheetError("Damage cannot be negative.")
    doc = copy.deepcopy(doc)
    notes: list[str] = []
    unit_type = doc["unit_type"]
    target: str | None = name
    dealt = amount
    while target and amount > 0:
        loc = location(doc, target)
        hit, parts = 0, []
        armour_key = "rear_armor" if rear and "rear_armor" in loc else "armor"
        if not loc.get("destroyed"):
            taken = min(loc.get(armour_key, 0), amount)
            if taken:
                label = "rear armour" if armour_key == "rear_armor" else "armour"
                parts.append(f"{label} {loc[armour_key]} → {loc[armour_key] - taken}")
                loc[armour_key] -= taken
                amount -= taken
                hit += taken
            if amount and "structure" in loc:
                taken = min(loc["structure"], amount)
                if taken:
                    parts.append(f"internal structure {loc['structure']} → {loc['structure'] - taken}")
                    loc["structure"] -= taken
                    amount -= taken
                    hit += taken
        after: list[str] = []
        broken = "structure" in loc and loc["structure"] == 0 and loc.get("structure_max", 0) > 0
        if broken and not loc.get("destroyed"):
            loc["destroyed"] = True
            parts.append("destroyed")
            after = _destroyed(doc, target)
        where = f"{target} (rear)" if armour_key == "rear_armor" else target
        if parts:
            notes.append(f"{where}: {hit} damage, " + ", ".join(parts))
        notes.extend(after)
        if amount and "structure" not in loc and "structural_integrity" in doc:
            si = doc["structural_integrity"]
            taken = min(si["value"], amount)
            notes.append(f"Structural integrity: {si['value']} → {si['value'] - taken}")
            si["value"] -= taken
            amount -= taken
            if si["value"] == 0 and si["max"] > 0:
                doc["destroyed"] = True
                notes.append(f"{display_name(doc) or 'The craft'} is destroyed (structural integrity gone).")
            break
        if amount and unit_type == "mech":
            nxt = TRANSFER.get(target)
            if nxt:
                notes.append(f"{amount} damage passes on from {target} to {nxt}.")
            target = nxt
        else:
            target = None
    if amount > 0:
        notes.append(f"{amount} damage beyond what the unit could take is lost.")
    if name == "Head" and unit_type == "mech" and "pilot" in doc and dealt > 0:
        doc, more = pilot_hit(doc, 1, why="a hit to the head")
        notes.extend(more)
    return doc, notes


def _destroyed(doc: dict, name: str) -> list[str]:
    notes = []
    if doc["unit_type"] == "mech":
        if name in ("Head", "Center Torso"):
            doc["destroyed"] = True
            notes.append(f"{display_name(doc) or 'The ’Mech'} is destroyed ({name.lower()} gone).")
        carried = carried_with(doc, name)
        if carried:
            try:
                arm = location(doc, carried)
            except SheetError:
                arm = None
            if arm is not None and not arm.get("destroyed"):
                arm["destroyed"] = True
                notes.append(f"{carried} is lost with the {name.lower()}.")
        for slot in doc.get("criticals", {}).get(name, []):
            slot["hit"] = slot["hit"] or slot["name"] is not None
    for weapon in doc.get("weapons", []):
        if weapon["location"] == name or (weapon["location"] == carried_with(doc, name)):
            weapon["destroyed"] = True
    return notes


def critical_boxes(doc: dict, system: str, boxes: int) -> tuple[dict, list[str]]:
    """``boxes`` more critical boxes marked on one of a ship's systems (``CRITICAL_SYSTEMS``)."""
    if system not in CRITICAL_SYSTEMS:
        raise SheetError(f"A ship's sheet has no critical boxes for “{system}”.")
    marked = dict(doc.get("critical_boxes") or {})
    total = marked.get(system, 0) + boxes
    if not 0 <= total <= MAX_CRITICAL_BOXES:
        raise SheetError(
            f"{system} would have {total:,} critical boxes; a sheet holds from 0 to {MAX_CRITICAL_BOXES:,}."
        )
    marked[system] = total
    ordered = {name: marked[name] for name in CRITICAL_SYSTEMS if name in marked}
    return {**doc, "critical_boxes": ordered}, [f"{system}: {total} critical boxes"]


def critical(
    doc: dict, name: str, *, slot: int | None = None, item: str | None = None
) -> tuple[dict, list[str]]:
    """Mark a critical hit in ``name``: the slot numbered ``slot`` (from 1), else the first
    unhit slot holding ``item``, else the first unhit slot that holds anything."""
    doc = copy.deepcopy(doc)
    slots = doc.get("criticals", {}).get(name)
    if slots is None:
        raise SheetError(f"{display_name(doc) or 'This unit'} has no critical slots in “{name}”.")
    if slot is not None:
        if not 1 <= slot <= len(slots):
            raise SheetError(f"{name} has slots 1 to {len(slots)}, not {slot}.")
        chosen = slot - 1
    else:
        candidates = [
            i
            for i, s in enumerate(slots)
            if not s["hit"] and s["name"] and (item is None or s["name"].lower().startswith(item.lower()))
        ]
        if not candidates:
            what = f"no undamaged {item}" if item else "nothing left to hit"
            return doc, [f"{name}: {what}; the critical hit has no further effect."]
        chosen = candidates[0]
    target = slots[chosen]
    if target["hit"] or target["name"] is None:
        what = "already hit" if target["hit"] else "empty"
        return doc, [f"{name} slot {chosen + 1} is {what}; the critical hit has no further effect."]
    target["hit"] = True
    notes = [f"{name} slot {chosen + 1}: {target['name']} hit."]
    for weapon in doc.get("weapons", []):
        if weapon["location"] == name and weapon["name"] == target["name"] and not weapon["destroyed"]:
            weapon["destroyed"] = True
            notes.append(f"The {weapon['name']} in the {name.lower()} is destroyed.")
            break
    return doc, notes


def engine_hits(doc: dict) -> int:
    return sum(1 for slots in doc.get("criticals", {}).values() for s in slots if s["hit"] and _is_engine(s))


def _is_engine(slot: dict) -> bool:
    name = (slot.get("name") or "").lower()
    return "engine" in name and "ammo" not in name


def add_heat(doc: dict, amount: int) -> tuple[dict, list[str]]:
    doc = copy.deepcopy(doc)
    before = doc.get("heat", 0)
    doc["heat"] = max(0, min(999, before + int(amount)))
    return doc, [f"Heat {before} → {doc['heat']}"]


def set_heat(doc: dict, value: int) -> tuple[dict, list[str]]:
    return add_heat(doc, int(value) - doc.get("heat", 0))


def pilot_hit(doc: dict, hits: int = 1, *, why: str = "") -> tuple[dict, list[str]]:
    doc = copy.deepcopy(doc)
    pilot = doc.setdefault("pilot", {"name": "", "gunnery": 4, "piloting": 5, "hits": 0})
    before = pilot["hits"]
    pilot["hits"] = max(0, min(6, before + int(hits)))
    who = pilot["name"] or "The pilot"
    note = f"{who}: hits {before} → {pilot['hits']}" + (f" ({why})" if why else "")
    notes = [note]
    if pilot["hits"] == 6 and before < 6:
        notes.append(f"{who} is killed.")
    return doc, notes


def troopers_lost(doc: dict, count: int) -> tuple[dict, list[str]]:
    """Battle armour loses its last living troopers first; infantry loses from the platoon."""
    doc = copy.deepcopy(doc)
    count = int(count)
    if doc.get("troopers"):
        lost = 0
        for trooper in reversed(doc["troopers"]):
            if lost == count:
                break
            if trooper["alive"]:
                trooper["alive"], trooper["armor"] = False, 0
                lost += 1
        alive = sum(t["alive"] for t in doc["troopers"])
        return doc, [f"{lost} trooper{'s' if lost != 1 else ''} lost; {alive} left."]
    if "platoon" in doc:
        p = doc["platoon"]
        before = p["troopers"]
        p["troopers"] = max(0, before - count)
        return doc, [f"Troopers {before} → {p['troopers']}"]
    raise SheetError(f"{display_name(doc) or 'This unit'} has no troopers on its sheet.")


def trooper_damage(doc: dict, trooper: int, amount: int) -> tuple[dict, list[str]]:
    doc = copy.deepcopy(doc)
    troopers = doc.get("troopers") or []
    if not 1 <= trooper <= len(troopers):
        raise SheetError(f"There is no trooper {trooper}.")
    t = troopers[trooper - 1]
    before = t["armor"]
    t["armor"] = max(0, before - int(amount))
    notes = [f"Trooper {trooper}: armour {before} → {t['armor']}"]
    if t["armor"] == 0 and int(amount) > before and t["alive"]:
        t["alive"] = False
        notes.append(f"Trooper {trooper} is killed.")
    return doc, notes


def armour_total(doc: dict) -> int:
    total = sum(loc.get("armor", 0) + loc.get("rear_armor", 0) for loc in doc.get("locations", []))
    total += sum(t["armor"] for t in doc.get("troopers", []))
    return total + sum(f["armor"] for f in doc.get("facings", []))


def record_fields(doc: dict, record: str) -> dict[str, Any]:
    """The record's summary fields a sheet implies (``record`` is ``"unit"`` or ``"ship"``):
    procedures read those, so they stay in step with the sheet."""
    fields: dict[str, Any] = {}
    if not doc:
        return fields
    movement, pilot = doc.get("movement", {}), doc.get("pilot")
    if record == "unit":
        fields["tonnage"] = doc.get("tonnage", 0)  # 20.5 t stays 20.5 t
        fields["armor_factor"] = armour_total(doc)
        if doc["unit_type"] == "battle_armor":  # the campaign counts battle armour per trooper
            fields["armor_factor"] = max(
                (t["armor"] for t in doc.get("troopers", []) if t["alive"]), default=0
            )
        fields["jump_mp"] = movement.get("jump", 0)
        fields["heat"] = doc.get("heat", 0)
        if doc.get("criticals"):
            fields["engine_hits"] = min(3, engine_hits(doc))
        if "engine" in doc:
            fields["engine_type"] = "ice" if doc["engine"]["type"].upper() in COMBUSTION_ENGINES else "fusion"
        if pilot:
            fields["gunnery"], fields["piloting"] = pilot["gunnery"], pilot["piloting"]
        return fields
    fields["mass_t"] = int(doc.get("tonnage", 0))
    faces = {f["name"]: f for f in doc.get("facings", [])}
    if not faces and doc["unit_type"] in WINGED:
        locs = {loc["name"]: loc for loc in doc.get("locations", [])}
        wings = {"Left Wing": ("Fore-left",), "Right Wing": ("Fore-right",)}
        for name, loc in locs.items():
            for facing in wings.get(name, (name,)):
                faces[facing] = loc
    for facing, key in FACING_FIELDS.items():
        if facing in faces:
            fields[f"armor_{key}_max"] = faces[facing]["armor_max"]
            fields[f"armor_{key}"] = faces[facing]["armor"]
    if "kf_drive" in doc:
        kf = doc["kf_drive"]
        fields["kf_integrity_max"], fields["kf_integrity"] = kf["integrity_max"], kf["integrity"]
        fields["lf_battery"] = kf["lf_battery"]
    if "heat_sinks" in doc:
        fields["heat_sinks"] = doc["heat_sinks"]["count"]
    if "crew" in doc:
        crew = doc["crew"]
        fields["crew"] = crew.get("crew", sum(v for k, v in crew.items() if k != "passengers"))
        fields["passengers"] = crew.get("passengers", 0)
    if "docking_collars" in doc and doc["unit_type"] in ("jumpship", "warship", "space_station"):
        fields["dropship_capacity"] = doc["docking_collars"]
    if "fuel" in doc and "points" in doc["fuel"]:
        fields["fuel_points"] = doc["fuel"]["points"]
    if doc["unit_type"] == "aerospace_fighter":
        fields["heat"] = doc.get("heat", 0)
    return fields


# -- The record's own fields laid over the sheet ------------------------------------------

WING_FACINGS = {"Nose": "nose", "Left Wing": "fore_left", "Right Wing": "fore_right", "Aft": "aft"}


def overlay(doc: dict, values: dict[str, Any]) -> dict:
    """The sheet with the record's summary fields laid over it (a copy).

    Procedures that change a record's heat, facing armour or K-F integrity change the
    record's field; the sheet shows those fields as the record holds them, and takes them
    in whenever it is changed, so the two never disagree on a value they share."""
    if not doc:
        return doc
    doc = copy.deepcopy(doc)
    if "heat" in values and values["heat"] is not None:
        doc["heat"] = max(0, min(999, int(values["heat"])))
    pilot = doc.get("pilot")
    if pilot is not None:
        for key in ("gunnery", "piloting"):
            if values.get(key) is not None:
                pilot[key] = max(0, min(8, int(values[key])))
    facings = dict(FACING_FIELDS)
    if doc["unit_type"] in WINGED:
        for loc in doc.get("locations", []):
            _take(loc, values, WING_FACINGS.get(loc["name"]))
    for face in doc.get("facings", []):
        _take(face, values, facings.get(face["name"]))
    kf = doc.get("kf_drive")
    if kf is not None and values.get("kf_integrity") is not None:
        kf["integrity"] = max(0, min(kf["integrity_max"], int(values["kf_integrity"])))
    return doc


def _take(part: dict, values: dict, key: str | None) -> None:
    if key and values.get(f"armor_{key}") is not None:
        part["armor"] = max(0, min(part["armor_max"], int(values[f"armor_{key}"])))


SUMMARY_FIELDS = {
    "unit": ("heat", "gunnery", "piloting"),
    "ship": ("heat", "kf_integrity", *(f"armor_{f}" for f in FACING_FIELDS.values())),
}


def changes(before: dict, after: dict) -> list[str]:
    """What a change of sheet did, one line a value, as a GM reads it."""
    if not before and not after:
        return []
    if not before:
        return [
            f"record sheet of {display_name(after) or UNIT_TYPES.get(after.get('unit_type'), 'the unit')}"
        ]
    if not after:
        return ["record sheet removed"]
    lines: list[str] = []

    def value(label: str, old, new) -> None:
        if old != new:
            lines.append(f"{label} {_shown(old)} → {_shown(new)}")

    for key, label in (
        ("armor", "armour"),
        ("rear_armor", "rear armour"),
        ("structure", "internal structure"),
    ):
        for old, new in _pairs(before.get("locations", []), after.get("locations", [])):
            value(f"{new['name']} {label}", old.get(key), new.get(key))
    for old, new in _pairs(before.get("locations", []), after.get("locations", [])):
        if new.get("destroyed") and not old.get("destroyed"):
            lines.append(f"{new['name']} destroyed")
        elif old.get("destroyed") and not new.get("destroyed"):
            lines.append(f"{new['name']} no longer destroyed")
    for old, new in _pairs(before.get("facings", []), after.get("facings", [])):
        value(f"{new['name']} armour", old.get("armor"), new.get("armor"))
    value(
        "Structural integrity",
        _get(before, "structural_integrity", "value"),
        _get(after, "structural_integrity", "value"),
    )
    for name in CRITICAL_SYSTEMS:
        value(
            f"{name} critical boxes",
            _get(before, "critical_boxes", name) or 0,
            _get(after, "critical_boxes", name) or 0,
        )
    value("K-F drive integrity", _get(before, "kf_drive", "integrity"), _get(after, "kf_drive", "integrity"))
    value("Heat", before.get("heat"), after.get("heat"))
    for key, label in (("hits", "Pilot hits"), ("gunnery", "Gunnery"), ("piloting", "Piloting")):
        value(label, _get(before, "pilot", key), _get(after, "pilot", key))
    value("Troopers", _get(before, "platoon", "troopers"), _get(after, "platoon", "troopers"))
    for i, (old, new) in enumerate(
        zip(before.get("troopers", []), after.get("troopers", []), strict=False), 1
    ):
        value(f"Trooper {i} armour", old.get("armor"), new.get("armor"))
        if old.get("alive") != new.get("alive"):
            lines.append(f"Trooper {i} {'killed' if not new.get('alive') else 'back in the fight'}")
    for name, slots in after.get("criticals", {}).items():
        old_slots = before.get("criticals", {}).get(name, [])
        for i, slot in enumerate(slots):
            was = old_slots[i]["hit"] if i < len(old_slots) else False
            if slot["hit"] != was:
                what = slot["name"] or "empty slot"
                lines.append(f"{name} slot {i + 1} ({what}) {'hit' if slot['hit'] else 'repaired'}")
    for old, new in zip(before.get("weapons", []), after.get("weapons", []), strict=False):
        if old.get("destroyed") != new.get("destroyed") and old.get("name") == new.get("name"):
            state = "destroyed" if new.get("destroyed") else "repaired"
            lines.append(f"{new['name']} ({new['location'] or 'unit'}) {state}")
    if after.get("destroyed") != before.get("destroyed"):
        lines.append("Unit destroyed" if after.get("destroyed") else "Unit no longer destroyed")
    if not lines and before != after:
        lines.append("record sheet details changed")
    return lines


def _shown(value) -> str:
    return "—" if value is None else str(value)


def _get(doc: dict, part: str, key: str):
    return (doc.get(part) or {}).get(key)


def _pairs(old: list[dict], new: list[dict]):
    by_name = {item["name"]: item for item in old}
    return [(by_name.get(item["name"], {}), item) for item in new]
