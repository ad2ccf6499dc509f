"""Forms for what a campaign keeps; foreign keys only offer the campaign's own rows."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.urls import reverse

from referee.campaigns.forms import InputLimitsMixin, campaign_times
from referee.campaigns.models import Campaign, Role

from .models import FACING_LABELS, FACINGS, Character, Marker, Ship, ShipKind, StarSystem, Unit


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
        campaign_times(self)


class StarSystemForm(CampaignScopedForm):
    class Meta:
        model = StarSystem
        fields = ["name", "spectral_class", "jump_point_au", "sail_charge_hours", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        clash = StarSystem.objects.in_campaign(self.instance.campaign).filter(name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This campaign already has a star system of that name.")
        return name


ARMOR_FIELDS = [n for f in FACINGS for n in (f"armor_{f}", f"armor_{f}_max")]

# What a ship's form shows, in sections, and which kinds each section applies to: a fighter
# squadron has no K-F drive, a JumpShip no fighters' heat. A field not shown for the ship's
# kind is not on the form at all, so a post cannot change it (it keeps what it held).
_ALL = frozenset(ShipKind.values)
_JUMP = frozenset({ShipKind.JUMPSHIP, ShipKind.WARSHIP})
_MOVING = _ALL - {ShipKind.STATION}
SHIP_SECTIONS: tuple[tuple[str, frozenset, tuple[str, ...]], ...] = (
    ("The ship", _ALL, ("kind", "name", "class_name", "military", "mass_t", "crew")),
    ("", _ALL - {ShipKind.FIGHTER_SQUADRON}, ("passengers",)),
    ("Players", _ALL, ("shared", "owner")),
    ("Where", _ALL, ("star_system", "position", "x_au", "y_au")),
    ("", frozenset({ShipKind.DROPSHIP}), ("docked_on",)),
    ("Under way", _MOVING, ("velocity", "heading", "fuel_points")),
    (
        "K-F drive",
        _JUMP,
        (
            "kf_integrity",
            "kf_integrity_max",
            "drive_charged",
            "charged_from_reactor",
            "lf_battery",
            "lf_battery_charged",
            "helium_tank_boxes",
            "helium_tank_boxes_max",
            "last_jump_at",
        ),
    ),
    ("Docking collars", _JUMP | {ShipKind.STATION}, ("dropship_capacity",)),
    ("Fighters", frozenset({ShipKind.FIGHTER_SQUADRON}), ("fighters", "heat", "overburn", "shutdown")),
    ("Armour and systems", _ALL, (*ARMOR_FIELDS, "heat_sinks")),
    ("", _ALL - {ShipKind.FIGHTER_SQUADRON}, ("radar_crit_boxes",)),
)


def ship_fields(kind: str) -> list[str]:
    """The fields a ship of ``kind`` has on its form (an unknown kind: those every kind has)."""
    return [name for _, kinds, names in SHIP_SECTIONS if kind in kinds or kinds == _ALL for name in names]


# Where a new ship of each kind starts: a JumpShip's drive as the Explorer Corps' Invader has
# it, a WarShip military with a sturdier drive, a squadron of six fighters. The GM edits them.
SHIP_KIND_DEFAULTS: dict[str, dict] = {
    ShipKind.JUMPSHIP: {
        "kf_integrity": 4,
        "kf_integrity_max": 4,
        "helium_tank_boxes": 4,
        "helium_tank_boxes_max": 4,
        "dropship_capacity": 1,
    },
    ShipKind.WARSHIP: {
        "military": True,
        "kf_integrity": 5,
        "kf_integrity_max": 5,
        "helium_tank_boxes": 5,
        "helium_tank_boxes_max": 5,
        "dropship_capacity": 1,
    },
    ShipKind.DROPSHIP: {},
    ShipKind.SMALL_CRAFT: {},
    ShipKind.FIGHTER_SQUADRON: {"military": True, "fighters": 6, "crew": 6},
    ShipKind.STATION: {},
}
NEW_SHIP_KIND = ShipKind.JUMPSHIP

SHARED_CHOICES = [
    (True, "Shared with players: they see its status and its rolls"),
    (False, "GM only: hidden from players until you share it"),
]


class ShipForm(CampaignScopedForm):
    """A ship's form, with the fields its kind has (``SHIP_SECTIONS``) and, for a new ship,
    the kind's starting values. Changing the kind redraws the form (HTMX) for the new kind.

    A new ship is shared with players unless the GM says otherwise: the ships a GM adds are
    mostly the players' own, which they follow on their page, and the choice is in plain
    sight at the top of the form when one must stay secret."""

    template_name = "fleet/ship_form.html"
    shared = forms.TypedChoiceField(
        label="Who sees it",
        choices=SHARED_CHOICES,
        coerce=lambda value: value in (True, "True", "true", "on", "1"),
        widget=forms.RadioSelect,
        initial=True,
        required=False,  # as the checkbox it replaces: nothing posted is "not shared"
        empty_value=False,
    )

    class Meta:
        model = Ship
        fields = [name for _, _, names in SHIP_SECTIONS for name in names]
        labels = {
            **{f"armor_{f}": f"{FACING_LABELS[f]} armour" for f in FACINGS},
            **{f"armor_{f}_max": f"{FACING_LABELS[f]} armour (undamaged)" for f in FACINGS},
            "helium_tank_boxes": "Helium tank boxes",
            "helium_tank_boxes_max": "Helium tank boxes (undamaged)",
            "owner": "Player who commands it",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ship_kind = self._chosen_kind()
        if self.instance.pk is None and not self.is_bound:
            self.initial.update(SHIP_KIND_DEFAULTS.get(self.ship_kind, {}))
            self.initial["kind"] = self.ship_kind
        keep = set(ship_fields(self.ship_kind))
        for name in [n for n in self.fields if n not in keep]:
            del self.fields[name]
        self.fields["kind"].widget.attrs.update(
            {
                "hx-get": self._own_url(),
                # Only a new kind redraws (a select's "change" fires only when its value
                # does), and what is typed while the redraw is on its way is kept
                # (data-form-refresh, static/js/referee.js). No trigger filter: the
                # Content-Security-Policy allows htmx no eval.
                "hx-trigger": "change",
                "data-kind": self.ship_kind,
                "data-form-refresh": "form-slot",
                "hx-include": "closest form",
                "hx-params": "not csrfmiddlewaretoken",
                "hx-target": "#form-slot",
                "hx-swap": "outerHTML",
            }
        )
        self.fields["kind"].help_text = "The form shows what this kind of craft has."

    def _chosen_kind(self) -> str:
        if self.is_bound:
            return self.data.get("kind") or ""
        chosen = self.initial.get("kind") or self.instance.kind or NEW_SHIP_KIND
        return chosen if chosen in ShipKind.values else NEW_SHIP_KIND

    def _own_url(self) -> str:
        code = self.instance.campaign.code
        if self.instance.pk is None:
            return reverse("campaigns:object-create", args=[code, "ships"])
        return reverse("campaigns:object-edit", args=[code, "ships", self.instance.code])

    def _update_errors(self, errors):
        """The model's checks may name a field this kind does not show (a docked ship made a
        small craft): such a message goes to the top of the form, named by its field."""
        if hasattr(errors, "error_dict"):
            moved = {}
            for name, messages in errors.error_dict.items():
                if name != NON_FIELD_ERRORS and name not in self.fields:
                    moved.setdefault(NON_FIELD_ERRORS, []).extend(messages)
                else:
                    moved.setdefault(name, []).extend(messages)
            errors = ValidationError(moved)
        super()._update_errors(errors)

    def sections(self) -> list[tuple[str, list]]:
        """The shown fields under their headings (a heading-less section joins the one before)."""
        found: list[tuple[str, list]] = []
        for heading, _, names in SHIP_SECTIONS:
            bound = [self[name] for name in names if name in self.fields]
            if not bound:
                continue
            if heading or not found:
                found.append((heading, bound))
            else:
                found[-1][1].extend(bound)
        return found


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
    deleted_with: str = ""  # what goes with a record when it is deleted, said before the delete ("its hexes")

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
            "import_url": reverse("imports:import", args=[code])
            if obj is None and self.slug in ("ships", "units")
            else "",
        }
