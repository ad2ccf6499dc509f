"""The effect rules of terrain: a hex's terrain and a geyser's eruption."""

from __future__ import annotations

from referee.play.families import EffectRule

from .models import SLUG, Hex


def _hex_terrain(obj, effect, ctx):
    """terrain.clearing and a volcanic geyser change what the hex is."""
    value = effect["value"]
    if isinstance(obj, Hex) and isinstance(value, str) and SLUG.fullmatch(value):
        return [("terrain", value)]
    return []


def _eruption(obj, effect, ctx):
    value = effect["value"]
    if isinstance(obj, Hex) and obj.geyser and type(value) is int and value >= 0:
        return [("erupting_turns_left", value)]
    return []


RULES = (
    EffectRule("hex", "terrain", _hex_terrain),
    EffectRule("hex", "geyser.erupting_turns_left", _eruption),
)
