from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from . import throttle
from .models import INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_LIFETIMES, INVITE_MAX_USES, Campaign


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s"]


class CampaignSettingsForm(forms.ModelForm):
    """What the GM sets by hand; turn and phase move only through the turn controls."""

    class Meta:
        model = Campaign
        fields = ["name", "year", "turn_length_s", "clock"]
        widgets = {"clock": forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})}


class ThrottledSignIn:
    """For Django's sign-in forms: refuse (even the right password) after too many wrong ones."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = throttle.client_address(self.request)
        if message := throttle.refusal(username=username, address=address):
            raise ValidationError(message, code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                throttle.failure_record(username=username, address=address)
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
