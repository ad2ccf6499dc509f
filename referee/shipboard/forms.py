"""Forms for compartments (the dashboard's record forms) and their surfaces."""

from __future__ import annotations

from django import forms

from referee.campaigns.names import free_name
from referee.fleet.forms import CampaignScopedForm
from rules.tables import shipboard as tables

from .models import Compartment, Surface, SurfaceType


class CompartmentForm(CampaignScopedForm):
    class Meta:
        model = Compartment
        fields = [
            "name",
            "ship",
            "pressure_pa",
            "breach_points",
            "bulkheads_closed",
            "fuel_line_crits",
            "fuel_leak_points",
            "visibility_mod",
            "lights_damaged",
            "power_line_disabled",
            "comm_panel_disabled",
            "emergency_equipment_disabled",
            "cable_mechanism_disabled",
            "communications_lines_disabled",
            "notes",
        ]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Fighters have no compartments to fight in.
        self.fields["ship"].queryset = self.fields["ship"].queryset.exclude(kind="fighter_squadron")


class SurfaceForm(CampaignScopedForm):
    """A surface of one compartment; blank capacity and threshold come from the table."""

    class Meta:
        model = Surface
        fields = [
            "name",
            "surface_type",
            "capacity",
            "capacity_left",
            "threshold",
            "armor_rating",
            "surface_kind",
            "pressure_boundary",
        ]

    def __init__(self, *args, compartment: Compartment, **kwargs):
        super().__init__(*args, campaign=compartment.campaign, **kwargs)
        self.instance.compartment = compartment
        for name in ("name", "capacity", "capacity_left", "threshold"):
            self.fields[name].required = False
        self.fields["name"].help_text = "Blank: named after its type (Door 2, ...)."
        self.fields["capacity"].help_text = "Blank: the table's value (required for other objects)."
        self.fields["capacity_left"].help_text = "Blank: undamaged. May be 0 or less (destroyed)."
        self.fields["threshold"].help_text = "Blank: the table's value (required for other objects)."

    def clean(self):
        data = super().clean()
        surface_type = data.get("surface_type")
        row = tables.DAMAGE_CAPACITIES.get(surface_type)
        for field in ("capacity", "threshold"):
            if data.get(field) is None:
                if row is None:
                    if surface_type:
                        self.add_error(field, "Give the GM's value for another object or surface.")
                else:
                    data[field] = getattr(row, field)
        if data.get("capacity") is not None:
            if data.get("capacity_left") is None:
                data["capacity_left"] = data["capacity"] if self.instance.pk is None else None
            if data.get("capacity_left") is None:
                self.add_error("capacity_left", "Give the capacity left (the capacity when undamaged).")
            elif data["capacity_left"] > data["capacity"]:
                self.add_error(
                    "capacity_left", f"Cannot be more than the damage capacity ({data['capacity']})."
                )
        if surface_type == SurfaceType.EXTERNAL_BULKHEAD:
            data["pressure_boundary"] = True
        if not data.get("name") and surface_type:
            data["name"] = next_surface_name(
                self.instance.compartment, surface_type, exclude=self.instance.pk
            )
        return data

    def save(self, commit: bool = True) -> Surface:
        self.instance.apply_table()
        return super().save(commit=commit)


def next_surface_name(compartment: Compartment, surface_type: str, exclude: int | None = None) -> str:
    """``Door``, then ``Door 2``, ``Door 3``...: the first free name for its type."""
    base = SurfaceType(surface_type).label if surface_type != SurfaceType.CUSTOM else "Object"
    taken = Surface.objects.filter(compartment=compartment).exclude(pk=exclude).values_list("name", flat=True)
    return free_name(base, taken)
