"""Reads of logistics: the supplies, refits and recruits panels, and the End Phase's
ships whose food is due and units with engine hits nobody has rolled for."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Q
from django.urls import reverse

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import EngineType, Ship, Unit
from referee.play import families
from rules.tables.characters import TEMPLATES

from .bindings import SHIP_PROCEDURES, UNIT_PROCEDURES
from .forms import RecruitForm
from .models import CharacterSheet, ShipStores, UnitRefit

PANEL = "logistics/panel.html"


def _actions(campaign: Campaign, obj, role: str, procedure_ids) -> list[tuple[str, str]]:
    """Links to the procedures this record's ship or unit can start, pre-filled from it."""
    links = []
    for binding in families.bindings_for(obj):
        if binding.procedure_id in procedure_ids:
            url = reverse("play:procedure", args=[campaign.code, binding.procedure_id])
            links.append((binding.label, f"{url}?{role}={obj.code}"))
    return links


def supplies_context(campaign: Campaign) -> dict:
    # One read of the ships with their stores: the stocked ones' stores, the others' names.
    ships = Ship.objects.in_campaign(campaign).select_related("stores").defer("sheet").order_by("name", "pk")
    stores, without = [], []
    for ship in ships:
        store = getattr(ship, "stores", None)
        if store is None:
            without.append(ship)
            continue
        store.ship = ship
        stores.append(store)
    for s in stores:
        # The engine's own daily figure (no dice), so the panel and the rolls agree.
        s.per_day_t = rules.resolve(
            "cargo.food",
            {"crew": s.ship.crew, "passengers": s.ship.passengers, "days": 1, "mode": s.food_mode},
        ).result["tons_per_day"]
        s.days_left = s.food_t / s.per_day_t if s.per_day_t else None
        s.actions = _actions(campaign, s.ship, "ship", SHIP_PROCEDURES)
    return {"stores": stores, "ships_without": without}


def refits_context(campaign: Campaign) -> dict:
    # One read: the refitted units with their refits, and the ICE units with none yet,
    # which still take explosion checks (listed too).
    units = (
        Unit.objects.in_campaign(campaign)
        .filter(Q(refit__isnull=False) | Q(engine_type=EngineType.ICE))
        .select_related("refit")
        .defer("sheet")
        .order_by("name", "pk")
    )
    refits, others = [], []
    for unit in units:
        refit = getattr(unit, "refit", None)
        if refit is None:
            others.append((unit, _actions(campaign, unit, "unit", UNIT_PROCEDURES)))
            continue
        refit.unit = unit
        refit.actions = _actions(campaign, unit, "unit", UNIT_PROCEDURES)
        refit.in_workshop = (
            refit.conversion_ready_at is not None and refit.conversion_ready_at > campaign.clock
        )
        refits.append(refit)
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
    return {"sheets": sheets, "form": RecruitForm(campaign=campaign)}


def ships_due_to_eat(campaign: Campaign):
    """Ships whose food is counted automatically, with a whole day or more since it was."""
    due = (
        Ship.objects.in_campaign(campaign)
        .filter(stores__auto_food=True, stores__food_accounted_to__lte=campaign.clock - timedelta(days=1))
        .filter(Q(crew__gt=0) | Q(passengers__gt=0))
        .select_related("stores")
    )
    return due.order_by("name", "stores__pk")


def unchecked_engine_hits(campaign: Campaign):
    """Each ICE unit once for every engine hit it took and nobody has rolled for, in order,
    until one destroys it (read again after each roll: the roll changes what is left)."""
    units = (
        Unit.objects.in_campaign(campaign)
        .filter(engine_type=EngineType.ICE, engine_hits__gt=0)
        .filter(
            Q(refit__isnull=True) | Q(refit__destroyed=False, engine_hits__gt=F("refit__engine_hits_checked"))
        )
        .order_by("name", "pk")
    )
    for unit in units:
        while True:
            unit.refresh_from_db()
            refit = UnitRefit.objects.filter(unit=unit).first()
            checked = refit.engine_hits_checked if refit is not None else 0
            if (refit is not None and refit.destroyed) or unit.engine_hits <= checked:
                break
            yield unit


PLAYER_TEMPLATE = "logistics/player_panel.html#shared-stores"


def player_panel_context(campaign: Campaign) -> list[ShipStores]:
    """The stores of shared ships: food, spare parts and fuel as the crew counts them."""
    return list(ShipStores.objects.in_campaign(campaign).visible_to("player").select_related("ship"))
