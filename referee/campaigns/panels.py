"""Dashboard panels contributed by other apps (booby traps, terrain, shipboard...).

An app registers a :class:`Panel` in its ``AppConfig.ready()``; the GM dashboard
includes each panel's template with ``panel.context(campaign)`` under ``panel.name``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .models import Campaign


@dataclass(frozen=True)
class Panel:
    name: str  # context key; the panel's element id is "<name>-panel"
    template: str  # e.g. "boobytraps/panel.html#boobytraps-panel"
    context: Callable[[Campaign], Any]
    order: int = 100


PANELS: dict[str, Panel] = {}


def register_panel(panel: Panel) -> Panel:
    PANELS[panel.name] = panel
    return panel


def panels_context(campaign: Campaign) -> dict:
    panels = sorted(PANELS.values(), key=lambda p: (p.order, p.name))
    return {"extra_panels": panels, **{p.name: p.context(campaign) for p in panels}}
