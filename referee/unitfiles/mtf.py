"""'Mech files (.mtf): MegaMek's ``key:value`` lines, a ``Weapons:N`` list and one critical block per location.

Read into the record-sheet document (see the sheets' document contract) and written back, so that
export → import gives the same sheet. Lines the sheet has no place for are kept, in order, in
``source.extra.entries`` and written back with the rest.
"""

from __future__ import annotations

import re
from typing import Any

from . import tables as t
from .errors import UnitFileError
from .text import parse_int, shown

MAX_WEAPONS = 200

# Keys the reader turns into sheet values; everything else with a colon is kept as it is.
_KNOWN = {
    "version",
    "chassis",
    "model",
    "config",
    "techbase",
    "era",
    "rules level",
    "mass",
    "engine",
    "structure",
    "heat sinks",
    "walk mp",
    "jump mp",
    "armor",
}
_HEADERS = {name.lower(): name for name in t.ALL_MECH_LOCATIONS}
_ARMOR_KEYS = {f"{code.lower()} armor": code for code in (*t.MTF_ARMOR_CODES, *t.MTF_REAR_CODES)}
_CONFIGS = {"biped": "Biped", "quad": "Quad", "tripod": "Tripod", "lam": "LAM", "quadvee": "QuadVee"}


def _is_key_line(stripped: str) -> bool:
    key, sep, _value = stripped.partition(":")
    k = key.strip().lower()
    return bool(sep) and (k in _KNOWN or k in _HEADERS or k in _ARMOR_KEYS or k == "weapons")


def read_mtf(lines: list[str], warnings: list[str] | None = None) -> dict[str, Any]:
    """A 'Mech file's sheet. A line that cannot be read but leaves the 'Mech whole is told in
    ``warnings`` (when given) instead of refusing the file."""
    warnings = [] if warnings is None else warnings
    values: dict[str, tuple[str, int]] = {}
    armor: dict[str, tuple[str, int]] = {}
    crits: dict[str, tuple[list[str], int]] = {}
    weapons: list[tuple[str, int]] = []
    extra: list[list[str]] = []
    bare: list[tuple[str, int]] = []
    i, n = 0, len(lines)
    while i < n:
        number, stripped = i + 1, lines[i].strip()
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition(":")
        k, value = key.strip().lower(), value.strip()
        if sep and k in _HEADERS and not value:
            location = _HEADERS[k]
            slots: list[str] = []
            while i < n and lines[i].strip() and not _is_key_line(lines[i].strip()):
                if len(slots) == 12 and lines[i].strip().lower() != "-empty-":
                    warnings.append(
                        f"Line {i + 1}: {location} lists more than 12 critical slots; the rest are left out."
                    )
                if len(slots) < 12:
                    slots.append(lines[i].strip())
                i += 1
            if location in crits:
                warnings.append(
                    f"Line {number}: {location} has a second list of critical slots; the first is kept."
                )
            else:
                crits[location] = (slots, number)
        elif sep and k == "weapons":
            count = parse_int(value, what="The number of weapons", low=0, high=MAX_WEAPONS, line=number)
            while len(weapons) < count:
                if i >= n:
                    raise UnitFileError(
                        f"the weapons list announced {count} weapons but the file ends after {len(weapons)}.",
                        line=number,
                    )
                line = lines[i].strip()
                i += 1
                if not line:
                    continue
                if "," not in line or _is_key_line(line):
                    warnings.append(
                        f"Line {number}: the weapons list announced {count} weapons but gives {len(weapons)}."
                    )
                    i -= 1
                    break
                weapons.append((line, i))
        elif sep and k in _ARMOR_KEYS:
            code = _ARMOR_KEYS[k]
            if code in armor:
                warnings.append(f"Line {number}: the {key.strip()} line comes twice; the first is kept.")
            else:
                armor[code] = (value, number)
        elif sep and k in _KNOWN:
            if k in values:
                warnings.append(f"Line {number}: the “{key.strip()}:” line comes twice; the first is kept.")
            else:
                values[k] = (value, number)
        elif sep and k and len(k) <= 60:
            extra.append([key.strip(), value])
        else:
            bare.append((stripped, number))
    return _build(values, armor, crits, weapons, extra, bare, warnings)


def _required(values: dict[str, tuple[str, int]], key: str, what: str) -> tuple[str, int]:
    if key not in values:
        raise UnitFileError(f"The file has no “{key}:” line ({what}).")
    return values[key]


def _build(values, armor, crits, weapon_lines, extra, bare, warnings) -> dict[str, Any]:
    # Old files give the chassis and model as the two bare lines after "Version:".
    if "chassis" not in values and bare:
        values["chassis"] = bare.pop(0)
        if "model" not in values and bare:
            values["model"] = bare.pop(0)
    for text, number in bare:
        warnings.append(
            f"Line {number}: “{shown(text)}” is neither a “key:value” line, a weapon nor a critical slot; "
            "it is left out."
        )
    chassis, _ = _required(values, "chassis", "the 'Mech's name")
    if not chassis:
        raise UnitFileError("The chassis (the 'Mech's name) is empty.", line=values["chassis"][1])
    model = values.get("model", ("", 0))[0]

    config_text, config_line = _required(values, "config", "Biped, Quad, Tripod or LAM")
    words = config_text.lower().split()
    if not words or words[0] not in _CONFIGS:
        raise UnitFileError(
            f"the configuration “{shown(config_text)}” is not one this reader knows (Biped, Quad, Tripod, LAM, QuadVee).",
            line=config_line,
        )
    config = _CONFIGS[words[0]]
    written_config = config
    if config == "QuadVee":  # a quad on the sheet; the file's own word is kept for the way back
        config = "Quad"
    omni = "omnimech" in config_text.lower().replace(" ", "") or "omnimek" in config_text.lower()

    mass_text, mass_line = _required(values, "mass", "the tonnage")
    tonnage = parse_int(mass_text, what="The mass", low=1, high=1000, line=mass_line)
    if tonnage > 100:
        raise UnitFileError(
            f"superheavy 'Mechs (over 100 tons; this one is {tonnage}) are not supported yet: the record sheet's "
            "internal structure table stops at 100 tons."
        )
    if tonnage not in t.MECH_STRUCTURE:
        raise UnitFileError(
            f"the mass is {tonnage} t; a 'Mech weighs 10 to 100 t in steps of 5.", line=mass_line
        )

    doc: dict[str, Any] = {
        "format": 1,
        "unit_type": "mech",
        "chassis": chassis,
        "model": model,
        "tonnage": tonnage,
        "config": config,
    }
    if "techbase" in values:
        text, number = values["techbase"]
        base = t.tech_base_of(text)
        if base is None:
            raise UnitFileError(
                f"the tech base “{shown(text)}” should be Inner Sphere, Clan or Mixed.", line=number
            )
        doc["tech_base"] = base
        if base == "Mixed" and "clan" in text.lower():
            doc["_mixed_chassis"] = "Clan"
    if "era" in values:
        doc["year"] = parse_int(values["era"][0], what="The year", low=1, high=9999, line=values["era"][1])
    if "rules level" in values:
        text, number = values["rules level"]
        doc["rules_level"] = parse_int(text, what="The rules level", low=0, high=9, line=number)

    doc["engine"] = _engine(*_required(values, "engine", "rating and type"))
    doc["movement"] = {}
    walk_text, walk_line = _required(values, "walk mp", "walking MP")
    walk = parse_int(walk_text, what="Walking MP", low=0, high=30, line=walk_line)
    jump = 0
    if "jump mp" in values:
        jump = parse_int(values["jump mp"][0], what="Jumping MP", low=0, high=30, line=values["jump mp"][1])
    doc["movement"] = {"walk": walk, "run": t.run_mp(walk), "jump": jump}
    if "heat sinks" in values:
        doc["heat_sinks"] = _heat_sinks(*values["heat sinks"])
    doc["heat"] = 0
    if "armor" in values and values["armor"][0]:
        doc["armor_type"] = values["armor"][0]
    if "structure" in values and values["structure"][0]:
        doc["structure_type"] = values["structure"][0]

    doc["locations"] = _locations(config, tonnage, armor, warnings)
    doc["criticals"] = _criticals(config, crits, warnings)
    doc["weapons"] = []
    for line, number in weapon_lines:
        weapon = _weapon(line, number, config, warnings)
        if weapon:
            doc["weapons"].append(weapon)
    _rear_from_criticals(doc)
    doc["equipment"] = [
        {"name": slot["name"], "location": location}
        for location in t.MECH_LOCATIONS[config]
        for slot in doc["criticals"][location]
        if slot["name"] and "ammo" in slot["name"].lower()
    ]
    # The weapons list also names gear with a location (a lift hoist, medical gear): not weapons.
    gear = [w for w in doc["weapons"] if not t.is_weapon(w["name"])]
    doc["weapons"] = [w for w in doc["weapons"] if t.is_weapon(w["name"])]
    doc["equipment"] += [
        {"name": g["name"], "location": g["location"], **({"count": g["count"]} if g["count"] != 1 else {}),
         **({"rear": True} if g["rear"] else {})}
        for g in gear
    ]  # fmt: skip
    doc["pilot"] = {"name": "", "gunnery": 4, "piloting": 5, "hits": 0}
    source_extra: dict[str, Any] = {"entries": extra}
    if doc.pop("_mixed_chassis", None):
        source_extra["mixed_chassis"] = "Clan"
    if omni:
        source_extra["omni"] = True
    if written_config != config:
        source_extra["config"] = written_config
    doc["source"] = {"format": "mtf", "extra": source_extra}
    return doc


# Engine words in the order they are looked for (XXL before XL); a primitive or large
# fusion engine is a fusion engine.
_ENGINE_WORDS = (
    ("xxl", "XXL"),
    ("xl", "XL"),
    ("light", "Light"),
    ("compact", "Compact"),
    ("i.c.e.", "ICE"),
    ("ice", "ICE"),
    ("fuel cell", "Fuel Cell"),
    ("fission", "Fission"),
    ("fusion", "Fusion"),
    ("primitive", "Fusion"),
    ("large", "Fusion"),
)


def _engine(text: str, line: int) -> dict[str, Any]:
    """``300 XL Engine(IS)``, ``250 Light Fusion Engine``, ``160 ICE Engine``, ``500 Large XL Engine``."""
    parts = text.split(None, 1)
    if not parts:
        raise UnitFileError("the engine line is empty; it should read like “300 XL Engine”.", line=line)
    rating = parse_int(parts[0], what="The engine rating", low=0, high=1000, line=line)
    rest = parts[1] if len(parts) > 1 else ""
    low = rest.lower().replace("(is)", " ").replace("(clan)", " ").replace("engine", " ").replace("-", " ")
    padded = f" {' '.join(low.split())} "
    for word, kind in _ENGINE_WORDS:
        if f" {word} " in padded:
            return {"rating": rating, "type": kind}
    if not padded.strip():
        return {"rating": rating, "type": "Fusion"}
    raise UnitFileError(
        f"the engine type “{shown(rest)}” is not one this reader knows (Fusion, XL, XXL, Light, Compact, ICE, "
        "Fuel Cell, Fission).",
        line=line,
    )


def _heat_sinks(text: str, line: int) -> dict[str, Any]:
    """``20 Single``, ``10 Double``, ``12 IS Double``, ``15 Clan Double``, ``10 Laser``, ``10``."""
    parts = text.split(None, 1)
    if not parts:
        raise UnitFileError("the heat sinks line is empty; it should read like “10 Single”.", line=line)
    count = parse_int(parts[0], what="The number of heat sinks", low=0, high=100, line=line)
    kind = parts[1].lower() if len(parts) > 1 else "single"
    return {"count": count, "type": "double" if ("double" in kind or "laser" in kind) else "single"}


def _locations(
    config: str, tonnage: int, armor: dict[str, tuple[str, int]], warnings: list[str]
) -> list[dict]:
    allowed = {t.MTF_CODE_OF[loc] for loc in t.MECH_LOCATIONS[config]} | set(t.MTF_REAR_CODES)
    for code, (_value, number) in armor.items():
        if code not in allowed:
            warnings.append(
                f"Line {number}: a {config} 'Mech has no location “{code}”; the line is left out."
            )
    out = []
    for location in t.MECH_LOCATIONS[config]:
        code = t.MTF_CODE_OF[location]
        if code not in armor:
            raise UnitFileError(f"The file has no “{code} armor:” line ({location} armour).")
        most = t.mech_armor_max(tonnage, location)
        front = _armor_value(*armor[code], what=f"{location} armour")
        entry: dict[str, Any] = {"name": location, "armor": front, "armor_max": front}
        if location in t.REAR_LOCATIONS:
            rear_code = t.MTF_REAR_CODE_OF[location]
            rear = (
                _armor_value(*armor[rear_code], what=f"{location} rear armour") if rear_code in armor else 0
            )
            if rear_code not in armor:
                warnings.append(f"The file has no “{rear_code} armor:” line; {location} has no rear armour.")
            entry["rear_armor"] = rear
            entry["rear_armor_max"] = rear
            front += rear
        if front > most:
            warnings.append(
                f"{location} carries {front} armour; a {tonnage}-ton 'Mech's {location.lower()} holds at most "
                f"{most}. The file's figure is kept."
            )
        structure = t.mech_structure(tonnage, location)
        entry["structure"] = structure
        entry["structure_max"] = structure
        out.append(entry)
    return out


def _armor_value(text: str, line: int, *, what: str) -> int:
    # Patchwork armour writes "Type:value"; the value is what counts here.
    value = text.rsplit(":", 1)[-1]
    return parse_int(value, what=what, low=0, high=10**4, line=line)


def _criticals(
    config: str, crits: dict[str, tuple[list[str], int]], warnings: list[str]
) -> dict[str, list[dict]]:
    out = {}
    for location, (_slots, number) in crits.items():
        if location not in t.MECH_LOCATIONS[config]:
            warnings.append(
                f"Line {number}: a {config} 'Mech has no {location}; its critical slots are left out."
            )
    for location in t.MECH_LOCATIONS[config]:
        size = t.mech_slots(config, location)
        if location not in crits:
            warnings.append(f"The file has no “{location}:” list of critical slots; they are left empty.")
            out[location] = [{"name": None, "hit": False} for _ in range(size)]
            continue
        slots, number = crits[location]
        for index, name in enumerate(slots[size:], start=size):
            if name.lower() != "-empty-":
                warnings.append(
                    f"Line {number + 1 + index}: {location} has {size} critical slots, but slot {index + 1} holds "
                    f"“{shown(name)}”; it is left out."
                )
        names = [None if s.lower() == "-empty-" else s for s in slots[:size]]
        names += [None] * (size - len(names))
        out[location] = [{"name": name, "hit": False} for name in names]
    return out


_REAR_MARK = re.compile(r"\s*\(\s*R\s*\)\s*$", re.IGNORECASE)
_MOUNT_MARK = re.compile(r"\s*\((?:T|OMNIPOD|OMNI)\)\s*$", re.IGNORECASE)
_QUANTITY = re.compile(r"^(\d{1,3})x?\s+(.+)$", re.IGNORECASE)


def _weapon(line: str, number: int, config: str, warnings: list[str]) -> dict[str, Any] | None:
    """``[N ]Name[ (R)], Location[ (R)][, Ammo:N]``: N weapons of a kind, rear-mounted when
    either the name or the location carries ``(R)``."""
    name, _, rest = line.partition(",")
    location = rest.split(",")[0].strip()
    name = name.strip()
    rear = False
    if _REAR_MARK.search(location):
        rear, location = True, _REAR_MARK.sub("", location)
    location = _MOUNT_MARK.sub("", location).strip()
    known = {loc.lower(): loc for loc in t.MECH_LOCATIONS[config]}
    if location.lower() not in known:
        warnings.append(
            f"Line {number}: the weapon “{shown(name)}” is mounted in “{shown(location)}”, which a {config} 'Mech "
            "does not have; it is left out."
        )
        return None
    if _REAR_MARK.search(name):
        rear, name = True, _REAR_MARK.sub("", name)
    name = _MOUNT_MARK.sub("", name).strip()
    count = 1
    quantity = _QUANTITY.match(name)
    if quantity and not name[: quantity.end(1)].startswith("0"):
        count, name = int(quantity.group(1)), quantity.group(2).strip()
    if not name:
        warnings.append(
            f"Line {number}: a weapon line has no weapon name before its location; it is left out."
        )
        return None
    return {
        "name": name,
        "location": known[location.lower()],
        "rear": rear,
        "destroyed": False,
        "bay": None,
        "count": count,
    }


def _rear_from_criticals(doc: dict[str, Any]) -> None:
    """Older files mark a rear-mounted weapon only in its critical slots (``Medium Laser (R)``):
    a weapon listed facing forward whose location holds it only marked ``(R)`` faces rear."""
    for weapon in doc["weapons"]:
        if weapon["rear"]:
            continue
        slots = [s["name"] or "" for s in doc["criticals"].get(weapon["location"], [])]
        rear = [s for s in slots if _REAR_MARK.search(s) and _REAR_MARK.sub("", s).strip() == weapon["name"]]
        front = [s for s in slots if s.strip() == weapon["name"]]
        if rear and not front:
            weapon["rear"] = True


def write_mtf(doc: dict[str, Any]) -> str:
    config = doc.get("config") or "Biped"
    extra = (doc.get("source") or {}).get("extra") or {}
    written_config = extra.get("config") if extra.get("config") == "QuadVee" and config == "Quad" else config
    out = ["Version:1.3", f"chassis:{_line(doc.get('chassis', ''))}", f"model:{_line(doc.get('model', ''))}"]
    out.append(f"Config:{written_config}{' Omnimech' if extra.get('omni') else ''}")
    if doc.get("tech_base"):
        base = doc["tech_base"]
        if base == "Mixed":  # MegaMek refuses a bare "Mixed": it names the chassis's tech base
            base = "Mixed (Clan Chassis)" if extra.get("mixed_chassis") == "Clan" else "Mixed (IS Chassis)"
        out.append(f"techbase:{base}")
    if doc.get("year") is not None:
        out.append(f"era:{doc['year']}")
    if doc.get("rules_level") is not None:
        out.append(f"rules level:{doc['rules_level']}")
    for key, value in extra.get("entries", []):
        out.append(f"{_line(key)}:{_line(value)}")
    out.append("")
    out.append(f"mass:{doc['tonnage']}")
    engine = doc.get("engine") or {}
    out.append(f"engine:{engine.get('rating', 0)} {engine.get('type', 'Fusion')} Engine")
    if doc.get("structure_type"):
        out.append(f"structure:{_line(doc['structure_type'])}")
    sinks = doc.get("heat_sinks")
    if sinks:
        out.append(f"heat sinks:{sinks['count']} {'Double' if sinks.get('type') == 'double' else 'Single'}")
    movement = doc.get("movement") or {}
    out.append(f"walk mp:{movement.get('walk', 0)}")
    out.append(f"jump mp:{movement.get('jump', 0)}")
    out.append("")
    if doc.get("armor_type"):
        out.append(f"armor:{_line(doc['armor_type'])}")
    by_name = {loc["name"]: loc for loc in doc.get("locations", [])}
    for location in t.MTF_ARMOR_ORDER[config]:
        loc = by_name.get(location, {})
        out.append(f"{t.MTF_CODE_OF[location]} armor:{loc.get('armor_max', loc.get('armor', 0))}")
    for location in (t.LT, t.RT, t.CT):
        loc = by_name.get(location, {})
        out.append(
            f"{t.MTF_REAR_CODE_OF[location]} armor:{loc.get('rear_armor_max', loc.get('rear_armor', 0))}"
        )
    out.append("")
    gear = [e for e in doc.get("equipment", []) if e.get("location") and "ammo" not in e["name"].lower()]
    weapons = [*doc.get("weapons", []), *gear]  # gear with a place is listed with the weapons
    out.append(f"Weapons:{len(weapons)}")
    for weapon in weapons:
        where = f"{weapon['location']} (R)" if weapon.get("rear") else weapon["location"]
        out.append(f"{weapon.get('count', 1)} {_line(weapon['name']).replace(',', ' ')}, {where}")
    criticals = doc.get("criticals", {})
    for location in t.MTF_ARMOR_ORDER[config]:
        out.append("")
        out.append(f"{location}:")
        slots = criticals.get(location, [])
        out.extend(_line(slot.get("name") or "") or "-Empty-" for slot in slots)
        out.extend(["-Empty-"] * (12 - len(slots)))
    out.append("")
    return "\n".join(out) + "\n"


def _line(value: Any) -> str:
    """A value on one line: a sheet edited in the browser may hold what a file line cannot."""
    return str(value).replace("\r", " ").replace("\n", " ").strip()
