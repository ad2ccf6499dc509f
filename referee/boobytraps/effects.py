"""The effect rules of booby traps: the engine's ``booby_trap`` effects land on
:class:`BoobyTrap` fields here; anything
a rule cannot read (a wrong type, a rack that is not there) stays pending for the GM.
"""

from __future__ import annotations

from referee.play.families import EffectRule
from rules.tables import booby_trap as tables

from .models import Course, WeaponType

TYPES = [t.value for t in WeaponType]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _speed(obj, effect, ctx):
    value = effect["value"]
    if effect["op"] == "set" and _is_int(value) and tables.MIN_SPEED <= value <= tables.MAX_SPEED:
        return [("speed", value)]
    return []


def _year_band(obj, effect, ctx):
    value = effect["value"]
    return [("year_band", value)] if effect["op"] == "set" and isinstance(value, str) else []


def _spaces(obj, effect, ctx):
    value = effect["value"]
    if effect["op"] != "set" or not isinstance(value, dict) or set(value) != set(TYPES):
        return []
    if not all(_is_int(n) and 0 <= n <= 6 for n in value.values()):
        return []
    return [(f"spaces_{t}", value[t]) for t in TYPES]


def _weapon_list(value) -> bool:
    return value is None or (isinstance(value, list) and all(isinstance(w, str) for w in value))


def _weapons(obj, effect, ctx):
    """All three types at once (generation): null means "not filled" [A11]."""
    value = effect["value"]
    if effect["op"] != "set" or not isinstance(value, dict) or set(value) != set(TYPES):
        return []
    if not all(_weapon_list(w) for w in value.values()):
        return []
    return [(f"weapons_{t}", None if value[t] is None else list(value[t])) for t in TYPES]


def _weapons_of_type(obj, effect, ctx, weapon_type: str):
    value = effect["value"]
    if effect["op"] != "set" or value is None or not _weapon_list(value):
        return []
    return [(f"weapons_{weapon_type}", list(value))]


def _racks_full(obj, effect, ctx):
    """A new trap's drone racks start full (IR107.5 / catalogue 1.5)."""
    if effect["value"] != "full":
        return []
    return [("drone_racks", [{**rack, "loaded": rack["capacity"]} for rack in obj.drone_racks])]


def _rack_loaded(obj, effect, ctx, index: str):
    """One rack's load; a new list, so the recorded before-value stays as it was."""
    i, value = int(index), effect["value"]
    racks = obj.drone_racks
    if not _is_int(value) or i >= len(racks):
        return []
    current = racks[i]["loaded"]
    new = current + value if effect["op"] == "add" else value
    new = max(0, min(racks[i]["capacity"], new))
    return [
        ("drone_racks", [{**rack, "loaded": new} if n == i else dict(rack) for n, rack in enumerate(racks)])
    ]


def _target(obj, effect, ctx):
    value = effect["value"]
    if effect["op"] != "set" or not (value is None or isinstance(value, str)):
        return []
    return [("target", (value or "")[:120])]


def _course(obj, effect, ctx):
    value = effect["value"]
    return [("course", value)] if value in Course.values else []


def _cooldown(obj, effect, ctx):
    value = effect["value"]
    if effect["op"] == "set" and (value is None or (_is_int(value) and value >= 0)):
        return [("terrain_cooldown_until", value)]
    return []


RULES = (
    EffectRule("booby_trap", "speed", _speed),
    EffectRule("booby_trap", "year_band", _year_band),
    EffectRule("booby_trap", "spaces", _spaces),
    EffectRule("booby_trap", "weapons", _weapons),
    EffectRule("booby_trap", "drone_racks_loaded", _racks_full),
    EffectRule("booby_trap", "target", _target),
    EffectRule("booby_trap", "course", _course),
    EffectRule("booby_trap", "terrain_cooldown_until", _cooldown),
    EffectRule("booby_trap", r"weapons\.(?P<weapon_type>torp|drone|phaser)", _weapons_of_type, pattern=True),
    EffectRule("booby_trap", r"drone_racks\[(?P<index>\d+)\]\.loaded", _rack_loaded, pattern=True),
)
