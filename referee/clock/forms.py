from __future__ import annotations

import math

from django import forms

from referee.fleet.models import MAP_LIMIT_AU, Ship

from .travel import MAX_G


class TransitForm(forms.Form):
    """Where a ship goes on its system's map, and at what thrust."""

    ship = forms.ModelChoiceField(queryset=Ship.objects.none(), to_field_name="code", label="Ship")
    place = forms.ChoiceField(
        label="To", required=False, help_text="A place on the ship's map, or give x and y."
    )
    x_au = forms.FloatField(
        label="or x (AU)", required=False, min_value=-MAP_LIMIT_AU, max_value=MAP_LIMIT_AU
    )
    y_au = forms.FloatField(label="y (AU)", required=False, min_value=-MAP_LIMIT_AU, max_value=MAP_LIMIT_AU)
    thrust_g = forms.FloatField(
        label="Thrust (G)",
        min_value=0.01,
        max_value=MAX_G,
        initial=1.0,
        help_text="Constant thrust, turning over at the midpoint to arrive at rest.",
    )

    def __init__(self, *args, campaign, places: list[dict], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.places = places
        self.fields["ship"].queryset = (
            Ship.objects.in_campaign(campaign).filter(star_system__isnull=False).select_related("star_system")
        )
        self.fields["place"].choices = [("", "— x and y below —")] + [
            (str(n), p["label"]) for n, p in enumerate(places)
        ]

    def clean(self) -> dict:
        data = super().clean()
        chosen = data.get("place")
        if chosen:
            place = self.places[int(chosen)]
            data.update(x_au=place["x"], y_au=place["y"], position=place.get("position", place["label"]))
        elif data.get("x_au") is None or data.get("y_au") is None:
            raise forms.ValidationError("Choose a place on the map, or give both x and y.")
        else:
            data["position"] = ""
        for name in ("x_au", "y_au", "thrust_g"):
            if data.get(name) is not None and not math.isfinite(data[name]):
                self.add_error(name, "Give a finite number.")
        return data
