"""The one procedure form, built from the engine's input schema plus the binding's roles."""

from __future__ import annotations

import contextlib
import hashlib
import re
import uuid
from typing import Any

from django import forms

import rules
from referee.campaigns.forms import InputLimitsMixin
from referee.campaigns.models import Campaign
from referee.fleet.models import CampaignObject
from referee.forms import Select

from . import fragments, help_words, widgets, wording
from .bindings import Binding, Missing
from .models import Visibility


def label_for(name: str) -> str:
    """``kf_integrity_max`` -> ``K-F integrity max`` (the wording table first)."""
    return wording.label(name)


def input_field(spec, procedure_id: str = "") -> forms.Field:
    """A form field for one engine input (type, range, default, choices, help): the help and
    the choices' names are the words a GM reads (``help_words``), the contract validates."""
    kind = spec.type.kind
    nullable = spec.type.nullable
    common = {
        "label": wording.plain_text(spec.label) if spec.label else label_for(spec.name),
        "help_text": help_words.help_for(procedure_id, spec),
        "required": spec.required and not nullable and kind != "bool",
    }
    unit = wording.plain_text(spec.unit or "")
    shown = common["label"].lower().replace("(", " ").replace(")", " ").split()
    if unit and unit.lower() not in shown:
        common["label"] = f"{common['label']} ({unit})"
    if kind == "int":
        return forms.IntegerField(min_value=spec.min, max_value=spec.max, **common)
    if kind == "float":
        return forms.FloatField(min_value=spec.min, max_value=spec.max, **common)
    if kind == "bool" and not nullable:
        return forms.BooleanField(**common)
    if kind == "bool":
        return forms.NullBooleanField(widget=forms.NullBooleanSelect, **common)
    if kind == "enum":
        choices = [
            (c, help_words.choice_for(procedure_id, spec.name, c)) for c in spec.type.describe()["choices"]
        ]
        if nullable or not spec.required:
            choices = [("", "—"), *choices]
        return forms.ChoiceField(choices=choices, **common)
    if kind in ("str", "rational"):
        return forms.CharField(**common)
    # Lists, objects and GM tables: checkboxes or rows of fields, never JSON (``widgets``).
    return widgets.structured_field(spec, procedure_id, common)


# Dice typed at the table, at most: more than any procedure rolls (the largest count the
# rules allow is a few hundred), so a pasted flood is refused before it is read.
MAX_ENTERED_DICE = 1_000


def parse_dice(text: str) -> list[int]:
    tokens = [t for t in re.split(r"[\s,;]+", text.strip().strip("[]")) if t]
    if len(tokens) > MAX_ENTERED_DICE:
        raise forms.ValidationError(f"Enter at most {MAX_ENTERED_DICE:,} dice.")
    try:
        if any(len(t) > 3 for t in tokens):  # no die shows more than 100
            raise ValueError
        return [int(t) for t in tokens]
    except ValueError:
        raise forms.ValidationError(
            "Enter the dice as whole numbers separated by spaces or commas, e.g. 6 6 2 3."
        ) from None


def _number(text: str):
    """A rational input typed as a plain number is that number; anything else (``1/3``) is
    left as text for the engine to read or refuse."""
    if len(text) > 40:
        return text
    for parse in (int, float):
        with contextlib.suppress(ValueError):
            return parse(text)
    return text


AS_SHARED = "shared"


def players_of(campaign: Campaign):
    """The campaign's players, for a whisper's audience."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(memberships__campaign=campaign, memberships__role="player")
        .order_by("username")
    )


def kept_record_choices(campaign: Campaign, what: str, field: forms.ModelChoiceField) -> list:
    """A GM's record select's options (code, name), read from the database once per campaign
    version and kept beside the page fragments (``fragments``): a campaign's 200 ships are
    one query and 200 records built, every time a form shows them otherwise. The version
    moves with every change to any record, so a new or renamed one shows at once."""
    key = fragments.key(
        campaign, "gm", None, "record-choices", hashlib.sha256(what.encode()).hexdigest()[:24]
    )
    choices = fragments.get(key)
    if choices is None:
        choices = _record_choices(field)
        fragments.put(key, choices)
    return choices


def _record_choices(field: forms.ModelChoiceField) -> list[tuple[str, str]]:
    """The select's options. Records named by their name alone (``CampaignObject``) are
    read as codes and names, not as whole records (a ship has a hundred fields)."""
    model = field.queryset.model
    named = getattr(model, "__str__", None) is CampaignObject.__str__
    if not named or type(field).label_from_instance is not forms.ModelChoiceField.label_from_instance:
        return [(str(value), str(label)) for value, label in field.choices]
    empty = [("", str(field.empty_label))] if field.empty_label is not None else []
    return empty + [
        (str(code), name) for code, name in field.queryset.values_list(field.to_field_name, "name")
    ]


class RecordField(forms.ModelChoiceField):
    """A role's record, chosen by its code from the campaign's records of that role.

    With ``read_later`` the code is only checked to be a code: the resolution reads the
    record itself, locked, and refuses one the campaign does not hold for that role
    (``services.PlayError``), so a roll reads each record once instead of twice."""

    def __init__(self, *args, read_later: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.read_later = read_later

    def to_python(self, value):
        if not self.read_later or value in self.empty_values:
            return super().to_python(value)
        try:
            return uuid.UUID(str(value))
        except ValueError:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value}
            ) from None


class ProcedureForm(InputLimitsMixin, forms.Form):
    """Roles (which ship, which target), extras, the engine's inputs, and how to roll."""

    dice = forms.CharField(
        required=False,
        label="Dice rolled at the table",
        help_text="For “Enter dice”: every die in the order the procedure rolls them, e.g. 6 6 2 3.",
    )
    visibility = forms.ChoiceField(
        choices=[
            (AS_SHARED, "As shared: GM only if it involves an unshared record"),
            *[(v, label) for v, label in Visibility.choices if v != Visibility.BLIND],
        ],
        initial=AS_SHARED,
        required=False,
    )
    audience = forms.ModelMultipleChoiceField(
        queryset=None,
        required=False,
        label="Chosen players",
        help_text="For “GM and chosen players”: who besides you reads the entry.",
        widget=forms.CheckboxSelectMultiple,
    )
    gm_ruling = forms.BooleanField(
        required=False,
        label="GM ruling: go ahead although the rules say this cannot happen now",
        help_text="The entry records that you waived the conditions listed above.",
    )
    # One per rendered form: a second submit of the same form (a double click) returns the
    # first resolution instead of rolling again.
    request_key = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        binding: Binding,
        campaign: Campaign,
        odds_only: bool = False,
        records_read_later: bool = False,
        kept_choices: bool = False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.fields["request_key"].initial = uuid.uuid4()
        self.fields["audience"].queryset = players_of(campaign)
        self.fields["audience"].label_from_instance = lambda user: user.username
        self.binding = binding
        self.procedure = binding.procedure
        self.role_names = [r.name for r in binding.roles]
        self.extra_names = [e.name for e in binding.extras]
        fields = {}
        for role in binding.roles:
            fields[role.name] = RecordField(
                queryset=role.choices(campaign),
                to_field_name="code",
                widget=Select,
                label=role.label,
                required=role.required and not odds_only,  # odds need only the numbers
                read_later=records_read_later,
            )
        for extra in binding.extras:
            fields[extra.name] = forms.ModelChoiceField(
                queryset=extra.model.objects.in_campaign(campaign),
                to_field_name="code",
                widget=Select,
                label=extra.label,
                help_text=extra.help,
                required=False,
            )
        if kept_choices:  # shown to the GM afresh (a GET): read once per campaign version
            for role in binding.roles:
                what = f"{role.model._meta.label}:{role.kind_field}:{role.kinds!r}"
                fields[role.name].choices = kept_record_choices(campaign, what, fields[role.name])
                if role.when_none and not [c for c, _ in fields[role.name].choices if c]:
                    fields[role.name].missing = role.when_none  # an empty list says why
            for extra in binding.extras:
                what = f"{extra.model._meta.label}"
                fields[extra.name].choices = kept_record_choices(campaign, what, fields[extra.name])
        self.input_names = []
        for spec in self.procedure.contract.inputs:
            fields[spec.name] = input_field(spec, self.procedure.id)
            self.input_names.append(spec.name)
        # Roles first, then the engine's inputs, then how to roll.
        self.fields = {
            **fields,
            **{
                name: self.fields[name]
                for name in ("dice", "visibility", "audience", "gm_ruling", "request_key")
            },
        }

    @property
    def role_fields(self):
        return [self[n] for n in self.role_names + self.extra_names]

    @property
    def input_fields(self):
        return [self[n] for n in self.input_names]

    def engine_inputs(self) -> dict[str, Any]:
        """The cleaned inputs as the engine takes them; blanks fall back to its defaults."""
        values = {}
        for spec in self.procedure.contract.inputs:
            value = self.cleaned_data.get(spec.name)
            if value in (None, "") and spec.type.kind != "bool":
                if spec.type.nullable:
                    values[spec.name] = None
                continue
            if spec.type.kind == "rational" and isinstance(value, str):
                value = _number(value)
            values[spec.name] = value
        return values

    def show_sources(self, sources: dict) -> None:
        """Say beside each input where its value came from ("from the sheet"), or what the
        campaign lacks to answer it and how to supply it (``bindings.Missing``)."""
        for name, source in sources.items():
            if name not in self.input_names:
                continue
            if isinstance(source, Missing):
                field = self.fields[name]
                field.missing = source.text
                if isinstance(field, forms.ChoiceField) and field.choices and field.choices[0][0] != "":
                    field.choices = [("", "—"), *field.choices]  # no first choice taken for the answer
            else:
                self.fields[name].source = source

    def adds_a_row(self) -> bool:
        """Whether the form was posted by a list's *Add a row* button (not Roll): if so it is
        read, so that it shows again as typed, and shown without errors."""
        return widgets.adds_a_row(self, self.input_names)

    def chosen_visibility(self) -> str | None:
        """Everyone or GM only when the GM chose so; None to follow sharing."""
        value = self.cleaned_data.get("visibility")
        return value if value in Visibility.values else None

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("visibility") == Visibility.WHISPER and not cleaned.get("audience"):
            self.add_error("audience", "Choose the players who read it.")
        return cleaned

    def chosen_audience(self) -> list[int]:
        """The players a whisper goes to (user ids); none unless the GM chose a whisper."""
        if self.cleaned_data.get("visibility") != Visibility.WHISPER:
            return []
        return [user.pk for user in self.cleaned_data.get("audience") or ()]

    def subjects(self) -> dict[str, str]:
        """The code of the record in each role (the record, or only its code when read later)."""
        chosen = {n: self.cleaned_data.get(n) for n in self.role_names}
        return {n: getattr(v, "code", v) for n, v in chosen.items() if v}

    def extras(self) -> dict[str, Any]:
        return {n: self.cleaned_data.get(n) for n in self.extra_names}

    def entered_dice(self) -> list[int]:
        return parse_dice(self.cleaned_data.get("dice") or "")

    def add_engine_error(self, error: Exception) -> None:
        if isinstance(error, rules.InputError) and error.field in self.fields:
            self.add_error(error.field, error.message)
        elif isinstance(error, rules.DiceError):
            self.add_error("dice", str(error))
        else:
            self.add_error(None, str(error))
