"""Forms: a booby trap, a GM weapon chart (row by row), a turn's pursuit check."""

from __future__ import annotations

import re

from django import forms

from referee.campaigns.forms import InputLimitsMixin
from referee.campaigns.models import Campaign
from referee.fleet.forms import CampaignScopedForm
from referee.fleet.models import Ship, Unit
from rules.tables import booby_trap as tables

from .models import ROLLS, BoobyTrap, WeaponChart, WeaponType, capacities_problem, chart_problem

RACK_LINE = re.compile(r"\s*(?P<loaded>\d+)\s*/\s*(?P<capacity>\d+)\s*(?P<weapon>.*?)\s*")


class WeaponListField(forms.CharField):
    """Weapon names, one per line; an empty box means "not filled yet"."""

    widget = forms.Textarea(attrs={"rows": 2})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(value)
        return "" if value is None else value

    def to_python(self, value):
        lines = [line.strip() for line in (value or "").splitlines()]
        lines = [line for line in lines if line]
        return lines or None


class DroneRackField(forms.CharField):
    """Drone racks, one per line as ``loaded/capacity name`` (e.g. ``4/4 Drone rack A``)."""

    widget = forms.Textarea(attrs={"rows": 2})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(
                f"{r.get('loaded')}/{r.get('capacity')} {r.get('weapon', '')}".rstrip() for r in value
            )
        return "" if value is None else value

    def to_python(self, value):
        racks = []
        for n, line in enumerate((value or "").splitlines(), start=1):
            if not line.strip():
                continue
            m = RACK_LINE.fullmatch(line)
            if not m:
                raise forms.ValidationError(
                    f"Line {n}: write a rack as loaded/capacity and an optional name, e.g. 4/4 Drone rack A."
                )
            rack = {"capacity": int(m["capacity"]), "loaded": int(m["loaded"])}
            if m["weapon"]:
                rack = {"weapon": m["weapon"], **rack}
            racks.append(rack)
        return racks


class BoobyTrapForm(CampaignScopedForm):
    weapons_torp = WeaponListField(
        label="Torpedo-hit weapons", required=False, help_text="One per line; empty = not filled yet."
    )
    weapons_drone = WeaponListField(label="Drone-hit weapons", required=False)
    weapons_phaser = WeaponListField(label="Phaser-hit weapons", required=False)
    drone_racks = DroneRackField(
        required=False,
        help_text="One per line as loaded/capacity name, e.g. 4/4 Drone rack A. Each regains 1 space "
        "per End Phase (IR107.342).",
    )

    class Meta:
        model = BoobyTrap
        fields = [
            "name",
            "star_system",
            "position",
            "heading",
            "torp_chart",
            "drone_chart",
            "phaser_chart",
            "speed",
            "spaces_torp",
            "spaces_drone",
            "spaces_phaser",
            "weapons_torp",
            "weapons_drone",
            "weapons_phaser",
            "drone_racks",
            "course",
            "target",
            "target_kind",
            "terrain_priority",
            "terrain_cooldown_until",
            "shared",
            "notes",
        ]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}
        help_texts = {"speed": "Empty until generated: add the trap, then Roll… → Generate."}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        for t in WeaponType:
            field = self.fields[f"{t.value}_chart"]
            field.queryset = field.queryset.filter(weapon_type=t.value)
            if self.instance.pk is None and not self.is_bound:
                only = list(field.queryset[:2])
                if len(only) == 1:  # the campaign's one chart of this type is the obvious choice
                    self.initial.setdefault(f"{t.value}_chart", only[0].pk)
        self.fields["speed"].widget.attrs.update(min=tables.MIN_SPEED, max=tables.MAX_SPEED)
        for t in WeaponType:
            self.fields[f"spaces_{t.value}"].widget.attrs.update(min=0, max=6)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = BoobyTrap.objects.in_campaign(self.instance.campaign).filter(name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a booby trap of that name.")
        return name

    def clean(self):
        data = super().clean()
        speed = data.get("speed")
        # The band follows the speed (IR107.31 works back from speed to year) [A58].
        self.instance.year_band = tables.YEAR_BAND.get(speed, "") if speed else ""
        return data


class WeaponChartForm(InputLimitsMixin, forms.ModelForm):
    """A 2D6 chart edited row by row; the whole chart is checked against IR107.32."""

    template_name = "boobytraps/chart_fields.html"  # the rows as a table

    class Meta:
        model = WeaponChart
        fields = ["name", "weapon_type", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign
        entries = self.instance.entries or {}
        capacities = self.instance.rack_capacities or {}
        for roll in ROLLS:
            entry = entries.get(roll, {})
            self.fields[f"weapon_{roll}"] = forms.CharField(
                label=f"{roll}: weapon", max_length=80, initial=entry.get("weapon", "")
            )
            self.fields[f"weapon_{roll}"].widget.attrs["aria-label"] = f"{roll}: weapon"
            self.fields[f"spaces_{roll}"] = forms.IntegerField(
                label=f"{roll}: spaces", min_value=1, max_value=6, initial=entry.get("spaces")
            )
            self.fields[f"spaces_{roll}"].widget.attrs["aria-label"] = f"{roll}: spaces"
            self.fields[f"weight_{roll}"] = forms.FloatField(
                label=f"{roll}: weight",
                min_value=0,
                required=False,
                initial=entry.get("weight") if entry.get("weight") != entry.get("spaces") else None,
                help_text="Empty: the spaces.",
            )
            self.fields[f"weight_{roll}"].widget.attrs["aria-label"] = f"{roll}: weight"
            self.fields[f"capacity_{roll}"] = forms.IntegerField(
                label=f"{roll}: rack capacity",
                min_value=1,
                required=False,
                initial=capacities.get(roll),
                help_text="Drone-hit racks: drone spaces held.",
            )
            self.fields[f"capacity_{roll}"].widget.attrs["aria-label"] = f"{roll}: rack capacity"

    def rows(self) -> list[dict]:
        return [
            {
                "roll": roll,
                "weapon": self[f"weapon_{roll}"],
                "spaces": self[f"spaces_{roll}"],
                "weight": self[f"weight_{roll}"],
                "capacity": self[f"capacity_{roll}"],
            }
            for roll in ROLLS
        ]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = WeaponChart.objects.in_campaign(self.instance.campaign).filter(name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a weapon chart of that name.")
        return name

    def clean(self):
        data = super().clean()
        if any(f"{field}_{roll}" in self.errors for roll in ROLLS for field in ("weapon", "spaces")):
            return data  # the rows say what is missing; the chart as a whole is checked once complete
        entries, capacities = {}, {}
        for roll in ROLLS:
            spaces = data[f"spaces_{roll}"]
            weight = data.get(f"weight_{roll}")
            entries[roll] = {
                "weapon": data[f"weapon_{roll}"].strip(),
                "spaces": spaces,
                "weight": spaces if weight is None else (int(weight) if weight.is_integer() else weight),
            }
            if data.get(f"capacity_{roll}") is not None:
                capacities[roll] = data[f"capacity_{roll}"]
        problem = chart_problem(entries)
        if problem:
            raise forms.ValidationError(f"This chart cannot be used: {problem}.", code="unusable_chart")
        problem = capacities_problem(capacities, data.get("weapon_type", ""))
        if problem:
            raise forms.ValidationError(problem, code="bad_capacity")
        self.instance.entries = entries
        self.instance.rack_capacities = capacities
        return data

    def _post_clean(self):
        # The model re-checks the same chart; when the rows are already refused, it would only
        # repeat the complaint about the stored (old or empty) chart.
        if not self._errors:
            super()._post_clean()


# --- Pursuit (IR107.22, IR107.23) ------------------------------------------------------------

TERRAIN_TYPES = [
    ("warp_point", "Warp point"),
    ("gravity_portal", "Gravity portal"),
    ("wormhole", "Wormhole"),
    ("space_rift", "Space rift"),
    ("other_inter_sector", "Other inter-sector terrain"),
]
TERRAIN_ROWS = 3


def _rational(text: str):
    """A move cost as the engine takes it: 1, 0.5 or "1/2"."""
    text = text.strip()
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


class PursuitForm(InputLimitsMixin, forms.Form):
    """The turn's pursuit check for one trap: which campaign ships and units it detects
    (with range, size class, movement cost and speed), and inter-sector terrain nearby."""

    passes_through = forms.BooleanField(
        required=False, label="It passes through inter-sector terrain this turn (500-turn lockout)"
    )
    dice = forms.CharField(
        required=False,
        label="Tie die rolled at the table",
        help_text="Only when units stay tied on range, size, movement cost and speed; empty: the server rolls.",
    )

    def __init__(self, *args, campaign: Campaign, trap: BoobyTrap, last_units: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.trap = trap
        last_units = last_units or {}
        self.candidates = []
        ships = Ship.objects.in_campaign(campaign).select_related("star_system")
        units = Unit.objects.in_campaign(campaign)
        here = trap.star_system_id
        ordered = sorted(ships, key=lambda s: (s.star_system_id != here or here is None, s.name))
        for obj, kind in [*((s, "ship") for s in ordered), *((u, "unit") for u in units)]:
            key = str(obj.code)
            last = last_units.get(obj.name, {})
            speed = last.get("speed", getattr(obj, "velocity", None) if kind == "ship" else None)
            self.fields[f"detected_{key}"] = forms.BooleanField(
                required=False, initial=bool(last), label=f"{obj.name} detected"
            )
            self.fields[f"range_{key}"] = forms.IntegerField(
                required=False, min_value=0, initial=last.get("range_hexes"), label="range (hexes)"
            )
            self.fields[f"size_{key}"] = forms.IntegerField(
                required=False, min_value=1, max_value=7, initial=last.get("size_class"), label="size class"
            )
            self.fields[f"cost_{key}"] = forms.CharField(
                required=False, initial=last.get("move_cost", ""), label="movement cost", max_length=16
            )
            self.fields[f"speed_{key}"] = forms.IntegerField(
                required=False, min_value=0, initial=speed, label="speed"
            )
            self.candidates.append({"key": key, "object": obj, "kind": kind})
        for i in range(TERRAIN_ROWS):
            self.fields[f"terrain_name_{i}"] = forms.CharField(required=False, max_length=80, label="name")
            self.fields[f"terrain_type_{i}"] = forms.ChoiceField(
                choices=TERRAIN_TYPES, required=False, label="type"
            )
            self.fields[f"terrain_range_{i}"] = forms.IntegerField(
                required=False, min_value=0, label="range (hexes)"
            )

    def unit_rows(self) -> list[dict]:
        return [
            {
                **c,
                "detected": self[f"detected_{c['key']}"],
                "range": self[f"range_{c['key']}"],
                "size": self[f"size_{c['key']}"],
                "cost": self[f"cost_{c['key']}"],
                "speed": self[f"speed_{c['key']}"],
            }
            for c in self.candidates
        ]

    def terrain_rows(self) -> list[dict]:
        return [
            {
                "name": self[f"terrain_name_{i}"],
                "type": self[f"terrain_type_{i}"],
                "range": self[f"terrain_range_{i}"],
            }
            for i in range(TERRAIN_ROWS)
        ]

    def clean(self):
        data = super().clean()
        units, names = [], set()
        for c in self.candidates:
            key = c["key"]
            if not data.get(f"detected_{key}"):
                continue
            missing = [
                label
                for field, label in (
                    ("range", "range"),
                    ("size", "size class"),
                    ("cost", "movement cost"),
                    ("speed", "speed"),
                )
                if data.get(f"{field}_{key}") in (None, "")
            ]
            if missing:
                self.add_error(
                    f"range_{key}", f"{c['object'].name} is detected: give its {', '.join(missing)}."
                )
                continue
            name = c["object"].name
            if name in names:  # ids must be unique; a ship and a unit may share a name
                name = f"{name} ({c['kind']})"
            names.add(name)
            units.append(
                {
                    "id": name,
                    "range_hexes": data[f"range_{key}"],
                    "size_class": data[f"size_{key}"],
                    "move_cost": _rational(data[f"cost_{key}"]),
                    "speed": data[f"speed_{key}"],
                }
            )
        terrain = []
        for i in range(TERRAIN_ROWS):
            name = (data.get(f"terrain_name_{i}") or "").strip()
            distance = data.get(f"terrain_range_{i}")
            if not name and distance is None:
                continue
            if not name or distance is None:
                self.add_error(f"terrain_name_{i}", "Give the terrain both a name and a range.")
                continue
            terrain.append(
                {"id": name, "type": data.get(f"terrain_type_{i}") or "warp_point", "range_hexes": distance}
            )
        data["units"], data["terrain"] = units, terrain
        return data
