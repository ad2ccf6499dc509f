"""The GM's booby-trap pages: weapon charts (create, edit, copy, delete) and a trap's
pursuit check. Traps themselves use the dashboard's record forms (kind "boobytraps")."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import reswap, retarget, trigger_client_event

import rules
from referee.campaigns.access import gm_view
from referee.campaigns.models import Campaign
from referee.play import services as play_services
from referee.play.forms import parse_dice
from referee.play.models import LogEntry

from . import services
from .forms import PursuitForm, WeaponChartForm
from .models import BoobyTrap, WeaponChart, printed_torpedo_chart
from .registry import PANEL_TEMPLATE, panel_context


def _posted(request: HttpRequest):
    """The POST data on a POST (even an empty one, so it is validated), else None."""
    return request.POST if request.method == "POST" else None


def _panel(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    if not request.htmx:
        return redirect("campaigns:detail", code=campaign.code)
    context = {"campaign": campaign, "boobytraps": panel_context(campaign)}
    return trigger_client_event(render(request, PANEL_TEMPLATE, context), "campaign-changed")


def _chart_page(request, campaign, form, chart=None, status=200) -> HttpResponse:
    context = {"campaign": campaign, "form": form, "chart": chart}
    if not request.htmx:
        return render(request, "boobytraps/chart_form.html", context, status=status)
    response = render(request, "boobytraps/chart_form.html#chart-form", context, status=status)
    return reswap(retarget(response, "#form-slot"), "outerHTML")


@gm_view("GET", "POST")
def chart_create(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    start = WeaponChart(campaign=campaign, name="", weapon_type="torp")
    if request.GET.get("start") != "blank":
        start.entries = printed_torpedo_chart()  # IR107.332: "use this chart or make your own"
        start.name = "Torpedo-hit chart"
    form = WeaponChartForm(_posted(request), instance=start, campaign=campaign)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return _panel(request, campaign)
        return _chart_page(request, campaign, form, status=422)
    return _chart_page(request, campaign, form)


@gm_view("GET", "POST")
def chart_edit(request: HttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    form = WeaponChartForm(_posted(request), instance=chart, campaign=campaign)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return _panel(request, campaign)
        return _chart_page(request, campaign, form, chart, status=422)
    return _chart_page(request, campaign, form, chart)


@gm_view("POST")
def chart_copy(request: HttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    services.weapon_chart_copy(chart=chart)
    return _panel(request, campaign)


@gm_view("POST")
def chart_delete(request: HttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    chart.delete()  # traps that used it fall back to "no chart" (SET_NULL)
    return _panel(request, campaign)


def _last_units(campaign: Campaign, trap: BoobyTrap) -> dict:
    """What the last pursuit check for this trap listed, so sizes and costs carry over."""
    last = (
        LogEntry.objects.in_campaign(campaign)
        .filter(
            procedure="booby_trap.pursuit_target",
            reversed_by__isnull=True,
            reversal_of__isnull=True,
            inputs__contains={"@trap": {"code": str(trap.code)}},
        )
        .order_by("-seq")
        .first()
    )
    return {u["id"]: u for u in last.inputs.get("units", [])} if last else {}


@gm_view("GET", "POST")
def trap_pursuit(request: HttpRequest, campaign: Campaign, trap_code) -> HttpResponse:
    trap = get_object_or_404(BoobyTrap.objects.in_campaign(campaign), code=trap_code)
    last = _last_units(campaign, trap)
    form = PursuitForm(_posted(request), campaign=campaign, trap=trap, last_units=last)
    context = {"campaign": campaign, "trap": trap, "form": form, "entries": [], "role": "gm"}
    if request.method == "GET":
        return render(request, "boobytraps/pursuit.html", context)
    if not form.is_valid():
        return render(request, "boobytraps/pursuit.html", context, status=422)
    try:
        dice = parse_dice(form.cleaned_data["dice"] or "") or None
    except ValidationError as error:
        form.add_error("dice", error)
        return render(request, "boobytraps/pursuit.html", context, status=422)
    try:
        entries = services.booby_trap_pursue(
            campaign=campaign,
            trap=trap,
            units=form.cleaned_data["units"],
            terrain=form.cleaned_data["terrain"],
            passes_through=form.cleaned_data["passes_through"],
            dice=dice,
            actor=request.user,
        )
    except rules.DiceError as error:
        form.add_error("dice", str(error))
        return render(request, "boobytraps/pursuit.html", context, status=422)
    except (rules.InputError, play_services.PlayError) as error:
        form.add_error(None, getattr(error, "message", str(error)))
        return render(request, "boobytraps/pursuit.html", context, status=422)
    trap.refresh_from_db()
    context.update(trap=trap, entries=entries)
    response = render(request, "boobytraps/pursuit.html", context)
    return trigger_client_event(response, "campaign-changed") if request.htmx else response
