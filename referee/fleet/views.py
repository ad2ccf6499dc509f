"""Create, edit and delete what a campaign keeps: one set of views for every kind.

The forms are HTMX partials of the dashboard: a valid form swaps in the refreshed
list panel; an invalid one comes back (422) with field errors and what was typed.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import reswap, retarget, trigger_client_event

from referee.campaigns.access import gm_view
from referee.campaigns.models import Campaign
from referee.play.selectors import dashboard_context

from .forms import KINDS, Kind


def _kind(slug: str) -> Kind:
    try:
        return KINDS[slug]
    except KeyError:
        raise Http404("No such kind of record") from None


def _panel(request: HttpRequest, campaign, kind: Kind) -> HttpResponse:
    if not request.htmx:
        return redirect("campaigns:detail", code=campaign.code)
    response = render(request, kind.panel, dashboard_context(campaign))
    return trigger_client_event(response, "campaign-changed")


def _form_page(request, campaign, kind: Kind, form, obj=None, status=200) -> HttpResponse:
    context = {"campaign": campaign, "kind": kind, "form": form, "object": obj}
    if not request.htmx:
        return render(request, "fleet/form.html", context, status=status)
    response = render(request, "fleet/form.html#form", context, status=status)
    # The form (with its errors) replaces itself, wherever the request aimed.
    return reswap(retarget(response, "#form-slot"), "outerHTML")


@gm_view("GET", "POST")
def object_create(request: HttpRequest, campaign: Campaign, kind: str) -> HttpResponse:
    spec = _kind(kind)
    form = spec.form(request.POST if request.method == "POST" else None, campaign=campaign)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return _panel(request, campaign, spec)
        return _form_page(request, campaign, spec, form, status=422)
    return _form_page(request, campaign, spec, form)


@gm_view("GET", "POST")
def object_edit(request: HttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    form = spec.form(request.POST if request.method == "POST" else None, instance=obj, campaign=campaign)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return _panel(request, campaign, spec)
        return _form_page(request, campaign, spec, form, obj, status=422)
    return _form_page(request, campaign, spec, form, obj)


@gm_view("POST")
def object_delete(request: HttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    obj.delete()
    return _panel(request, campaign, spec)
