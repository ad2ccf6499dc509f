"""What a battlefield brought from a MegaMek board keeps beyond what the campaign models."""

from __future__ import annotations

from django.db import models

from referee.fleet.models import CampaignObject
from referee.terrain.models import Battlefield


class MegaMekBoard(CampaignObject):
    """A battlefield made from a MegaMek board: the terrain this campaign does not model,
    kept per hex as MegaMek wrote it (shown by name, written back unchanged), the hexes'
    themes and the board's tags. GM-only, as the GM's own reading of the board."""

    battlefield = models.OneToOneField(Battlefield, on_delete=models.CASCADE, related_name="megamek_board")
    kept = models.JSONField("MegaMek terrain kept", default=dict, blank=True)
    themes = models.JSONField("hex themes", default=dict, blank=True)
    tags = models.JSONField(default=list, blank=True)
    description = models.TextField(blank=True)

    class Meta(CampaignObject.Meta):
        verbose_name = "MegaMek board"
