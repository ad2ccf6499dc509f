from __future__ import annotations

from referee.fleet.forms import CampaignScopedForm

from .models import Telemissile


class TelemissileForm(CampaignScopedForm):
    class Meta:
        model = Telemissile
        fields = ["name", "missile_type", "operator", "fuel", "fire_factor", "armor_boxes_lost", "shared"]
