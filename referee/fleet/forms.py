"""Forms for what a campaign keeps; foreign keys only offer the campaign's own rows."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee.campaigns.forms import InputLimitsMixin
from referee.campaigns.models import Campaign, Role

from .models import FACINGS, Character, Marker, Ship, StarSystem, Unit


class CampaignScopedForm(InputLimitsMixin, forms.ModelForm):
    """Binds the instance to a campaign and scopes every related choice to it."""

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign
        # One filter() so both conditions hold for the same membership: a player of this
        # campaign, offered once, never someone who is a player only somewhere else.
        players = (
            get_user_model()
            .objects.filter(memberships__campaign=campaign, memberships__role=Role.PLAYER)
            .order_by("username")
        )
        for name, field in self.fields.items():
            if not isinstance(field, forms.ModelChoiceField):
                continue
            model = field.queryset.model
            if model is get_user_model():
                field.queryset = players
            elif name == "docked_on":
                field.queryset = Ship.objects.in_campaign(campaign).exclude(pk=self.instance.pk)
            else:
                field.queryset = model.objects.in_campaign(campaign)


class StarSystemForm(CampaignScopedForm):
    class Meta:
        model = StarSystem
        fields = ["name", "spectral_class", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = StarSystem.objects.in_campaign(self.instance.campaign).filter(name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a star system of that name.")
        return name


ARMOR_FIELDS = [n for f in FACINGS for n in (f"armor_{f}", f"armor_{f}_max")]


class ShipForm(CampaignScopedForm):
    class Meta:
        model = Ship
        fields = [
            "name",
            "class_name",
            "kind",
            "military",
            "mass_t",
            "crew",
            "passengers",
            "star_system",
            "position",
            "x_au",
            "y_au",
            "kf_integrity",
            "kf_integrity_max",
            "drive_charged",
            "charged_from_reactor",
            "lf_battery",
            "lf_battery_charged",
            "helium_tank_boxes",
            "helium_tank_boxes_max",
            "last_jump_at",
            "dropship_capacity",
            "docked_on",
            *ARMOR_FIELDS,
            "radar_crit_boxes",
            "heat_sinks",
            "fighters",
            "heat",
            "overburn",
            "shutdown",
            "velocity",
            "heading",
            "fuel_points",
            "shared",
            "owner",
        ]
        widgets = {"last_jump_at": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})}


class UnitForm(CampaignScopedForm):
    class Meta:
        model = Unit
        fields = [
            "name",
            "kind",
            "tonnage",
            "armor_factor",
            "jump_mp",
            "piloting",
            "gunnery",
            "engine_type",
            "engine_hits",
            "heat",
            "fuel_points",
            "landed_on",
            "landed_location",
            "shared",
            "owner",
        ]


class CharacterForm(CampaignScopedForm):
    class Meta:
        model = Character
        fields = [
            "name",
            "role",
            "bld",
            "ref",
            "piloting",
            "gunnery",
            "navigation",
            "leadership",
            "g_suit",
            "unconscious_until",
            "ship",
            "unit",
        ]
        widgets = {"unconscious_until": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})}


class MarkerForm(CampaignScopedForm):
    class Meta:
        model = Marker
        fields = [
            "name",
            "kind",
            "star_system",
            "position",
            "ship",
            "active",
            "laid_turn",
            "calibrated_at",
            "next_check_at",
            "shared",
        ]
        widgets = {
            "calibrated_at": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
            "next_check_at": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
        }


@dataclass(frozen=True)
class Kind:
    """One kind of thing a GM keeps, as the dashboard offers it; each family declares its
    own (``Family.kinds``), the fleet's are in ``referee/play/bindings/fleet.py``."""

    slug: str
    model: type
    form: type[CampaignScopedForm]
    singular: str
    plural: str
    panel_template: str = ""  # where its list panel lives (default: the dashboard's "<slug>-panel")

    @property
    def panel(self) -> str:
        return self.panel_template or f"campaigns/dashboard.html#{self.slug}-panel"

    def card(self, campaign: Campaign, form: forms.BaseForm, obj=None) -> dict:
        """The form card (``forms/card.html``) that creates one, or edits ``obj``."""
        code = campaign.code
        if obj is None:
            title, action = f"New {self.singular}", reverse("campaigns:object-create", args=[code, self.slug])
        else:
            title = f"Edit {obj}"
            action = reverse("campaigns:object-edit", args=[code, self.slug, obj.code])
        back = reverse("campaigns:detail", args=[code])
        return {
            "campaign": campaign,
            "form": form,
            "title": title,
            "action": action,
            "target": f"#{self.slug}-panel",
            "back": back,
            "crumbs": [(campaign.name, back)],
        }
