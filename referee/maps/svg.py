"""Maps as SVG text, self-contained (no external asset, no script): the same drawing
goes on the page, into an export and through Chromium into a PNG.

Drawn from the plain records of ``referee.maps.state``, already filtered for the
reader: what is not handed in is not drawn, named or counted."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from referee.fleet.models import ShipKind
from referee.terrain import catalog
from referee.terrain.models import Facing, hex_number

from . import geometry
from .geometry import HEIGHT, WIDTH, Projection, plain_au
from .svg_styles import HEX_STYLE, STYLE

KIND_LABELS = dict(ShipKind.choices)
KIND_MARK = {
    "warship": "W",
    "jumpship": "J",
    "dropship": "D",
    "small_craft": "S",
    "fighter_squadron": "F",
    "station": "T",
}
HEADING_LABELS = {
    "nose": "nose",
    "fore_right": "fore-right",
    "aft_right": "aft-right",
    "aft": "aft",
    "aft_left": "aft-left",
    "fore_left": "fore-left",
}


@dataclass(frozen=True, slots=True)
class MapObject:
    """Anything on a system map one can measure from: the star, a jump point, a ship."""

    code: str
    label: str
    x: float
    y: float


def system_objects(system: dict, ships: list[dict], pirates: list[dict]) -> list[MapObject]:
    objects = [MapObject("star", f"{system['name']} (the star)", 0.0, 0.0)]
    jp = system.get("jump_point_au")
    if jp:
        objects += [
            MapObject("zenith", "Zenith jump point", 0.0, jp),
            MapObject("nadir", "Nadir jump point", 0.0, -jp),
        ]
    objects += [
        MapObject(f"pirate-{p['code']}", f"{p['name']} (pirate point)", p["x_au"], p["y_au"]) for p in pirates
    ]
    objects += [MapObject(f"ship-{s['code']}", s["name"], *s["at"]) for s in ships if s["at"] is not None]
    return objects


def _attr(value) -> str:
    return escape(str(value), quote=True)


def system_svg(
    system: dict, ships: list[dict], pirates: list[dict], *, mode: str = "fit", title: str = ""
) -> tuple[str, Projection]:
    """The system map: star, jump points, pirate points, ships with name, kind and heading."""
    placed = [s for s in ships if s["at"] is not None]
    objects = system_objects(system, placed, pirates)
    projection = Projection.fitting([(o.x, o.y) for o in objects], mode)
    name = system["name"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-labelledby="map-title" class="system-map" data-mode="{projection.mode}" '
        f'data-scale="{projection.scale!r}" data-unit="{geometry.LOG_UNIT_AU!r}" data-cx="{WIDTH / 2}" data-cy="{HEIGHT / 2}">',
        f'<title id="map-title">{_attr(title or f"Map of the {name} system")}</title>',
        f"<style>{STYLE}</style>",
        f'<rect class="bg" width="{WIDTH}" height="{HEIGHT}"/>',
    ]
    cx, cy = WIDTH / 2, HEIGHT / 2
    out.append(f'<line class="grid" x1="0" y1="{cy}" x2="{WIDTH}" y2="{cy}"/>')
    out.append(f'<line class="grid" x1="{cx}" y1="0" x2="{cx}" y2="{HEIGHT}"/>')
    for radius, label in projection.rings():
        out.append(f'<circle class="ring" cx="{cx}" cy="{cy}" r="{radius:.1f}"/>')
        out.append(f'<text class="muted" x="{cx + radius + 3:.1f}" y="{cy - 3}">{_attr(label)}</text>')
    length, bar_label = projection.scale_bar()
    if length:
        out.append(
            f'<path d="M20 {HEIGHT - 20}h{length:.1f}" stroke="#e8eefc" stroke-width="2"/>'
            f'<text class="lbl" x="20" y="{HEIGHT - 28}">{_attr(bar_label)}</text>'
        )
    else:
        out.append(f'<text class="muted" x="20" y="{HEIGHT - 20}">{_attr(bar_label)}</text>')
    spectral = f" ({system['spectral_class']})" if system.get("spectral_class") else ""
    out.append(
        f'<g class="obj" data-code="star" data-label="{_attr(name)}" data-x="0" data-y="0" tabindex="0">'
        f"<title>{_attr(name)}{_attr(spectral)}: the star</title>"
        f'<circle class="star" cx="{cx}" cy="{cy}" r="14"/>'
        f'<text class="lbl" x="{cx + 18}" y="{cy + 5}">{_attr(name)}</text></g>'
    )
    jp = system.get("jump_point_au")
    if jp:
        for code, label, y in (("zenith", "Zenith jump point", jp), ("nadir", "Nadir jump point", -jp)):
            px, py = projection.to_svg(0.0, y)
            out.append(
                f'<g class="obj" data-code="{code}" data-label="{label}" data-x="0" data-y="{y!r}" tabindex="0">'
                f"<title>{label}: {plain_au(jp)} AU from the star</title>"
                f'<path class="jp" d="M{px:.1f} {py - 9:.1f}L{px + 9:.1f} {py:.1f}L{px:.1f} {py + 9:.1f}L{px - 9:.1f} {py:.1f}Z"/>'
                f'<text class="lbl" x="{px - 13:.1f}" y="{py + 4:.1f}" text-anchor="end">{label.split()[0]}</text></g>'
            )
    else:
        out.append(
            '<text class="muted" x="20" y="24">No jump point distance yet: the GM gives it for the star.</text>'
        )
    for p in pirates:
        px, py = projection.to_svg(p["x_au"], p["y_au"])
        far = geometry.distance((0, 0), (p["x_au"], p["y_au"]))
        out.append(
            f'<g class="obj" data-code="pirate-{p["code"]}" data-label="{_attr(p["name"])}" '
            f'data-x="{p["x_au"]!r}" data-y="{p["y_au"]!r}" tabindex="0">'
            f"<title>{_attr(p['name'])}: pirate point, {plain_au(far)} AU from the star</title>"
            f'<circle class="pp" cx="{px:.1f}" cy="{py:.1f}" r="9"/>'
            f'<text class="lbl" x="{px + 13:.1f}" y="{py + 4:.1f}">{_attr(p["name"])}</text></g>'
        )
    riders: dict[str, list[dict]] = {}
    for ship in placed:
        if ship["carrier"] is not None and ship.get("docked_on") in {s["code"] for s in placed}:
            riders.setdefault(ship["docked_on"], []).append(ship)
    for ship in placed:
        if ship["carrier"] is not None and ship.get("docked_on") in riders:
            continue  # drawn in its carrier's label
        out.append(_ship(ship, projection, riders.get(ship["code"], [])))
    out.append("</svg>")
    return "".join(out), projection


def _ship(ship: dict, projection: Projection, riders: list[dict]) -> str:
    x, y = ship["at"]
    px, py = projection.to_svg(x, y)
    kind = KIND_LABELS.get(ship["kind"], ship["kind"])
    name = _attr(ship["name"])
    heading = ship.get("heading") or ""
    where = f"at x {plain_au(x)}, y {plain_au(y)} AU"
    if ship["carrier"] is not None:
        where = f"docked on {ship['carrier']['name']}, {where}"
    bits = [f"{ship['name']}: {kind}, {where}"]
    if heading:
        bits.append(f"heading {HEADING_LABELS.get(heading, heading)}")
    if riders:
        bits.append("carrying " + ", ".join(r["name"] for r in riders))
    classes = "ship" + ("" if ship.get("shared") else " unshared")
    parts = [
        f'<g class="{classes}" id="ship-{ship["code"]}" data-code="ship-{ship["code"]}" data-ship="{ship["code"]}" '
        f'data-label="{name}" data-x="{x!r}" data-y="{y!r}" transform="translate({px:.1f} {py:.1f})" tabindex="0">',
        f"<title>{_attr('; '.join(bits))}</title>",
    ]
    if heading in geometry.HEADING_BEARING:
        tip = geometry.arrow(0, 0, geometry.HEADING_BEARING[heading], 17)
        left = geometry.arrow(0, 0, geometry.HEADING_BEARING[heading] - 28, 8)
        right = geometry.arrow(0, 0, geometry.HEADING_BEARING[heading] + 28, 8)
        parts.append(
            f'<path class="heading" d="M{tip[0]:.1f} {tip[1]:.1f}L{left[0]:.1f} {left[1]:.1f}L{right[0]:.1f} {right[1]:.1f}Z"/>'
        )
    parts.append('<circle r="8"/>')
    parts.append(
        f'<text class="mark" x="0" y="3" text-anchor="middle">{KIND_MARK.get(ship["kind"], "?")}</text>'
    )
    parts.append(f'<text x="12" y="-4">{name}</text><text class="docked" x="12" y="10">{_attr(kind)}</text>')
    for i, rider in enumerate(riders):
        parts.append(
            f'<text class="docked" x="12" y="{24 + 13 * i}">+ {_attr(rider["name"])} (docked)</text>'
        )
    parts.append("</g>")
    return "".join(parts)


# --- battlefield maps ------------------------------------------------------------------------

TERRAIN_FILL = {
    "clear": "#e9e4c9",
    "paved": "#cfcfcf",
    "road": "#d8d0b0",
    "rough": "#c9b48a",
    "light_woods": "#a9cf8f",
    "heavy_woods": "#6fa35a",
    "ultra_heavy_woods": "#4d7f3e",
    "light_jungle": "#8fcf8f",
    "heavy_jungle": "#4f9f5f",
    "ultra_heavy_jungle": "#2f7f4f",
    "water": "#8fc1e6",
    "depth_1_water": "#8fc1e6",
    "swamp": "#9fb58a",
    "sand": "#ead9a0",
    "tundra": "#cdd9d9",
    "building": "#b0a090",
    "rubble": "#a89a8a",
    "magma_crust": "#b05a3a",
    "liquid_magma": "#e0502a",
}


def _short(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w]
    return ("".join(w[0] for w in words[:3]) or "?").upper()


def battlefield_svg(
    field: dict, hexes: list[dict], units: list[dict], *, role: str, title: str = "", links: str = ""
) -> str:
    """A battlefield as a BattleTech map sheet: hex numbers XXYY, every even column half a hex
    lower; terrain, level, conditions, geysers (the GM's; erupting ones for players too),
    the weather over the field and the units with their facing.

    ``links`` is a URL ending in ``hex=`` to which a hex's number is appended: each hex is
    then a link (reachable by keyboard) that opens its form."""
    columns, rows = field["columns"], field["rows"]
    width, height = geometry.hex_sheet_size(columns, rows)
    weather = field.get("weather") or []
    top = 26.0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 {width:.0f} {height + top:.0f}" '
        f'width="{width:.0f}" height="{height + top:.0f}" role="{"group" if links else "img"}" '
        f'aria-labelledby="hexmap-title" class="hex-map">',  # a picture holds no links: a group does
        f'<title id="hexmap-title">{_attr(title or "Map of " + field["name"])}</title>',
        f"<style>{HEX_STYLE}</style>",
        f'<rect width="{width:.0f}" height="{height + top:.0f}" fill="#fffdf5"/>',
        f'<text class="weather" x="12" y="18">{_attr(field["name"])} · weather: '
        f"{_attr(', '.join(catalog.terrain_name(w) for w in weather) or 'clear skies')}</text>",
        f'<g transform="translate(0 {top})">',
    ]
    by_label = {h["name"]: h for h in hexes}
    for column in range(1, columns + 1):
        for row in range(1, rows + 1):
            label = geometry.hex_label(column, row)
            out.append(_hex(label, *geometry.hex_center(column, row), by_label.get(label), role, links))
    for unit in units:
        place = hex_number(unit["hex"])
        if place is None or place[0] > columns or place[1] > rows:
            continue
        cx, cy = geometry.hex_center(*place)
        facing = unit.get("facing") or "n"
        tip = geometry.arrow(cx, cy, geometry.FACING_BEARING.get(facing, 0), 19)
        left = geometry.arrow(cx, cy, geometry.FACING_BEARING.get(facing, 0) - 35, 10)
        right = geometry.arrow(cx, cy, geometry.FACING_BEARING.get(facing, 0) + 35, 10)
        facing_label = dict(Facing.choices).get(facing, facing)
        out.append(
            f'<g class="unit" data-unit="{unit["unit_code"]}" data-hex="{unit["hex"]}">'
            f"<title>{_attr(unit['name'])} in hex {unit['hex']}, facing {facing_label.lower()}</title>"
            f'<path d="M{tip[0]:.1f} {tip[1]:.1f}L{left[0]:.1f} {left[1]:.1f}L{right[0]:.1f} {right[1]:.1f}Z"/>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10"/>'
            f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle">{_attr(_short(unit["name"]))}</text></g>'
        )
    out.append("</g></svg>")
    return "".join(out)


def _hex(label: str, cx: float, cy: float, row: dict | None, role: str, links: str) -> str:
    terrain = row["terrain"] if row else "clear"
    fill = TERRAIN_FILL.get(terrain, "#e0dcc0")
    words = [f"Hex {label}"]
    inner = [
        f'<polygon points="{geometry.hex_corners(cx, cy)}" fill="{fill}"/>',
        f'<text x="{cx:.1f}" y="{cy - geometry.HEX_HEIGHT / 2 + 10:.1f}" text-anchor="middle">{label}</text>',
    ]
    if row is not None:
        words.append(catalog.terrain_name(terrain))
        if row.get("level"):
            words.append(f"level {row['level']}")
            inner.append(
                f'<text class="lvl" x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle">L{row["level"]}</text>'
            )
        conditions = row.get("conditions") or []
        if conditions:
            names = [catalog.terrain_name(c) for c in conditions]
            words.append(", ".join(names))
            inner.append(
                f'<text class="cond" x="{cx:.1f}" y="{cy + 16:.1f}" text-anchor="middle">{_attr(_short(" ".join(names)))}</text>'
            )
        if row.get("weather"):
            words.append("local weather " + ", ".join(catalog.terrain_name(w) for w in row["weather"]))
        erupting = bool(row.get("geyser")) and (row.get("erupting_turns_left") or 0) > 0
        if row.get("geyser") and (role == "gm" or erupting):
            state = "erupting" if erupting else "dormant"
            if role == "gm" and erupting:
                state += f", {row['erupting_turns_left']} turn(s) left"
            words.append(f"{'magma ' if row.get('volcanic') else ''}geyser ({state})")
            inner.append(
                f'<circle class="vent{" erupting" if erupting else ""}" cx="{cx:.1f}" cy="{cy:.1f}" r="{geometry.HEX_SIZE * 0.55:.1f}"/>'
            )
    title = f"<title>{_attr('; '.join(words))}</title>"
    body = title + "".join(inner)
    if links:
        return (
            f'<a class="hex" id="hex-{label}" href="{_attr(links)}{label}#hex-form" data-hex="{label}" '
            f'aria-label="{_attr("; ".join(words))}">{body}</a>'
        )
    return f'<g class="hex" data-hex="{label}">{body}</g>'
