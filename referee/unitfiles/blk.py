"""Building-block files (.blk): vehicles, battle armour, infantry, aerospace, small craft and the big ships.

Each unit type reads the blocks its record sheet needs; blocks it does not use are kept, in order,
in ``source.extra.blocks`` and written back, so export → import gives the same sheet.
"""

from __future__ import annotations

import math
import re
from typing import Any

from . import tables as t
from .blocks import Block, Blocks, parse_blocks, write_block
from .errors import UnitFileError
from .text import parse_int, parse_number, shown

# MegaMek's <UnitType> → the sheet's unit type.
UNIT_TYPES = {
    "tank": "vehicle",
    "supporttank": "vehicle",
    "vtol": "vehicle",
    "supportvtol": "vehicle",
    "battlearmor": "battle_armor",
    "infantry": "infantry",
    "convinfantry": "infantry",
    "aero": "aerospace_fighter",
    "aerospacefighter": "aerospace_fighter",
    "convfighter": "aerospace_fighter",
    "fixedwingsupport": "aerospace_fighter",
    "smallcraft": "small_craft",
    "dropship": "dropship",
    "jumpship": "jumpship",
    "warship": "warship",
    "spacestation": "space_station",
}
# Unit types MegaMek reads that a record sheet here cannot hold yet, and why, in words.
NOT_YET = {
    "protomech": "ProtoMechs are not supported yet: the record sheet has no ProtoMech locations "
    "(head, torso, arms, legs and main gun).",
    "protomek": "ProtoMechs are not supported yet: the record sheet has no ProtoMech locations "
    "(head, torso, arms, legs and main gun).",
    "gunemplacement": "gun emplacements are not supported yet: an emplacement's guns sit in a building, "
    "and the record sheet has no building.",
    "largesupporttank": "large support vehicles are not supported yet: their sheet has six sides "
    "(front, front-left, front-right, rear-left, rear-right, rear), which a vehicle sheet here does not have.",
    "mech": "'Mechs written as building-block files are not supported yet: save the 'Mech as an .mtf file "
    "(MegaMekLab writes one) and import that.",
    "mek": "'Mechs written as building-block files are not supported yet: save the 'Mech as an .mtf file "
    "(MegaMekLab writes one) and import that.",
    "handheldweapon": "handheld weapons are equipment, not units: there is no record sheet to make of one.",
}
DEFAULT_UNIT_TYPE = {
    "vehicle": "Tank",
    "battle_armor": "BattleArmor",
    "infantry": "Infantry",
    "aerospace_fighter": "AeroSpaceFighter",
    "small_craft": "SmallCraft",
    "dropship": "Dropship",
    "jumpship": "Jumpship",
    "warship": "Warship",
    "space_station": "SpaceStation",
}
SHIP_TYPES = ("small_craft", "dropship", "jumpship", "warship", "space_station")
CAPITAL_TYPES = ("jumpship", "warship", "space_station")

MOTIONS = (
    "Tracked",
    "Wheeled",
    "Hover",
    "VTOL",
    "Naval",
    "Hydrofoil",
    "Submarine",
    "WiGE",
    "Rail",
    "Maglev",
    "Leg",
    "Jump",
    "Motorized",
    "UMU",
    "Microcopter",
    "Micro-Copter",
    "Aerodyne",
    "Spheroid",
    "Station Keeping",
    "Station-Keeping",
    "Biped",
    "Quad",
    "None",
    "Motorized SCUBA",
    "Inf. Leg",
    "Inf. Jump",
    "Inf. Motorized",
    "Inf. UMU",
    "Aerospace",
)

# (sheet location, names of its equipment block in files, the first being what the writer uses)
_FRONT, _RIGHT, _LEFT, _REAR = (
    ("Front", ("Front",)),
    ("Right", ("Right",)),
    ("Left", ("Left",)),
    ("Rear", ("Rear",)),
)
_TURRET = ("Turret", ("Turret",))
_DUAL_TURRETS = [("Turret", ("Rear Turret", "Turret")), ("Front Turret", ("Front Turret",))]
_ROTOR, _BODY = ("Rotor", ("Rotor",)), ("Body", ("Body",))
_NOSE, _AFT = ("Nose", ("Nose",)), ("Aft", ("Aft",))
# A fighter's, small craft's or DropShip's armour values in file order: nose, right, left, aft
# (MegaMek's BLKAeroFile NOSE 0, RW 1, LW 2, AFT 3).
_FIGHTER = [_NOSE, ("Right Wing", ("Right Wing",)), ("Left Wing", ("Left Wing",)), _AFT]
# A winged craft's sheet has only its four arcs: what sits in the fuselage, wings or hull has no arc ("").
_FIGHTER_EXTRA = [("", ("Fuselage", "Wings", "Body"))]
_CRAFT = [
    _NOSE,
    ("Right Wing", ("Right Side", "Right Wing")),
    ("Left Wing", ("Left Side", "Left Wing")),
    _AFT,
]
# A DropShip's four armoured arcs, as its file and its record sheet give them: each side is one
# armour value, and weapons on a side that fire aft are marked rear-mounted ("(R)").
_DROPSHIP = [_NOSE, ("Right Side", ("Right Side",)), ("Left Side", ("Left Side",)), _AFT]
_CRAFT_EXTRA = [("", ("Hull",))]
_HULL = [("Hull", ("Hull",))]
# A JumpShip's, WarShip's or station's six arcs in the order of the file's armour values
# (MegaMek's Jumpship locations: nose, front sides, aft, aft sides).
_CAPITAL = [
    _NOSE,
    ("Fore-left", ("Left Front Side", "Front Left Side", "FLS")),
    ("Fore-right", ("Right Front Side", "Front Right Side", "FRS")),
    _AFT,
    ("Aft-left", ("Aft Left Side", "Left Aft Side", "ALS")),
    ("Aft-right", ("Aft Right Side", "Right Aft Side", "ARS")),
]
_BROADSIDES = [
    ("Left Broadside", ("Left Broadsides", "Left Broadside", "LBS")),
    ("Right Broadside", ("Right Broadsides", "Right Broadside", "RBS")),
]

# Bays and other transporters of a <transporters> block (MegaMek's BLKFile.addTransports): the
# file's word → the sheet's bay type.
BAY_TYPES = {
    "cargobay": "Cargo",
    "liquidcargobay": "Liquid cargo",
    "refrigeratedcargobay": "Refrigerated cargo",
    "insulatedcargobay": "Insulated cargo",
    "livestockcargobay": "Livestock",
    "asfbay": "Fighter",
    "smallcraftbay": "Small Craft",
    "mekbay": "Mech",
    "mechbay": "Mech",
    "protomekbay": "ProtoMech",
    "protomechbay": "ProtoMech",
    "lightvehiclebay": "Light Vehicle",
    "heavyvehiclebay": "Heavy Vehicle",
    "superheavyvehiclebay": "Super Heavy Vehicle",
    "infantrybay": "Infantry",
    "battlearmorbay": "Battle Armor",
    "dropshuttlebay": "Drop Shuttle",
    "navalrepairpressurized": "Naval repair (pressurized)",
    "navalrepairunpressurized": "Naval repair (unpressurized)",
    "reinforcedrepairfacility": "Reinforced repair facility",
    "crewquarters": "Crew quarters",
    "steeragequarters": "Steerage quarters",
    "2ndclassquarters": "Second-class quarters",
    "1stclassquarters": "First-class quarters",
    "pillionseats": "Pillion seats",
    "standardseats": "Standard seats",
    "ejectionseats": "Ejection seats",
    "bay": "Bay",
    "troopspace": "Troop space",
}
# The word written back for each sheet bay type (MegaMek's current spelling).
BAY_KEY_OF = {name: key for key, name in reversed(BAY_TYPES.items())}
PLATOONS = ("foot", "jump", "motorized", "mechanized")
CREW_KEYS = (("crew", "crew"), ("officers", "officers"), ("gunners", "gunners"), ("passengers", "passengers"),
             ("marines", "marines"), ("battlearmor", "battle_armor"))  # fmt: skip
BA_MOUNTS = {"LA": "Left Arm", "RA": "Right Arm", "Body": "Body", "TU": "Turret", "Turret": "Turret"}
BA_MOUNT_OF = {"Left Arm": "LA", "Right Arm": "RA", "Body": "Body", "Turret": "TU"}
# How an item is mounted, from a line's suffix, and back.
MOUNT_SUFFIXES = {
    ":OMNI": "omni-pod",
    ":DWP": "detachable weapon pack",
    ":SSWM": "squad support weapon mount",
    ":APM": "anti-personnel weapon mount",
    "(ST)": "sponson turret",
    "(PT)": "pintle turret",
    "(T)": "turret",
}
SUFFIX_OF_MOUNT = {mount: suffix for suffix, mount in MOUNT_SUFFIXES.items()}
BA_WEIGHT = {0: 0.4, 1: 0.75, 2: 1.0, 3: 1.5, 4: 2.0}  # most tons per trooper of each weight class
LEVEL_WORDS = {"introductory": 1, "standard": 2, "advanced": 3, "experimental": 4, "unofficial": 5}
_SHOTS = re.compile(r"Shots(\d{1,6})#?", re.IGNORECASE)
_SIZE = re.compile(r":SIZE:([0-9.]{1,12})$", re.IGNORECASE)


def read_blk(lines: list[str], warnings: list[str] | None = None) -> dict[str, Any]:
    """A building-block file's sheet. Lines that cannot be read but leave the unit whole are
    told in ``warnings`` (when given) instead of refusing the file."""
    warnings = [] if warnings is None else warnings
    blocks = Blocks(parse_blocks(lines))
    blocks.has("BlockVersion")
    blocks.has("Version")
    raw_type = blocks.text("UnitType", required="what kind of unit this is") or ""
    key = raw_type.strip().lower().replace(" ", "")
    if key in NOT_YET:
        raise UnitFileError(NOT_YET[key][:1].upper() + NOT_YET[key][1:])
    unit_type = UNIT_TYPES.get(key)
    if unit_type is None:
        raise UnitFileError(
            f"the unit type “{shown(raw_type)}” is not one MegaMek writes (Tank, SupportTank, VTOL, BattleArmor, "
            "Infantry, Aero, ConvFighter, FixedWingSupport, SmallCraft, Dropship, Jumpship, Warship, SpaceStation).",
            line=blocks.line_of("UnitType"),
        )
    doc: dict[str, Any] = {"format": 1, "unit_type": unit_type}
    name = blocks.text("Name", required="the unit's name") or ""
    if not name:
        raise UnitFileError("the <Name> block is empty.", line=blocks.line_of("Name"))
    doc["chassis"] = name
    doc["model"] = blocks.text("Model", default="") or ""
    _read_type(blocks, doc)
    year = blocks.peek("year")
    if year:
        doc["year"] = _soft_int(blocks, "year", "the year", 1, 9999, warnings)
    extra_transporters: list[str] = []
    if unit_type == "vehicle":
        _read_vehicle(blocks, doc, key, warnings)
    elif unit_type == "battle_armor":
        _read_battle_armor(blocks, doc, warnings)
    elif unit_type == "infantry":
        _read_infantry(blocks, doc, warnings)
    else:
        _read_aero(blocks, doc, unit_type, key, warnings)
    if unit_type not in ("battle_armor", "infantry"):
        bays, collars, extra_transporters, bay_keys = _read_transporters(blocks, warnings)
        if bays or unit_type in SHIP_TYPES:
            doc["bays"] = bays
        if collars:
            doc["docking_collars"] = doc.get("docking_collars", 0) + collars
    else:
        bay_keys = []
    extra: dict[str, Any] = {"unit_type": raw_type.strip(), "blocks": blocks.leftover()}
    if "_mixed_chassis" in doc:
        extra["mixed_chassis"] = doc.pop("_mixed_chassis")
    if extra_transporters:
        extra["transporters"] = extra_transporters
    if bay_keys and any(
        k != BAY_KEY_OF.get(b["type"]) for k, b in zip(bay_keys, doc.get("bays", []), strict=False)
    ):
        extra["bay_keys"] = bay_keys
    doc["source"] = {"format": "blk", "extra": extra}
    return doc


def _soft_int(blocks: Blocks, tag: str, what: str, low: int, high: int, warnings: list[str]) -> int | None:
    """A whole number the sheet can do without: one that cannot be read is a warning."""
    try:
        return blocks.int(tag, what=what, low=low, high=high)
    except UnitFileError as error:
        warnings.append(f"{error} It is left out.")
        return None


def _read_type(blocks: Blocks, doc: dict) -> None:
    text = blocks.text("type")
    if text is None:
        return
    base = t.tech_base_of(text)
    if base is None:
        raise UnitFileError(
            f"the tech type “{shown(text)}” should start with IS, Clan or Mixed.", line=blocks.line_of("type")
        )
    doc["tech_base"] = base
    low = text.lower()
    if base == "Mixed":
        doc["_mixed_chassis"] = "Clan" if "clan" in low else "IS"
    match = re.search(r"level\s*(\d)", low)
    if match:
        doc["rules_level"] = int(match.group(1))
    else:
        for word, level in LEVEL_WORDS.items():
            if word in low:
                doc["rules_level"] = level


def tech_type(doc: dict) -> str:
    """The <type> line MegaMek reads for the sheet's tech base and rules level."""
    level = doc.get("rules_level")
    if doc.get("tech_base") == "Mixed":
        chassis = "Clan" if _extra(doc).get("mixed_chassis") == "Clan" else "IS"
        words = {3: " Advanced", 4: " Experimental", 5: " Unofficial"}
        return f"Mixed ({chassis} Chassis){words.get(level, '')}"
    if doc.get("tech_base") == "Clan":  # MegaMek reads "Clan" and "Clan Level 2" to 5
        return "Clan" if level is None else f"Clan Level {min(5, max(2, level))}"
    return "IS" if level is None else f"IS Level {min(5, max(1, level))}"


def _motion(blocks: Blocks, doc: dict, warnings: list[str], *, required: bool) -> None:
    text = blocks.text("motion_type", required="how it moves" if required else None)
    if text is None:
        return
    if not text.strip():
        if required:
            raise UnitFileError(
                "the <motion_type> block is empty: a vehicle's file says how it moves (Tracked, Wheeled, "
                "Hover, VTOL, Naval…).",
                line=blocks.line_of("motion_type"),
            )
        return
    known = {m.lower(): m for m in MOTIONS}
    motion = known.get(text.strip().lower())
    if motion is None:
        motion = text.strip()[:40]
        if doc["unit_type"] != "infantry":  # an infantry platoon's mount (a horse, a camel) is its motion
            warnings.append(
                f"The motion type “{shown(text)}” is not one this reader knows; it is kept as written."
            )
    doc["motion"] = motion


def _engine(blocks: Blocks, doc: dict, warnings: list[str]) -> None:
    code = _soft_int(blocks, "engine_type", "the engine type code", 0, 13, warnings)
    doc["engine"] = {"type": t.BLK_ENGINE_CODES[0 if code is None else code], "rating": 0}


def _armor(blocks: Blocks, counts: tuple[int, ...], *, high: int, what: str) -> list[int]:
    values = blocks.values("armor")
    if not values:
        raise UnitFileError(f"The file has no <armor> block ({what}).")
    if len(values) not in counts:
        wanted = " or ".join(str(c) for c in counts)
        raise UnitFileError(
            f"the <armor> block has {len(values)} values; this unit needs {wanted} ({what}).",
            line=blocks.line_of("armor"),
        )
    return [parse_int(v, what="Armour", low=0, high=high, line=line) for v, line in values]


def _pilot() -> dict:
    return {"name": "", "gunnery": 4, "piloting": 5, "hits": 0}


def _tonnage(blocks: Blocks, *, high: float) -> int | float:
    return blocks.number("tonnage", what="the tonnage", low=0.1, high=high, required=True)


# --- items in location blocks ------------------------------------------------------------------


def parse_item(text: str, line: int) -> dict[str, Any]:
    """One equipment line: ``(R)`` and ``(B)`` in front (rear-mounted, a new weapon bay), a
    mount, a facing or a size after the name, shots after a colon for ammunition."""
    item: dict[str, Any] = {"rear": False, "new_bay": False}
    text = text.strip()
    while text[:4].upper() in ("(R) ", "(B) "):
        item["rear" if text[:4].upper() == "(R) " else "new_bay"] = True
        text = text[4:].strip()
    size = _SIZE.search(text)
    if size:
        item["size"] = parse_number(size.group(1), what="The size", low=0, high=1_000_000, line=line)
        text = text[: size.start()].strip()
    changed = True
    while changed:
        changed = False
        upper = text.upper()
        for suffix, mount in MOUNT_SUFFIXES.items():
            if upper.endswith(suffix):
                item["mount"] = mount
                text, changed = text[: -len(suffix)].strip(), True
                break
        else:
            for facing in ("(FL)", "(FR)", "(RL)", "(RR)", "(R)"):
                if upper.endswith(facing):
                    item["rear"] = item["rear"] or facing == "(R)"
                    text, changed = text[: -len(facing)].strip(), True
                    break
    name, shots = text, None
    if ":" in text:
        head, _, tail = text.rpartition(":")
        if re.fullmatch(r"\d{1,9}", tail.strip()):
            name = head.strip()
            shots = parse_int(tail, what="The number of shots", low=0, high=100_000, line=line)
    if not name:
        raise UnitFileError("an equipment line names nothing.", line=line)
    item["name"] = name
    item["shots"] = shots
    return item


def _items(blocks: Blocks, table: list, doc: dict, *, bays: bool) -> None:
    weapons: list[dict] = []
    equipment: list[dict] = []
    for location, names in table:
        bay_number = 0
        for file_name in names:
            for text, line in blocks.values(f"{file_name} Equipment"):
                parsed = parse_item(text, line)
                name, rear, new_bay = parsed["name"], parsed["rear"], parsed["new_bay"]
                if parsed["shots"] is None and t.is_weapon(name):
                    if bays and (bay_number == 0 or new_bay):
                        bay_number += 1
                    bay = f"{location or 'Hull'} bay {bay_number}" if bays else None
                    previous = weapons[-1] if weapons else None
                    if (
                        bays
                        and previous
                        and not new_bay
                        and (previous["name"], previous["location"], previous["rear"], previous["bay"])
                        == (name, location, rear, bay)
                    ):
                        previous["count"] += 1
                        continue
                    weapon = {
                        "name": name,
                        "location": location,
                        "rear": rear,
                        "destroyed": False,
                        "bay": bay,
                        "count": 1,
                    }
                    if parsed.get("mount"):
                        weapon["mount"] = parsed["mount"]
                    weapons.append(weapon)
                else:
                    item: dict[str, Any] = {"name": name, "location": location}
                    for key in ("shots", "size", "mount"):
                        if parsed.get(key) is not None:
                            item[key] = parsed[key]
                    if rear:
                        item["rear"] = True
                    equipment.append(item)
    doc["weapons"] = weapons
    doc["equipment"] = equipment


def _item_line(item: dict, *, rear_prefix: bool = True) -> str:
    text = f"{'(R) ' if item.get('rear') and rear_prefix else ''}{item['name']}"
    if item.get("mount") in SUFFIX_OF_MOUNT:
        text += SUFFIX_OF_MOUNT[item["mount"]]
    if item.get("size") is not None:
        text += f":SIZE:{float(item['size'])}"
    if item.get("shots") is not None:
        text += f":{item['shots']}"
    return text


def _write_items(out: list[str], table: list, doc: dict) -> None:
    for location, names in table:
        lines: list[str] = []
        bay = None
        for weapon in doc.get("weapons", []):
            if weapon.get("location") != location:
                continue
            for copy in range(max(1, int(weapon.get("count", 1)))):
                marker = "(B) " if copy == 0 and weapon.get("bay") and weapon.get("bay") != bay else ""
                line = _item_line(weapon)
                if marker:
                    line = f"(R) {marker}{line[4:]}" if weapon.get("rear") else marker + line
                lines.append(line)
            bay = weapon.get("bay")
        for item in doc.get("equipment", []):
            if item.get("location") == location:
                lines.append(_item_line(item))
        write_block(out, f"{names[0]} Equipment", lines)


# --- transporters -----------------------------------------------------------------------------


def _read_transporters(blocks: Blocks, warnings: list[str]) -> tuple[list[dict], int, list[str], list[str]]:
    """(bays, docking collars, lines kept as written, each bay's own word) of the <transporters>
    block, read as MegaMek reads it: ``word:size:doors[:bay number[:platoon or facing...]]``,
    a ``dockingcollar`` line per collar, ``:omni`` and ``arts`` marks ignored."""
    bays: list[dict] = []
    keys: list[str] = []
    kept: list[str] = []
    collars = 0
    for text, line in blocks.values("transporters"):
        low = text.strip().lower().replace(":omni", "")
        if low.startswith("arts"):
            low = low[4:]
        word, _, rest = low.partition(":")
        word = word.strip()
        if word == "dockingcollar":
            collars += 1
            continue
        kind = BAY_TYPES.get(word)
        if kind is None:
            kept.append(text)  # handles, clamps, pods: nothing a bay row holds
            continue
        parts = [p.strip() for p in rest.split(":")] if rest else []
        try:
            capacity = parse_number(parts[0] if parts else "", what=f"The {kind.lower()} bay's size",
                                    low=0, high=10**7, line=line)  # fmt: skip
            doors = 0
            if len(parts) > 1 and parts[1]:
                doors = parse_int(parts[1], what="The number of bay doors", low=0, high=1000, line=line)
        except UnitFileError as error:
            warnings.append(f"{error} The bay is left off the sheet.")
            kept.append(text)
            continue
        if kind == "Drop Shuttle" and not rest.strip():
            capacity = 2
        platoon = next((p for p in parts[2:] if p in PLATOONS), "")
        bay: dict[str, Any] = {"type": f"{kind} ({platoon})" if platoon and platoon != "foot" else kind,
                               "capacity": capacity, "doors": doors}  # fmt: skip
        bays.append(bay)
        keys.append(word)
    return bays, collars, kept, keys


def _write_transporters(out: list[str], doc: dict) -> None:
    lines = []
    own_keys = _extra(doc).get("bay_keys") or []
    for number, bay in enumerate(doc.get("bays", []), start=1):
        kind, _, platoon = str(bay.get("type", "")).partition(" (")
        platoon = platoon.rstrip(")") if platoon.rstrip(")") in PLATOONS else ""
        if not platoon:
            kind = str(bay.get("type", ""))
        key = BAY_KEY_OF.get(kind, "cargobay")
        if number <= len(own_keys) and BAY_TYPES.get(own_keys[number - 1]) == kind:
            key = own_keys[number - 1]
        capacity = float(bay.get("capacity", 0))
        if key == "troopspace":
            lines.append(f"troopspace:{capacity}")
            continue
        parts = [key, f"{capacity}", str(bay.get("doors", 0)), str(number)]
        if platoon:
            parts.append(platoon)
        lines.append(":".join(parts))
    if doc.get("unit_type") in CAPITAL_TYPES:
        lines.extend(["dockingcollar"] * int(doc.get("docking_collars") or 0))
    lines.extend(_extra(doc).get("transporters", []))
    if lines:
        write_block(out, "transporters", lines)


# --- vehicles ---------------------------------------------------------------------------------


def _vehicle_table(is_vtol: bool, turrets: int) -> list:
    """Locations in the order of the file's armour values."""
    table = [_FRONT, _RIGHT, _LEFT, _REAR, _ROTOR] if is_vtol else [_FRONT, _RIGHT, _LEFT, _REAR]
    if turrets == 2:
        return table + _DUAL_TURRETS
    return table + ([_TURRET] if turrets else [])


def _read_vehicle(blocks: Blocks, doc: dict, raw_key: str, warnings: list[str]) -> None:
    _motion(blocks, doc, warnings, required=True)
    is_vtol = raw_key in ("vtol", "supportvtol") or doc.get("motion") == "VTOL"
    tonnage = _tonnage(blocks, high=100_000)
    if tonnage > 100 and raw_key == "tank":
        raise UnitFileError(
            f"superheavy vehicles (over 100 tons; this one is {tonnage:g}) are not supported yet: their sheet has "
            "six sides (front, front-left, front-right, rear-left, rear-right, rear), which a vehicle sheet here "
            "does not have."
        )
    doc["tonnage"] = tonnage
    _engine(blocks, doc, warnings)
    cruise = blocks.int("cruiseMP", what="cruising MP", low=0, high=30, required=True)
    jump = _soft_int(blocks, "jumpingMP", "jumping MP", 0, 30, warnings) or 0
    doc["movement"] = {"walk": cruise, "run": t.run_mp(cruise), "jump": jump}
    doc["engine"]["rating"] = t.vehicle_engine_rating(doc.get("motion", ""), tonnage, cruise)
    what = (
        "front, right, left, rear, rotor, then a chin turret"
        if is_vtol
        else "front, right, left, rear, then one turret or two"
    )
    armor = _armor(blocks, (5, 6) if is_vtol else (4, 5, 6), high=1000, what=what)
    base = 5 if is_vtol else 4
    table = _vehicle_table(is_vtol, len(armor) - base)
    structure = max(1, math.ceil(tonnage / 10))
    doc["locations"] = [
        {"name": loc, "armor": a, "armor_max": a, "structure": structure, "structure_max": structure}
        for (loc, _names), a in zip(table, armor, strict=True)
    ]
    _items(blocks, [*table, _BODY], doc, bays=False)
    doc["pilot"] = _pilot()


def _write_vehicle(out: list[str], doc: dict) -> None:
    movement = doc.get("movement", {})
    write_block(out, "motion_type", [doc.get("motion", "Tracked")])
    write_block(out, "cruiseMP", [str(movement.get("walk", 0))])
    if movement.get("jump"):
        write_block(out, "jumpingMP", [str(movement["jump"])])
    _write_engine(out, doc)
    by_name = {loc["name"]: loc for loc in doc.get("locations", [])}
    is_vtol = _is_vtol(doc)
    turrets = 2 if "Front Turret" in by_name else (1 if "Turret" in by_name else 0)
    table = _vehicle_table(is_vtol, turrets)
    write_block(out, "armor", [str(by_name.get(name, {}).get("armor_max", 0)) for name, _ in table])
    _write_items(out, [*table, _BODY], doc)
    write_block(out, "tonnage", [_num(doc.get("tonnage", 0))])


def _is_vtol(doc: dict) -> bool:
    """A vehicle with a rotor is a VTOL, whatever its motion line says."""
    return doc.get("motion") == "VTOL" or any(loc["name"] == "Rotor" for loc in doc.get("locations", []))


def _write_engine(out: list[str], doc: dict) -> None:
    engine = doc.get("engine") or {}
    write_block(out, "engine_type", [str(t.BLK_ENGINE_CODE_OF.get(engine.get("type"), 0))])


# --- battle armour and infantry ------------------------------------------------------------------


def _read_battle_armor(blocks: Blocks, doc: dict, warnings: list[str]) -> None:
    _motion(blocks, doc, warnings, required=False)
    count = blocks.int("Trooper Count", what="the number of troopers", low=1, high=6, required=True)
    armor = blocks.int("armor", what="each trooper's armour", low=0, high=30, required=True)
    cruise = _soft_int(blocks, "cruiseMP", "ground MP", 0, 20, warnings) or 0
    jump = _soft_int(blocks, "jumpingMP", "jumping MP", 0, 20, warnings) or 0
    doc["movement"] = {"walk": cruise, "run": cruise, "jump": jump}
    weight = blocks.peek("weightclass")
    if weight:
        cls = parse_int(weight[0][0], what="The weight class", low=0, high=4, line=weight[0][1])
        doc["tonnage"] = BA_WEIGHT[cls] * count
    doc["troopers"] = [{"armor": armor, "armor_max": armor, "alive": True} for _ in range(count)]
    weapons: list[dict] = []
    equipment: list[dict] = []
    for trooper in range(7):
        # MegaMek names the whole unit's location "Squad" for the Inner Sphere and "Point" for the Clans
        tags = ("Squad Equipment", "Point Equipment") if trooper == 0 else (f"Trooper {trooper} Equipment",)
        for text, line in (value for tag in tags for value in blocks.values(tag)):
            item = _ba_item(text, line, trooper)
            if item is None:
                warnings.append(f"Line {line}: “{shown(text)}” names no equipment; it is left out.")
                continue
            if t.is_weapon(item["name"]) and "shots" not in item:
                item.update({"rear": False, "destroyed": False, "bay": None, "count": 1})
                weapons.append(item)
            else:
                equipment.append(item)
    doc["weapons"] = weapons
    doc["equipment"] = equipment


def _ba_item(text: str, line: int, trooper: int) -> dict | None:
    """``Name[:mount][:DWP|:SSWM|:APM|:OMNI][:ShotsN#]``: where on the suit it sits, how."""
    parts = [p.strip() for p in text.split(":")]
    name, location, mounts, shots = parts[0], "", [], None
    for part in parts[1:]:
        match = _SHOTS.fullmatch(part)
        if match:
            shots = parse_int(match.group(1), what="The number of shots", low=0, high=100_000, line=line)
        elif part in BA_MOUNTS:
            location = BA_MOUNTS[part]
        elif f":{part.upper()}" in MOUNT_SUFFIXES:
            mounts.append(MOUNT_SUFFIXES[f":{part.upper()}"])
        elif part:
            location = location or part[:30]
    if not name:
        return None
    if "modular" in name.lower():
        mounts.append("modular")
    if trooper:  # one trooper's own equipment: "Trooper 2" or "Trooper 2, Left Arm"
        location = f"Trooper {trooper}, {location}" if location else f"Trooper {trooper}"
    item: dict[str, Any] = {"name": name, "location": location or "Squad"}
    if shots is not None:
        item["shots"] = shots
    if mounts:
        item["mount"] = ", ".join(mounts)
    return item


def _ba_unit_location(doc: dict) -> str:
    """What MegaMek calls the location of the whole unit: "Point" on a Clan suit (BattleArmor's Clan
    location names, a Clan chassis of mixed tech too), "Squad" on any other."""
    clan = doc.get("tech_base") == "Clan" or (
        doc.get("tech_base") == "Mixed" and _extra(doc).get("mixed_chassis") == "Clan"
    )
    return "Point" if clan else "Squad"


def _write_battle_armor(out: list[str], doc: dict) -> None:
    movement = doc.get("movement", {})
    if doc.get("motion"):
        write_block(out, "motion_type", [doc["motion"]])
    for trooper in range(7):
        lines = []
        for item in [*doc.get("weapons", []), *doc.get("equipment", [])]:
            owner, location = _ba_owner(item.get("location") or "Squad")
            if owner != trooper:
                continue
            text = item["name"]
            if location != "Squad":
                text += f":{BA_MOUNT_OF.get(location, location)}"
            for mount in str(item.get("mount") or "").split(", "):
                if SUFFIX_OF_MOUNT.get(mount, "").startswith(":"):
                    text += SUFFIX_OF_MOUNT[mount]
            if item.get("shots") is not None:
                text += f":Shots{item['shots']}#"
            lines.append(text)
        if trooper == 0 or lines:
            write_block(
                out,
                f"{_ba_unit_location(doc)} Equipment" if trooper == 0 else f"Trooper {trooper} Equipment",
                lines,
            )
    write_block(out, "cruiseMP", [str(movement.get("walk", 0))])
    if movement.get("jump"):
        write_block(out, "jumpingMP", [str(movement["jump"])])
    troopers = doc.get("troopers") or [{"armor_max": 0}]
    write_block(out, "armor", [str(troopers[0].get("armor_max", troopers[0].get("armor", 0)))])
    write_block(out, "Trooper Count", [str(len(troopers))])
    kept = {tag.lower() for tag, _values in _extra(doc).get("blocks", [])}
    if "weightclass" not in kept and doc.get("tonnage"):
        # A sheet made here: the lightest weight class whose troopers can weigh what the sheet says.
        per_trooper = float(doc["tonnage"]) / len(troopers)
        weight = next((c for c, most in sorted(BA_WEIGHT.items()) if most >= per_trooper), max(BA_WEIGHT))
        write_block(out, "weightclass", [str(weight)])


def _ba_owner(location: str) -> tuple[int, str]:
    match = re.fullmatch(r"Trooper ([1-6])(?:, (.+))?", location)
    if match:
        return int(match.group(1)), match.group(2) or "Squad"
    return 0, location


def _read_infantry(blocks: Blocks, doc: dict, warnings: list[str]) -> None:
    _motion(blocks, doc, warnings, required=False)
    size = _infantry_int(blocks, "squad_size", what="troopers in a squad", high=30)
    squads = _infantry_int(blocks, "squadn", what="the number of squads", high=30)
    weapon = blocks.text("Primary", required="the troopers' primary weapon") or ""
    if not weapon:
        raise UnitFileError("the <Primary> block is empty.", line=blocks.line_of("Primary"))
    secondary = blocks.text("Secondary") or ""
    per_squad = (
        (_soft_int(blocks, "secondn", "secondary weapons per squad", 0, 30, warnings) or 0)
        if secondary
        else 0
    )
    per_squad = min(per_squad, size)
    cruise = _soft_int(blocks, "cruiseMP", "ground MP", 0, 20, warnings)
    if cruise is not None:
        doc["movement"] = {"walk": cruise, "run": cruise, "jump": 0}
    troopers = size * squads
    doc["platoon"] = {"troopers": troopers, "troopers_max": troopers, "weapon": weapon}

    def carried(name: str, count: int, location: str = "Platoon") -> dict:
        return {
            "name": name,
            "location": location,
            "rear": False,
            "destroyed": False,
            "bay": None,
            "count": count,
        }

    doc["weapons"] = [carried(weapon, troopers - per_squad * squads)] if troopers > per_squad * squads else []
    if secondary and per_squad:
        doc["weapons"].append(carried(secondary, per_squad * squads))
    doc["equipment"] = []
    for text, line in blocks.values("Field Guns Equipment"):
        parsed = parse_item(text, line)
        if parsed["shots"] is None and t.is_weapon(parsed["name"]):
            doc["weapons"].append(carried(parsed["name"], 1, "Field Guns"))
        else:
            item = {"name": parsed["name"], "location": "Field Guns"}
            if parsed["shots"] is not None:
                item["shots"] = parsed["shots"]
            doc["equipment"].append(item)


def _infantry_int(blocks: Blocks, tag: str, *, what: str, high: int) -> int:
    found = blocks.values(tag)
    if not found:
        raise UnitFileError(f"The file has no <{tag}> block ({what}).")
    return parse_int(found[0][0], what=what[:1].upper() + what[1:], low=1, high=high, line=found[0][1])


def _write_infantry(out: list[str], doc: dict) -> None:
    platoon = doc.get("platoon", {})
    if doc.get("motion"):
        write_block(out, "motion_type", [doc["motion"]])
    weapons = doc.get("weapons", [])
    carried = [w for w in weapons if w.get("location") != "Field Guns"]
    primary = platoon.get("weapon") or (carried[0]["name"] if carried else "")
    secondary = next((w for w in carried if w["name"] != primary), None)
    troopers = int(platoon.get("troopers_max", 1)) or 1
    squads = next((n for n in range(min(10, troopers), 0, -1) if troopers % n == 0), 1)
    if secondary and secondary["count"] % squads:
        squads = 1
    write_block(out, "squad_size", [str(troopers // squads)])
    write_block(out, "squadn", [str(squads)])
    write_block(out, "Primary", [primary])
    if secondary:
        write_block(out, "Secondary", [secondary["name"]])
        write_block(out, "secondn", [str(secondary["count"] // squads)])
    guns = [w for w in weapons if w.get("location") == "Field Guns"]
    ammo = [e for e in doc.get("equipment", []) if e.get("location") == "Field Guns"]
    if guns or ammo:
        write_block(out, "Field Guns Equipment", [w["name"] for w in guns for _ in range(int(w.get("count", 1)))]
                    + [_item_line(e) for e in ammo])  # fmt: skip
    if doc.get("movement"):
        write_block(out, "cruiseMP", [str(doc["movement"].get("walk", 0))])


# --- aerospace: fighters, small craft, DropShips, JumpShips, WarShips, stations ------------------


def _aero_table(unit_type: str) -> tuple[list, list]:
    """(armoured arcs, further equipment blocks)."""
    if unit_type == "aerospace_fighter":
        return _FIGHTER, _FIGHTER_EXTRA
    if unit_type == "small_craft":
        return _CRAFT, _CRAFT_EXTRA
    if unit_type == "dropship":
        return _DROPSHIP, _HULL
    if unit_type == "warship":
        return _CAPITAL, [*_HULL, *_BROADSIDES]
    return _CAPITAL, _HULL


_TONNAGE_LIMIT = {
    "aerospace_fighter": 200,
    "small_craft": 200,
    "dropship": 100_000,
    "jumpship": 2_500_000,
    "warship": 2_500_000,
    "space_station": 2_500_000,
}


def _read_aero(blocks: Blocks, doc: dict, unit_type: str, raw_key: str, warnings: list[str]) -> None:
    _motion(blocks, doc, warnings, required=False)
    tonnage = _tonnage(blocks, high=_TONNAGE_LIMIT[unit_type])
    doc["tonnage"] = tonnage
    _engine(blocks, doc, warnings)
    if unit_type in SHIP_TYPES:  # MegaMek gives small craft and larger a fusion engine, whatever the code
        doc["engine"] = {"type": "Fusion", "rating": 0}
    safe = blocks.int(
        "SafeThrust",
        what="safe thrust",
        low=0,
        high=30,
        required=unit_type in ("aerospace_fighter", "small_craft", "dropship"),
    )
    safe = safe or 0  # a JumpShip or station without the block holds station, thrust 0
    doc["movement"] = {"safe_thrust": safe, "max_thrust": t.run_mp(safe)}
    if unit_type == "aerospace_fighter":  # MegaMek's fighters: rating = (safe thrust − 2) × tons
        doc["engine"]["rating"] = max(0, (safe - 2) * int(tonnage))
    sinks = _soft_int(blocks, "heatsinks", "the number of heat sinks", 0, 100_000, warnings)
    if sinks is not None:
        kind = _soft_int(blocks, "sink_type", "the heat sink type (0 single, 1 double)", 0, 1, warnings) or 0
        doc["heat_sinks"] = {"count": sinks, "type": "double" if kind else "single"}
    fuel = _soft_int(blocks, "fuel", "fuel points", 0, 10_000_000, warnings)
    if fuel is not None:
        doc["fuel"] = {"points": fuel}
    table, extra_blocks = _aero_table(unit_type)
    capital = unit_type in CAPITAL_TYPES
    high = 100_000 if unit_type in SHIP_TYPES else 1_000
    armor = _armor(blocks, (6,) if capital else (4,), high=high, what=", ".join(loc for loc, _ in table))
    si_given = None
    try:
        si_given = blocks.int("structural_integrity", what="structural integrity", low=0, high=10_000)
    except UnitFileError as error:
        warnings.append(f"{error} It is worked out from the tonnage instead.")
    if si_given is None:
        si_given = max(math.floor(tonnage / 10), safe) if unit_type not in CAPITAL_TYPES else 1
    doc["structural_integrity"] = {"value": si_given, "max": si_given}
    arcs = [{"name": loc, "armor": a, "armor_max": a} for (loc, _names), a in zip(table, armor, strict=True)]
    if unit_type in ("aerospace_fighter", "small_craft"):
        doc["locations"] = arcs
    else:
        doc["facings"] = arcs
    _items(blocks, table + extra_blocks, doc, bays=unit_type in SHIP_TYPES)
    if unit_type == "aerospace_fighter":
        doc["pilot"] = _pilot()
        doc["heat"] = 0
    if unit_type in SHIP_TYPES:
        crew = {}
        for tag, key in CREW_KEYS:
            value = _soft_int(blocks, tag, f"the number of {key.replace('_', ' ')}", 0, 1_000_000, warnings)
            if value is not None:
                crew[key] = value
        doc["crew"] = crew
        collars = _soft_int(blocks, "docking_collar", "the number of docking collars", 0, 100, warnings)
        if collars is not None:  # older files give the collars as a count
            doc["docking_collars"] = collars
    if unit_type in ("jumpship", "warship"):
        drive = 0.45 if unit_type == "warship" else 0.95
        integrity = math.ceil(1.2 + tonnage * drive / 60000)
        doc["kf_drive"] = {
            "integrity": integrity,
            "integrity_max": integrity,
            "lf_battery": blocks.has("lithium-fusion"),
        }


def _write_aero(out: list[str], doc: dict) -> None:
    unit_type = doc["unit_type"]
    # A sheet made here (not read from a .blk) gets the blocks MegaMek's aerospace loaders
    # refuse a file without; one read from a file keeps what the file had.
    made_here = (doc.get("source") or {}).get("format") != "blk"
    if doc.get("motion") or made_here:
        write_block(out, "motion_type", [doc.get("motion") or "Aerodyne"])
    movement = doc.get("movement") or {}
    write_block(out, "SafeThrust", [str(movement.get("safe_thrust", 0))])
    _write_engine(out, doc)
    sinks = doc.get("heat_sinks") or ({"count": 0, "type": "single"} if made_here else None)
    if sinks:
        write_block(out, "heatsinks", [str(sinks.get("count", 0))])
        write_block(out, "sink_type", ["1" if sinks.get("type") == "double" else "0"])
    if (doc.get("fuel") or {}).get("points") is not None or made_here:
        write_block(out, "fuel", [str((doc.get("fuel") or {}).get("points", 0))])
    table, extra_blocks = _aero_table(unit_type)
    arcs = doc.get("locations") if unit_type in ("aerospace_fighter", "small_craft") else doc.get("facings")
    by_name = {arc["name"]: arc for arc in arcs or []}
    if (
        unit_type == "dropship" and "Left Side" not in by_name
    ):  # six facings typed by a GM: a side is its fore
        by_name = {
            **by_name,
            "Left Side": by_name.get("Fore-left", {}),
            "Right Side": by_name.get("Fore-right", {}),
        }
    write_block(out, "armor", [str(by_name.get(name, {}).get("armor_max", 0)) for name, _ in table])
    _write_items(out, table + extra_blocks, doc)
    si = doc.get("structural_integrity")
    if si:
        write_block(out, "structural_integrity", [str(si.get("max", si.get("value", 0)))])
    write_block(out, "tonnage", [_num(doc.get("tonnage", 0))])
    for tag, key in CREW_KEYS:
        if key in (doc.get("crew") or {}):
            write_block(out, tag, [str(doc["crew"][key])])
        elif made_here and unit_type in SHIP_TYPES:
            write_block(out, tag, ["0"])
    if made_here and unit_type in SHIP_TYPES:
        write_block(out, "life_boat", ["0"])
        write_block(out, "escape_pod", ["0"])
    if (doc.get("kf_drive") or {}).get("lf_battery"):
        write_block(out, "lithium-fusion", ["1"])


# --- writing ----------------------------------------------------------------------------------


def _num(value: Any) -> str:
    return f"{float(value):.1f}" if isinstance(value, int | float) else str(value)


def _extra(doc: dict[str, Any]) -> dict[str, Any]:
    return (doc.get("source") or {}).get("extra") or {}


def write_blk(doc: dict[str, Any]) -> str:
    unit_type = doc["unit_type"]
    raw_type = _extra(doc).get("unit_type", "")
    if UNIT_TYPES.get(str(raw_type).lower()) != unit_type:
        raw_type = DEFAULT_UNIT_TYPE[unit_type]
    if unit_type == "vehicle":
        vtol = _is_vtol(doc)
        support = str(raw_type).lower().startswith("support")
        raw_type = ("SupportVTOL" if vtol else "SupportTank") if support else ("VTOL" if vtol else "Tank")
    out = ["#building block data file"]
    write_block(out, "BlockVersion", ["1"])
    write_block(out, "Version", ["MAM0"])
    write_block(out, "UnitType", [raw_type])
    write_block(out, "Name", [doc.get("chassis", "")])
    write_block(out, "Model", [doc.get("model", "")])
    if doc.get("year") is not None or (doc.get("source") or {}).get("format") != "blk":
        write_block(out, "year", [str(doc.get("year", 3025))])  # MegaMek needs a year
    write_block(out, "type", [tech_type(doc)])
    if unit_type == "vehicle":
        _write_vehicle(out, doc)
    elif unit_type == "battle_armor":
        _write_battle_armor(out, doc)
    elif unit_type == "infantry":
        _write_infantry(out, doc)
    else:
        _write_aero(out, doc)
    if unit_type not in ("battle_armor", "infantry"):
        _write_transporters(out, doc)
    for tag, values in _extra(doc).get("blocks", []):
        write_block(out, tag, values)
    return "\n".join(out) + "\n"


__all__ = ["Block", "parse_item", "read_blk", "tech_type", "write_blk"]
