"""The GM's compartment page: its state, its surfaces with their capacity, and the
shot's steps pre-filled from them."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play import services as play_services
from referee.play.door import gm_view
from referee.play.services import PlayError
from rules.tables import shipboard as tables

from . import services
from .forms import CompartmentForm, SurfaceForm
from .models import Compartment, Surface

PAGE = "shipboard/compartment.html"


def _compartment(campaign: Campaign, code) -> Compartment:
    return get_object_or_404(Compartment.objects.in_campaign(campaign), code=code)


def _surface(campaign: Campaign, code) -> Surface:
    return get_object_or_404(Surface.objects.in_campaign(campaign), code=code)


def _play(campaign: Campaign, procedure_id: str, **subjects) -> str:
    query = urlencode({k: v.code for k, v in subjects.items() if v is not None})
    return reverse("play:procedure", args=[campaign.code, procedure_id]) + f"?{query}"


def _steps(campaign: Campaign, compartment: Compartment) -> list[tuple[str, str]]:
    """The compartment's procedures, pre-filled from it."""
    return [
        ("Missed shot", _play(campaign, "shipboard.missed_shot", compartment=compartment)),
        ("Critical hit check", _play(campaign, "shipboard.bulkhead_critical", compartment=compartment)),
        ("Decompression", _play(campaign, "shipboard.decompression", compartment=compartment)),
        ("Weapon fired near leaking fuel", _play(campaign, "shipboard.fuel_leak", compartment=compartment)),
    ]


def _surface_steps(campaign: Campaign, compartment: Compartment, surface: Surface) -> list[tuple[str, str]]:
    steps = [("Shot hits it", _play(campaign, "shipboard.bulkhead_hit", struck_surface=surface))]
    if surface.column:
        steps.append(
            (
                "Critical hit check",
                _play(
                    campaign,
                    "shipboard.bulkhead_critical",
                    compartment=compartment,
                    pierced_bulkhead=surface,
                ),
            )
        )
    steps.append(("Ricochet off it", _play(campaign, "shipboard.ricochet", from_surface=surface)))
    if surface.surface_type in tables.DAMAGE_CAPACITIES:
        steps.append(
            ("A missed ricochet hits it", _play(campaign, "shipboard.ricochet", struck_surface=surface))
        )
    return steps


def _context(campaign: Campaign, compartment: Compartment, **extra) -> dict:
    surfaces = list(compartment.surfaces.all())
    for surface in surfaces:
        surface.steps = _surface_steps(campaign, compartment, surface)
    return {
        "campaign": campaign,
        "compartment": compartment,
        "surfaces": surfaces,
        "steps": _steps(campaign, compartment),
        "table": [(key, row) for key, row in tables.DAMAGE_CAPACITIES.items()],
        **extra,
    }


def _panel(
    request: htmx.HtmxHttpRequest, campaign, compartment, partial: str, status: int = 200, error: str = ""
) -> HttpResponse:
    """The refreshed ``partial`` of the compartment page; ``error`` shows in it (HTMX)
    or as a message on the page (a plain form post)."""
    return htmx.panel(
        request,
        f"{PAGE}#{partial}",
        lambda: _context(campaign, compartment, panel_error=error),
        back_to=reverse("shipboard:compartment", args=[campaign.code, compartment.code]),
        status=status,
        message=error,
    )


@gm_view("GET")
def compartment_detail(request: htmx.HtmxHttpRequest, campaign: Campaign, compartment_code) -> HttpResponse:
    compartment = _compartment(campaign, compartment_code)
    return render(request, PAGE, _context(campaign, compartment))


def _form(request: htmx.HtmxHttpRequest, campaign, compartment, form, *, panel: str, title: str):
    """Show ``form`` in a card posting back here; when it is posted valid, save it and
    answer with the refreshed ``panel`` (an invalid one comes back 422, in place)."""
    if form.is_valid():
        try:  # on the record: each field before -> after, undoable
            play_services.record_save(campaign=campaign, form=form, actor=request.user)
        except PlayError as error:
            form.add_error(None, str(error))
        else:
            return _panel(request, campaign, compartment, panel)
    back = reverse("shipboard:compartment", args=[campaign.code, compartment.code])
    context = {
        "campaign": campaign,
        "form": form,
        "title": title,
        "action": request.path,
        "target": f"#{panel}",
        "back": back,
        "crumbs": [
            (campaign.name, reverse("campaigns:detail", args=[campaign.code])),
            (str(compartment), back),
        ],
    }
    return htmx.form_card(request, htmx.FORM_CARD, context)


@gm_view("GET", "POST")
def compartment_edit(request: htmx.HtmxHttpRequest, campaign: Campaign, compartment_code) -> HttpResponse:
    compartment = _compartment(campaign, compartment_code)
    form = CompartmentForm(htmx.posted(request), instance=compartment, campaign=campaign)
    return _form(request, campaign, compartment, form, panel="state-panel", title=f"Edit {compartment}")


@gm_view("POST")
def breach_seal(request: htmx.HtmxHttpRequest, campaign: Campaign, compartment_code) -> HttpResponse:
    compartment = _compartment(campaign, compartment_code)
    try:
        services.compartment_breach_seal(compartment=compartment, actor=request.user)
    except PlayError as error:
        return _panel(request, campaign, compartment, "state-panel", status=409, error=str(error))
    compartment.refresh_from_db()
    return _panel(request, campaign, compartment, "state-panel")


@gm_view("POST")
def surface_add(request: htmx.HtmxHttpRequest, campaign: Campaign, compartment_code) -> HttpResponse:
    compartment = _compartment(campaign, compartment_code)
    try:
        services.surface_add(
            compartment=compartment, surface_type=request.POST.get("surface_type", ""), actor=request.user
        )
    except PlayError as error:
        return _panel(request, campaign, compartment, "surfaces-panel", status=htmx.INVALID, error=str(error))
    return _panel(request, campaign, compartment, "surfaces-panel")


@gm_view("GET", "POST")
def surface_create(request: htmx.HtmxHttpRequest, campaign: Campaign, compartment_code) -> HttpResponse:
    compartment = _compartment(campaign, compartment_code)
    form = SurfaceForm(htmx.posted(request), compartment=compartment)
    title = f"New surface in {compartment}"
    return _form(request, campaign, compartment, form, panel="surfaces-panel", title=title)


@gm_view("GET", "POST")
def surface_edit(request: htmx.HtmxHttpRequest, campaign: Campaign, surface_code) -> HttpResponse:
    surface = _surface(campaign, surface_code)
    form = SurfaceForm(htmx.posted(request), instance=surface, compartment=surface.compartment)
    return _form(
        request, campaign, surface.compartment, form, panel="surfaces-panel", title=f"Edit {surface}"
    )


@gm_view("POST")
def surface_delete(request: htmx.HtmxHttpRequest, campaign: Campaign, surface_code) -> HttpResponse:
    surface = _surface(campaign, surface_code)
    compartment = surface.compartment
    play_services.record_delete(campaign=campaign, obj=surface, actor=request.user)
    return _panel(request, campaign, compartment, "surfaces-panel")
