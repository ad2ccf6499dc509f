import re
import unicodedata

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString

from rules import InputError
from rules.schema import check_limits, parse_json_text, unstorable_text

from . import throttle
from .models import INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_LIFETIMES, INVITE_MAX_USES, Campaign

# Characters of a free-text box (notes): the one text without a column length.
MAX_NOTES = 10_000


class LimitedJSONField(forms.JSONField):
    """JSON typed in a box, parsed within the engine's input limits: no nesting, number,
    NUL or size can make the parser recurse, overflow or write what the database refuses."""

    def to_python(self, value):
        if self.disabled:
            return value
        if value in self.empty_values:
            return None
        if isinstance(value, (list, dict, int, float, JSONString)):
            return value
        try:
            converted = parse_json_text(value, self.label or "value")
        except InputError as error:
            raise forms.ValidationError(f"The value {error.message}.", code="invalid") from None
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data, initial):
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return parse_json_text(data, "value")
        except InputError:
            return InvalidJSONInput(data)


def limit_problem(value) -> str | None:
    """Why a cleaned form value cannot be kept (too long, nested, unstorable), or None."""
    if isinstance(value, str):
        if len(value) > MAX_NOTES:
            return f"Keep this under {MAX_NOTES:,} characters (it has {len(value):,})."
        if unstorable_text(value):
            return "This contains a character that cannot be stored (a NUL or a broken character)."
    elif isinstance(value, (list, tuple, dict)):
        try:
            check_limits(value, "value")
        except InputError as error:
            return f"The value {error.message}."
    return None


CAMPAIGN_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


class CampaignTimeInput(forms.DateTimeInput):
    """A moment of the campaign, typed as its clock shows it (year-month-day hours:minutes,
    seconds optional): the browser's own date picker would write it in its locale's order
    (mm/dd/yyyy for many), which a GM misreads."""

    def __init__(self, attrs=None):
        super().__init__(
            attrs={
                "placeholder": "yyyy-mm-dd hh:mm",
                "autocomplete": "off",
                "spellcheck": "false",
                **(attrs or {}),
            },
            format=CAMPAIGN_TIME_FORMAT,
        )


CAMPAIGN_TIME_HELP = "Campaign time, as on the clock: year-month-day hours:minutes, e.g. 3067-03-14 08:00."


def campaign_times(form: forms.BaseForm) -> None:
    """Every date-and-time field of ``form`` typed as the campaign's clock shows it."""
    for field in form.fields.values():
        if isinstance(field, forms.DateTimeField):
            field.widget = CampaignTimeInput()
            field.help_text = f"{field.help_text} {CAMPAIGN_TIME_HELP}".strip()


# Text that is a number or a label made of numbers (a hex "0105", dice "6 6 2", "1/3",
# "x 1.5, y -2"): digits of any script, and the signs and separators numbers are written with.
NUMBER_TEXT = re.compile(r"[\d\s.,;:+\-/x×]+")


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of another script (Arabic-Indic "٠١٠٥", Devanagari,
    full-width...) written as its ASCII digit, so one number is never stored as two texts."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else c for c in text)


class InputLimitsMixin:
    """Every form that takes what a person types: JSON boxes are parsed within the input
    limits, and no cleaned value is longer, deeper or less storable than they allow
    (the limits are declared once, in ``rules/schema.py``). A text that is a number (or a
    label made of numbers, such as a hex) is kept in ASCII digits, whatever script the
    digits were typed in; digits that are not decimal digits (superscripts, circled
    numbers) are not numbers at all, and a number field refuses them."""

    def _clean_fields(self):
        for field in self.fields.values():
            if isinstance(field, forms.JSONField) and not isinstance(field, LimitedJSONField):
                field.__class__ = LimitedJSONField  # the same field, parsed within the limits
        super()._clean_fields()
        for name, value in list(self.cleaned_data.items()):
            if isinstance(value, str) and not value.isascii() and NUMBER_TEXT.fullmatch(value):
                value = self.cleaned_data[name] = ascii_digits(value)
            if problem := limit_problem(value):
                self.add_error(name, problem)


class CampaignForm(InputLimitsMixin, forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s"]


class CampaignSettingsForm(InputLimitsMixin, forms.ModelForm):
    """What the GM sets by hand; turn and phase move only through the turn controls."""

    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s", "clock", "player_rolls_wait"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        campaign_times(self)


class ThrottledSignIn:
    """For Django's sign-in forms: refuse (even the right password) after too many wrong ones."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = throttle.client_address(self.request)
        message, attempt = throttle.attempt_begin(username=username, address=address)
        if message:
            raise ValidationError(message, code="throttled")
        try:
            cleaned = super().clean()  # the password is hashed here, with no lock held
        except ValidationError as error:
            if error.code != "invalid_login":  # a wrong password stays counted
                throttle.attempt_forget(attempt)
            raise
        except BaseException:
            throttle.attempt_forget(attempt)
            raise
        throttle.success_record(username=username)
        return cleaned


class SignInForm(ThrottledSignIn, AuthenticationForm):
    pass


class AdminSignInForm(ThrottledSignIn, AdminAuthenticationForm):
    pass


class InviteForm(forms.Form):
    """How long a new invite link works and how many players it admits."""

    days = forms.TypedChoiceField(
        label="Valid for", choices=INVITE_LIFETIMES, coerce=int, initial=INVITE_DEFAULT_DAYS
    )
    max_uses = forms.IntegerField(
        label="Players it admits", min_value=1, max_value=INVITE_MAX_USES, initial=INVITE_DEFAULT_USES
    )
