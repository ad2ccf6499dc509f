"""The maps' forms: where a ship goes, a pirate point, where a unit stands."""

from __future__ import annotations

import math
import uuid

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from referee.campaigns.forms import InputLimitsMixin
from referee.fleet.forms import CampaignScopedForm
from referee.fleet.models import MAP_LIMIT_AU, STAR_MAP_LIMIT_LY, Ship, StarSystem, Unit
from referee.terrain.models import Battlefield, Facing, hex_number
from rules.tables import drive as drive_tables

from .geometry import plain_au
from .models import PiratePoint
from .voyage import MAX_JUMPS


class PlainSelect(forms.Select):
    """A select written out in Python: a system of hundreds of ships is hundreds of options,
    which the template-rendered widget takes most of a second to write."""

    def render(self, name, value, attrs=None, renderer=None):
        attrs = self.build_attrs(self.attrs, attrs)
        chosen = "" if value is None else str(value)
        options = (
            format_html(
                '<option value="{}"{}>{}</option>',
                "" if v is None else str(v),
                mark_safe(" selected") if ("" if v is None else str(v)) == chosen else "",
                label,
            )
            for v, label in self.choices
        )
        return format_html(
            '<select name="{}"{}>{}</select>', name, flatatt(attrs), mark_safe("".join(options))
        )


def _coordinate(label: str, required: bool = False, help_text: str = "") -> forms.FloatField:
    # Django's FloatField refuses NaN and infinity; the bounds keep every figure plain.
    return forms.FloatField(
        label=label,
        required=required,
        min_value=-MAP_LIMIT_AU,
        max_value=MAP_LIMIT_AU,
        help_text=help_text,
    )


class MoveForm(InputLimitsMixin, forms.Form):
    """A ship's new place: AU coordinates, or a jump point (or pirate point) and an offset
    from it in AU (outward, away from the star; negative: towards the star)."""

    ship = forms.ModelChoiceField(
        queryset=Ship.objects.none(), to_field_name="code", label="Ship", widget=PlainSelect
    )
    anchor = forms.ChoiceField(label="Place", initial="xy")
    x_au = _coordinate("x (AU)")
    y_au = _coordinate("y (AU)")
    offset_au = _coordinate(
        "Offset (AU)", help_text="From the jump point: + away from the star, − towards it."
    )

    def __init__(self, *args, campaign, system: StarSystem, pirates: list[PiratePoint], **kwargs):
        super().__init__(*args, **kwargs)
        self.system, self.pirates = system, {str(p.code): p for p in pirates}
        self.fields["ship"].queryset = Ship.objects.in_campaign(campaign).filter(docked_on__isnull=True)
        choices = [("xy", "At the coordinates below")]
        if system.jump_point_au:
            choices += [("zenith", "At the zenith jump point"), ("nadir", "At the nadir jump point")]
        choices += [(f"pirate-{code}", f"At {p.name} (pirate point)") for code, p in self.pirates.items()]
        self.fields["anchor"].choices = choices

    def clean(self):
        data = super().clean()
        anchor = data.get("anchor")
        if anchor is None:
            return data
        if anchor == "xy":
            for axis in ("x_au", "y_au"):
                if data.get(axis) is None and axis not in self.errors:
                    self.add_error(axis, "Give both coordinates, in AU.")
            if not self.errors:
                data["position"] = f"x {plain_au(data['x_au'])}, y {plain_au(data['y_au'])} AU"
            return data
        offset = data.get("offset_au") or 0.0
        if anchor in ("zenith", "nadir"):
            jp = self.system.jump_point_au
            x, y = 0.0, (jp + offset) * (1 if anchor == "zenith" else -1)
            name = f"{anchor} jump point"
        else:
            point = self.pirates[anchor.removeprefix("pirate-")]
            x, y, name = point.x_au, point.y_au, point.name
            r = math.hypot(x, y)
            ux, uy = (x / r, y / r) if r else (0.0, 1.0)
            x, y = x + ux * offset, y + uy * offset
        if not (abs(x) <= MAP_LIMIT_AU and abs(y) <= MAP_LIMIT_AU):
            self.add_error("offset_au", f"That is more than {MAP_LIMIT_AU:,} AU from the star.")
            return data
        data["x_au"], data["y_au"] = x, y
        if anchor.startswith("pirate-") and not point.shared:
            # The words are the ship's position as players read it (and the log's, which a
            # shared ship's move is for everyone): a point not shared with them is not named.
            data["position"] = f"x {plain_au(x)}, y {plain_au(y)} AU"
        elif offset:
            side = "beyond" if offset > 0 else "short of"
            data["position"] = f"{plain_au(abs(offset))} AU {side} the {name}"
        else:
            data["position"] = name
        return data


class PiratePointForm(CampaignScopedForm):
    x_au = _coordinate("x (AU)", required=True)
    y_au = _coordinate("y (AU)", required=True)

    class Meta:
        model = PiratePoint
        fields = ["name", "x_au", "y_au", "shared", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, system: StarSystem, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.star_system = system

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = PiratePoint.objects.filter(star_system=self.instance.star_system, name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This system already has a pirate point of that name.")
        return name


class PlaceUnitForm(InputLimitsMixin, forms.Form):
    unit = forms.ModelChoiceField(queryset=Unit.objects.none(), to_field_name="code", label="Unit")
    hex = forms.CharField(label="Hex", max_length=4, help_text="Four digits, column then row, e.g. 0412.")
    facing = forms.ChoiceField(label="Facing", choices=Facing.choices, initial=Facing.N)

    def __init__(self, *args, campaign, battlefield: Battlefield, **kwargs):
        super().__init__(*args, **kwargs)
        self.battlefield = battlefield
        self.fields["unit"].queryset = Unit.objects.in_campaign(campaign)

    def clean_hex(self) -> str:
        label = self.cleaned_data["hex"].strip()
        place = hex_number(label)
        if place is None:
            raise forms.ValidationError("Give the hex number as on the map sheet: four digits, e.g. 0412.")
        if place[0] > self.battlefield.columns or place[1] > self.battlefield.rows:
            raise forms.ValidationError(
                f"This map is {self.battlefield.columns} hexes across and {self.battlefield.rows} down."
            )
        return label


def _light_years(label: str) -> forms.FloatField:
    # FloatField refuses NaN and infinity; the bounds keep the map's figures plain.
    return forms.FloatField(
        label=label, required=True, min_value=-STAR_MAP_LIMIT_LY, max_value=STAR_MAP_LIMIT_LY
    )


class StarPlaceForm(CampaignScopedForm):
    """Where a star system lies on the interstellar map, whether it is explored and whether
    the players see it: saved as a record edit, logged and undoable."""

    x_ly = _light_years("x (light-years)")
    y_ly = _light_years("y (light-years)")

    class Meta:
        model = StarSystem
        fields = ["x_ly", "y_ly", "explored", "shared"]
        labels = {"explored": "Explored", "shared": "Players see it"}


CHARGE_METHODS = {"reactor": "From the reactor", "sail": "With the jump sail"}


class RouteForm(InputLimitsMixin, forms.Form):
    """A route to plan (read from the page's address): the ship, the systems in order, and
    the hours each charge takes (10.7 Drive Charging: 150 h from the reactor is safe)."""

    ship = forms.ModelChoiceField(
        queryset=Ship.objects.none(), to_field_name="code", label="Ship", widget=PlainSelect
    )
    route = forms.CharField(required=False, max_length=20 * 37, widget=forms.HiddenInput)
    add = forms.ModelChoiceField(
        queryset=StarSystem.objects.none(),
        to_field_name="code",
        required=False,
        label="Next jump to",
        widget=PlainSelect,
    )
    method = forms.ChoiceField(
        label="Charge", choices=list(CHARGE_METHODS.items()), initial="reactor", required=False
    )
    hours = forms.FloatField(
        label="Hours each charge",
        min_value=drive_tables.AUTOMATIC_DAMAGE_BELOW_HOURS,
        max_value=2_000,
        required=False,
        help_text=f"Left empty: {drive_tables.BASE_HOURS} h from the reactor (safe); with a jump sail, "
        "each star system's sail charging time.",
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["ship"].queryset = Ship.objects.in_campaign(campaign).filter(
            kind__in=("jumpship", "warship")
        )
        self.fields["add"].queryset = StarSystem.objects.in_campaign(campaign).filter(
            x_ly__isnull=False, y_ly__isnull=False
        )

    def clean_route(self) -> list[StarSystem]:
        text = self.cleaned_data["route"].strip()
        codes = [c for c in text.split(",") if c.strip()] if text else []
        if len(codes) > MAX_JUMPS:
            raise forms.ValidationError(f"Plan at most {MAX_JUMPS} jumps at a time.")
        try:
            wanted = [uuid.UUID(c.strip()) for c in codes]
        except ValueError:
            raise forms.ValidationError("The route names a system this campaign does not have.") from None
        found = {s.code: s for s in StarSystem.objects.in_campaign(self.campaign).filter(code__in=wanted)}
        if any(code not in found for code in wanted):
            raise forms.ValidationError("The route names a system this campaign does not have.")
        return [found[code] for code in wanted]

    def clean_hours(self) -> float | None:
        """Empty: the reactor's safe hours, or (with a sail) each star system's."""
        hours = self.cleaned_data["hours"]
        if hours is None and self.cleaned_data.get("method") != "sail":
            return float(drive_tables.BASE_HOURS)
        return hours

    def clean_method(self) -> str:
        return self.cleaned_data["method"] or "reactor"

    def clean(self):
        data = super().clean()
        if data.get("add") is not None and "route" in data:
            data["route"] = [*data["route"], data["add"]]
            if len(data["route"]) > MAX_JUMPS:
                self.add_error("add", f"Plan at most {MAX_JUMPS} jumps at a time.")
        return data
