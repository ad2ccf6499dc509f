"""MegaMek boards (``.board``): a battlefield's hex map out, and a MegaMek board in.

Pure Python: no database, no request. The format is MegaMek's own (its ``Board`` reads and
writes it): ``size W H``; then one ``hex XXYY LEVEL "TERRAIN" "THEME"`` line per hex, row by
row (MegaMek ignores the number and places the hexes in file order, so they are written in
that order); ``TERRAIN`` is ``name:level[:exits]`` items joined by ``;`` in MegaMek's terrain
names (``Terrains``: ``woods:2`` heavy woods, ``water:3`` water three deep, ``snow:2`` deep
snow…); ``tag``, ``description`` and ``option`` lines; ``#`` starts a comment; ``end`` ends it.

What this campaign models maps both ways (``TERRAIN_TO_MEGAMEK``); what it does not is kept
as MegaMek wrote it (``kept``), shown by name, and written back unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.forms import too_large

MAX_BOARD_BYTES = 2 * 1024 * 1024
WHAT = "a board"  # what a file too large should have been, in the refusal
MAX_SIDE = 99  # the battlefield's hex numbers are four digits
MIN_LEVEL, MAX_LEVEL = -20, 50

# Our terrain keys (base terrain and conditions) as MegaMek names them.
BASE_TO_MEGAMEK = {
    "light_woods": "woods:1",
    "heavy_woods": "woods:2",
    "ultra_heavy_woods": "woods:3",
    "light_jungle": "jungle:1",
    "heavy_jungle": "jungle:2",
    "ultra_heavy_jungle": "jungle:3",
    "rough": "rough:1",
    "sand": "sand:1",
    "tundra": "tundra:1",
    "magma_crust": "magma:1",
    "liquid_magma": "magma:2",
    "water": "water:1",
    "paved": "pavement:1",
    "building_light": "building:1;bldg_elev:1;bldg_cf:15",
    "building_medium": "building:2;bldg_elev:1;bldg_cf:40",
    "building_heavy": "building:3;bldg_elev:1;bldg_cf:90",
    "building_hardened": "building:4;bldg_elev:1;bldg_cf:120",
}
CONDITION_TO_MEGAMEK = {
    "mud": "mud:1",
    "ice": "ice:1",
    "deep_snow": "snow:2",
    "rapids": "rapids:1",
    "swamp": "swamp:1",
    "rubble": "rubble:1",
    "road_bridge": "road:1",
}
# MegaMek terrain (name and level) read as ours.
BASE_FROM_MEGAMEK = {
    ("woods", 1): "light_woods",
    ("woods", 2): "heavy_woods",
    ("woods", 3): "ultra_heavy_woods",
    ("jungle", 1): "light_jungle",
    ("jungle", 2): "heavy_jungle",
    ("jungle", 3): "ultra_heavy_jungle",
    ("rough", 1): "rough",
    ("sand", 1): "sand",
    ("tundra", 1): "tundra",
    ("magma", 1): "magma_crust",
    ("magma", 2): "liquid_magma",
    ("water", None): "water",  # any depth: the depth is kept as MegaMek wrote it
    ("pavement", 1): "paved",
    ("building", 1): "building_light",
    ("building", 2): "building_medium",
    ("building", 3): "building_heavy",
    ("building", 4): "building_hardened",
}
CONDITION_FROM_MEGAMEK = {
    ("mud", 1): "mud",
    ("ice", 1): "ice",
    ("snow", 2): "deep_snow",
    ("rapids", 1): "rapids",
    ("swamp", 1): "swamp",
    ("rubble", None): "rubble",
    ("road", 1): "road_bridge",
}
# MegaMek's names of what a hex can hold (Terrains.java), for the terrain we keep.
MEGAMEK_NAMES = {
    "woods": "Woods",
    "water": "Water",
    "rough": "Rough",
    "rubble": "Rubble",
    "jungle": "Jungle",
    "sand": "Sand",
    "tundra": "Tundra",
    "magma": "Magma",
    "planted_fields": "Planted fields",
    "heavy_industrial": "Heavy industrial zone",
    "space": "Space",
    "pavement": "Pavement",
    "road": "Road",
    "swamp": "Swamp",
    "mud": "Mud",
    "rapids": "Rapids",
    "ice": "Ice",
    "snow": "Snow",
    "fire": "Fire",
    "smoke": "Smoke",
    "geyser": "Geyser",
    "building": "Building",
    "bldg_cf": "Building construction factor",
    "bldg_elev": "Building height",
    "bldg_basement_type": "Building basement",
    "bldg_class": "Building class",
    "bldg_armor": "Building armour",
    "bridge": "Bridge",
    "bridge_cf": "Bridge construction factor",
    "bridge_elev": "Bridge height",
    "fuel_tank": "Fuel tank",
    "fuel_tank_cf": "Fuel tank construction factor",
    "fuel_tank_elev": "Fuel tank height",
    "fuel_tank_magn": "Fuel tank magnitude",
    "impassable": "Impassable terrain",
    "elevator": "Elevator",
    "fortified": "Improved position",
    "screen": "Screen",
    "fluff": "Decoration",
    "arms": "Blown-off arms",
    "legs": "Blown-off legs",
    "metal_deposit": "Metal content",
    "bldg_base_collapsed": "Collapsed basement",
    "foliage_elev": "Foliage height",
    "black_ice": "Black ice",
    "hazardous_liquid": "Hazardous liquid",
    "ultra_sublevel": "Ultra sublevel",
    "dead_zone": "Dead zone",
    "cliff_top": "Cliff top",
    "cliff_bottom": "Cliff bottom",
    "incline_top": "Incline top",
    "incline_bottom": "Incline bottom",
    "incline_high_top": "High incline top",
    "incline_high_bottom": "High incline bottom",
    "deployment_zone": "Deployment zone",
}
# What a hex's level of a kept terrain means, in MegaMek's words (Terrains.getDisplayName).
LEVEL_WORDS = {
    ("snow", 1): "Thin snow",
    ("rapids", 2): "Torrent",
    ("swamp", 2): "Quicksand",
    ("swamp", 3): "Quicksand",
    ("rough", 2): "Ultra rough",
    ("geyser", 2): "Geyser (active)",
    ("smoke", 1): "Light smoke",
    ("smoke", 2): "Heavy smoke",
    ("fire", 2): "Inferno fire",
}
TERRAIN_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def megamek_name(token: str) -> str:
    """A MegaMek terrain item (``heavy_industrial:3``) in words (``Heavy industrial zone 3``)."""
    name, level, _exits = split_token(token)
    if (name, level) in LEVEL_WORDS:
        return LEVEL_WORDS[(name, level)]
    words = MEGAMEK_NAMES.get(name, name.replace("_", " ").capitalize())
    if name == "water":
        return f"Water, depth {level}"
    return f"{words} {level}" if level not in (None, 1) else words


def split_token(token: str) -> tuple[str, int | None, str | None]:
    parts = token.split(":")
    name = parts[0].strip()
    level = int(parts[1]) if len(parts) > 1 and re.fullmatch(r"-?\d{1,6}", parts[1].strip()) else None
    exits = parts[2].strip() if len(parts) > 2 else None
    return name, level, exits


# -- Reading --------------------------------------------------------------------------------


class BoardError(ValueError):
    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"Line {line}: {message}" if line else message)


@dataclass(slots=True)
class BoardHex:
    label: str  # XXYY, as the battlefield numbers it
    level: int = 0
    terrain: str = "clear"
    conditions: list[str] = field(default_factory=list)
    weather: list[str] = field(default_factory=list)
    geyser: bool = False
    volcanic: bool = False
    kept: list[str] = field(default_factory=list)  # MegaMek's own items, as written
    theme: str = ""

    @property
    def plain(self) -> bool:
        """Clear ground at level 0 with nothing else (a theme is only a picture, kept apart): the
        battlefield need not describe it."""
        return (
            self.level == 0
            and self.terrain == "clear"
            and not (self.conditions or self.weather or self.geyser or self.kept)
        )


@dataclass(slots=True)
class ReadBoard:
    columns: int
    rows: int
    hexes: list[BoardHex]
    tags: list[str] = field(default_factory=list)
    description: str = ""


_TOKEN = re.compile(r'"([^"]*)"?|#|[^\s"#]+')


def _tokens(line: str) -> list[str]:
    """The words of a line as MegaMek's tokenizer reads them: quoted strings whole, ``#`` to
    the end of the line a comment."""
    words = []
    for found in _TOKEN.finditer(line):
        if found.group(0) == "#":
            break
        words.append(found.group(1) if found.group(0).startswith('"') else found.group(0))
    return words


def _read_terrain(text: str, hex_: BoardHex, line: int) -> None:
    if not text.strip():
        return
    for token in text.split(";"):
        token = token.strip()
        if not token:
            continue
        name, level, _exits = split_token(token)
        if not TERRAIN_NAME.fullmatch(name) or (len(token.split(":")) > 1 and level is None):
            raise BoardError(f"hex {hex_.label}: “{token[:40]}” is not a MegaMek terrain (name:level).", line)
        base = BASE_FROM_MEGAMEK.get((name, level)) or BASE_FROM_MEGAMEK.get((name, None))
        condition = CONDITION_FROM_MEGAMEK.get((name, level)) or CONDITION_FROM_MEGAMEK.get((name, None))
        exact = BASE_TO_MEGAMEK.get(base or "", CONDITION_TO_MEGAMEK.get(condition or "", ""))
        if base and hex_.terrain == "clear":
            hex_.terrain = base
        elif condition and condition not in hex_.conditions:
            hex_.conditions.append(condition)
        elif name == "fire" and level == 1 and "fire" not in hex_.weather:
            hex_.weather.append("fire")
        elif name == "geyser" and level in (1, 2, 3) and not hex_.geyser:
            hex_.geyser, hex_.volcanic = True, level == 3
            if level == 2:
                hex_.kept.append(token)
        else:
            hex_.kept.append(token)
            continue
        # Mapped, but said more than our key does (a depth, exits, a rubble level): keep it too.
        if (base or condition) and token not in exact.split(";"):
            hex_.kept.append(token)


def parse_board(data: bytes | str) -> ReadBoard:
    """The board, or ``BoardError`` naming the line and the problem."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BOARD_BYTES:
        raise BoardError(too_large(MAX_BOARD_BYTES, WHAT))
    if b"\x00" in raw:
        raise BoardError("The file holds NUL bytes: it is not a MegaMek board.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    columns = rows = 0
    hexes: list[BoardHex] = []
    tags: list[str] = []
    description: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        words = _tokens(stripped)
        keyword = words[0].lower()
        if keyword == "size":
            if columns:
                raise BoardError("the board gives its size twice.", number)
            if len(words) < 3 or not all(re.fullmatch(r"\d{1,5}", w) for w in words[1:3]):
                raise BoardError("give the size as two whole numbers: size WIDTH HEIGHT.", number)
            columns, rows = int(words[1]), int(words[2])
            if not (1 <= columns <= MAX_SIDE and 1 <= rows <= MAX_SIDE):
                raise BoardError(
                    f"the board is {columns} by {rows} hexes; a battlefield here runs 1 to {MAX_SIDE} each way.",
                    number,
                )
        elif keyword == "hex":
            if not columns:
                raise BoardError("a hex comes before the board's size.", number)
            if len(hexes) >= columns * rows:
                raise BoardError(f"more hexes than a {columns} by {rows} board holds.", number)
            if len(words) < 3 or not re.fullmatch(r"-?\d{1,6}", words[2]):
                raise BoardError('give each hex as: hex XXYY LEVEL "TERRAIN" "THEME".', number)
            level = int(words[2])
            index = len(hexes)  # MegaMek places hexes in file order, whatever their number says
            label = f"{index % columns + 1:02d}{index // columns + 1:02d}"
            if not MIN_LEVEL <= level <= MAX_LEVEL:
                raise BoardError(
                    f"hex {label} is at level {level}; levels here run from {MIN_LEVEL} to {MAX_LEVEL}.",
                    number,
                )
            hex_ = BoardHex(label, level, theme=(words[4] if len(words) > 4 else "")[:40])
            _read_terrain(words[3] if len(words) > 3 else "", hex_, number)
            hexes.append(hex_)
        elif keyword == "tag" and len(words) > 1:
            tags.append(words[1][:80])
        elif keyword == "description" and len(words) > 1:
            description.append(words[1][:2000])
        elif keyword == "end":
            break
        elif keyword in ("option", "background", "note", "tag", "description"):
            continue
        else:
            raise BoardError(f"“{words[0][:30]}” is not a line of a MegaMek board.", number)
    if not columns:
        raise BoardError("The file gives no size: it is not a MegaMek board.")
    while len(hexes) < columns * rows:  # MegaMek fills a short board with blank hexes
        index = len(hexes)
        hexes.append(BoardHex(f"{index % columns + 1:02d}{index // columns + 1:02d}"))
    return ReadBoard(columns, rows, hexes, tags[:50], "\n\n".join(description)[:4000])


# -- Writing --------------------------------------------------------------------------------


def _named(names: dict[str, str], key: str) -> str:
    return names.get(key) or key.replace("_", " ").capitalize()


def hex_terrain(hex_: BoardHex, notes: list[str], names: dict[str, str]) -> str:
    """The hex's terrain in MegaMek's names; what has none is added to ``notes``."""
    kept_types = {split_token(t)[0] for t in hex_.kept}
    items: list[str] = []

    def add(mapped: str) -> None:
        for token in mapped.split(";"):
            if split_token(token)[0] not in kept_types and token not in items:
                items.append(token)

    if hex_.terrain != "clear":
        if hex_.terrain in BASE_TO_MEGAMEK:
            add(BASE_TO_MEGAMEK[hex_.terrain])
        else:
            notes.append(f"Hex {hex_.label}: MegaMek has no {_named(names, hex_.terrain)}; left clear.")
    for condition in hex_.conditions:
        if condition in CONDITION_TO_MEGAMEK:
            add(CONDITION_TO_MEGAMEK[condition])
        else:
            notes.append(f"Hex {hex_.label}: MegaMek has no {_named(names, condition)}; left out.")
    for weather in hex_.weather:
        if weather == "fire":
            add("fire:1")
        else:
            notes.append(
                f"Hex {hex_.label}: {_named(names, weather)} over one hex has no MegaMek terrain; "
                "MegaMek sets weather for the whole board."
            )
    if hex_.geyser:
        add("geyser:3" if hex_.volcanic else "geyser:1")
    items += [t for t in hex_.kept if t not in items]
    return ";".join(items)


def write_board(board: ReadBoard, *, notes: list[str], names: dict[str, str], description: str = "") -> str:
    """The board as MegaMek writes it (row by row, CR LF line ends), the notes as comments."""
    out = [f"# {n}" for n in notes]
    out.append(f"size {board.columns} {board.rows}")
    out += [f'tag "{t.replace(chr(34), chr(39))}"' for t in board.tags]
    by_label = {h.label: h for h in board.hexes}
    terrain_notes: list[str] = [
        f"Hex {h.label} lies off the {board.columns} by {board.rows} map; left out."
        for h in board.hexes
        if not (
            re.fullmatch(r"\d{4}", h.label)
            and 1 <= int(h.label[:2]) <= board.columns
            and 1 <= int(h.label[2:]) <= board.rows
        )
    ]
    lines = []
    for row in range(1, board.rows + 1):
        for column in range(1, board.columns + 1):
            label = f"{column:02d}{row:02d}"
            hex_ = by_label.get(label) or BoardHex(label)
            terrain = hex_terrain(hex_, terrain_notes, names)
            lines.append(f'hex {label} {hex_.level} "{terrain}" "{hex_.theme}"')
    if terrain_notes:
        out = [f"# {n}" for n in terrain_notes] + out
    out += lines
    if description:
        out.append(f'description "{description.replace(chr(34), chr(39))}"')
    out.append("end")
    notes += terrain_notes
    return "\r\n".join(out) + "\r\n"
