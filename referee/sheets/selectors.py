"""Reads of the sheets: the dashboard's designs panel."""

from __future__ import annotations

from .models import Design

PANEL = "sheets/panel.html#designs-panel"


def designs_context(campaign) -> list[Design]:
    return list(
        Design.objects.in_campaign(campaign).only("code", "name", "unit_type", "document", "campaign")
    )
