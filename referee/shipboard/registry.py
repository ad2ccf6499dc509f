"""Registrations of this app with the dashboard, the forms and the effect rules.

The engine's shipboard effects name ``compartment`` fields: pressure, fuel, what
critical hits knocked out, and ``surfaces.<type>.capacity_left`` for the surface
hit. A binding puts the Surface the GM chose behind the ``compartment`` target for
those, so the surface rules below receive the Surface itself."""

from __future__ import annotations

from referee.campaigns.panels import Panel, register_panel
from referee.fleet.forms import Kind, register_kind
from referee.play.effects import register_pattern, register_rule
from referee.play.selectors import with_actions
from rules.tables import shipboard as tables

from .forms import CompartmentForm
from .models import Compartment, Surface

PANEL = "shipboard/panel.html#compartments-panel"


def _compartments(campaign) -> list[Compartment]:
    compartments = Compartment.objects.in_campaign(campaign).prefetch_related("surfaces")
    return with_actions(campaign, compartments)


register_panel(Panel("compartments", PANEL, _compartments, order=60))
register_kind(Kind("compartments", Compartment, CompartmentForm, "compartment", "Compartments", PANEL))


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(attr: str):
    """``set``/``add`` on a compartment's counter, never below 0."""

    def rule(obj, effect, clock):
        if not isinstance(obj, Compartment) or not _number(effect["value"]):
            return []
        new = getattr(obj, attr) + effect["value"] if effect["op"] == "add" else effect["value"]
        return [(attr, max(0, new))]

    return rule


def _flag(attr: str):
    def rule(obj, effect, clock):
        if not isinstance(obj, Compartment) or not isinstance(effect["value"], bool):
            return []
        return [(attr, effect["value"])]

    return rule


def _system_disabled(obj, effect, clock, system: str):
    if system not in tables.DISABLING_CRITICALS:
        return []
    return _flag(f"{system}_disabled")(obj, effect, clock)


def _capacity_left(obj, effect, clock, surface_type: str):
    """The hit surface's capacity, cumulative: set to the engine's value, or add its damage.

    Only the Surface the GM chose, and only when the engine hit that type of surface;
    anything else stays pending rather than landing on the wrong wall."""
    if not isinstance(obj, Surface) or obj.surface_type != surface_type or not _number(effect["value"]):
        return []
    new = obj.capacity_left + effect["value"] if effect["op"] == "add" else effect["value"]
    new = min(new, obj.capacity)
    return [("capacity_left", new), ("destroyed", new <= 0)]


def _destroyed(obj, effect, clock, surface_type: str):
    if not isinstance(obj, Surface) or obj.surface_type != surface_type or effect["value"] is not True:
        return []
    return [("destroyed", obj.capacity_left <= 0)]


for _attr in ("pressure_pa", "visibility_mod", "fuel_line_crits", "fuel_leak_points"):
    register_rule("compartment", _attr, _count(_attr))
for _attr in ("bulkheads_closed", "lights_damaged"):
    register_rule("compartment", _attr, _flag(_attr))
register_pattern("compartment", r"(?P<system>[a-z_]+)_disabled", _system_disabled)
register_pattern("compartment", r"surfaces\.(?P<surface_type>[a-z_]+)\.capacity_left", _capacity_left)
register_pattern("compartment", r"surfaces\.(?P<surface_type>[a-z_]+)\.destroyed", _destroyed)
