"""Map geometry without a database: how AU become pixels on a system map, how a hex number
becomes a hex on a battlefield map, and how far apart two things are.

System maps are a side view of the system: the star in the middle, the zenith jump point
straight up, the nadir straight down, x across. Two scales:

- ``fit`` (the default): linear, fitted so that everything placed is on the sheet;
  the scale bar gives its AU.
- ``log``: the distance from the star is drawn on a log scale (bearings kept), so a ship
  at 40 AU and the jump points at 1.5 AU are both readable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 1000, 700  # the system map's drawing area, in SVG units
MARGIN = 60
LABEL_ROOM = 90
LOG_UNIT_AU = 0.01  # log scale: radius log10(1 + r / 0.01 AU)

# A ship's heading drawn as a bearing on the map (degrees clockwise from up).
HEADING_BEARING = {
    "nose": 0,
    "fore_right": 60,
    "aft_right": 120,
    "aft": 180,
    "aft_left": 240,
    "fore_left": 300,
}


@dataclass(frozen=True, slots=True)
class Projection:
    mode: str  # "fit" | "log"
    scale: float  # pixels per AU (fit) or per log-decade (log)

    @classmethod
    def fitting(cls, points: list[tuple[float, float]], mode: str = "fit") -> Projection:
        """A projection that puts every point, and the star, on the sheet."""
        # Names are written to the right of a ship: room for them on that side.
        half_w, half_h = WIDTH / 2 - MARGIN - LABEL_ROOM, HEIGHT / 2 - MARGIN
        if mode == "log":
            reach = max((_log_radius(math.hypot(x, y)) for x, y in points), default=0.0)
            return cls("log", min(half_w, half_h) / max(reach, 1.0))
        reach_x = max((abs(x) for x, _ in points), default=0.0)
        reach_y = max((abs(y) for _, y in points), default=0.0)
        scale = min(half_w / max(reach_x, 1e-9), half_h / max(reach_y, 1e-9))
        return cls("fit", min(scale, half_h / 0.1))  # no closer than 0.1 AU to the edge

    def to_svg(self, x: float, y: float) -> tuple[float, float]:
        if self.mode == "log":
            r = math.hypot(x, y)
            if r == 0:
                return (WIDTH / 2, HEIGHT / 2)
            k = _log_radius(r) * self.scale / r
            return (WIDTH / 2 + x * k, HEIGHT / 2 - y * k)
        return (WIDTH / 2 + x * self.scale, HEIGHT / 2 - y * self.scale)

    def scale_bar(self) -> tuple[float, str]:
        """A round distance and its length in SVG units (fit), or the rings' text (log)."""
        if self.mode == "log":
            return (0.0, "log scale: each ring ten times farther from the star")
        target = (WIDTH / 5) / self.scale  # about a fifth of the width
        step = 10 ** math.floor(math.log10(target))
        for nice in (1, 2, 5, 10):
            if nice * step >= target:
                au = nice * step
                break
        return (au * self.scale, f"{plain_au(au)} AU")

    def rings(self) -> list[tuple[float, str]]:
        """Log scale: rings at 0.1, 1, 10, 100... AU (radius in SVG units, label)."""
        if self.mode != "log":
            return []
        found = []
        for power in range(-1, 5):
            au = 10.0**power
            radius = _log_radius(au) * self.scale
            if radius <= min(WIDTH, HEIGHT) / 2:
                found.append((radius, f"{plain_au(au)} AU"))
        return found


def _log_radius(r: float) -> float:
    return math.log10(1 + r / LOG_UNIT_AU)


def plain_au(value: float) -> str:
    """A distance in AU as a reader writes it: 1.5, 0.03, 12, 1,250."""
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{value:.4f}".rstrip("0").rstrip(".") or "0"


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


# --- battlefield hexes ---------------------------------------------------------------------

HEX_SIZE = 28.0  # centre to corner, SVG units
HEX_HEIGHT = math.sqrt(3) * HEX_SIZE
HEX_MARGIN = 12.0

# Flat-topped hexes: the six sides a unit can face, as bearings (clockwise from up).
FACING_BEARING = {"n": 0, "ne": 60, "se": 120, "s": 180, "sw": 240, "nw": 300}


def hex_center(column: int, row: int) -> tuple[float, float]:
    """The centre of hex (column, row), both from 1. As on a BattleTech map sheet, columns
    run across, rows down, and every even column sits half a hex lower than the odd ones."""
    x = HEX_MARGIN + HEX_SIZE + (column - 1) * 1.5 * HEX_SIZE
    y = HEX_MARGIN + HEX_HEIGHT / 2 + (row - 1) * HEX_HEIGHT + (HEX_HEIGHT / 2 if column % 2 == 0 else 0)
    return (x, y)


def hex_corners(cx: float, cy: float) -> str:
    """The six corners of a flat-topped hex, as an SVG points list."""
    return " ".join(
        f"{cx + HEX_SIZE * math.cos(math.radians(60 * i)):.1f},{cy + HEX_SIZE * math.sin(math.radians(60 * i)):.1f}"
        for i in range(6)
    )


def hex_sheet_size(columns: int, rows: int) -> tuple[float, float]:
    width = 2 * HEX_MARGIN + HEX_SIZE * 2 + (columns - 1) * 1.5 * HEX_SIZE
    height = 2 * HEX_MARGIN + rows * HEX_HEIGHT + (HEX_HEIGHT / 2 if columns > 1 else 0)
    return (width, height)


def hex_label(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


def arrow(cx: float, cy: float, bearing: float, length: float) -> tuple[float, float]:
    """The point ``length`` from (cx, cy) along ``bearing`` (SVG y points down)."""
    rad = math.radians(bearing)
    return (cx + length * math.sin(rad), cy - length * math.cos(rad))
