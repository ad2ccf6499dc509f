"""The effect rules of shipboard combat.

The engine's shipboard effects name ``compartment`` fields: pressure, fuel, what
critical hits knocked out, and ``surfaces.<type>.capacity_left`` for the surface
hit. A binding puts the Surface the GM chose behind the ``compartment`` target for
those, so the surface rules below receive the Surface itself."""

from __future__ import annotations

from referee.play.families import EffectRule
from rules.tables import shipboard as tables

from .models import Compartment, Surface


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(attr: str):
    """``set``/``add`` on a compartment's counter, never below 0."""

    def rule(obj, effect, ctx):
        if not isinstance(obj, Compartment) or not _number(effect["value"]):
            return []
        new = getattr(obj, attr) + effect["value"] if effect["op"] == "add" else effect["value"]
        return [(attr, max(0, new))]

    return rule


def _flag(attr: str):
    def rule(obj, effect, ctx):
        if not isinstance(obj, Compartment) or not isinstance(effect["value"], bool):
            return []
        return [(attr, effect["value"])]

    return rule


def _system_disabled(obj, effect, ctx, system: str):
    if system not in tables.DISABLING_CRITICALS:
        return []
    return _flag(f"{system}_disabled")(obj, effect, ctx)


def _capacity_left(obj, effect, ctx, surface_type: str):
    """The hit surface's capacity, cumulative: set to the engine's value, or add its damage.

    Only the Surface the GM chose, and only when the engine hit that type of surface;
    anything else stays pending rather than landing on the wrong wall."""
    if not isinstance(obj, Surface) or obj.surface_type != surface_type or not _number(effect["value"]):
        return []
    new = obj.capacity_left + effect["value"] if effect["op"] == "add" else effect["value"]
    new = min(new, obj.capacity)
    return [("capacity_left", new), ("destroyed", new <= 0)]


def _destroyed(obj, effect, ctx, surface_type: str):
    if not isinstance(obj, Surface) or obj.surface_type != surface_type or effect["value"] is not True:
        return []
    return [("destroyed", obj.capacity_left <= 0)]


RULES = (
    *(
        EffectRule("compartment", a, _count(a))
        for a in ("pressure_pa", "visibility_mod", "fuel_line_crits", "fuel_leak_points")
    ),
    *(EffectRule("compartment", a, _flag(a)) for a in ("bulkheads_closed", "lights_damaged")),
    EffectRule("compartment", r"(?P<system>[a-z_]+)_disabled", _system_disabled, pattern=True),
    EffectRule(
        "compartment", r"surfaces\.(?P<surface_type>[a-z_]+)\.capacity_left", _capacity_left, pattern=True
    ),
    EffectRule("compartment", r"surfaces\.(?P<surface_type>[a-z_]+)\.destroyed", _destroyed, pattern=True),
)
