"""The GM's booby-trap pages: weapon charts (create, edit, copy, delete) and a trap's
pursuit check. Traps themselves use the dashboard's record forms (kind "boobytraps")."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

import rules
from referee import htmx
from referee.campaigns.models import Campaign
from referee.play import services as play_services
from referee.play.door import gm_view
from referee.play.forms import parse_dice
from referee.play.models import LogEntry

from . import services
from .forms import PursuitForm, WeaponChartForm
from .models import BoobyTrap, WeaponChart, printed_torpedo_chart
from .selectors import PANEL_TEMPLATE, panel_context

PURSUIT = "boobytraps/pursuit.html"
CHART_RULES = (
    "IR107.32: heavier weapons on 2 and 12, lighter on 7; weight never rises from 2 to 7 nor falls "
    "from 7 to 12. No Maulers or SFGs. At least one 1-space weapon, so a last free space can always "
    "be filled."
)


def _panel(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    return htmx.panel(
        request,
        PANEL_TEMPLATE,
        lambda: {"campaign": campaign, "boobytraps": panel_context(campaign)},
        back_to=reverse("campaigns:detail", args=[campaign.code]),
    )


def _chart_page(request: htmx.HtmxHttpRequest, campaign: Campaign, form, chart=None) -> HttpResponse:
    if chart is None:
        title, action = "New weapon chart", reverse("boobytraps:chart-create", args=[campaign.code])
    else:
        title, action = f"Edit {chart}", reverse("boobytraps:chart-edit", args=[campaign.code, chart.code])
    back = reverse("campaigns:detail", args=[campaign.code])
    context = {
        "campaign": campaign,
        "form": form,
        "title": title,
        "intro": CHART_RULES,
        "action": action,
        "target": "#boobytraps-panel",
        "submit": "Save chart",
        "back": back,
        "crumbs": [(campaign.name, back)],
    }
    return htmx.form_card(request, htmx.FORM_CARD, context)


@gm_view("GET", "POST")
def chart_create(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    start = WeaponChart(campaign=campaign, name="", weapon_type="torp")
    if request.GET.get("start") != "blank":
        start.entries = printed_torpedo_chart()  # IR107.332: "use this chart or make your own"
        start.name = "Torpedo-hit chart"
    form = WeaponChartForm(htmx.posted(request), instance=start, campaign=campaign)
    if form.is_valid() and _saved(request, campaign, form):
        return _panel(request, campaign)
    return _chart_page(request, campaign, form)


def _saved(request: htmx.HtmxHttpRequest, campaign: Campaign, form) -> bool:
    """Save the chart on the record (each field before -> after, undoable); a rule the
    database holds comes back as the form's error."""
    try:
        play_services.record_save(campaign=campaign, form=form, actor=request.user)
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        return False
    return True


@gm_view("GET", "POST")
def chart_edit(request: htmx.HtmxHttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    form = WeaponChartForm(htmx.posted(request), instance=chart, campaign=campaign)
    if form.is_valid() and _saved(request, campaign, form):
        return _panel(request, campaign)
    return _chart_page(request, campaign, form, chart)


@gm_view("POST")
def chart_copy(request: htmx.HtmxHttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    services.weapon_chart_copy(chart=chart, actor=request.user)
    return _panel(request, campaign)


@gm_view("POST")
def chart_delete(request: htmx.HtmxHttpRequest, campaign: Campaign, chart_code) -> HttpResponse:
    chart = get_object_or_404(WeaponChart.objects.in_campaign(campaign), code=chart_code)
    # Traps that used it fall back to "no chart"; undoing the delete gives it back to them.
    play_services.record_delete(campaign=campaign, obj=chart, actor=request.user)
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
def trap_pursuit(request: htmx.HtmxHttpRequest, campaign: Campaign, trap_code) -> HttpResponse:
    trap = get_object_or_404(BoobyTrap.objects.in_campaign(campaign), code=trap_code)
    last = _last_units(campaign, trap)
    form = PursuitForm(htmx.posted(request), campaign=campaign, trap=trap, last_units=last)
    context = {"campaign": campaign, "trap": trap, "form": form, "entries": [], "role": "gm"}
    if not form.is_valid():  # a GET shows the form, an invalid POST its errors (422)
        return render(request, PURSUIT, context, status=htmx.form_status(form))
    try:
        dice = parse_dice(form.cleaned_data["dice"] or "") or None
    except ValidationError as error:
        form.add_error("dice", error)
        return render(request, PURSUIT, context, status=htmx.INVALID)
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
        return render(request, PURSUIT, context, status=htmx.INVALID)
    except (rules.InputError, play_services.PlayError) as error:
        form.add_error(None, getattr(error, "message", str(error)))
        return render(request, PURSUIT, context, status=htmx.INVALID)
    trap.refresh_from_db()
    context.update(trap=trap, entries=entries)
    response = render(request, PURSUIT, context)
    return htmx.campaign_changed(response) if request.htmx else response
