"""Create, edit and delete what a campaign keeps: one set of views for every kind.

The forms are HTMX partials of the dashboard: a valid form swaps in the refreshed
list panel; an invalid one comes back (422) with field errors and what was typed.
"""

from __future__ import annotations

import re

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from referee import htmx
from referee.campaigns.models import Campaign
from referee.fleet.forms import Kind
from referee.play import families, services
from referee.play.door import gm_view
from referee.play.selectors import PANEL_ROWS, dashboard_context, panel_page, with_actions


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


@gm_view("GET")
def object_list(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str) -> HttpResponse:
    """A page of a dashboard panel's records by name (``?page=2``), or all of them
    (``?page=all``): for HTMX the panel alone, swapped in where the dashboard's was;
    otherwise a page holding it. A page that is no page is refused with a link to the first."""
    spec = _kind(kind)
    number, refusal = _page_number(request.GET.get("page", "1"))
    page = panel_page(campaign, spec.slug, number or 0) if refusal is None else None
    if refusal is None and page is None:
        raise Http404("That list is shown whole on the dashboard")
    if page is not None and number and number > page.pages:
        refusal = f"There are {page.total} {spec.plural.lower()}, {page.pages} page{'s' if page.pages > 1 else ''} of {PANEL_ROWS}: page {number} is past the last."
    context = {"campaign": campaign, "role": "gm", "kind": spec, spec.slug: page, "refusal": refusal}
    context["paging"] = request.htmx  # the swapped panel takes the focus to where it now is
    if refusal is not None:
        return render(request, "fleet/list.html", context, status=400)
    return render(request, spec.panel if request.htmx else "fleet/list.html", context)


def _page_number(asked: str) -> tuple[int | None, str | None]:
    """(the page asked for, 0 for all of them; or a refusal in words)."""
    asked = asked.strip()
    if asked.lower() == "all":
        return 0, None
    if re.fullmatch(r"[0-9]{1,9}", asked) and int(asked) >= 1:
        return int(asked), None
    return None, "A page is a whole number from 1 (or “all”)."


@gm_view("GET", "POST")
def object_delete(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """Delete a record (POST). A GET asks first: the dashboard's Delete asks in a dialog and
    posts through HTMX, without JavaScript it is a link to this question."""
    spec = _kind(kind)
    obj = get_object_or_404(spec.model.objects.in_campaign(campaign), code=obj_code)
    if request.method != "POST":
        context = {"campaign": campaign, "obj": obj, "kind": spec, "also": spec.deleted_with}
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
