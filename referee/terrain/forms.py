"""Forms for terrain rows, battlefields and hexes (the dashboard's create/edit views)."""

from __future__ import annotations

from django import forms

from referee.fleet.forms import CampaignScopedForm

from . import catalog
from .models import Battlefield, Hex, TerrainRow
from .modifiers import known_keys, rows_for

CHECKBOXES = forms.CheckboxSelectMultiple


def _choices(keys, rows=None) -> list[tuple[str, str]]:
    return [(k, catalog.terrain_name(k, rows)) for k in keys]


WEATHER_CHOICES = _choices(catalog.ENGINE_WEATHER)


class TerrainRowForm(CampaignScopedForm):
    prohibited = forms.MultipleChoiceField(
        label="Prohibited units",
        required=False,
        widget=CHECKBOXES,
        choices=[(c, c) for c in (*catalog.UNIT_CATEGORIES, "ground")],
        help_text="Ground: wheeled, tracked and hover vehicles.",
    )
    flags = forms.MultipleChoiceField(
        required=False,
        widget=CHECKBOXES,
        choices=list(catalog.FLAG_LABELS.items()),
    )

    class Meta:
        model = TerrainRow
        fields = ["key", "name", "kind", "mp_cost", "to_hit", "psr", "prohibited", "flags", "heat", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["key"].widget.attrs["list"] = "terrain-row-keys"
        self.fields["key"].help_text = (
            "A row the seed leaves to you (heavy_jungle, magma_crust, swamp, rain_heavy... as you type), "
            "or a key of your own."
        )
        self.fields["mp_cost"].help_text += " Leave blank while you have not ruled on it."

    def clean_key(self) -> str:
        key = self.cleaned_data["key"]
        clash = TerrainRow.objects.in_campaign(self.instance.campaign).filter(key=key)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a row with that key: edit it instead.")
        return key


class BattlefieldForm(CampaignScopedForm):
    weather = forms.MultipleChoiceField(required=False, widget=CHECKBOXES, choices=WEATHER_CHOICES)

    class Meta:
        model = Battlefield
        fields = [
            "name",
            "star_system",
            "world",
            "weather",
            "earthquake",
            "ambient_c",
            "weapons_miscalibrated",
            "active",
            "shared",
            "columns",
            "rows",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("columns", "rows"):  # left blank: a map sheet's size
            self.fields[name].required = False

    def clean_columns(self) -> int:
        return self.cleaned_data.get("columns") or Battlefield._meta.get_field("columns").default

    def clean_rows(self) -> int:
        return self.cleaned_data.get("rows") or Battlefield._meta.get_field("rows").default

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = Battlefield.objects.in_campaign(self.instance.campaign).filter(name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a battlefield of that name.")
        return name


class HexForm(CampaignScopedForm):
    terrain = forms.ChoiceField(label="Base terrain")
    conditions = forms.MultipleChoiceField(required=False, widget=CHECKBOXES)
    weather = forms.MultipleChoiceField(
        label="Local weather",
        required=False,
        widget=CHECKBOXES,
        choices=WEATHER_CHOICES,
        help_text="Beyond the battlefield's weather (the hex's wins where they differ in strength).",
    )

    class Meta:
        model = Hex
        fields = [
            "battlefield",
            "name",
            "terrain",
            "level",
            "conditions",
            "weather",
            "geyser",
            "volcanic",
            "eruption_turn_counts",
            "erupting_turns_left",
            "shared",
            "notes",
        ]
        labels = {"name": "Hex"}
        help_texts = {"name": "The hex's label on the map, e.g. 0412."}
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        rows = rows_for(campaign)
        bases, conditions = known_keys(campaign, rows)
        if self.instance.pk and self.instance.terrain not in bases:
            bases.append(self.instance.terrain)  # a row since deleted: keep it visible
        conditions += [c for c in self.instance.conditions if c not in conditions]
        self.fields["terrain"].choices = _choices(bases, rows)
        self.fields["conditions"].choices = _choices(conditions, rows)
        self.fields["level"].required = False  # left blank: level 0

    def clean_level(self) -> int:
        return self.cleaned_data.get("level") or 0

    def clean(self):
        cleaned = super().clean()
        battlefield, name = cleaned.get("battlefield"), cleaned.get("name")
        if battlefield and name:
            clash = Hex.objects.filter(battlefield=battlefield, name__iexact=name).exclude(
                pk=self.instance.pk
            )
            if clash.exists():
                self.add_error("name", f"{battlefield.name} already has a hex {name}.")
        return cleaned
