"""Map pages: a star system's map and a battlefield's hex map, for the GM (who moves ships,
places units and edits hexes on them) and for players (who see what is shared)."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.contrib import messages
from django.forms import HiddenInput
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.text import slugify

from referee import htmx
from referee.campaigns.models import Campaign
from referee.clock import services as clock_services
from referee.clock.models import EventKind
from referee.clock.travel import plain_duration
from referee.fleet.models import StarSystem
from referee.play import door
from referee.play import services as play_services
from referee.play.door import gm_view, member_view
from referee.play.selectors import poll_version
from referee.terrain.forms import HexForm
from referee.terrain.models import Battlefield, Hex, hex_number

from . import selectors, services, starmap, voyage
from . import state as map_state
from .forms import MoveForm, PiratePointForm, PlaceUnitForm, RouteForm, StarPlaceForm
from .models import PiratePoint, RoutePlan

SYSTEM_PAGE = "maps/system.html"
FIELD_PAGE = "maps/battlefield.html"
MAX_SEQ = 10**9


def _int(value: str | None) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise ValueError("not an entry number")
    return int(value)


def _params(request) -> dict:
    """The page's reading options; a value that is no entry number or scale is a 400."""
    try:
        at = _int(request.GET.get("at"))
    except ValueError:
        raise _BadRequest("Give the log entry as a number, e.g. 12.") from None
    mode = request.GET.get("mode", "fit")
    if mode not in selectors.MODES:
        raise _BadRequest("Choose the fitted or the log scale.")
    chosen = request.GET.get("from", "")
    if len(chosen) > 80 or "\x00" in chosen:
        raise _BadRequest("No such object on the map.")
    return {"at": at, "mode": mode, "from": chosen}


class _BadRequest(Exception):
    pass


def _bad(message: str) -> HttpResponse:
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _system(campaign: Campaign, system_code) -> StarSystem:
    return get_object_or_404(StarSystem.objects.in_campaign(campaign), code=system_code)


def _seen_system(campaign: Campaign, role: str, system_code) -> StarSystem:
    """A system the reader may see: a system not shared is no page of the players'."""
    return get_object_or_404(StarSystem.objects.in_campaign(campaign).visible_to(role), code=system_code)


def _battlefield(campaign: Campaign, role: str, field_code) -> Battlefield:
    return get_object_or_404(Battlefield.objects.in_campaign(campaign).visible_to(role), code=field_code)


@member_view("GET")
def map_index(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    return render(
        request,
        "maps/index.html",
        {
            "campaign": campaign,
            "role": role,
            "systems": StarSystem.objects.in_campaign(campaign).visible_to(role),
            "battlefields": Battlefield.objects.in_campaign(campaign).visible_to(role),
        },
    )


# --- star systems --------------------------------------------------------------------------


def _system_context(
    request, campaign: Campaign, role: str, system: StarSystem, params: dict, **forms
) -> dict:
    at = params["at"] if role == "gm" else None  # a player always sees the map as it is now
    drawn = selectors.system_map(campaign, system, role, mode=params["mode"], at=at)
    origin, distances = selectors.distances_from(drawn.objects, params["from"])
    context = {
        "campaign": campaign,
        "role": role,
        "system": system,
        "map": drawn,
        "origin": origin,
        "distances": distances,
        # Written out here, not in a template loop: a system of hundreds of ships.
        "object_options": format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (o.code, mark_safe(" selected") if origin and o.code == origin.code else "", o.label)
                for o in drawn.objects
            ),
        ),
        "params": params,
        "modes": selectors.MODES,
        "poll_version": poll_version(campaign, role, user=request.user),
        "panel_url": reverse("maps:system-panel", args=[campaign.code, system.code]),
    }
    if role == "gm" and drawn.at_seq is None:
        pirates = list(PiratePoint.objects.filter(star_system=system))
        context["move_form"] = forms.get("move_form") or MoveForm(
            campaign=campaign,
            system=system,
            pirates=pirates,
            initial={"ship": params["from"].removeprefix("ship-")}
            if params["from"].startswith("ship-")
            else None,
        )
        context["pirate_form"] = forms.get("pirate_form") or PiratePointForm(campaign=campaign, system=system)
        context["pirate_points"] = pirates
    return context


@member_view("GET")
def system_page(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, system_code) -> HttpResponse:
    system = _seen_system(campaign, role, system_code)
    try:
        params = _params(request)
    except _BadRequest as error:
        return _bad(str(error))
    context = _system_context(request, campaign, role, system, params)
    return render(request, SYSTEM_PAGE, context)


def _unchanged(request) -> bool:
    """The map's live refresh, "nothing changed": the version the door read for the reader
    (its one statement), nothing else read. It answers alike for any map code of the
    campaign, so it tells of no map kept from the reader."""
    return request.GET.get("v", "") == door.visitor_of(request).version


@member_view("GET")
def system_panel(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, system_code) -> HttpResponse:
    """The map alone, for the page's live refresh: 204 while nothing the reader sees changed."""
    try:
        params = _params(request)
    except _BadRequest as error:
        return _bad(str(error))
    if params["at"] is None and _unchanged(request):
        return HttpResponse(status=204)
    system = _seen_system(campaign, role, system_code)
    context = _system_context(request, campaign, role, system, params)
    return render(request, SYSTEM_PAGE + "#map-panel", context)


def _svg_response(request, drawing: str, name: str) -> HttpResponse:
    response = HttpResponse(drawing, content_type="image/svg+xml; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "map"}.svg"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _reader(request, role: str) -> str:
    """Whose view an export draws: a GM may ask for the players' (to post on a forum)."""
    return "player" if role == "gm" and request.GET.get("as") == "players" else role


@member_view("GET")
def system_svg(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, system_code) -> HttpResponse:
    system = _seen_system(campaign, role, system_code)
    try:
        params = _params(request)
    except _BadRequest as error:
        return _bad(str(error))
    reader = _reader(request, role)
    at = params["at"] if role == "gm" else None
    drawn = selectors.system_map(campaign, system, reader, mode=params["mode"], at=at)
    return _svg_response(request, drawn.svg, f"{system.name} map")


def _back(campaign: Campaign, system: StarSystem, request) -> str:
    url = reverse("maps:system", args=[campaign.code, system.code])
    keep = {k: request.POST.get(k) for k in ("mode",) if request.POST.get(k) in selectors.MODES}
    return url + (f"?mode={keep['mode']}" if keep else "")


def _after_change(request, campaign, system, message: str) -> HttpResponse:
    if request.htmx:
        campaign.refresh_from_db()  # the panel polls from the version after the change, not before it
        params = {"at": None, "mode": request.POST.get("mode", "fit"), "from": ""}
        if params["mode"] not in selectors.MODES:
            params["mode"] = "fit"
        context = _system_context(request, campaign, "gm", system, params)
        context["notice"] = message
        return htmx.campaign_changed(render(request, SYSTEM_PAGE + "#map-panel", context))
    messages.success(request, message)
    return redirect(_back(campaign, system, request))


def _system_form_error(request, campaign, system, status: int = htmx.INVALID, **forms) -> HttpResponse:
    params = {"at": None, "mode": "fit", "from": ""}
    context = _system_context(request, campaign, "gm", system, params, **forms)
    template = SYSTEM_PAGE + ("#map-panel" if request.htmx else "")
    return render(request, template, context, status=status)


@gm_view("POST")
def ship_move(request: htmx.HtmxHttpRequest, campaign: Campaign, system_code) -> HttpResponse:
    system = _system(campaign, system_code)
    pirates = list(PiratePoint.objects.filter(star_system=system))
    form = MoveForm(request.POST, campaign=campaign, system=system, pirates=pirates)
    if not form.is_valid():
        return _system_form_error(request, campaign, system, move_form=form)
    data = form.cleaned_data
    try:
        entry = services.ship_move(
            campaign=campaign,
            ship=data["ship"],
            system=system,
            x_au=data["x_au"],
            y_au=data["y_au"],
            position=data["position"],
            actor=request.user,
        )
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        return _system_form_error(request, campaign, system, status=409, move_form=form)
    message = f"{data['ship']} is already there." if entry is None else f"#{entry.seq}: {entry.summary}"
    return _after_change(request, campaign, system, message)


@gm_view("POST")
def pirate_point_add(request: htmx.HtmxHttpRequest, campaign: Campaign, system_code) -> HttpResponse:
    system = _system(campaign, system_code)
    form = PiratePointForm(request.POST, campaign=campaign, system=system)
    if not form.is_valid():
        return _system_form_error(request, campaign, system, pirate_form=form)
    try:
        entry = play_services.record_save(campaign=campaign, form=form, actor=request.user)
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        return _system_form_error(request, campaign, system, status=409, pirate_form=form)
    return _after_change(request, campaign, system, f"#{entry.seq}: {entry.title}.")


@gm_view("POST")
def pirate_point_delete(
    request: htmx.HtmxHttpRequest, campaign: Campaign, system_code, point_code
) -> HttpResponse:
    system = _system(campaign, system_code)
    point = get_object_or_404(PiratePoint.objects.in_campaign(campaign), code=point_code, star_system=system)
    entry = play_services.record_delete(campaign=campaign, obj=point, actor=request.user)
    return _after_change(request, campaign, system, f"#{entry.seq}: {entry.title}.")


# --- battlefields --------------------------------------------------------------------------


def _field_context(request, campaign, role, battlefield, at, chosen_hex: str = "", **forms) -> dict:
    links = ""
    if role == "gm":
        links = reverse("maps:battlefield", args=[campaign.code, battlefield.code]) + "?hex="
    drawing, units, at = selectors.battlefield_map(campaign, battlefield, role, at=at, links=links)
    context = {
        "campaign": campaign,
        "role": role,
        "battlefield": battlefield,
        "drawing": drawing,
        "units": units,
        "at_seq": at,
        "chosen_hex": chosen_hex,
        "poll_version": poll_version(campaign, role, user=request.user),
        "panel_url": reverse("maps:battlefield-panel", args=[campaign.code, battlefield.code]),
    }
    if role == "gm" and at is None:
        context["place_form"] = forms.get("place_form") or PlaceUnitForm(
            campaign=campaign, battlefield=battlefield, initial={"hex": chosen_hex} if chosen_hex else None
        )
        if chosen_hex:
            row = Hex.objects.filter(battlefield=battlefield, name=chosen_hex).first()
            context["hex_row"] = row
            hex_form = forms.get("hex_form") or HexForm(
                instance=row,
                campaign=campaign,
                initial=None if row else {"battlefield": battlefield.pk, "name": chosen_hex, "shared": True},
            )
            for name in ("battlefield", "name"):  # the hex clicked on this map: not the GM's to retype
                hex_form.fields[name].widget = HiddenInput()
            context["hex_form"] = hex_form
    return context


def _chosen_hex(request, battlefield) -> str:
    label = request.GET.get("hex", "").strip()
    if not label:
        return ""
    place = hex_number(label)
    if place is None or place[0] > battlefield.columns or place[1] > battlefield.rows:
        raise _BadRequest(f"No hex {label[:8]!s} on this map.")
    return label


@member_view("GET")
def battlefield_page(
    request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, field_code
) -> HttpResponse:
    battlefield = _battlefield(campaign, role, field_code)
    try:
        params = _params(request)
        chosen = _chosen_hex(request, battlefield) if role == "gm" else ""
    except _BadRequest as error:
        return _bad(str(error))
    at = params["at"] if role == "gm" else None
    return render(request, FIELD_PAGE, _field_context(request, campaign, role, battlefield, at, chosen))


@member_view("GET")
def battlefield_panel(
    request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, field_code
) -> HttpResponse:
    """The map alone, for the page's live refresh: 204 while nothing the reader sees changed."""
    if _unchanged(request):
        return HttpResponse(status=204)
    battlefield = _battlefield(campaign, role, field_code)
    return render(
        request, FIELD_PAGE + "#field-panel", _field_context(request, campaign, role, battlefield, None)
    )


@member_view("GET")
def battlefield_svg(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, field_code) -> HttpResponse:
    battlefield = _battlefield(campaign, role, field_code)
    try:
        params = _params(request)
    except _BadRequest as error:
        return _bad(str(error))
    reader = _reader(request, role)
    if reader != "gm" and not battlefield.shared:
        raise Http404("No such battlefield")
    drawing, _, _ = selectors.battlefield_map(
        campaign, battlefield, reader, at=params["at"] if role == "gm" else None
    )
    return _svg_response(request, drawing, f"{battlefield.name} map")


def _field_after(request, campaign, battlefield, message: str, chosen: str = "") -> HttpResponse:
    messages.success(request, message)
    url = reverse("maps:battlefield", args=[campaign.code, battlefield.code])
    return redirect(url + (f"?hex={chosen}" if chosen else ""))


def _field_error(
    request, campaign, battlefield, chosen: str, status: int = htmx.INVALID, **forms
) -> HttpResponse:
    context = _field_context(request, campaign, "gm", battlefield, None, chosen, **forms)
    return render(request, FIELD_PAGE, context, status=status)


@gm_view("POST")
def unit_place(request: htmx.HtmxHttpRequest, campaign: Campaign, field_code) -> HttpResponse:
    battlefield = _battlefield(campaign, "gm", field_code)
    form = PlaceUnitForm(request.POST, campaign=campaign, battlefield=battlefield)
    chosen = request.POST.get("hex", "") if hex_number(request.POST.get("hex", "")) else ""
    if not form.is_valid():
        return _field_error(request, campaign, battlefield, "", place_form=form)
    data = form.cleaned_data
    try:
        entry = services.unit_place(
            campaign=campaign,
            unit=data["unit"],
            battlefield=battlefield,
            hex_label=data["hex"],
            facing=data["facing"],
            actor=request.user,
        )
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        return _field_error(request, campaign, battlefield, "", status=409, place_form=form)
    message = f"{data['unit']} is already there." if entry is None else f"#{entry.seq}: {entry.summary}"
    return _field_after(request, campaign, battlefield, message, chosen)


@gm_view("POST")
def hex_save(request: htmx.HtmxHttpRequest, campaign: Campaign, field_code, label: str) -> HttpResponse:
    battlefield = _battlefield(campaign, "gm", field_code)
    place = hex_number(label)
    if place is None or place[0] > battlefield.columns or place[1] > battlefield.rows:
        return _bad("No such hex on this map.")
    row = Hex.objects.filter(battlefield=battlefield, name=label).first()
    data = request.POST.copy()
    data["battlefield"], data["name"] = str(battlefield.pk), label  # the hex clicked, whatever was posted
    form = HexForm(data, instance=row, campaign=campaign)
    if not form.is_valid():
        return _field_error(request, campaign, battlefield, label, hex_form=form)
    try:
        entry = play_services.record_save(campaign=campaign, form=form, actor=request.user)
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        return _field_error(request, campaign, battlefield, label, status=409, hex_form=form)
    message = f"Hex {label} is unchanged." if entry is None else f"#{entry.seq}: {entry.title}."
    return _field_after(request, campaign, battlefield, message, label)


# --- the star map ----------------------------------------------------------------------------

STAR_PAGE = "maps/stars.html"


def _star_params(request) -> dict:
    """The star map's reading options: the entry to replay at, what is chosen."""
    try:
        at = _int(request.GET.get("at"))
    except ValueError:
        raise _BadRequest("Give the log entry as a number, e.g. 12.") from None
    chosen = request.GET.get("from", "")
    if len(chosen) > 80 or "\x00" in chosen:
        raise _BadRequest("No such system or ship on the star map.")
    return {"at": at, "from": chosen}


def _planned(data, campaign: Campaign, drawn_systems: list[dict]):
    """The GM's route from the page's address (or the Save form): (form, legs, arrival,
    error words)."""
    if "ship" not in data:
        return RouteForm(campaign=campaign), [], None, ""
    form = RouteForm(data, campaign=campaign)
    if not form.is_valid():
        return form, [], None, ""
    data = form.cleaned_data
    ship, stops = data["ship"], data["route"]
    if not stops:
        return form, [], None, ""
    by_code = {s["code"]: s for s in drawn_systems}
    start = by_code.get(str(ship.star_system.code)) if ship.star_system_id else None
    if start is None:
        return form, [], None, f"{ship} is in no system on the star map: say where it is first."
    span, how = clock_services.charge_span({"method": data["method"], "target_hours": data["hours"]})
    charges: dict[str, timedelta] = {}
    if data["method"] == "sail" and data["hours"] is None:
        # A jump sail charges in each star's hours, where the GM gave them.
        for system in [ship.star_system, *stops]:
            if system.sail_charge_hours is not None:
                charges[str(system.code)] = clock_services.charge_span({"method": "sail"}, system)[0]
        if charges:
            how = f"the star system's sail charging time, or {how} where a system has none"
    now = campaign.clock
    if ship.drive_charged or (ship.lf_battery and ship.lf_battery_charged):
        ready = now
    else:
        under_way = clock_services.waiting(campaign).filter(ship=ship, kind=EventKind.CHARGE).first()
        ready = under_way.due_at if under_way is not None else None
    try:
        legs = voyage.plan(
            start=starmap.stop_of(start),
            stops=[starmap.stop_of(by_code[str(s.code)]) for s in stops],
            now=now,
            charge=span,
            ready_at=ready,
            charges=charges,
        )
    except voyage.RouteError as error:
        return form, [], None, str(error)
    return form, legs, {"at": voyage.arrival(legs), "how": how, "ready": ready}, ""


def _star_context(request, campaign: Campaign, role: str, params: dict, place_form=None) -> dict:
    at = params["at"] if role == "gm" else None
    route_form, legs, arrival, route_error = None, [], None, ""
    if role == "gm" and at is None:
        systems = starmap.systems_of(map_state.system_state(campaign, everything=True), "gm")
        route_form, legs, arrival, route_error = _planned(request.GET, campaign, systems)
    chosen = params["from"]
    if route_form is not None and route_form.is_bound and route_form.is_valid() and not chosen:
        chosen = f"ship-{route_form.cleaned_data['ship'].code}"
    drawn = starmap.star_map(campaign, role, user=request.user, at=at, chosen=chosen, route=legs)
    origin, distances = starmap.distances(drawn, chosen)
    route_codes = ",".join(leg.destination.code for leg in legs) if legs else ""
    if route_form is not None and route_form.is_bound and route_form.is_valid() and not legs:
        route_codes = ",".join(str(s.code) for s in route_form.cleaned_data["route"][:-1])
    kept = request.GET.copy()
    kept.pop("v", None)
    shown_form = route_form
    if route_form is not None and route_form.is_bound and route_form.is_valid():
        data = route_form.cleaned_data
        shown_form = RouteForm(
            campaign=campaign,
            initial={
                "ship": data["ship"].code,
                "method": data["method"],
                "hours": data["hours"],
                "add": chosen.removeprefix("sys-") if chosen.startswith("sys-") else None,
            },
        )
        shown_form.cleaned_data = data  # the Clear link names the ship
    context = {
        "campaign": campaign,
        "role": role,
        "panel_query": kept.urlencode(),
        "star": drawn,
        "params": {**params, "from": chosen},
        "origin": origin,
        "distances": distances,
        "object_options": format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (code, mark_safe(" selected") if code == chosen else "", label)
                for code, label in [(f"sys-{s['code']}", s["name"]) for s in drawn.systems if s["at"]]
                + [(f"ship-{s['code']}", s["name"]) for s in drawn.ships]
            ),
        ),
        "poll_version": poll_version(campaign, role, user=request.user),
        "panel_url": reverse("maps:stars-panel", args=[campaign.code]),
        "route_form": shown_form,
        "legs": legs,
        "arrival": arrival,
        "route_error": route_error,
        "route_codes": route_codes,
        "jump_limit": voyage.JUMP_LIMIT_LY,
    }
    if legs:
        first = legs[0]
        arrival["where"] = legs[-1].destination.name
        context["route_rows"] = [
            {
                "origin": leg.origin.name,
                "destination": leg.destination.name,
                "ly": voyage.plain_ly(leg.ly),
                "charge": plain_duration(leg.charge) if leg.charge else "none: the drive is charged",
                "jumps_at": leg.jumps_at,
            }
            for leg in legs
        ]
        context["jump_url"] = reverse("play:procedure", args=[campaign.code, starmap.JUMP_PROCEDURE]) + (
            f"?ship={route_form.cleaned_data['ship'].code}&destination={first.destination.code}"
        )
    if role == "gm" and at is None:
        context["plans"] = _plans_shown(campaign)
        context.update(_place_context(campaign, chosen.removeprefix("sys-"), place_form))
    return context


def _place_context(campaign: Campaign, chosen_system: str, place_form=None) -> dict:
    """The place-a-system form, for the system chosen (by code; the first one else)."""
    systems = list(StarSystem.objects.in_campaign(campaign))
    if place_form is not None and place_form.instance.pk:
        chosen_system = str(place_form.instance.code)
    selected = next((s for s in systems if str(s.code) == chosen_system), systems[0] if systems else None)
    return {
        "campaign": campaign,
        "place_systems": systems,
        "place_selected": selected.code if selected is not None else None,
        # The form shows the chosen system's own values, so saving it as shown changes
        # only what the GM changed (an unshared system stays unshared).
        "place_form": place_form
        or StarPlaceForm(campaign=campaign, instance=selected or StarSystem(campaign=campaign)),
    }


@member_view("GET")
def star_page(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    try:
        params = _star_params(request)
    except _BadRequest as error:
        return _bad(str(error))
    context = _star_context(request, campaign, role, params)
    status = 400 if context["route_form"] is not None and context["route_form"].errors else 200
    return render(request, STAR_PAGE, context, status=status)


@member_view("GET")
def star_panel(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """The star map alone, for the page's live refresh: 204 while nothing the reader sees changed."""
    try:
        params = _star_params(request)
    except _BadRequest as error:
        return _bad(str(error))
    if params["at"] is None and _unchanged(request):
        return HttpResponse(status=204)
    return render(request, STAR_PAGE + "#star-panel", _star_context(request, campaign, role, params))


@member_view("GET")
def star_svg(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    try:
        params = _star_params(request)
    except _BadRequest as error:
        return _bad(str(error))
    reader = _reader(request, role)
    drawn = starmap.star_map(campaign, reader, user=request.user, at=params["at"] if role == "gm" else None)
    return _svg_response(request, drawn.svg, "star map")


def _plans_shown(campaign: Campaign) -> list[RoutePlan]:
    """The saved routes, each with the planner's address that draws what is left of it
    (the stops the ship has reached along the plan are behind it)."""
    plans = selectors.route_progress(campaign, selectors.planned_routes(campaign))
    for plan in plans:
        query = {"ship": str(plan.ship.code), "route": ",".join(plan.remaining), "method": plan.method}
        if plan.hours is not None:
            query["hours"] = f"{plan.hours:g}"
        plan.show_url = reverse("maps:stars", args=[campaign.code]) + "?" + urlencode(query)
        plan.reached = not plan.remaining
    return plans


def _plan_refused(request, campaign: Campaign, words: str, *, status: int = 400) -> HttpResponse:
    """The star map again, saying why the route was not saved or dropped (its forms are
    plain posts: a bare error would leave the GM on a page of text)."""
    messages.error(request, words)
    context = _star_context(request, campaign, "gm", {"at": None, "from": ""})
    return render(request, STAR_PAGE, context, status=status)


@gm_view("POST")
def star_plan_save(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Keep the planner's route as a plan (worked out again here, from the clock now)."""
    systems = starmap.systems_of(map_state.system_state(campaign, everything=True), "gm")
    form, legs, arrival, error = _planned(request.POST, campaign, systems)
    if not form.is_bound or not form.is_valid() or not legs:
        words = error or "; ".join(m for errors in form.errors.values() for m in errors)
        return _plan_refused(
            request, campaign, words or "Plan a route of at least one jump before saving it."
        )
    data = form.cleaned_data
    try:
        entry = services.route_plan_save(
            campaign=campaign,
            ship=data["ship"],
            stops=data["route"],
            method=data["method"],
            hours=data["hours"],
            arrives_at=arrival["at"],
            actor=request.user,
        )
    except play_services.PlayError as why:
        return _plan_refused(request, campaign, str(why), status=409)
    messages.success(request, f"#{entry.seq}: {entry.title}.")
    return redirect(reverse("maps:stars", args=[campaign.code]))


@gm_view("POST")
def star_plan_drop(request: htmx.HtmxHttpRequest, campaign: Campaign, plan_code: uuid.UUID) -> HttpResponse:
    plan = RoutePlan.objects.in_campaign(campaign).filter(code=plan_code).first()
    if plan is None:
        return _plan_refused(request, campaign, "No such saved route.", status=404)
    try:
        entry = services.route_plan_drop(campaign=campaign, plan=plan, actor=request.user)
    except play_services.PlayError as why:
        return _plan_refused(request, campaign, str(why), status=409)
    messages.success(request, f"#{entry.seq}: {entry.title}.")
    return redirect(reverse("maps:stars", args=[campaign.code]))


def _system_to_place(campaign: Campaign, code: str) -> StarSystem | None:
    try:
        return StarSystem.objects.in_campaign(campaign).filter(code=uuid.UUID(code)).first()
    except ValueError:  # no code at all (a null character among them)
        return None


@gm_view("GET", "POST")
def star_place(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Place a star system on the star map (or mark it explored, or share it): a record edit.
    Asked for (GET) with a system, the form for that system, its values filled in: what
    the form redraws itself with when the GM picks a system in it."""
    data = request.POST if request.method == "POST" else request.GET
    system = _system_to_place(campaign, data.get("system", ""))
    if system is None:
        return _bad("Choose one of the campaign's star systems to place.")
    if request.method == "GET":
        if not request.htmx:  # the star map with that system chosen shows the same form
            return redirect(reverse("maps:stars", args=[campaign.code]) + f"?from=sys-{system.code}")
        return render(request, STAR_PAGE + "#place-form", _place_context(campaign, str(system.code)))
    form = StarPlaceForm(request.POST, instance=system, campaign=campaign)
    params = {"at": None, "from": ""}
    if not form.is_valid():
        context = _star_context(request, campaign, "gm", params, place_form=form)
        return render(request, STAR_PAGE, context, status=htmx.INVALID)
    try:
        entry = play_services.record_save(campaign=campaign, form=form, actor=request.user)
    except play_services.PlayError as error:
        form.add_error(None, str(error))
        context = _star_context(request, campaign, "gm", params, place_form=form)
        return render(request, STAR_PAGE, context, status=409)
    message = f"{system} is unchanged." if entry is None else f"#{entry.seq}: {entry.title}."
    messages.success(request, message)
    return redirect(reverse("maps:stars", args=[campaign.code]) + f"?from=sys-{system.code}")
