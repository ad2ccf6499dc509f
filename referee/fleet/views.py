"""Create, edit and delete what a campaign keeps: one set of views for every kind.

The forms are HTMX partials of the dashboard: a valid form swaps in the refreshed
list panel; an invalid one comes back (422) with field errors and what was typed.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from referee import htmx
from referee.campaigns.access import gm_view
from referee.campaigns.models import Campaign
from referee.play import families, services
from referee.play.selectors import dashboard_context, with_actions

from .forms import Kind


def _kind(slug: str) -> Kind:
    kind = families.kind(slug)
    if kind is None:
        raise Http404("No such kind of record")
    return kind


def _panel(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: Kind) -> HttpResponse:
    back_to = reverse("campaigns:detail", args=[campaign.code])
    return htmx.panel(request, kind.panel, lambda: dashboard_context(campaign), back_to=back_to)


def _form_page(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: Kind, form, obj=None) -> HttpResponse:
    return htmx.form_card(request, htmx.FORM_CARD, kind.card(campaign, form, obj))


def _typed_so_far(request: htmx.HtmxHttpRequest) -> dict:
    """A form redrawn while it is being filled in (a ship's kind changed) shows again what
    was typed: the values come as the query of the GET that redraws it."""
    if request.method != "GET" or not request.GET:
        return {}
    return {"initial": request.GET.dict()}


@gm_view("GET", "POST")
def object_create(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str) -> HttpResponse:
    spec = _kind(kind)
    form = spec.form(htmx.posted(request), campaign=campaign, **_typed_so_far(request))
    if form.is_valid():
        return _saved(request, campaign, spec, form)
    return _form_page(request, campaign, spec, form)


def _saved(request: htmx.HtmxHttpRequest, campaign: Campaign, spec: Kind, form, obj=None) -> HttpResponse:
    """Save through the log: the change is an entry, with each field's before and after."""
    try:
        services.record_save(campaign=campaign, form=form, actor=request.user)
    except services.PlayError as error:
        form.add_error(None, str(error))
        return _form_page(request, campaign, spec, form, obj)
    return _panel(request, campaign, spec)


@gm_view("GET", "POST")
def object_edit(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    form = spec.form(htmx.posted(request), instance=obj, campaign=campaign, **_typed_so_far(request))
    if form.is_valid():
        return _saved(request, campaign, spec, form, obj)
    return _form_page(request, campaign, spec, form, obj)


@gm_view("GET")
def object_roll(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """What the GM can roll for one record: for HTMX the Roll… menu's sections, which the
    dashboard's button fetches the first time it opens; otherwise a page listing them."""
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    with_actions(campaign, [obj])
    context = {"campaign": campaign, "obj": obj, "kind": spec}
    return htmx.page(request, "fleet/roll.html", context, partial="menu")


# What goes with a record when it is deleted, said before the delete.
DELETED_WITH = {"battlefields": "its hexes", "compartments": "its surfaces"}


@gm_view("GET", "POST")
def object_delete(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """Delete a record (POST). A GET asks first: the dashboard's Delete asks in a dialog and
    posts through HTMX, without JavaScript it is a link to this question."""
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    if request.method != "POST":
        context = {"campaign": campaign, "obj": obj, "kind": spec, "also": DELETED_WITH.get(spec.slug, "")}
        return render(request, "fleet/delete.html", context)
    try:
        services.record_delete(campaign=campaign, obj=obj, actor=request.user)
    except services.PlayError as error:
        back_to = reverse("campaigns:detail", args=[campaign.code])
        return htmx.panel(
            request,
            spec.panel,
            lambda: dashboard_context(campaign),
            back_to=back_to,
            status=409,
            message=str(error),
        )
    return _panel(request, campaign, spec)
