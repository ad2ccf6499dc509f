"""Registrations of this app with the dashboard, the forms and the effect rules.

The engine's ``booby_trap`` effects land on :class:`BoobyTrap` fields here; anything
a rule cannot read (a wrong type, a rack that is not there) stays pending for the GM.
"""

from __future__ import annotations

from referee.campaigns.panels import Panel, register_panel
from referee.fleet.forms import Kind, register_kind
from referee.play.effects import register_pattern, register_rule
from referee.play.selectors import with_actions
from rules.tables import booby_trap as tables

from .forms import BoobyTrapForm
from .models import BoobyTrap, Course, WeaponChart, WeaponType

TYPES = [t.value for t in WeaponType]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _speed(obj, effect, clock):
    value = effect["value"]
    if effect["op"] == "set" and _is_int(value) and tables.MIN_SPEED <= value <= tables.MAX_SPEED:
        return [("speed", value)]
    return []


def _year_band(obj, effect, clock):
    value = effect["value"]
    return [("year_band", value)] if effect["op"] == "set" and isinstance(value, str) else []


def _spaces(obj, effect, clock):
    value = effect["value"]
    if effect["op"] != "set" or not isinstance(value, dict) or set(value) != set(TYPES):
        return []
    if not all(_is_int(n) and 0 <= n <= 6 for n in value.values()):
        return []
    return [(f"spaces_{t}", value[t]) for t in TYPES]


def _weapon_list(value) -> bool:
    return value is None or (isinstance(value, list) and all(isinstance(w, str) for w in value))


def _weapons(obj, effect, clock):
    """All three types at once (generation): null means "not filled" [A11]."""
    value = effect["value"]
    if effect["op"] != "set" or not isinstance(value, dict) or set(value) != set(TYPES):
        return []
    if not all(_weapon_list(w) for w in value.values()):
        return []
    return [(f"weapons_{t}", None if value[t] is None else list(value[t])) for t in TYPES]


def _weapons_of_type(obj, effect, clock, weapon_type: str):
    value = effect["value"]
    if effect["op"] != "set" or value is None or not _weapon_list(value):
        return []
    return [(f"weapons_{weapon_type}", list(value))]


def _racks_full(obj, effect, clock):
    """A new trap's drone racks start full (IR107.5 / catalogue 1.5)."""
    if effect["value"] != "full":
        return []
    return [("drone_racks", [{**rack, "loaded": rack["capacity"]} for rack in obj.drone_racks])]


def _rack_loaded(obj, effect, clock, index: str):
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


def _target(obj, effect, clock):
    value = effect["value"]
    if effect["op"] != "set" or not (value is None or isinstance(value, str)):
        return []
    return [("target", (value or "")[:120])]


def _course(obj, effect, clock):
    value = effect["value"]
    return [("course", value)] if value in Course.values else []


def _cooldown(obj, effect, clock):
    value = effect["value"]
    if effect["op"] == "set" and (value is None or (_is_int(value) and value >= 0)):
        return [("terrain_cooldown_until", value)]
    return []


for _field, _rule in (
    ("speed", _speed),
    ("year_band", _year_band),
    ("spaces", _spaces),
    ("weapons", _weapons),
    ("drone_racks_loaded", _racks_full),
    ("target", _target),
    ("course", _course),
    ("terrain_cooldown_until", _cooldown),
):
    register_rule("booby_trap", _field, _rule)
register_pattern("booby_trap", r"weapons\.(?P<weapon_type>torp|drone|phaser)", _weapons_of_type)
register_pattern("booby_trap", r"drone_racks\[(?P<index>\d+)\]\.loaded", _rack_loaded)

PANEL_TEMPLATE = "boobytraps/panel.html#boobytraps-panel"

register_kind(
    Kind("boobytraps", BoobyTrap, BoobyTrapForm, "booby trap", "Booby traps", panel_template=PANEL_TEMPLATE)
)


def panel_context(campaign) -> dict:
    traps = BoobyTrap.objects.in_campaign(campaign).select_related(
        "star_system", "torp_chart", "drone_chart", "phaser_chart"
    )
    return {
        "traps": with_actions(campaign, traps),
        "charts": WeaponChart.objects.in_campaign(campaign).order_by("weapon_type", "name"),
    }


register_panel(Panel("boobytraps", PANEL_TEMPLATE, panel_context, order=20))
