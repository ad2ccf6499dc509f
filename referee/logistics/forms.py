"""Forms for a ship's stores, a unit's refit and the one-click template characters."""

from __future__ import annotations

from datetime import timedelta

from django import forms

from referee.campaigns.forms import InputLimitsMixin
from referee.fleet.forms import CampaignScopedForm
from referee.fleet.models import Ship, Unit
from referee.forms import Select

from .models import ShipStores, UnitRefit

# How far back the stores may say they were last counted: ten years of the campaign's time
# (further would burn a whole stock in one entry, or take the clock past any date).
COUNTED_BACK_AT_MOST = timedelta(days=3650)


class ShipStoresForm(CampaignScopedForm):
    class Meta:
        model = ShipStores
        fields = [
            "ship",
            "food_t",
            "food_mode",
            "auto_food",
            "food_accounted_to",
            "spare_parts_t",
            "extra_ammo_t",
            "fuel_t",
            "burn_day_fuel_t",
            "fuel_cell_bay_t",
            "cargo_fuel_capacity_t",
            "cargo_fuel_t",
            "auto_fuel",
            "fuel_accounted_to",
        ]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        # One stores record per ship: offer the ships that have none yet (and this one's own).
        ships = Ship.objects.in_campaign(campaign).filter(stores__isnull=True)
        if self.instance.pk:
            ships = ships | Ship.objects.filter(pk=self.instance.ship_id)
        self.fields["ship"].queryset = ships.distinct()
        for name in ("food_t", "spare_parts_t", "extra_ammo_t", "fuel_t", "fuel_cell_bay_t"):
            self.fields[name].min_value = 0
            self.fields[name].widget.attrs["min"] = 0

    def clean(self):
        cleaned = super().clean()
        ship = cleaned.get("ship")
        if ship is not None:
            self.instance.name = ship.name
        clock = self.instance.campaign.clock
        for name in ("food_accounted_to", "fuel_accounted_to"):
            when = cleaned.get(name)
            if when is not None and when > clock:
                self.add_error(name, f"Give a time up to the campaign's clock ({clock:%Y-%m-%d %H:%M}).")
            elif when is not None and when < clock - COUNTED_BACK_AT_MOST:
                self.add_error(name, "Give a time within ten years before the campaign's clock.")
        if cleaned.get("auto_food") and cleaned.get("food_accounted_to") is None:
            # Meals are counted from now on, not from the start of the campaign.
            cleaned["food_accounted_to"] = self.instance.campaign.clock
            self.instance.food_accounted_to = self.instance.campaign.clock
        if cleaned.get("auto_fuel") and cleaned.get("fuel_accounted_to") is None:
            # Station-keeping is counted from now on too.
            cleaned["fuel_accounted_to"] = self.instance.campaign.clock
            self.instance.fuel_accounted_to = self.instance.campaign.clock
        return cleaned


class UnitRefitForm(CampaignScopedForm):
    class Meta:
        model = UnitRefit
        fields = [
            "unit",
            "utility",
            "tech_base",
            "fusion_engine_weight_t",
            "energy_weapon_tons",
            "cargo_bay_t",
            "engine_hits_checked",
            "destroyed",
            "engine_exploded",
            "critical_hits",
            "locations_blown_off",
            "motive",
            "motive_damaged",
            "cruise_mp",
            "amphibious",
            "amphibious_disabled",
            "dune_buggy",
        ]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        units = Unit.objects.in_campaign(campaign).filter(refit__isnull=True)
        if self.instance.pk:
            units = units | Unit.objects.filter(pk=self.instance.unit_id)
        self.fields["unit"].queryset = units.distinct()

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("unit") is not None:
            self.instance.name = cleaned["unit"].name
        return cleaned


class RecruitForm(InputLimitsMixin, forms.Form):
    """The one-click Explorer MechWarrior: a name and a unit are optional."""

    name = forms.CharField(
        max_length=100,
        required=False,
        help_text="Blank: “Explorer MechWarrior”.",
        widget=forms.TextInput(attrs={"placeholder": "Explorer MechWarrior"}),
    )
    unit = forms.ModelChoiceField(
        queryset=Unit.objects.none(),
        to_field_name="code",
        required=False,
        label="Assign to unit",
        empty_label="—",
        widget=Select,  # a campaign's every unit: options written in Python, not a template each
    )

    def __init__(self, *args, campaign, **kwargs):
        kwargs.setdefault("auto_id", "recruit-%s")  # beside the dashboard's other forms
        super().__init__(*args, **kwargs)
        # Only what the choice shows (a unit's record sheet is a long document).
        self.fields["unit"].queryset = Unit.objects.in_campaign(campaign).only("code", "name")
