"""MegaMek unit lists (``.mul``): forces written for MegaMek's lobby, battle results read back.

Pure Python: no database, no request. The shape is MegaMek's own (its ``EntityListFile``
writes it, its ``MULParser`` reads it):

* the root is ``<unit>`` (a saved force) or ``<record>`` (what MegaMek saves after a battle,
  its entities sorted into ``<survivors>``, ``<allies>``, ``<salvage>``, ``<retreated>`` and
  ``<devastated>``);
* each ``<entity chassis=… model=… externalId=…>`` is found in MegaMek's unit cache by
  chassis and model; ``externalId`` is carried through a game untouched, so it is the id
  that brings a unit back to its record;
* ``<pilot name gunnery piloting hits>`` is the crew (hits 1–5, or ``Dead``);
* only damage is written: a ``<location index=N>`` (MegaMek's location numbers, head 0,
  centre torso 1, right torso 2…) holds ``<armor points=…/>`` (front), ``type="Internal"``
  and ``type="Rear"`` where they differ from the unit as built, ``<slot index=…>`` (from 1)
  for a critical hit or an ammunition bin's shots; ``isDestroyed="true"`` on the location
  when it is gone. A location not written is as built.

Reading is bounded as the unit files are: size, entity count, nesting, and no DTD or
entity of any kind (``defusedxml``).
"""

from __future__ import annotations

import copy
import re
import uuid
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, TreeBuilder
from xml.sax.saxutils import quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from referee.forms import too_large

MAX_MUL_BYTES = 700 * 1024  # carried back through the Apply form (its fields hold 1 MB)
WHAT = "a unit list of a battle"  # what a file too large should have been, in the refusal
MAX_ENTITIES = 500
MAX_DEPTH = 8  # record > section > entity > location > slot is five deep
MAX_ELEMENTS = 100_000
MUL_VERSION = "0.49.19"  # a MegaMek version whose reader takes every attribute written here

SECTIONS = {
    "unit": "In the unit list",
    "survivors": "Survived",
    "allies": "Allied",
    "salvage": "Salvage",
    "retreated": "Retreated",
    "devastated": "Devastated",
}

# MegaMek's location numbers, by the sheet's location names.
BIPED = (
    "Head",
    "Center Torso",
    "Right Torso",
    "Left Torso",
    "Right Arm",
    "Left Arm",
    "Right Leg",
    "Left Leg",
)
QUAD = (
    "Head",
    "Center Torso",
    "Right Torso",
    "Left Torso",
    "Front Right Leg",
    "Front Left Leg",
    "Rear Right Leg",
    "Rear Left Leg",
)
TRIPOD = (*BIPED, "Center Leg")
TANK = ("Body", "Front", "Right", "Left", "Rear", "Turret")
VTOL = ("Body", "Front", "Right", "Left", "Rear", "Rotor", "Turret")
WINGED = ("Nose", "Left Wing", "Right Wing", "Aft")  # fighters; small craft call the wings sides
# JumpShips, WarShips and stations: MegaMek's sides by the sheet's facings.
CAPITAL = ("Nose", "Fore-left", "Fore-right", "Aft", "Aft-left", "Aft-right")
# DropShips: MegaMek's four arcs. A sheet keeps them (Left Side, Right Side), or an older one
# splits each side into its fore and aft facing: the side covers both.
DROPSHIP_ARCS = (
    ("Nose",),
    ("Left Side", "Fore-left", "Aft-left"),
    ("Right Side", "Fore-right", "Aft-right"),
    ("Aft",),
)

# Critical slots MegaMek writes as type="System" (what is not equipment).
SYSTEM_SLOTS = {
    "life support",
    "sensors",
    "cockpit",
    "small cockpit",
    "gyro",
    "engine",
    "fusion engine",
    "shoulder",
    "upper arm actuator",
    "lower arm actuator",
    "hand actuator",
    "hip",
    "upper leg actuator",
    "lower leg actuator",
    "foot actuator",
    "landing gear",
    "avionics",
}
MOVEMENT_TYPE = {
    "mech": None,
    "vehicle": "Tracked",
    "battle_armor": "Leg",
    "infantry": "Leg",
    "aerospace_fighter": "Aerodyne",
    "small_craft": "Aerodyne",
    "dropship": "Aerodyne",
    "jumpship": "Spheroid",
    "warship": "Spheroid",
    "space_station": "Spheroid",
}
DEAD = 6  # the sheet's pilot hits when MegaMek writes "Dead"


class MulError(ValueError):
    """A unit list that cannot be read, with the line and what is wrong, in a GM's words."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"Line {line}: {message}" if line else message)


# -- Writing --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One unit or ship to write: its record's id, its sheet, and who crews it."""

    external_id: str
    doc: dict
    name: str  # the record's name, for the notes
    crew_name: str = ""
    gunnery: int = 4
    piloting: int = 5


def location_names(doc: dict) -> tuple[str, ...]:
    """MegaMek's location order for the sheet: index ``i`` of the tuple is location ``i``."""
    kind = doc["unit_type"]
    if kind == "mech":
        return {"Quad": QUAD, "Tripod": TRIPOD}.get(doc.get("config", "Biped"), BIPED)
    if kind == "vehicle":
        return VTOL if any(loc["name"] == "Rotor" for loc in doc.get("locations", [])) else TANK
    if kind in ("aerospace_fighter", "small_craft"):
        return WINGED
    if kind in ("jumpship", "warship", "space_station"):
        return CAPITAL
    return ()


def known_to_megamek(doc: dict) -> bool:
    """A sheet read from a MegaMek unit file names a unit MegaMek's cache holds; a sheet made
    here (a blank sheet, a design of this campaign) does not."""
    return (doc.get("source") or {}).get("format") in ("mtf", "blk") and bool(doc.get("chassis"))


def _attrs(**values) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in values.items() if v is not None)


def _slot_type(name: str | None) -> str:
    lower = (name or "").lower()
    if not name or lower in SYSTEM_SLOTS or ("engine" in lower and "ammo" not in lower):
        return "System"
    return name


def _mech_or_vehicle_locations(doc: dict, names: tuple[str, ...]) -> list[str]:
    out = []
    by_name = {loc["name"]: loc for loc in doc.get("locations", [])}
    # An ammunition slot names its ammunition as MegaMek does, or MegaMek cannot load it: only a
    # sheet read from a MegaMek unit file has MegaMek's names.
    ammo = [e for e in doc.get("equipment", []) if "shots" in e] if known_to_megamek(doc) else []
    for index, name in enumerate(names):
        loc = by_name.get(name)
        if loc is None:
            continue
        if loc.get("destroyed"):
            out.append(f'    <location index="{index}" isDestroyed="true" /> {name}')
            continue
        lines = []
        if loc.get("armor") != loc.get("armor_max"):
            lines.append(f'      <armor points="{loc["armor"]}"/>')
        if "structure" in loc and loc["structure"] != loc["structure_max"]:
            lines.append(f'      <armor points="{loc["structure"]}" type="Internal"/>')
        if "rear_armor" in loc and loc["rear_armor"] != loc["rear_armor_max"]:
            lines.append(f'      <armor points="{loc["rear_armor"]}" type="Rear"/>')
        slots = doc.get("criticals", {}).get(name, [])
        bins = [e for e in ammo if e.get("location") == name]
        used: set[int] = set()
        for number, slot in enumerate(slots, start=1):
            if slot["hit"]:
                lines.append(
                    f"      <slot{_attrs(index=number, type=_slot_type(slot['name']))}"
                    ' isHit="true" isDestroyed="true"/>'
                )
        for item in bins:  # the n-th bin of a name is the n-th slot of that name
            number = next(
                (n for n, s in enumerate(slots, start=1) if s["name"] == item["name"] and n not in used), None
            )
            if number is None or slots[number - 1]["hit"]:
                continue
            used.add(number)
            lines.append(f"      <slot{_attrs(index=number, type=item['name'], shots=item['shots'])}/>")
        if lines:
            out.append(f'    <location index="{index}"> {name}')
            out += lines
            out.append("    </location>")
    return out


def _facing_locations(doc: dict) -> list[str]:
    faces = {f["name"]: f for f in doc.get("facings", [])}
    out = []
    groups = DROPSHIP_ARCS if doc["unit_type"] == "dropship" else tuple((n,) for n in CAPITAL)
    for index, group in enumerate(groups):
        here = [faces[n] for n in group if n in faces]
        if not here:
            continue
        armor, top = min(f["armor"] for f in here), min(f["armor_max"] for f in here)
        if armor != top:
            out.append(f'    <location index="{index}"> {" and ".join(f["name"] for f in here)}')
            out.append(f'      <armor points="{armor}"/>')
            out.append("    </location>")
    return out


def _trooper_locations(doc: dict) -> list[str]:
    out = []
    if doc.get("troopers"):
        for number, trooper in enumerate(doc["troopers"], start=1):
            if not trooper["alive"]:
                out.append(f'    <location index="{number}" isDestroyed="true" /> Trooper {number}')
            elif trooper["armor"] != trooper["armor_max"]:
                out.append(f'    <location index="{number}"> Trooper {number}')
                out.append(f'      <armor points="{trooper["armor"]}"/>')
                out.append("    </location>")
    elif "platoon" in doc and doc["platoon"]["troopers"] != doc["platoon"]["troopers_max"]:
        out.append('    <location index="0"> Infantry')
        out.append(f'      <armor points="{doc["platoon"]["troopers"]}" type="Internal"/>')
        out.append("    </location>")
    return out


def _entity(unit: Outgoing) -> list[str]:
    doc = unit.doc
    kind = doc["unit_type"]
    chassis = doc.get("chassis") or unit.name
    move = doc.get("config", "Biped") if kind == "mech" else doc.get("motion") or MOVEMENT_TYPE[kind]
    head = _attrs(
        chassis=chassis,
        model=doc.get("model", ""),
        type=move,
        commander="false",
        offboard="false",
        hidden="false",
        deployment=0,
        neverDeployed="true",
        externalId=unit.external_id,
    )
    pilot = doc.get("pilot") or {}
    hits = pilot.get("hits", 0)
    crew = _attrs(  # no size: MegaMek keeps the crew size of the unit as built
        name=pilot.get("name") or unit.crew_name or "Unnamed",
        nick="",
        gunnery=pilot.get("gunnery", unit.gunnery),
        piloting=pilot.get("piloting", unit.piloting),
        hits=("Dead" if hits >= DEAD else hits) if hits else None,
        ejected="false",
    )
    lines = [f"  <entity{head}>", f"    <pilot{crew}/>"]
    if "fuel" in doc and "points" in doc["fuel"] and kind in ("aerospace_fighter", "small_craft", "dropship"):
        lines.append(f'    <fuel left="{doc["fuel"]["points"]}"/>')
    if "structural_integrity" in doc:
        lines.append(f'    <structural integrity="{doc["structural_integrity"]["value"]}"/>')
    if "kf_drive" in doc and kind in ("jumpship", "warship", "space_station"):
        lines.append(f'    <KF integrity="{doc["kf_drive"]["integrity"]}"/>')
    if kind in ("mech", "vehicle", "aerospace_fighter", "small_craft"):
        lines += _mech_or_vehicle_locations(doc, location_names(doc))
    elif kind in ("dropship", "jumpship", "warship", "space_station"):
        lines += _facing_locations(doc)
    else:
        lines += _trooper_locations(doc)
    lines.append("  </entity>")
    return lines


def write_mul(units: list[Outgoing]) -> tuple[str, list[str]]:
    """The unit list MegaMek's lobby loads, and its notes (also written at its top, as a
    comment MegaMek's reader passes over): the units MegaMek may not find by name."""
    notes = [
        f"MegaMek may not find {u.name} by name ({u.doc.get('chassis') or u.name} "
        f"{u.doc.get('model', '')}".rstrip()
        + "): its sheet was made here, not read from a MegaMek unit file. Unless MegaMek has a unit "
        "of that chassis and model, add its unit file to MegaMek first (the record's Unit file)."
        for u in units
        if not known_to_megamek(u.doc)
    ]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', ""]
    if notes:
        out.append("<!-- Notes from the referee:")
        out += [f"     {n.replace('--', '-')}" for n in notes]
        out.append("-->")
    out.append(f'<unit version="{MUL_VERSION}" >')
    out.append("")
    for unit in units:
        out += _entity(unit)
        out.append("")
    out.append("</unit>")
    return "\n".join(out) + "\n", notes


# -- Reading --------------------------------------------------------------------------------


@dataclass(slots=True)
class SlotState:
    hit: bool = False
    destroyed: bool = False
    shots: int | None = None
    type: str = ""


@dataclass(slots=True)
class LocationState:
    destroyed: bool = False
    armor: int | None = None  # None: as built
    internal: int | None = None
    rear: int | None = None
    blown_off: bool = False
    slots: dict[int, SlotState] = field(default_factory=dict)


@dataclass(slots=True)
class CrewState:
    name: str = ""
    gunnery: int | None = None
    piloting: int | None = None
    hits: int = 0  # 6 when MegaMek wrote "Dead"


@dataclass(slots=True)
class Incoming:
    """One entity as MegaMek wrote it."""

    line: int
    section: str
    chassis: str
    model: str
    external_id: str
    movement: str = ""  # MegaMek's movement mode: Biped, Quad, Tracked, Hover, Aerodyne...
    crew: list[CrewState] = field(default_factory=list)
    locations: dict[int, LocationState] = field(default_factory=dict)
    structural_integrity: int | None = None
    kf_integrity: int | None = None
    fuel: int | None = None

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.chassis, self.model) if p)

    @property
    def record_code(self) -> uuid.UUID | None:
        try:
            return uuid.UUID(self.external_id)
        except ValueError:
            return None


class _LinedBuilder(TreeBuilder):
    """Builds the tree, remembering each element's line and refusing too much or too deep."""

    def __init__(self) -> None:
        super().__init__()
        self.parser = None
        self.lines: dict[int, int] = {}
        self.depth = 0
        self.count = 0
        self.entities = 0

    def start(self, tag, attrs):
        self.depth += 1
        self.count += 1
        line = self.parser.parser.CurrentLineNumber if self.parser else None
        if self.depth > MAX_DEPTH:
            raise MulError(
                f"the file nests elements more than {MAX_DEPTH} deep; a unit list never does.", line
            )
        if self.count > MAX_ELEMENTS:
            raise MulError(f"the file holds more than {MAX_ELEMENTS:,} elements.", line)
        if tag == "entity":
            self.entities += 1
            if self.entities > MAX_ENTITIES:
                raise MulError(f"the file holds more than {MAX_ENTITIES} entities; split the battle.", line)
        element = super().start(tag, attrs)
        self.lines[id(element)] = line or 0
        return element

    def end(self, tag):
        self.depth -= 1
        return super().end(tag)


_PLAIN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _int(
    element: Element, attr: str, where: str, line: int, *, low: int, high: int, special=None
) -> int | None:
    raw = (element.get(attr) or "").strip()
    if raw == "":
        return None
    if special and raw in special:
        return special[raw]
    if not re.fullmatch(r"-?\d{1,7}", raw):
        raise MulError(f"{where}: {attr} is “{raw[:20]}”, not a whole number.", line)
    value = int(raw)
    if not low <= value <= high:
        raise MulError(f"{where}: {attr} is {value}; it runs from {low} to {high}.", line)
    return value


def _text(value: str | None, limit: int = 200) -> str:
    return _PLAIN.sub("", value or "").strip()[:limit]


def parse_mul(data: bytes | str) -> list[Incoming]:
    """Every entity of a unit list or battle record, or ``MulError`` naming the line and problem."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_MUL_BYTES:
        raise MulError(too_large(MAX_MUL_BYTES, WHAT))
    if b"\x00" in raw:
        raise MulError("The file holds NUL bytes: it is not a MegaMek unit list.")
    builder = _LinedBuilder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(raw)
        root = parser.close()
    except DefusedXmlException:
        line = parser.parser.CurrentLineNumber
        raise MulError(
            "the file declares a DTD or XML entities; a MegaMek unit list has none, and they are refused.",
            line,
        ) from None
    except ParseError as error:
        line, _col = error.position
        message = str(error).split(":")[0]
        raise MulError(f"this is not well-formed XML ({message}).", line) from None
    lines = builder.lines
    if root.tag not in ("unit", "record"):
        raise MulError(
            f"the file starts with <{_text(root.tag, 40)}>; a MegaMek unit list starts with <unit> or <record>.",
            lines.get(id(root)),
        )
    found: list[Incoming] = []
    for child in root:
        if child.tag == "entity":
            found.append(_entity_from(child, "unit", lines))
        elif root.tag == "record" and child.tag in SECTIONS:
            found += [_entity_from(e, child.tag, lines) for e in child if e.tag == "entity"]
    if not found:
        raise MulError("The file lists no entity: MegaMek saved no unit in it.")
    return found


def _entity_from(element: Element, section: str, lines: dict[int, int]) -> Incoming:
    line = lines.get(id(element), 0)
    chassis, model = _text(element.get("chassis"), 120), _text(element.get("model"), 120)
    if not chassis:
        raise MulError("an entity has no chassis, so MegaMek could not have loaded it.", line)
    entity = Incoming(
        line, section, chassis, model, _text(element.get("externalId"), 60), _text(element.get("type"), 40)
    )
    where = f"the {entity.name}"
    for child in element:
        at = lines.get(id(child), line)
        if child.tag == "pilot":
            entity.crew.append(_crew(child, where, at))
        elif child.tag == "crew":
            for member in child:
                if member.tag == "crewMember":
                    entity.crew.append(_crew(member, where, lines.get(id(member), at)))
        elif child.tag == "location":
            index = _int(child, "index", f"{where}'s location", at, low=0, high=40)
            if index is None:
                raise MulError(f"{where} has a location without an index.", at)
            entity.locations[index] = _location(child, f"{where}'s location {index}", at, lines)
        elif child.tag == "structural":
            entity.structural_integrity = _int(
                child, "integrity", f"{where}'s structural integrity", at, low=0, high=10_000
            )
        elif child.tag == "KF":
            entity.kf_integrity = _int(child, "integrity", f"{where}'s K-F integrity", at, low=0, high=100)
        elif child.tag == "fuel":
            entity.fuel = _int(child, "left", f"{where}'s fuel", at, low=0, high=10_000_000)
    return entity


def _crew(element: Element, where: str, line: int) -> CrewState:
    who = f"{where}'s crew"
    return CrewState(
        name=_text(element.get("name"), 80),
        gunnery=_int(element, "gunnery", who, line, low=0, high=8),
        piloting=_int(element, "piloting", who, line, low=0, high=8),
        hits=_int(element, "hits", who, line, low=0, high=5, special={"Dead": DEAD}) or 0,
    )


def _location(element: Element, where: str, line: int, lines: dict[int, int]) -> LocationState:
    state = LocationState(destroyed=(element.get("isDestroyed") or "").lower() == "true")
    for child in element:
        at = lines.get(id(child), line)
        if child.tag == "armor":
            points = _int(
                child, "points", where, at, low=0, high=100_000, special={"N/A": None, "Destroyed": 0}
            )
            kind = child.get("type") or "Front"
            if kind == "Internal":
                state.internal = points
            elif kind == "Rear":
                state.rear = points
            elif kind == "Front":
                state.armor = points
            else:
                raise MulError(
                    f"{where}: armour of type “{_text(kind, 20)}”, which MegaMek does not write.", at
                )
        elif child.tag == "slot":
            raw = (child.get("index") or "").strip()
            if raw == "N/A":
                continue
            number = _int(child, "index", f"{where}'s slot", at, low=1, high=100)
            if number is None:
                raise MulError(f"{where} has a slot without an index.", at)
            state.slots[number] = SlotState(
                hit=(child.get("isHit") or "").lower() == "true",
                destroyed=(child.get("isDestroyed") or "").lower() == "true",
                shots=_int(child, "shots", f"{where}'s slot {number}", at, low=0, high=200),
                type=_text(child.get("type"), 80),
            )
        elif child.tag == "blownOff":
            state.blown_off = True
    return state


# -- A battle's result on a sheet -----------------------------------------------------------


def apply_to_sheet(doc: dict, entity: Incoming) -> dict:
    """The sheet as the entity left the battle. MegaMek writes the whole state against the
    unit as built (a location it leaves out is whole), so the sheet's maximums are the start."""
    doc = copy.deepcopy(doc)
    kind = doc["unit_type"]
    if kind in ("mech", "vehicle", "aerospace_fighter", "small_craft"):
        _apply_locations(doc, entity)
    elif kind in ("dropship", "jumpship", "warship", "space_station"):
        _apply_facings(doc, entity)
    else:
        _apply_troopers(doc, entity)
    if entity.structural_integrity is not None and "structural_integrity" in doc:
        si = doc["structural_integrity"]
        si["value"] = min(si["max"], entity.structural_integrity)
    if entity.kf_integrity is not None and "kf_drive" in doc:
        kf = doc["kf_drive"]
        kf["integrity"] = min(kf["integrity_max"], entity.kf_integrity)
    if entity.fuel is not None and "points" in doc.get("fuel", {}):
        doc["fuel"]["points"] = entity.fuel
    if entity.crew and "pilot" in doc:
        doc["pilot"]["hits"] = entity.crew[0].hits
    if unit_destroyed(doc, entity):
        doc["destroyed"] = True
    return doc


def _apply_locations(doc: dict, entity: Incoming) -> None:
    names = location_names(doc)
    ammo_left: dict[tuple[str, int], int] = {}
    for index, state in entity.locations.items():
        if index >= len(names):
            if doc["unit_type"] == "vehicle" and index < len(VTOL):
                continue  # a turret or rotor the sheet does not carry
            raise MulError(
                f"the {entity.name} has no location number {index}: a {doc.get('config', '')} "
                f"{doc['unit_type'].replace('_', ' ')} has {len(names)}.".replace("  ", " "),
                entity.line,
            )
        if names[index] == "Body":
            continue  # a vehicle's body: the sheet keeps no such location
        for number, slot in state.slots.items():
            if slot.shots is not None:
                ammo_left[(names[index], number)] = slot.shots
    for loc in doc.get("locations", []):
        index = names.index(loc["name"]) if loc["name"] in names else None
        state = entity.locations.get(index, LocationState()) if index is not None else LocationState()
        if state.destroyed:
            for key in ("armor", "rear_armor", "structure"):
                if key in loc:
                    loc[key] = 0
            loc["destroyed"] = True
        else:
            loc["armor"] = loc["armor_max"] if state.armor is None else min(loc["armor_max"], state.armor)
            if "structure" in loc:
                loc["structure"] = (
                    loc["structure_max"]
                    if state.internal is None
                    else min(loc["structure_max"], state.internal)
                )
            if "rear_armor" in loc:
                loc["rear_armor"] = (
                    loc["rear_armor_max"] if state.rear is None else min(loc["rear_armor_max"], state.rear)
                )
            loc.pop("destroyed", None)
        slots = doc.get("criticals", {}).get(loc["name"], [])
        for number, slot in enumerate(slots, start=1):
            mark = state.slots.get(number)
            slot["hit"] = bool(mark and (mark.hit or mark.destroyed)) and slot["name"] is not None
    counts: dict[tuple[str, str], int] = {}
    for item in doc.get(
        "equipment", []
    ):  # MegaMek writes every bin's shots: a sheet without them learns them
        place = item.get("location", "")
        nth = counts.get((place, item["name"]), 0)
        counts[(place, item["name"])] = nth + 1
        slots = doc.get("criticals", {}).get(place, [])
        numbers = [n for n, s in enumerate(slots, start=1) if s["name"] == item["name"]]
        if nth < len(numbers) and (place, numbers[nth]) in ammo_left:
            item["shots"] = ammo_left[(place, numbers[nth])]


def _apply_facings(doc: dict, entity: Incoming) -> None:
    """Each of MegaMek's sides on the sheet's facings. A DropShip's side covers two facings and
    was written as the lower of them: what it lost (or regained) lands on both."""
    faces = {f["name"]: f for f in doc.get("facings", [])}
    groups = DROPSHIP_ARCS if doc["unit_type"] == "dropship" else tuple((n,) for n in CAPITAL)
    for index, group in enumerate(groups):
        here = [faces[n] for n in group if n in faces]
        if not here:
            continue
        state = entity.locations.get(index)
        if state is None or state.armor is None:
            for face in here:
                face["armor"] = face["armor_max"]
            continue
        lost = min(f["armor"] for f in here) - state.armor
        for face in here:
            face["armor"] = max(0, min(face["armor_max"], face["armor"] - lost))


def _apply_troopers(doc: dict, entity: Incoming) -> None:
    if doc.get("troopers"):
        for number, trooper in enumerate(doc["troopers"], start=1):
            state = entity.locations.get(number)
            if state is not None and state.destroyed:
                trooper.update(alive=False, armor=0)
            elif state is not None and state.armor is not None:
                trooper.update(alive=True, armor=min(trooper["armor_max"], state.armor))
            else:
                trooper.update(alive=True, armor=trooper["armor_max"])
    elif "platoon" in doc:
        state = entity.locations.get(0)
        platoon = doc["platoon"]
        platoon["troopers"] = (
            platoon["troopers_max"]
            if state is None or state.internal is None
            else min(platoon["troopers_max"], state.internal)
        )


# MegaMek's movement modes that say what kind of unit an entity is.
MECH_MODES = {"biped", "quad", "tripod"}
VEHICLE_MODES = {"tracked", "wheeled", "hover", "naval", "hydrofoil", "submarine", "wige", "rail", "maglev"}
CRAFT_MODES = {"aerodyne", "spheroid"}


def kind_clash(doc: dict, entity: Incoming) -> str | None:
    """Why the entity cannot be the sheet's unit, when MegaMek's movement mode says it is
    another kind (a 'Mech matched to a tank); None when it may be."""
    mode, kind = entity.movement.lower(), doc["unit_type"]
    if mode in MECH_MODES and kind != "mech":
        return "a 'Mech"
    if mode in VEHICLE_MODES and kind in ("mech", "aerospace_fighter", "small_craft", *CAPITAL_TYPES):
        return "a vehicle"
    if mode in CRAFT_MODES and kind in ("mech", "vehicle", "battle_armor", "infantry"):
        return "an aerospace craft"
    return None


CAPITAL_TYPES = ("dropship", "jumpship", "warship", "space_station")


def unit_destroyed(doc: dict, entity: Incoming) -> bool:
    """Whether the battle destroyed the unit, as the rules read its sheet: MegaMek's
    devastated units, a 'Mech without head or centre torso, a vehicle that lost a location,
    a craft without structural integrity, battle armour or infantry without a trooper."""
    if entity.section == "devastated":
        return True
    gone = {loc["name"] for loc in doc.get("locations", []) if loc.get("destroyed")}
    kind = doc["unit_type"]
    if kind == "mech":
        return bool(gone & {"Head", "Center Torso"})
    if kind == "vehicle":
        return bool(gone)
    if "structural_integrity" in doc and kind != "vehicle":
        return doc["structural_integrity"]["value"] == 0 and doc["structural_integrity"]["max"] > 0
    if doc.get("troopers"):
        return not any(t["alive"] for t in doc["troopers"])
    if "platoon" in doc:
        return doc["platoon"]["troopers"] == 0
    return False
