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
    "vtol": "vehicle",
    "battlearmor": "battle_armor",
    "infantry": "infantry",
    "convinfantry": "infantry",
    "aero": "aerospace_fighter",
    "aerospacefighter": "aerospace_fighter",
    "convfighter": "aerospace_fighter",
    "smallcraft": "small_craft",
    "dropship": "dropship",
    "jumpship": "jumpship",
    "warship": "warship",
    "spacestation": "space_station",
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
)

# (sheet location, names of its equipment block in files, the first being what the writer uses)
_FRONT, _RIGHT, _LEFT, _REAR = (
    ("Front", ("Front",)),
    ("Right", ("Right",)),
    ("Left", ("Left",)),
    ("Rear", ("Rear",)),
)
_TURRET = ("Turret", ("Turret",))
_ROTOR, _BODY = ("Rotor", ("Rotor",)), ("Body", ("Body",))
_NOSE, _AFT = ("Nose", ("Nose",)), ("Aft", ("Aft",))
_FIGHTER = [_NOSE, ("Left Wing", ("Left Wing",)), ("Right Wing", ("Right Wing",)), _AFT]
# A winged craft's sheet has only its four arcs: what sits in the fuselage, wings or hull has no arc ("").
_FIGHTER_EXTRA = [("", ("Fuselage", "Wings"))]
_CRAFT = [
    _NOSE,
    ("Left Wing", ("Left Side", "Left Wing")),
    ("Right Wing", ("Right Side", "Right Wing")),
    _AFT,
]
# A DropShip's side arcs are one armour value each; the sheet keeps six facings (a side's
# armour on its fore and aft facing) and its side weapons on the fore facing of that side.
_DROPSHIP = [_NOSE, ("Fore-left", ("Left Side",)), ("Fore-right", ("Right Side",)), _AFT]
_DROPSHIP_ARMOR = ("Nose", "Left Side", "Right Side", "Aft")
_CRAFT_EXTRA = [("", ("Hull",))]
_HULL = [("Hull", ("Hull",))]
_CAPITAL = [
    _NOSE,
    ("Fore-left", ("Front Left Side", "Left Front Side", "FLS")),
    ("Fore-right", ("Front Right Side", "Right Front Side", "FRS")),
    ("Aft-left", ("Aft Left Side", "Left Aft Side", "ALS")),
    ("Aft-right", ("Aft Right Side", "Right Aft Side", "ARS")),
    _AFT,
]
_BROADSIDES = [("Left Broadside", ("Left Broadside", "LBS")), ("Right Broadside", ("Right Broadside", "RBS"))]

BAY_TYPES = {
    "cargobay": "Cargo",
    "liquidcargobay": "Liquid cargo",
    "refrigeratedcargobay": "Refrigerated cargo",
    "insulatedcargobay": "Insulated cargo",
    "livestockcargobay": "Livestock",
    "asfbay": "Fighter",
    "smallcraftbay": "Small Craft",
    "mechbay": "Mech",
    "protomechbay": "ProtoMech",
    "lightvehiclebay": "Light Vehicle",
    "heavyvehiclebay": "Heavy Vehicle",
    "superheavyvehiclebay": "Super Heavy Vehicle",
    "battlearmorbay": "Battle Armor",
    "dropshuttlebay": "Drop Shuttle",
    "troopspace": "Troop space",
}
BAY_KEY_OF = {name: key for key, name in BAY_TYPES.items()}
CREW_KEYS = ("crew", "officers", "gunners", "passengers", "marines")
BA_MOUNTS = {"LA": "Left Arm", "RA": "Right Arm", "Body": "Body", "Turret": "Turret"}
BA_MOUNT_OF = {name: code for code, name in BA_MOUNTS.items()}
BA_WEIGHT = {0: 0.4, 1: 0.75, 2: 1.0, 3: 1.5, 4: 2.0}  # most tons per trooper of each weight class
LEVEL_WORDS = {"introductory": 1, "standard": 2, "advanced": 3, "experimental": 4, "unofficial": 5}
_SHOTS = re.compile(r"Shots(\d{1,6})#?", re.IGNORECASE)


def read_blk(lines: list[str]) -> dict[str, Any]:
    blocks = Blocks(parse_blocks(lines))
    blocks.has("BlockVersion")
    blocks.has("Version")
    raw_type = blocks.text("UnitType", required="what kind of unit this is") or ""
    unit_type = UNIT_TYPES.get(raw_type.strip().lower().replace(" ", ""))
    if unit_type is None:
        raise UnitFileError(
            f"the unit type “{shown(raw_type)}” is not one this import reads (Tank, VTOL, BattleArmor, Infantry, "
            "Aero, ConvFighter, SmallCraft, Dropship, Jumpship, Warship, SpaceStation).",
            line=blocks.line_of("UnitType"),
        )
    doc: dict[str, Any] = {"format": 1, "unit_type": unit_type}
    name = blocks.text("Name", required="the unit's name") or ""
    if not name:
        raise UnitFileError("the <Name> block is empty.", line=blocks.line_of("Name"))
    doc["chassis"] = name
    doc["model"] = blocks.text("Model", default="") or ""
    _read_type(blocks, doc)
    doc["year"] = blocks.int("year", what="the year", low=1, high=9999, required=True)
    extra_transporters: list[str] = []
    if unit_type == "vehicle":
        _read_vehicle(blocks, doc, raw_type)
    elif unit_type == "battle_armor":
        _read_battle_armor(blocks, doc)
    elif unit_type == "infantry":
        _read_infantry(blocks, doc)
    else:
        _read_aero(blocks, doc, unit_type)
    if unit_type not in ("battle_armor", "infantry"):
        bays, extra_transporters = _read_transporters(blocks)
        if bays or unit_type in SHIP_TYPES:
            doc["bays"] = bays
    extra: dict[str, Any] = {"unit_type": raw_type.strip(), "blocks": blocks.leftover()}
    if extra_transporters:
        extra["transporters"] = extra_transporters
    doc["source"] = {"format": "blk", "extra": extra}
    return doc


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
    match = re.search(r"level\s*(\d)", low)
    if match:
        doc["rules_level"] = int(match.group(1))
    else:
        for word, level in LEVEL_WORDS.items():
            if word in low:
                doc["rules_level"] = level


def _motion(blocks: Blocks, doc: dict, *, required: bool) -> None:
    text = blocks.text("motion_type", required="how it moves" if required else None)
    if text is None:
        return
    known = {m.lower(): m for m in MOTIONS}
    if text.strip().lower() not in known:
        raise UnitFileError(
            f"the motion type “{shown(text)}” is not one this reader knows.",
            line=blocks.line_of("motion_type"),
        )
    doc["motion"] = known[text.strip().lower()]


def _engine(blocks: Blocks, doc: dict) -> None:
    code = blocks.int("engine_type", what="the engine type code", low=0, high=13)
    if code is not None:
        doc["engine"] = {"type": t.BLK_ENGINE_CODES[code]}


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


def _items(blocks: Blocks, table: list, doc: dict, *, bays: bool) -> None:
    weapons: list[dict] = []
    equipment: list[dict] = []
    for location, names in table:
        bay_number = 0
        for file_name in names:
            for text, line in blocks.values(f"{file_name} Equipment"):
                rear = new_bay = False
                while text.startswith(("(R) ", "(B) ")):
                    if text.startswith("(R) "):
                        rear = True
                    else:
                        new_bay = True
                    text = text[4:].strip()
                if not text:
                    raise UnitFileError("an equipment line names nothing.", line=line)
                name, shots = text, None
                if ":" in text and "ammo" in text.lower():
                    head, _, tail = text.rpartition(":")
                    if re.fullmatch(r"\d{1,9}", tail.strip()):
                        name = head.strip()
                        shots = parse_int(tail, what="The number of shots", low=0, high=100_000, line=line)
                if t.is_weapon(name):
                    if bays and (bay_number == 0 or new_bay):
                        bay_number += 1
                    bay = f"{location} bay {bay_number}" if bays else None
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
                    weapons.append(
                        {
                            "name": name,
                            "location": location,
                            "rear": rear,
                            "destroyed": False,
                            "bay": bay,
                            "count": 1,
                        }
                    )
                else:
                    item: dict[str, Any] = {"name": name, "location": location}
                    if shots is not None:
                        item["shots"] = shots
                    if rear:
                        item["rear"] = True
                    equipment.append(item)
    doc["weapons"] = weapons
    doc["equipment"] = equipment


def _write_items(out: list[str], table: list, doc: dict) -> None:
    for location, names in table:
        lines: list[str] = []
        bay = None
        for weapon in doc.get("weapons", []):
            if weapon.get("location") != location:
                continue
            prefix = "(R) " if weapon.get("rear") else ""
            for copy in range(max(1, int(weapon.get("count", 1)))):
                marker = "(B) " if copy == 0 and lines and weapon.get("bay") != bay else ""
                lines.append(f"{prefix}{marker}{weapon['name']}")
            bay = weapon.get("bay")
        for item in doc.get("equipment", []):
            if item.get("location") != location:
                continue
            text = f"{'(R) ' if item.get('rear') else ''}{item['name']}"
            if item.get("shots") is not None:
                text += f":{item['shots']}"
            lines.append(text)
        write_block(out, f"{names[0]} Equipment", lines)


# --- transporters -----------------------------------------------------------------------------


def _read_transporters(blocks: Blocks) -> tuple[list[dict], list[str]]:
    bays: list[dict] = []
    kept: list[str] = []
    for text, line in blocks.values("transporters"):
        key, _, rest = text.partition(":")
        kind = BAY_TYPES.get(key.strip().lower())
        parts = rest.split(":") if rest else []
        if kind is None or not 1 <= len(parts) <= 3:
            kept.append(text)
            continue
        bay: dict[str, Any] = {
            "type": kind,
            "capacity": parse_number(
                parts[0], what=f"The {kind.lower()} bay's capacity", low=0, high=10**7, line=line
            ),
        }
        if len(parts) > 1:
            bay["doors"] = parse_int(parts[1], what="The number of bay doors", low=0, high=1000, line=line)
        if len(parts) > 2:  # the bay's number: the writer numbers bays in order
            parse_int(parts[2], what="The bay number", low=-1, high=10_000, line=line)
        bays.append(bay)
    return bays, kept


def _write_transporters(out: list[str], doc: dict) -> None:
    lines = []
    for number, bay in enumerate(doc.get("bays", []), start=1):
        key = BAY_KEY_OF.get(bay.get("type", ""), "cargobay")
        parts = [key, f"{float(bay.get('capacity', 0)):.1f}"]
        if key != "troopspace":
            parts += [str(bay.get("doors", 0)), str(number)]
        lines.append(":".join(parts))
    lines.extend(_extra(doc).get("transporters", []))
    if lines or doc.get("unit_type") in SHIP_TYPES or "bays" in doc:
        write_block(out, "transporters", lines)


# --- vehicles ---------------------------------------------------------------------------------


def _vehicle_table(is_vtol: bool, has_turret: bool) -> list:
    """Locations in the order of the file's armour values."""
    table = [_FRONT, _RIGHT, _LEFT, _REAR, _ROTOR] if is_vtol else [_FRONT, _RIGHT, _LEFT, _REAR]
    return table + ([_TURRET] if has_turret else [])


def _read_vehicle(blocks: Blocks, doc: dict, raw_type: str) -> None:
    _motion(blocks, doc, required=True)
    is_vtol = raw_type.strip().lower() == "vtol" or doc.get("motion") == "VTOL"
    tonnage = _tonnage(blocks, high=300)
    doc["tonnage"] = tonnage
    _engine(blocks, doc)
    cruise = blocks.int("cruiseMP", what="cruising MP", low=0, high=30, required=True)
    jump = blocks.int("jumpingMP", what="jumping MP", low=0, high=30) or 0
    doc["movement"] = {"walk": cruise, "run": t.run_mp(cruise), "jump": jump}
    what = (
        "front, right, left, rear, rotor, then a chin turret"
        if is_vtol
        else "front, right, left, rear, then a turret"
    )
    armor = _armor(blocks, (5, 6) if is_vtol else (4, 5), high=1000, what=what)
    table = _vehicle_table(is_vtol, len(armor) == (6 if is_vtol else 5))
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
    is_vtol = doc.get("motion") == "VTOL"
    table = _vehicle_table(is_vtol, "Turret" in by_name)
    write_block(out, "armor", [str(by_name.get(name, {}).get("armor_max", 0)) for name, _ in table])
    _write_items(out, [*table, _BODY], doc)
    write_block(out, "tonnage", [_num(doc.get("tonnage", 0))])


def _write_engine(out: list[str], doc: dict) -> None:
    engine = doc.get("engine") or {}
    if engine.get("type") in t.BLK_ENGINE_CODE_OF:
        write_block(out, "engine_type", [str(t.BLK_ENGINE_CODE_OF[engine["type"]])])


# --- battle armour and infantry ------------------------------------------------------------------


def _read_battle_armor(blocks: Blocks, doc: dict) -> None:
    _motion(blocks, doc, required=False)
    count = blocks.int("Trooper Count", what="the number of troopers", low=1, high=6, required=True)
    armor = blocks.int("armor", what="each trooper's armour", low=0, high=30, required=True)
    cruise = blocks.int("cruiseMP", what="ground MP", low=0, high=20) or 0
    jump = blocks.int("jumpingMP", what="jumping MP", low=0, high=20) or 0
    doc["movement"] = {"walk": cruise, "run": cruise, "jump": jump}
    weight = blocks.peek("weightclass")
    if weight:
        cls = parse_int(weight[0][0], what="The weight class", low=0, high=4, line=weight[0][1])
        doc["tonnage"] = math.ceil(BA_WEIGHT[cls] * count)
    doc["troopers"] = [{"armor": armor, "armor_max": armor, "alive": True} for _ in range(count)]
    weapons: list[dict] = []
    equipment: list[dict] = []
    for trooper in range(7):
        tag = "Squad Equipment" if trooper == 0 else f"Trooper {trooper} Equipment"
        for text, line in blocks.values(tag):
            parts = [p.strip() for p in text.split(":")]
            name, mount, shots = parts[0], None, None
            for part in parts[1:]:
                match = _SHOTS.fullmatch(part)
                if match:
                    shots = parse_int(
                        match.group(1), what="The number of shots", low=0, high=100_000, line=line
                    )
                elif mount is None and part:
                    mount = part
                else:
                    raise UnitFileError(
                        f"“{shown(text)}” has more parts than a name, a mount and shots.", line=line
                    )
            if not name:
                raise UnitFileError("an equipment line names nothing.", line=line)
            location = BA_MOUNTS.get(mount, mount) if mount else ""
            if trooper:  # one trooper's own equipment: "Trooper 2" or "Trooper 2, Left Arm"
                location = f"Trooper {trooper}, {location}" if location else f"Trooper {trooper}"
            item: dict[str, Any] = {"name": name, "location": location or "Squad"}
            if shots is not None:
                item["shots"] = shots
            if t.is_weapon(name) and shots is None:
                item.update({"rear": False, "destroyed": False, "bay": None, "count": 1})
                weapons.append(item)
            else:
                equipment.append(item)
    doc["weapons"] = weapons
    doc["equipment"] = equipment


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
            if item.get("shots") is not None:
                text += f":Shots{item['shots']}#"
            lines.append(text)
        if trooper == 0 or lines:
            write_block(out, "Squad Equipment" if trooper == 0 else f"Trooper {trooper} Equipment", lines)
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


def _read_infantry(blocks: Blocks, doc: dict) -> None:
    _motion(blocks, doc, required=False)
    # Squads and their size stay in the file's own blocks; the sheet counts troopers.
    size = _peek_int(blocks, "squad_size", what="troopers in a squad", high=30)
    squads = _peek_int(blocks, "squadn", what="the number of squads", high=30)
    weapon = blocks.text("Primary", required="the troopers' primary weapon") or ""
    if not weapon:
        raise UnitFileError("the <Primary> block is empty.", line=blocks.line_of("Primary"))
    cruise = blocks.int("cruiseMP", what="ground MP", low=0, high=20)
    if cruise is not None:
        doc["movement"] = {"walk": cruise, "run": cruise, "jump": 0}
    troopers = size * squads
    doc["platoon"] = {"troopers": troopers, "troopers_max": troopers, "weapon": weapon}
    doc["weapons"] = [
        {
            "name": weapon,
            "location": "Platoon",
            "rear": False,
            "destroyed": False,
            "bay": None,
            "count": troopers,
        }
    ]
    doc["equipment"] = []


def _peek_int(blocks: Blocks, tag: str, *, what: str, high: int) -> int:
    found = blocks.peek(tag)
    if not found:
        raise UnitFileError(f"The file has no <{tag}> block ({what}).")
    return parse_int(found[0][0], what=what[:1].upper() + what[1:], low=1, high=high, line=found[0][1])


def _write_infantry(out: list[str], doc: dict) -> None:
    platoon = doc.get("platoon", {})
    if doc.get("motion"):
        write_block(out, "motion_type", [doc["motion"]])
    kept = {tag.lower() for tag, _values in _extra(doc).get("blocks", [])}
    if "squad_size" not in kept:
        write_block(out, "squad_size", [str(platoon.get("troopers_max", 1))])
    if "squadn" not in kept:
        write_block(out, "squadn", ["1"])
    write_block(out, "Primary", [platoon.get("weapon", "")])
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
        return _CAPITAL, _BROADSIDES
    return _CAPITAL, []


_TONNAGE_LIMIT = {
    "aerospace_fighter": 200,
    "small_craft": 200,
    "dropship": 100_000,
    "jumpship": 2_500_000,
    "warship": 2_500_000,
    "space_station": 2_500_000,
}


def _read_aero(blocks: Blocks, doc: dict, unit_type: str) -> None:
    _motion(blocks, doc, required=False)
    tonnage = _tonnage(blocks, high=_TONNAGE_LIMIT[unit_type])
    doc["tonnage"] = tonnage
    _engine(blocks, doc)
    safe = blocks.int(
        "SafeThrust",
        what="safe thrust",
        low=0,
        high=30,
        required=unit_type in ("aerospace_fighter", "small_craft", "dropship"),
    )
    if safe is not None:
        doc["movement"] = {"safe_thrust": safe, "max_thrust": t.run_mp(safe)}
    sinks = blocks.int("heatsinks", what="the number of heat sinks", low=0, high=100_000)
    if sinks is not None:
        kind = blocks.int("sink_type", what="the heat sink type (0 single, 1 double)", low=0, high=1) or 0
        doc["heat_sinks"] = {"count": sinks, "type": "double" if kind else "single"}
    fuel = blocks.int("fuel", what="fuel points", low=0, high=10_000_000)
    if fuel is not None:
        doc["fuel"] = {"points": fuel}
    table, extra_blocks = _aero_table(unit_type)
    capital = unit_type in CAPITAL_TYPES
    high = 100_000 if unit_type in SHIP_TYPES else 1_000
    armor = _armor(blocks, (6,) if capital else (4,), high=high, what=", ".join(loc for loc, _ in table))
    si_given = blocks.int(
        "structural_integrity",
        what="structural integrity",
        low=0,
        high=1000,
        required=unit_type in SHIP_TYPES,
    )
    if si_given is None:
        si_given = max(math.floor(tonnage / 10), safe or 0)
    doc["structural_integrity"] = {"value": si_given, "max": si_given}
    names = _DROPSHIP_ARMOR if unit_type == "dropship" else [loc for loc, _names in table]
    arcs = [{"name": loc, "armor": a, "armor_max": a} for loc, a in zip(names, armor, strict=True)]
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
        for key in CREW_KEYS:
            value = blocks.int(key, what=f"the number of {key}", low=0, high=1_000_000)
            if value is not None:
                crew[key] = value
        doc["crew"] = crew
        collars = blocks.int("docking_collar", what="the number of docking collars", low=0, high=1000)
        if collars is not None:
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
    if doc.get("motion"):
        write_block(out, "motion_type", [doc["motion"]])
    movement = doc.get("movement") or {}
    if "safe_thrust" in movement:
        write_block(out, "SafeThrust", [str(movement["safe_thrust"])])
    _write_engine(out, doc)
    sinks = doc.get("heat_sinks")
    if sinks:
        write_block(out, "heatsinks", [str(sinks.get("count", 0))])
        write_block(out, "sink_type", ["1" if sinks.get("type") == "double" else "0"])
    if doc.get("fuel"):
        write_block(out, "fuel", [str(doc["fuel"].get("points", 0))])
    table, extra_blocks = _aero_table(unit_type)
    arcs = doc.get("locations") if unit_type in ("aerospace_fighter", "small_craft") else doc.get("facings")
    by_name = {arc["name"]: arc for arc in arcs or []}
    write_block(out, "armor", [str(by_name.get(name, {}).get("armor_max", 0)) for name, _ in table])
    _write_items(out, table + extra_blocks, doc)
    si = doc.get("structural_integrity")
    if si:
        write_block(out, "structural_integrity", [str(si.get("max", si.get("value", 0)))])
    write_block(out, "tonnage", [_num(doc.get("tonnage", 0))])
    for key in CREW_KEYS:
        if key in (doc.get("crew") or {}):
            write_block(out, key, [str(doc["crew"][key])])
    if "docking_collars" in doc:
        write_block(out, "docking_collar", [str(doc["docking_collars"])])
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
        raw_type = "VTOL" if doc.get("motion") == "VTOL" else "Tank"
    out = ["#building block data file"]
    write_block(out, "BlockVersion", ["1"])
    write_block(out, "Version", ["MAM0"])
    write_block(out, "UnitType", [raw_type])
    write_block(out, "Name", [doc.get("chassis", "")])
    write_block(out, "Model", [doc.get("model", "")])
    write_block(out, "year", [str(doc.get("year", 3025))])
    if doc.get("tech_base"):
        base = {"Inner Sphere": "IS", "Clan": "Clan", "Mixed": "Mixed (IS Chassis)"}[doc["tech_base"]]
        level = f" Level {doc['rules_level']}" if doc.get("rules_level") is not None else ""
        write_block(out, "type", [base + level])
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


__all__ = ["Block", "read_blk", "write_blk"]
