"""Maps as a part of the house: a dashboard panel leading to each system's and battlefield's map.
Maps resolve no procedure of their own; the distances they measure reach the procedures
through the sensor bindings (``Ship.distance_au``)."""

from __future__ import annotations

from referee.campaigns.models import Campaign
from referee.play.families import Family, Panel

PANEL = "maps/panel.html#maps-panel"


def panel_context(campaign: Campaign) -> dict:
    # No query of its own: the dashboard has read the star systems already.
    return {}


FAMILY = Family(
    name="maps",
    title="Maps",
    panels=(Panel("maps", PANEL, panel_context, order=5),),
)
