"""The armour diagrams of a sheet page, as SVG: a 'Mech's locations front and rear, a
ship's facings (a DropShip's four arcs, six for the rest), a vehicle's or a craft's locations, battle armour's troopers.

Each location is a shape with two bars (armour, internal structure) filled to what is
left, the lost part hatched, so damage shows at a glance; a destroyed location is struck
through. Every shape carries a ``<title>`` and the page lists the same values as text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from referee.fleet.sheet_reads import BIPED_CODES

# (x, y, width, height) of each location on the front view, as a record sheet draws it:
# the 'Mech faces the reader, so its right side is on the reader's left.
BIPED_FRONT = {
    "Head": (125, 8, 50, 44),
    "Right Arm": (8, 62, 52, 124),
    "Right Torso": (64, 58, 57, 112),
    "Center Torso": (125, 58, 50, 132),
    "Left Torso": (179, 58, 57, 112),
    "Left Arm": (240, 62, 52, 124),
    "Right Leg": (70, 196, 72, 120),
    "Left Leg": (158, 196, 72, 120),
}
QUAD_FRONT = {
    **{k: v for k, v in BIPED_FRONT.items() if "Arm" not in k and "Leg" not in k},
    "Front Right Leg": (8, 62, 52, 124),
    "Front Left Leg": (240, 62, 52, 124),
    "Rear Right Leg": (70, 196, 72, 120),
    "Rear Left Leg": (158, 196, 72, 120),
}
TRIPOD_FRONT = {
    **{k: v for k, v in BIPED_FRONT.items() if "Leg" not in k},
    "Right Leg": (52, 196, 70, 120),
    "Center Leg": (126, 196, 48, 120),
    "Left Leg": (178, 196, 70, 120),
}
# Seen from behind the 'Mech's left is on the reader's left.
REAR = {
    "Left Torso": (20, 10, 80, 120),
    "Center Torso": (110, 10, 80, 140),
    "Right Torso": (200, 10, 80, 120),
}
VEHICLE = {
    "Front": (90, 8, 120, 60),
    "Left": (20, 76, 62, 150),
    "Turret": (110, 100, 80, 70),
    "Front Turret": (110, 176, 80, 50),
    "Rotor": (110, 100, 80, 70),
    "Right": (218, 76, 62, 150),
    "Rear": (90, 234, 120, 60),
}
WINGED = {
    "Nose": (110, 8, 80, 90),
    "Left Wing": (16, 106, 120, 90),
    "Right Wing": (164, 106, 120, 90),
    "Aft": (110, 204, 80, 90),
}
ABBREVIATIONS = {
    **BIPED_CODES,
    "Center Leg": "CL",
    "Front Left Leg": "FLL",
    "Front Right Leg": "FRL",
    "Rear Left Leg": "RLL",
    "Rear Right Leg": "RRL",
    "Left Wing": "LW",
    "Right Wing": "RW",
}
# A ship's facings clockwise from the nose, each a sixth of the ring.
FACING_ANGLES = {
    "Nose": -90,
    "Fore-right": -30,
    "Aft-right": 30,
    "Aft": 90,
    "Aft-left": 150,
    "Fore-left": 210,
    # a DropShip's two sides, each one armour value
    "Right Side": 0,
    "Left Side": 180,
}


@dataclass(frozen=True)
class Box:
    label: str
    current: int
    maximum: int

    @property
    def lost(self) -> int:
        return max(0, self.maximum - self.current)

    @property
    def share(self) -> float:
        return 0.0 if self.maximum <= 0 else max(0.0, min(1.0, self.current / self.maximum))


def _state(loc: dict, boxes: list[Box]) -> str:
    if loc.get("destroyed"):
        return "destroyed"
    return "damaged" if any(b.lost for b in boxes) else "intact"


def _bars(x: float, y: float, w: float, h: float, boxes: list[Box]) -> SafeString:
    """Vertical bars side by side inside a location, filled from the bottom to what is left."""
    if not boxes:
        return mark_safe("")
    gap = 4
    bar_w = (w - gap * (len(boxes) + 1)) / len(boxes)
    top, height = y + 30, h - 34
    parts = []
    for i, box in enumerate(boxes):
        bx = x + gap + i * (bar_w + gap)
        filled = height * box.share
        parts.append(
            format_html(
                '<rect class="bar-lost" x="{}" y="{}" width="{}" height="{}"/>'
                '<rect class="bar-{}" x="{}" y="{}" width="{}" height="{}"/>',
                _n(bx),
                _n(top),
                _n(bar_w),
                _n(height),
                "armor" if "armour" in box.label else "structure",
                _n(bx),
                _n(top + height - filled),
                _n(bar_w),
                _n(filled),
            )
        )
    return mark_safe("".join(parts))


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _location(name: str, rect: tuple, boxes: list[Box], loc: dict, test_id: str) -> SafeString:
    x, y, w, h = rect
    state = _state(loc, boxes)
    text = "; ".join(f"{b.label} {b.current} of {b.maximum}" for b in boxes) or "no armour recorded"
    title = f"{name}: {text}" + ("; destroyed" if state == "destroyed" else "")
    numbers = " ".join(f"{b.current}" for b in boxes)
    strike = (
        format_html('<line class="strike" x1="{}" y1="{}" x2="{}" y2="{}"/>', x, y, x + w, y + h)
        if state == "destroyed"
        else ""
    )
    return format_html(
        '<g class="loc {}" data-testid="{}" data-location="{}" role="img" aria-label="{}"><title>{}</title>'
        '<rect class="outline" x="{}" y="{}" width="{}" height="{}" rx="4"/>{}'
        '<text x="{}" y="{}" class="abbr">{}</text><text x="{}" y="{}" class="nums">{}</text>{}</g>',
        state,
        test_id,
        name,
        title,
        title,
        x,
        y,
        w,
        h,
        _bars(x, y, w, h, boxes),
        _n(x + w / 2),
        _n(y + 13),
        ABBREVIATIONS.get(name, name),
        _n(x + w / 2),
        _n(y + 25),
        numbers,
        strike,
    )


def _svg(label: str, view: str, body: SafeString, css_class: str) -> SafeString:
    return format_html(
        '<svg class="sheet-diagram {}" viewBox="{}" role="group" aria-label="{}" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>{}</svg>",
        css_class,
        view,
        label,
        label,
        body,
    )


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def mech_front(doc: dict) -> SafeString:
    layout = {"Quad": QUAD_FRONT, "Tripod": TRIPOD_FRONT}.get(doc.get("config", "Biped"), BIPED_FRONT)
    shapes = []
    for loc in doc.get("locations", []):
        rect = layout.get(loc["name"])
        if rect is None:
            continue
        boxes = [
            Box("armour", loc["armor"], loc["armor_max"]),
            Box("structure", loc["structure"], loc["structure_max"]),
        ]
        shapes.append(_location(loc["name"], rect, boxes, loc, f"loc-{_slug(loc['name'])}"))
    return _svg(
        "Armour diagram, front", "0 0 300 322", format_html_join("", "{}", ((s,) for s in shapes)), "mech"
    )


def mech_rear(doc: dict) -> SafeString:
    shapes = []
    for loc in doc.get("locations", []):
        rect = REAR.get(loc["name"])
        if rect is None or "rear_armor" not in loc:
            continue
        boxes = [Box("rear armour", loc["rear_armor"], loc["rear_armor_max"])]
        shapes.append(_location(loc["name"], rect, boxes, loc, f"rear-{_slug(loc['name'])}"))
    return _svg(
        "Armour diagram, rear torso",
        "0 0 300 160",
        format_html_join("", "{}", ((s,) for s in shapes)),
        "rear",
    )


def locations(doc: dict) -> SafeString:
    """A vehicle's or a winged craft's locations."""
    layout = WINGED if doc["unit_type"] in ("aerospace_fighter", "small_craft") else VEHICLE
    shapes = []
    for loc in doc.get("locations", []):
        rect = layout.get(loc["name"])
        if rect is None:
            continue
        boxes = [Box("armour", loc["armor"], loc["armor_max"])]
        if "structure" in loc:
            boxes.append(Box("structure", loc["structure"], loc["structure_max"]))
        shapes.append(_location(loc["name"], rect, boxes, loc, f"loc-{_slug(loc['name'])}"))
    return _svg("Armour diagram", "0 0 300 300", format_html_join("", "{}", ((s,) for s in shapes)), "craft")


def _point(angle: float, radius: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return 150 + radius * math.cos(rad), 150 + radius * math.sin(rad)


def _wedge(angle: float, inner: float, outer: float) -> str:
    a0, a1 = angle - 29, angle + 29
    p = [_point(a0, outer), _point(a1, outer), _point(a1, inner), _point(a0, inner)]
    return (
        f"M{_n(p[0][0])},{_n(p[0][1])} A{outer},{outer} 0 0 1 {_n(p[1][0])},{_n(p[1][1])} "
        f"L{_n(p[2][0])},{_n(p[2][1])} A{inner},{inner} 0 0 0 {_n(p[3][0])},{_n(p[3][1])} Z"
    )


def facings(doc: dict) -> SafeString:
    """A ship's six facings around its hull, each filled outwards to the armour left."""
    inner, outer = 62, 138
    shapes = []
    for face in doc.get("facings", []):
        angle = FACING_ANGLES[face["name"]]
        box = Box("armour", face["armor"], face["armor_max"])
        state = "destroyed" if face["armor_max"] and not face["armor"] else _state(face, [box])
        title = f"{face['name']}: armour {face['armor']} of {face['armor_max']}"
        tx, ty = _point(angle, (inner + outer) / 2)
        shapes.append(
            format_html(
                '<g class="loc {}" data-testid="facing-{}" role="img" aria-label="{}"><title>{}</title>'
                '<path class="bar-lost" d="{}"/><path class="bar-armor" d="{}"/><path class="outline" d="{}"/>'
                '<text x="{}" y="{}" class="facing-label">{}</text><text x="{}" y="{}" class="nums">{}/{}</text></g>',
                state,
                _slug(face["name"]),
                title,
                title,
                _wedge(angle, inner, outer),
                _wedge(angle, inner, inner + (outer - inner) * box.share),
                _wedge(angle, inner, outer),
                _n(tx),
                _n(ty - 3),
                face["name"],
                _n(tx),
                _n(ty + 11),
                face["armor"],
                face["armor_max"],
            )
        )
    si = doc.get("structural_integrity") or {"value": 0, "max": 0}
    share = Box("si", si["value"], si["max"]).share
    hull = format_html(
        '<g class="hull" data-testid="structural-integrity" role="img" aria-label="{}"><title>{}</title>'
        '<circle class="bar-lost" cx="150" cy="150" r="54"/><circle class="bar-structure" cx="150" cy="150" r="{}"/>'
        '<text x="150" y="146" class="facing-label">SI</text><text x="150" y="162" class="nums">{}/{}</text></g>',
        f"Structural integrity {si['value']} of {si['max']}",
        f"Structural integrity {si['value']} of {si['max']}",
        _n(54 * math.sqrt(share)),
        si["value"],
        si["max"],
    )
    body = format_html("{}{}", format_html_join("", "{}", ((s,) for s in shapes)), hull)
    return _svg("Armour by facing", "0 0 300 300", body, "ship")


def troopers(doc: dict) -> SafeString:
    rows = []
    for i, t in enumerate(doc.get("troopers", []), 1):
        y = 8 + (i - 1) * 34
        box = Box("armour", t["armor"], t["armor_max"])
        loc = {"destroyed": not t["alive"]}
        title = f"Trooper {i}: armour {t['armor']} of {t['armor_max']}" + ("" if t["alive"] else "; killed")
        rows.append(
            format_html(
                '<g class="loc {}" data-testid="trooper-{}" role="img" aria-label="{}"><title>{}</title>'
                '<rect class="bar-lost" x="70" y="{}" width="200" height="24"/>'
                '<rect class="bar-armor" x="70" y="{}" width="{}" height="24"/>'
                '<rect class="outline" x="70" y="{}" width="200" height="24"/>'
                '<text x="8" y="{}" class="abbr">Trooper {}</text><text x="266" y="{}" class="nums">{}</text>{}</g>',
                _state(loc, [box]),
                i,
                title,
                title,
                y,
                y,
                _n(200 * box.share),
                y,
                y + 17,
                i,
                y + 17,
                t["armor"],
                format_html('<line class="strike" x1="70" y1="{}" x2="270" y2="{}"/>', y + 12, y + 12)
                if not t["alive"]
                else "",
            )
        )
    height = 16 + 34 * max(1, len(rows))
    return _svg(
        "Troopers' armour", f"0 0 300 {height}", format_html_join("", "{}", ((r,) for r in rows)), "troopers"
    )


def diagrams(doc: dict) -> list[SafeString]:
    """The diagrams a sheet of this type draws, in the order a record sheet prints them."""
    kind = doc.get("unit_type")
    if kind == "mech":
        return [mech_front(doc), mech_rear(doc)]
    if kind in ("vehicle", "aerospace_fighter", "small_craft"):
        return [locations(doc)]
    if kind == "battle_armor":
        return [troopers(doc)]
    if doc.get("facings"):
        return [facings(doc)]
    return []
