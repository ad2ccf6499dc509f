"""Reads of tele-operated missiles: the dashboard panel."""

from __future__ import annotations

from referee.play.selectors import with_actions

from .models import Telemissile

PANEL = "telemissiles/panel.html#telemissiles-panel"


def missiles_context(campaign) -> list[Telemissile]:
    return with_actions(campaign, Telemissile.objects.in_campaign(campaign).select_related("operator"))
