"""Forms of the sheets: a design on the dashboard, a record started from a design."""

from __future__ import annotations

from django import forms

from referee.campaigns.forms import InputLimitsMixin
from referee.fleet.forms import CampaignScopedForm
from referee.fleet.models import Ship, Unit
from referee.play import widgets
from rules import schema

from . import document
from .models import Design


class DesignForm(CampaignScopedForm):
    """A design by hand: its name and type; a new one starts as a blank sheet of that
    type and tonnage, filled in on its sheet page."""

    tonnage = forms.IntegerField(
        min_value=0,
        max_value=10_000_000,
        required=False,
        help_text="A new design: its tonnage ('Mechs 10 to 100 t in steps of 5). The sheet page fills in the rest.",
    )

    class Meta:
        model = Design
        fields = ["name", "unit_type", "notes"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["unit_type"].disabled = True
            self.fields["unit_type"].help_text = "A design keeps its type; start another for a new type."
            del self.fields["tonnage"]
        self.fields["name"].help_text = "e.g. Victor VTR-9K"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = (
            Design.objects.in_campaign(self.instance.campaign).filter(name=name).exclude(pk=self.instance.pk)
        )
        if clash.exists():
            raise forms.ValidationError("The campaign already has a design of that name.")
        return name

    def clean(self):
        cleaned = super().clean()
        if not self.instance.pk and not self.instance.document and cleaned.get("unit_type"):
            try:
                self.instance.document = document.blank(
                    cleaned["unit_type"], tonnage=cleaned.get("tonnage") or 0, chassis=cleaned.get("name", "")
                )
            except document.SheetError as error:
                self.add_error("tonnage", str(error))
        return cleaned


class NamedRecordForm(CampaignScopedForm):
    """The one thing a GM types to start a record from a design: its name."""

    class Meta:
        fields = ["name"]


class UnitFromDesignForm(NamedRecordForm):
    class Meta(NamedRecordForm.Meta):
        model = Unit


class ShipFromDesignForm(NamedRecordForm):
    class Meta(NamedRecordForm.Meta):
        model = Ship


class DesignFromRecordForm(CampaignScopedForm):
    """Saving a record's sheet as a design: its name (the record's model by default)."""

    class Meta:
        model = Design
        fields = ["name", "notes"]

    def clean_name(self) -> str:
        return DesignForm.clean_name(self)


# A sheet's lists as rows of fields (the sheet's own JSON is the unit files' and the
# engine's format, never a box a GM types into): weapons, equipment and bays.
SHEET_LISTS = {
    "weapons": (
        "Weapons",
        'list[object{name: str, location: str = "", rear: bool = false, count: int = 1, bay: str = "", '
        'mount: str = "", destroyed: bool = false}]',
    ),
    "equipment": (
        "Equipment",
        'list[object{name: str, location: str = "", count: int = 1, shots: int|null = null, size: float|null = null, '
        'rear: bool = false, mount: str = "", destroyed: bool = false}]',
    ),
    "bays": ("Bays", "list[object{type: str, capacity: float = 0, doors: int = 0, used: float|null = null}]"),
}


class SheetListsForm(InputLimitsMixin, forms.Form):
    """The weapons, equipment and bays of a sheet, a row each, for what the adjustments above
    do not reach; the sheet as a whole is checked (``document.normalise``) before it is kept."""

    def __init__(self, *args, doc: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.doc = doc
        for name, (label, type_text) in SHEET_LISTS.items():
            if name == "bays" and not doc.get("bays") and doc.get("unit_type") not in document.SHIP_TYPES:
                continue
            spec = schema.Input(name, schema.parse_type(type_text), default=[])
            self.fields[name] = widgets.RowsField(spec, "", label=label, required=False)
            self.initial.setdefault(name, doc.get(name, []))

    def adds_a_row(self) -> bool:
        """Posted by a list's *Add a row*: read (to show again as typed), without errors."""
        return widgets.adds_a_row(self, self.fields)

    def sheet(self) -> dict:
        """The sheet with its lists as typed (optional values left blank left out)."""
        doc = dict(self.doc)
        for name in self.fields:
            doc[name] = [
                {k: v for k, v in row.items() if v is not None and v != ""} for row in self.cleaned_data[name]
            ]
        return doc
