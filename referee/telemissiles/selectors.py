"""Reads of tele-operated missiles: the dashboard panel."""

from __future__ import annotations

from .models import Telemissile

PANEL = "telemissiles/panel.html#telemissiles-panel"


def missiles_context(campaign) -> list[Telemissile]:
    # Each row's Roll… menu is read when it opens (dashboard.record_views.object_roll).
    return list(Telemissile.objects.in_campaign(campaign).select_related("operator"))
