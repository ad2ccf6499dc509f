from django import forms

from .models import Campaign


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s"]


class CampaignSettingsForm(forms.ModelForm):
    """What the GM sets by hand; turn and phase move only through the turn controls."""

    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s", "clock"]
        widgets = {"clock": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})}
