"""Registrations of this app with the dashboard, the forms and the effect rules."""

from __future__ import annotations

from django.urls import reverse

import rules
from referee.campaigns.models import Campaign
from referee.campaigns.panels import Panel, register_panel
from referee.fleet.forms import Kind, register_kind
from referee.fleet.models import EngineType, Ship, Unit
from referee.play import bindings
from referee.play.effects import register_rule
from rules.tables.characters import TEMPLATES

from .bindings import SHIP_PROCEDURES, UNIT_PROCEDURES
from .forms import ShipStoresForm, UnitRefitForm
from .models import CharacterSheet, ShipStores, UnitRefit

# -- Effects the fleet's Unit stores itself (the rest are kept by the bindings' ``after``) --

ENGINE_TYPES = {"ice": EngineType.ICE.value, "fusion": EngineType.FUSION.value}


def _engine_type(obj, effect, clock):
    value = effect["value"]
    if not isinstance(obj, Unit) or effect["op"] != "set" or not isinstance(value, str):
        return []
    engine = ENGINE_TYPES.get(value.lower())
    return [("engine_type", engine)] if engine else []


def _jump_mp(obj, effect, clock):
    value = effect["value"]
    if not isinstance(obj, Unit) or effect["op"] != "set":
        return []
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return []
    return [("jump_mp", value)]


register_rule("unit", "engine_type", _engine_type)
register_rule("unit", "jump_mp", _jump_mp)


# -- Dashboard panels ---------------------------------------------------------------


def _actions(campaign: Campaign, obj, role: str, procedure_ids) -> list[tuple[str, str]]:
    """Links to the procedures this record's ship or unit can start, pre-filled from it."""
    links = []
    for binding in bindings.for_object(obj):
        if binding.procedure_id in procedure_ids:
            url = reverse("play:procedure", args=[campaign.code, binding.procedure_id])
            links.append((binding.label, f"{url}?{role}={obj.code}"))
    return links


def supplies_context(campaign: Campaign) -> dict:
    stores = list(ShipStores.objects.in_campaign(campaign).select_related("ship").order_by("ship__name"))
    for s in stores:
        # The engine's own daily figure (no dice), so the panel and the rolls agree.
        s.per_day_t = rules.resolve(
            "cargo.food",
            {"crew": s.ship.crew, "passengers": s.ship.passengers, "days": 1, "mode": s.food_mode},
        ).result["tons_per_day"]
        s.days_left = s.food_t / s.per_day_t if s.per_day_t else None
        s.actions = _actions(campaign, s.ship, "ship", SHIP_PROCEDURES)
    without = Ship.objects.in_campaign(campaign).filter(stores__isnull=True).order_by("name")
    return {"stores": stores, "ships_without": list(without)}


def refits_context(campaign: Campaign) -> dict:
    refits = list(UnitRefit.objects.in_campaign(campaign).select_related("unit").order_by("unit__name"))
    for r in refits:
        r.actions = _actions(campaign, r.unit, "unit", UNIT_PROCEDURES)
        r.in_workshop = r.conversion_ready_at is not None and r.conversion_ready_at > campaign.clock
    # ICE units with no refit yet still take explosion checks: list them too.
    units = Unit.objects.in_campaign(campaign).filter(refit__isnull=True, engine_type=EngineType.ICE)
    others = [(u, _actions(campaign, u, "unit", UNIT_PROCEDURES)) for u in units.order_by("name")]
    return {"refits": refits, "units_without": others}


def recruits_context(campaign: Campaign) -> dict:
    sheets = list(CharacterSheet.objects.in_campaign(campaign).select_related("character", "character__unit"))
    for s in sheets:
        # The database keeps JSON keys in its own order; show them in the printed one.
        printed = TEMPLATES.get(s.template, {})
        for part in ("attributes", "characteristics"):
            values = s.sheet.get(part, {})
            order = [k for k in printed.get(part, {}) if k in values] + sorted(
                set(values) - set(printed.get(part, {}))
            )
            setattr(s, part, [(k, values[k]) for k in order])
    return {"sheets": sheets, "units": list(Unit.objects.in_campaign(campaign))}


register_panel(Panel("supplies", "logistics/panel.html#supplies-panel", supplies_context, order=40))
register_panel(Panel("refits", "logistics/panel.html#refits-panel", refits_context, order=41))
register_panel(Panel("recruits", "logistics/panel.html#recruits-panel", recruits_context, order=42))

register_kind(
    Kind(
        "supplies",
        ShipStores,
        ShipStoresForm,
        "ship's stores",
        "Supplies",
        panel_template="logistics/panel.html#supplies-panel",
    )
)
register_kind(
    Kind(
        "refits",
        UnitRefit,
        UnitRefitForm,
        "unit refit",
        "Low-tech 'Mechs and special vehicles",
        panel_template="logistics/panel.html#refits-panel",
    )
)
