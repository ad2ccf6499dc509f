"""How the engine's damage lands on record sheets: location damage, trooper losses, a ship's
critical boxes, a unit destroyed. Each change is the record's ``sheet`` field (before and after on the log, so Undo
restores it) with the summary fields the sheet implies (armour factor, engine hits...).

What cannot be applied stays pending and says why: a unit without a sheet, damage the dice
gave no location, a hit location a 'Mech's table names that the unit does not have."""

from __future__ import annotations

from typing import Any

from referee.fleet.models import Ship
from referee.play.effects import NotApplied
from referee.play.families import EffectRule

from . import document

# The hit location tables' short names, as the engine writes them.
MECH_CODES = {
    "HD": "Head",
    "CT": "Center Torso",
    "LT": "Left Torso",
    "RT": "Right Torso",
    "LA": "Left Arm",
    "RA": "Right Arm",
    "LL": "Left Leg",
    "RL": "Right Leg",
    "CL": "Center Leg",
}
# A four-legged 'Mech takes arm hits on its front legs and leg hits on its rear legs.
QUAD_CODES = {
    **MECH_CODES,
    "LA": "Front Left Leg",
    "RA": "Front Right Leg",
    "LL": "Rear Left Leg",
    "RL": "Rear Right Leg",
}


def record_kind(record) -> str:
    return "ship" if isinstance(record, Ship) else "unit"


def summary_values(record) -> dict[str, Any]:
    return {name: getattr(record, name) for name in document.SUMMARY_FIELDS[record_kind(record)]}


def current(record) -> dict:
    """The record's sheet as it stands, its summary fields laid over it."""
    return document.overlay(record.sheet, summary_values(record)) if record.sheet else {}


def sheet_updates(record, new: dict) -> list[tuple[str, Any]]:
    """The changes that put ``new`` on the record: the sheet and the fields it implies."""
    updates: list[tuple[str, Any]] = [("sheet", new)]
    for field, value in document.record_fields(new, record_kind(record)).items():
        if getattr(record, field) != value:
            updates.append((field, value))
    return updates


def _whole(effect: dict) -> int | None:
    value = effect.get("value")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return None
    return int(value)


def _needs_sheet(record, what: str) -> dict:
    doc = current(record)
    if not doc:
        raise NotApplied(f"{record} has no record sheet yet, so {what} cannot be marked on it")
    return doc


def _location_damage(unit, effect, ctx, code: str):
    points = _whole(effect)
    if effect.get("op") != "add" or points is None or points < 0:
        return []
    doc = _needs_sheet(unit, f"{points} damage to the {code}")
    codes = QUAD_CODES if doc.get("config") == "Quad" else MECH_CODES
    name = codes.get(code)
    if doc["unit_type"] != "mech" or name is None:
        kind = document.UNIT_TYPES[doc["unit_type"]].lower()
        raise NotApplied(
            f"the 'Mech hit location {code} is not a location of a {kind}: mark the damage on its sheet by hand"
        )
    try:
        new, _ = document.damage(doc, name, points)
    except document.SheetError as error:
        raise NotApplied(str(error)) from None
    return sheet_updates(unit, new)


def _troopers(unit, effect, ctx):
    count = _whole(effect)
    if effect.get("op") != "add" or count is None or count > 0:
        return []
    doc = _needs_sheet(unit, f"{-count} troopers lost")
    if not doc.get("troopers") and "platoon" not in doc:
        raise NotApplied(f"{unit}'s sheet lists no troopers")
    new, _ = document.troopers_lost(doc, -count)
    return sheet_updates(unit, new)


def _unplaced_damage(unit, effect, ctx):
    points = _whole(effect)
    if points is None:
        return []
    raise NotApplied(
        "the rules do not say which location takes it: roll on the hit location table and mark it on the sheet"
        if getattr(unit, "kind", "") != "battle_armor"
        else "the rules do not say which trooper takes it: mark it on the sheet"
    )


# The systems a landed unit attacks, as the boarding procedure names them.
SHIP_SYSTEMS = dict(
    zip(
        ("weapon_bay", "bay_door", "door", "thruster", "transit_drive"),
        document.CRITICAL_SYSTEMS,
        strict=True,
    )
)


def _critical_boxes(ship, effect, ctx, attack: str):
    boxes = _whole(effect)
    if effect.get("op") != "add" or boxes is None or boxes < 0:
        return []
    system = SHIP_SYSTEMS.get(attack)
    if system is None:
        raise NotApplied(
            "the rules name no ship system for these critical boxes: mark them on the sheet by hand"
        )
    doc = current(ship)
    if not doc:
        raise NotApplied(f"{ship} has no record sheet yet; give it one from its sheet page")
    try:
        new, _ = document.critical_boxes(doc, system, boxes)
    except document.SheetError as error:
        raise NotApplied(str(error)) from None
    return sheet_updates(ship, new)


def _destroyed(record, effect, ctx):
    if effect.get("value") is not True:
        return []
    doc = _needs_sheet(record, "its destruction")
    if doc.get("destroyed"):
        return []
    return sheet_updates(record, {**doc, "destroyed": True})


RULES = (
    EffectRule("unit", r"locations\.(?P<code>[A-Z]{2})\.damage", _location_damage, pattern=True),
    EffectRule("unit", "troopers", _troopers),
    EffectRule("unit", "damage", _unplaced_damage),
    EffectRule("unit", "destroyed", _destroyed),
    EffectRule("ship", "destroyed", _destroyed),
    EffectRule("ship", r"crit_boxes\.(?P<attack>[a-z_]+)", _critical_boxes, pattern=True),
)
