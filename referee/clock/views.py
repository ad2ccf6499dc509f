"""The clock's pages: the agenda panel, Advance to the next event, and sending a ship
across its system's map."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from referee import htmx
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship
from referee.play.door import gm_view
from referee.play.services import PlayError

from . import selectors, services
from .forms import TransitForm

TRANSIT_PAGE = "clock/transit.html"


def _dashboard(campaign: Campaign):
    return redirect("campaigns:detail", code=campaign.code)


@gm_view("GET")
def agenda_panel(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    return render(
        request, selectors.PANEL, {"agenda": selectors.agenda_context(campaign), "campaign": campaign}
    )


@gm_view("POST")
def next_event(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        entries = services.clock_to_next_event(campaign=campaign, actor=request.user)
    except PlayError as error:
        messages.error(request, str(error))
        return _dashboard(campaign)
    done = [e.title for e in entries if e.procedure in (services.DUE, services.STATION_KEEPING)]
    messages.success(request, "Clock moved on. " + (" ".join(f"{t}." for t in done) or "Nothing came due."))
    return _dashboard(campaign)


def _ship_from(request, campaign: Campaign) -> Ship | None:
    try:
        code = uuid.UUID((request.POST.get("ship") or request.GET.get("ship") or "").strip()[:40])
    except ValueError:
        return None
    return Ship.objects.in_campaign(campaign).filter(code=code).select_related("star_system").first()


@gm_view("GET", "POST")
def transit(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Choose the ship, the place and the thrust; *Work out* shows the travel time and the
    arrival before anything is logged, *Set off* starts the transit."""
    ship = _ship_from(request, campaign)
    places = selectors.places(ship) if ship else []
    form = TransitForm(htmx.posted(request), campaign=campaign, places=places, initial={"ship": ship})
    plan, error, status = None, "", 200
    if request.method == "POST":
        status = htmx.INVALID
        if form.is_valid():
            data = form.cleaned_data
            try:
                if "go" in request.POST:
                    entry = services.transit_start(
                        campaign=campaign,
                        ship=data["ship"],
                        x_au=data["x_au"],
                        y_au=data["y_au"],
                        position=data["position"],
                        thrust_g=data["thrust_g"],
                        actor=request.user,
                    )
                    messages.success(request, f"#{entry.seq}: {entry.summary}")
                    return _dashboard(campaign)
                plan = services.transit_plan(
                    ship=data["ship"], x_au=data["x_au"], y_au=data["y_au"], thrust_g=data["thrust_g"]
                )
                plan["arrives"] = campaign.clock + plan["span"]
                status = 200
            except PlayError as why:
                error = str(why)
    return render(
        request,
        TRANSIT_PAGE,
        {"campaign": campaign, "form": form, "ship": ship, "plan": plan, "error": error},
        status=status,
    )
