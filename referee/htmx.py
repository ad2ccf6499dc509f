"""The HTMX answers every page gives, written once.

- ``form_card``: a form page, or for HTMX only its form partial, which replaces
  ``#form-slot`` (or another target) wherever the request aimed; an invalid form
  comes back 422 with its errors and what was typed (``form_status``).
- ``panel``: after a change, the refreshed panel for HTMX, firing
  ``campaign-changed`` so the page's other panels follow; a plain form post is
  redirected instead, with the outcome as a message.
- ``page``: a whole page, or for HTMX only the partial it swaps.

Views take an ``HtmxHttpRequest``: an ``HttpRequest`` that django-htmx's middleware
has given its ``htmx`` details.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django_htmx.http import reswap, retarget, trigger_client_event
from django_htmx.middleware import HtmxDetails

CAMPAIGN_CHANGED = "campaign-changed"  # panels listen with hx-trigger="campaign-changed from:body"
FORM_SLOT = "#form-slot"  # where a dashboard's record forms open
INVALID = 422  # a form with errors, shown again in place
FORM_CARD = "forms/card.html"  # a form in a card; its partial "form" opens in the form slot

Context = Mapping[str, Any] | Callable[[], Mapping[str, Any]]


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def posted(request: HttpRequest) -> QueryDict | None:
    """The POST data on a POST (even an empty one, so it is validated), else None."""
    return request.POST if request.method == "POST" else None


def form_status(form: forms.BaseForm) -> int:
    """422 for a submitted form that did not validate, else 200."""
    return INVALID if form.is_bound and form.errors else 200


def replacing(response: HttpResponse, target: str) -> HttpResponse:
    """The response replaces ``target`` (outerHTML), whatever the request aimed at."""
    return reswap(retarget(response, target), "outerHTML")


def campaign_changed(response: HttpResponse) -> HttpResponse:
    """Fire ``campaign-changed`` so every panel on the page that listens refreshes."""
    return trigger_client_event(response, CAMPAIGN_CHANGED)


def page(
    request: HtmxHttpRequest, template: str, context: Mapping[str, Any], *, partial: str, status: int = 200
) -> HttpResponse:
    """The whole ``template``, or for an HTMX request only its ``partial``."""
    name = f"{template}#{partial}" if request.htmx else template
    return render(request, name, context, status=status)


def on_its_own_page(request: HtmxHttpRequest) -> bool:
    """Whether an HTMX request comes from the page at its own address (not from a slot
    of another page, such as the dashboard's)."""
    current = request.htmx.current_url if request.htmx else None
    return bool(current) and urlsplit(current).path == request.path


def form_card(
    request: HtmxHttpRequest,
    template: str,
    context: Mapping[str, Any],
    *,
    partial: str = "form",
    target: str = FORM_SLOT,
    status: int | None = None,
) -> HttpResponse:
    """A form's page; for HTMX only its ``partial``, which replaces ``target`` in place.

    The status is ``form_status`` of ``context["form"]`` unless given. A form redrawn on
    its own page (opened in a tab of its own: its kind changed) stays a plain post, so its
    Save comes back to the dashboard instead of answering into panels the page has not."""
    if status is None:
        status = form_status(context["form"])
    context = {**context, "alone": bool(request.htmx) and on_its_own_page(request)}
    response = page(request, template, context, partial=partial, status=status)
    return replacing(response, target) if request.htmx else response


def panel(
    request: HtmxHttpRequest,
    template: str,
    context: Context,
    *,
    back_to: Any,
    status: int = 200,
    message: str = "",
    changed: bool = True,
) -> HttpResponse:
    """The answer to a change made from a panel.

    HTMX: ``template`` (a panel partial) rendered with ``context`` (a mapping, or a
    callable so a plain request never builds it), firing ``campaign-changed`` when the
    change went through (status below 400) and ``changed`` is set.
    Plain request: a redirect to ``back_to`` (a URL, a URL name or a model with a URL),
    with ``message`` shown there, as an error when ``status`` is 400 or more."""
    if not request.htmx:
        if message:
            level = messages.ERROR if status >= 400 else messages.SUCCESS
            messages.add_message(request, level, message)
        return redirect(back_to)
    response = render(request, template, context() if callable(context) else context, status=status)
    return campaign_changed(response) if changed and status < 400 else response
