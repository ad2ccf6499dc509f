"""Reads of booby traps: the dashboard panel."""

from __future__ import annotations

from .models import BoobyTrap, WeaponChart

PANEL_TEMPLATE = "boobytraps/panel.html#boobytraps-panel"


def panel_context(campaign) -> dict:
    traps = BoobyTrap.objects.in_campaign(campaign).select_related(
        "star_system", "torp_chart", "drone_chart", "phaser_chart"
    )
    return {
        "traps": list(traps),  # each row's Roll… menu is read when it opens
        "charts": WeaponChart.objects.in_campaign(campaign).order_by("weapon_type", "name"),
    }


def traps_to_reload(campaign) -> list[BoobyTrap]:
    """Every trap with a drone rack short of full (it regains 1 space per rack, IR107.342)."""
    traps = BoobyTrap.objects.in_campaign(campaign).exclude(drone_racks=[]).order_by("name", "id")
    return [trap for trap in traps if _needs_reload(trap)]


def _needs_reload(trap: BoobyTrap) -> bool:
    return any(rack["loaded"] < rack["capacity"] for rack in trap.drone_racks)


PLAYER_TEMPLATE = "boobytraps/player_panel.html#shared-traps"


def player_panel_context(campaign) -> list[BoobyTrap]:
    """The booby traps the GM shared: where they are and how they move, nothing of their weapons."""
    return list(BoobyTrap.objects.in_campaign(campaign).visible_to("player").select_related("star_system"))
