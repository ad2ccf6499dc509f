from django import forms

from .models import Campaign, Phase


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s"]


class CampaignSettingsForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s", "clock", "turn", "phase"]
        widgets = {"clock": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})}

    phase = forms.ChoiceField(choices=Phase.choices)
