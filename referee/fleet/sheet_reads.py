"""What a record's sheet answers for the procedures.

The sheet lives on its record (``Unit.sheet``, ``Ship.sheet``, already normalised by the
sheets family); these reads are plain functions of that document, kept beside the records so
that the play loop's bindings and every family read a sheet the same way.
"""

from __future__ import annotations

# Read-only: each takes a unit's or ship's sheet (``record.sheet``, already normalised by
# the sheets family's ``normalise``) and gives what a procedure's form is pre-filled with; ``None``
# where the sheet does not say.

# A 'Mech's locations as BattleSpace conversion names them: a biped's as the sheet abbreviates
# them; a quad's front legs carry what a biped's arms do, a tripod's centre leg is torso-mounted.
# A biped's locations as a record sheet abbreviates them.
BIPED_CODES = {
    "Head": "HD",
    "Center Torso": "CT",
    "Left Torso": "LT",
    "Right Torso": "RT",
    "Left Arm": "LA",
    "Right Arm": "RA",
    "Left Leg": "LL",
    "Right Leg": "RL",
}
LOCATION_CODES = {
    **BIPED_CODES,
    "Front Left Leg": "LA",
    "Front Right Leg": "RA",
    "Rear Left Leg": "LL",
    "Rear Right Leg": "RL",
    "Center Leg": "CT",
}
# Physical weapons a 'Mech swings (MegaMek lists them among the equipment).
MELEE_WEAPONS = (
    "hatchet",
    "sword",
    "mace",
    "claws",
    "talons",
    "lance",
    "retractable blade",
    "flail",
    "wrecking ball",
)


def heat_sinks_on(sheet: dict) -> dict | None:
    """``{"count": n, "type": "single" | "double"}`` as the sheet gives them."""
    sinks = (sheet or {}).get("heat_sinks")
    return dict(sinks) if sinks else None


def weapons_on(sheet: dict) -> list[dict]:
    """The sheet's weapons still working: name, location, rear-mounted, how many."""
    return [
        {
            "name": w["name"],
            "location": w.get("location", ""),
            "rear": bool(w.get("rear")),
            "count": w.get("count", 1),
        }
        for w in (sheet or {}).get("weapons", [])
        if not w.get("destroyed")
    ]


def melee_weapons_on(sheet: dict) -> list[dict]:
    """The physical weapons among the sheet's equipment (a hatchet, a sword...)."""
    return [
        {"name": e["name"], "location": e.get("location", ""), "count": e.get("count", 1)}
        for e in (sheet or {}).get("equipment", [])
        if not e.get("destroyed") and e["name"].lower().startswith(MELEE_WEAPONS)
    ]


def conversion_weapons(sheet: dict) -> list[dict]:
    """The sheet's weapons as BattleSpace conversion's rows (groundspace.convert): type,
    location, rear, mounts, and the physical weapons as melee. Fire factor and heat are not
    on a sheet: the conversion tables give them."""
    rows = [
        {
            "type": w["name"],
            "location": LOCATION_CODES.get(w["location"], "CT"),
            "rear": w["rear"],
            "mounts": w["count"],
        }
        for w in weapons_on(sheet)
    ]
    rows += [
        {
            "type": m["name"],
            "location": LOCATION_CODES.get(m["location"], "CT"),
            "mounts": m["count"],
            "melee": True,
        }
        for m in melee_weapons_on(sheet)
    ]
    return rows


# How a unit moves, as the movement tables name it: a 'Mech's configuration, a vehicle's
# motion type (MegaMek's spellings).
MOTIONS = {
    "tracked": "tracked",
    "wheeled": "wheeled",
    "hover": "hover",
    "vtol": "vtol",
    "naval": "naval",
    "hydrofoil": "naval",
    "submarine": "naval",
}


def moves_as(sheet: dict) -> str | None:
    """``battlemech_biped``, ``battlemech_quad``, ``tracked``, ``hover``... where the sheet says."""
    sheet = sheet or {}
    if sheet.get("unit_type") == "mech":
        return "battlemech_quad" if sheet.get("config") == "Quad" else "battlemech_biped"
    return MOTIONS.get(str(sheet.get("motion", "")).strip().lower())


def engine_on(sheet: dict) -> dict | None:
    """``{"rating": 320, "type": "Fusion Engine"}`` as the sheet gives it."""
    engine = (sheet or {}).get("engine")
    return dict(engine) if engine else None


def tech_base_of(sheet: dict) -> str | None:
    """``inner_sphere`` or ``clan`` as the procedures name them; None for mixed or unsaid."""
    text = str((sheet or {}).get("tech_base", "")).lower()
    if "mixed" in text:
        return None
    return "clan" if "clan" in text else "inner_sphere" if "inner" in text else None
