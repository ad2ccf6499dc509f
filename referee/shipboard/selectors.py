"""Reads of shipboard combat: the dashboard panel and the End Phase's open breaches and leaks."""

from __future__ import annotations

from .models import Compartment

PANEL = "shipboard/panel.html#compartments-panel"


def compartments(campaign) -> list[Compartment]:
    compartments = Compartment.objects.in_campaign(campaign).prefetch_related("surfaces")
    return list(compartments)  # each row's Roll… menu is read when it opens


def open_breaches(campaign):
    """Every breach still open (bulkheads close at 50,000 Pa)."""
    found = Compartment.objects.in_campaign(campaign).filter(breach_points__gt=0, pressure_pa__gt=0)
    return found.order_by("ship__name", "name")


def leaking_fuel_lines(campaign):
    found = Compartment.objects.in_campaign(campaign).filter(fuel_line_crits__gt=0)
    return found.order_by("ship__name", "name")


PLAYER_TEMPLATE = "shipboard/player_panel.html#shared-compartments"


def player_panel_context(campaign) -> list[Compartment]:
    """The compartments of shared ships, with their surfaces: what the crew aboard sees."""
    found = Compartment.objects.in_campaign(campaign).visible_to("player")
    return list(found.prefetch_related("surfaces"))
