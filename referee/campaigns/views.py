"""Signing in (throttled) and up."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from referee import htmx

from .forms import SignInForm


@require_http_methods(["GET", "POST"])
def signup(request: htmx.HtmxHttpRequest) -> HttpResponse:
    form = UserCreationForm(htmx.posted(request))
    if form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(_safe_next(request) or "campaigns:list")
    return render(request, "registration/signup.html", {"form": form}, status=htmx.form_status(form))


def _safe_next(request: htmx.HtmxHttpRequest) -> str | None:
    """``?next=`` when it stays on this site; a link elsewhere is dropped, never followed."""
    target = request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


class SignInView(LoginView):
    """Sign in; refused with a 429 and a plain message after too many wrong passwords."""

    form_class = SignInForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
