"""The interstellar map: the campaign's star systems in light-years, each ship in the system
it is in, the jump radius around the chosen ship, the jumps made (the voyage so far, read
from the log's jump entries) and a planned route, as one self-contained SVG.

What a player may not see is left out before anything is drawn: a system not shared, a
ship not shared, a jump whose entry is not for them or whose ends they do not know."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from referee.campaigns.models import Campaign
from referee.play.models import LogEntry, Numbering

from . import state as map_state
from .geometry import distance
from .svg_styles import STAR_STYLE
from .voyage import JUMP_LIMIT_LY, Leg, Stop, plain_ly

JUMP_PROCEDURE = "jump.malfunction"  # the Jump: a jump that goes ahead moves the ship's system
WIDTH, HEIGHT, MARGIN = 1000, 700, 70
MIN_SPAN_LY = 2 * JUMP_LIMIT_LY + 10


def _attr(value) -> str:
    return escape(str(value), quote=True)


@dataclass
class StarMap:
    svg: str
    systems: list[dict]  # as the reader may see them, each with code, name, at (x, y) or None
    ships: list[dict]  # with code, name, star_system (code) and system (its record) or None
    voyages: list[dict] = field(default_factory=list)  # jumps made: ship, from, to, seq
    at_seq: int | None = None


def _at_seq(campaign: Campaign, at: int | None) -> int | None:
    if at is None:
        return None
    last = LogEntry.objects.filter(campaign=campaign).order_by("-seq").values_list("seq", flat=True).first()
    return at if last is not None and 0 <= at < last else None


def _entry_words(jump: dict) -> str:
    return f" (entry #{jump['number']})" if jump["number"] is not None else ""


def systems_of(current: map_state.MapState, role: str) -> list[dict]:
    found = []
    for code, record in current.of("starsystem").items():
        if not record.get("name") or (role != "gm" and not record.get("shared")):
            continue
        x, y = record.get("x_ly"), record.get("y_ly")
        found.append({**record, "code": code, "at": None if x is None or y is None else (x, y)})
    found.sort(key=lambda s: (s["name"], s["code"]))
    return found


def ships_of(current: map_state.MapState, role: str, systems: dict[str, dict]) -> list[dict]:
    """Ships in a system the reader knows (a docked ship rides with its carrier)."""
    records = current.of("ship")
    found = []
    for code, ship in records.items():
        if not ship.get("kind") or (role != "gm" and not ship.get("shared")):
            continue
        carrier = records.get(ship.get("docked_on") or "")
        if carrier is not None and role != "gm" and not carrier.get("shared"):
            continue  # it rides where its carrier is, which the players do not see
        host = carrier if carrier is not None else ship
        system = systems.get(host.get("star_system") or "")
        if system is None:
            continue
        found.append({**ship, "code": code, "system": system})
    found.sort(key=lambda s: (s["name"] or "", s["code"]))
    return found


def voyages_of(campaign: Campaign, role: str, user, at: int | None, systems: dict, ships: dict) -> list[dict]:
    """The jumps made, oldest first: each logged jump that moved a ship from one system to
    another, standing at the time read, its entry seen by the reader, both ends known."""
    entries = LogEntry.objects.in_campaign(campaign).filter(procedure=JUMP_PROCEDURE).visible_to(role, user)
    if at is None:
        entries = entries.standing()
    else:
        entries = entries.filter(seq__lte=at).exclude(reversed_by__seq__lte=at)
    # Each jump is named by the entry number its reader sees in the log (players' numbers
    # leave out the entries hidden from them).
    numbering = None if role == "gm" else Numbering.for_campaign(campaign, user)
    found = []
    for seq, effects in entries.order_by("seq").values_list("seq", "effects"):
        for change in effects or []:
            if change.get("target") != "ship" or change.get("field") != "star_system":
                continue
            ship = ships.get(str(change.get("code")))
            origin, destination = (
                systems.get(str(change.get("before"))),
                systems.get(str(change.get("after"))),
            )
            if ship is None or origin is None or destination is None or origin is destination:
                continue
            number = seq if numbering is None else numbering.number(seq)
            found.append(
                {"seq": seq, "number": number, "ship": ship, "origin": origin, "destination": destination}
            )
    return found


def star_map(
    campaign: Campaign,
    role: str,
    *,
    user=None,
    at: int | None = None,
    chosen: str = "",
    route: list[Leg] | None = None,
) -> StarMap:
    """The star map as ``role`` sees it, now or just after entry ``at`` (the GM's)."""
    at = _at_seq(campaign, at)
    current = map_state.system_state(campaign, everything=True)
    if at is not None:
        current = map_state.rewind(current, campaign, at)
    systems = systems_of(current, role)
    by_code = {s["code"]: s for s in systems}
    ships = ships_of(current, role, by_code)
    every_ship = {  # a ship's jumps are drawn wherever it is now; an unshared ship's for the GM only
        code: {**ship, "code": code}
        for code, ship in current.of("ship").items()
        if ship.get("name") and (role == "gm" or ship.get("shared"))
    }
    voyages = voyages_of(campaign, role, user, at, by_code, every_ship)
    when = f", as it stood after entry #{at}" if at is not None else ""
    drawing = draw(systems, ships, voyages, chosen=chosen, route=route or [], title=f"Star map{when}")
    return StarMap(drawing, systems, ships, voyages, at)


@dataclass(frozen=True, slots=True)
class Frame:
    cx: float
    cy: float
    scale: float  # pixels per light-year

    @classmethod
    def fitting(cls, points: list[tuple[float, float]]) -> Frame:
        if not points:
            return cls(0.0, 0.0, (HEIGHT - 2 * MARGIN) / MIN_SPAN_LY)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        span_x, span_y = max(max(xs) - min(xs), MIN_SPAN_LY), max(max(ys) - min(ys), MIN_SPAN_LY)
        scale = min((WIDTH - 2 * MARGIN - 100) / span_x, (HEIGHT - 2 * MARGIN) / span_y)
        return cls((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, scale)

    def to_svg(self, at: tuple[float, float]) -> tuple[float, float]:
        return (WIDTH / 2 - 50 + (at[0] - self.cx) * self.scale, HEIGHT / 2 - (at[1] - self.cy) * self.scale)


def _where(system: dict) -> str:
    if system["at"] is None:
        return "not placed"
    return f"x {plain_ly(system['at'][0])}, y {plain_ly(system['at'][1])} ly"


def _shown_name(system: dict) -> str:
    return system["name"] + ("" if system.get("explored", True) else " (unexplored)")


def draw(
    systems: list[dict], ships: list[dict], voyages: list[dict], *, chosen: str, route: list[Leg], title: str
) -> str:
    placed = [s for s in systems if s["at"] is not None]
    frame = Frame.fitting([s["at"] for s in placed])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-labelledby="starmap-title" class="star-map" data-scale="{frame.scale!r}">',
        f'<title id="starmap-title">{_attr(title)}</title>',
        f"<style>{STAR_STYLE}</style>",
        f'<rect class="bg" width="{WIDTH}" height="{HEIGHT}"/>',
    ]
    bar = 10 * frame.scale
    out.append(
        f'<path d="M20 {HEIGHT - 20}h{bar:.1f}" stroke="#e8eefc" stroke-width="2"/>'
        f'<text class="lbl" x="20" y="{HEIGHT - 28}">10 light-years</text>'
    )
    if not placed:
        out.append(
            '<text class="muted" x="20" y="28">No star system is placed yet: the GM gives its coordinates.</text>'
        )
    chosen_ship = next((s for s in ships if f"ship-{s['code']}" == chosen), None)
    centre = (
        chosen_ship["system"]
        if chosen_ship
        else next((s for s in placed if f"sys-{s['code']}" == chosen), None)
    )
    if centre is not None and centre["at"] is not None:
        px, py = frame.to_svg(centre["at"])
        whose = chosen_ship["name"] if chosen_ship else centre["name"]
        out.append(
            f'<circle class="reach" cx="{px:.1f}" cy="{py:.1f}" r="{JUMP_LIMIT_LY * frame.scale:.1f}">'
            f"<title>{_attr(whose)}: {JUMP_LIMIT_LY:g} light-year jump radius</title></circle>"
        )
    for jump in voyages:
        a, b = jump["origin"]["at"], jump["destination"]["at"]
        if a is None or b is None:
            continue
        (x1, y1), (x2, y2) = frame.to_svg(a), frame.to_svg(b)
        out.append(
            f'<line class="voyage" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
            f"<title>{_attr(jump['ship']['name'])} jumped from {_attr(jump['origin']['name'])} to "
            f"{_attr(jump['destination']['name'])}{_entry_words(jump)}</title></line>"
        )
    for number, leg in enumerate(route, 1):
        (x1, y1), (x2, y2) = frame.to_svg(leg.origin.at), frame.to_svg(leg.destination.at)
        out.append(
            f'<line class="route" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
            f"<title>Planned jump {number}: {_attr(leg.origin.name)} to {_attr(leg.destination.name)}, "
            f"{plain_ly(leg.ly)} ly</title></line>"
        )
    here: dict[str, list[dict]] = {}
    for ship in ships:
        here.setdefault(ship["system"]["code"], []).append(ship)
    for system in placed:
        px, py = frame.to_svg(system["at"])
        classes = "obj system" + ("" if system.get("explored", True) else " unexplored")
        classes += "" if system.get("shared", True) else " unshared"
        classes += " selected" if centre is system and not chosen_ship else ""
        name = _shown_name(system)
        out.append(
            f'<g class="{classes}" data-code="sys-{system["code"]}" data-label="{_attr(system["name"])}" '
            f'data-x="{system["at"][0]!r}" data-y="{system["at"][1]!r}" tabindex="0">'
            f"<title>{_attr(name)}: {_where(system)}</title>"
            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="7"/>'
            f'<text class="lbl" x="{px + 11:.1f}" y="{py + 4:.1f}">{_attr(name)}</text></g>'
        )
        for i, ship in enumerate(here.get(system["code"], [])):
            sx, sy = px + 14, py + 18 + 14 * i
            selected = " selected" if ship is chosen_ship else ""
            out.append(
                f'<g class="obj ship{selected}" data-code="ship-{ship["code"]}" data-label="{_attr(ship["name"])}" '
                f'data-x="{system["at"][0]!r}" data-y="{system["at"][1]!r}" tabindex="0">'
                f"<title>{_attr(ship['name'])}: in the {_attr(system['name'])} system</title>"
                f'<circle cx="{sx:.1f}" cy="{sy - 4:.1f}" r="4"/>'
                f'<text x="{sx + 8:.1f}" y="{sy:.1f}">{_attr(ship["name"])}</text></g>'
            )
    out.append("</svg>")
    return "".join(out)


def distances(star: StarMap, chosen: str) -> tuple[dict | None, list[dict]]:
    """Every placed system's distance from the chosen system (or the chosen ship's), nearest
    first, and whether one jump reaches it."""
    origin = next((s for s in star.systems if f"sys-{s['code']}" == chosen), None)
    label = None
    if origin is None:
        ship = next((s for s in star.ships if f"ship-{s['code']}" == chosen), None)
        if ship is not None:
            origin, label = ship["system"], f"{ship['name']} (in {ship['system']['name']})"
    if origin is None or origin["at"] is None:
        return None, []
    rows = []
    for system in star.systems:
        if system is origin or system["at"] is None:
            continue
        ly = distance(origin["at"], system["at"])
        rows.append(
            {"label": _shown_name(system), "ly": ly, "text": plain_ly(ly), "reach": ly <= JUMP_LIMIT_LY}
        )
    rows.sort(key=lambda r: (r["ly"], r["label"]))
    return {"label": label or origin["name"], "system": origin}, rows


def stop_of(system: dict) -> Stop:
    return Stop(system["code"], system["name"], system["at"])
