"""The sheet page of a unit, ship or design (GMs see all, players the sheets of shared
records), the GM's adjustments to it, and designs: a record saved as one, a record
started from one."""

from __future__ import annotations

import copy
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse

from referee import htmx
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, Unit
from referee.play.door import gm_view, member_view
from referee.play.services import PlayError

from . import diagram, document, services
from .effects import current
from .forms import SheetListsForm
from .models import Design

SHEET = "sheets/sheet.html"
PICK = "sheets/pick.html"
MODELS = {"units": Unit, "ships": Ship, "designs": Design}

# The BattleTech heat scale: what each level of heat does, as a record sheet prints it.
HEAT_SCALE = (
    (30, "Shutdown"),
    (28, "Ammo explosion, avoid on 8+"),
    (26, "Shutdown, avoid on 10+"),
    (25, "−5 Movement Points"),
    (24, "+4 modifier to fire"),
    (23, "Ammo explosion, avoid on 6+"),
    (22, "Shutdown, avoid on 8+"),
    (20, "−4 Movement Points"),
    (19, "Ammo explosion, avoid on 4+"),
    (18, "Shutdown, avoid on 6+"),
    (17, "+3 modifier to fire"),
    (15, "−3 Movement Points"),
    (14, "Shutdown, avoid on 4+"),
    (13, "+2 modifier to fire"),
    (10, "−2 Movement Points"),
    (8, "+1 modifier to fire"),
    (5, "−1 Movement Points"),
)
# Movement as a record sheet lists it (the stored sheet keeps no order of its own).
MOVEMENT = (
    ("walk", "walk"),
    ("run", "run"),
    ("jump", "jump"),
    ("cruise", "cruise"),
    ("flank", "flank"),
    ("umu", "underwater"),
    ("safe_thrust", "safe thrust"),
    ("max_thrust", "maximum thrust"),
)
# The MechWarrior's hits and the consciousness roll each calls for.
PILOT_HITS = ((1, "3"), (2, "5"), (3, "7"), (4, "10"), (5, "11"), (6, "dead"))


def _record(campaign: Campaign, role: str, kind: str, obj_code):
    """The record, if this reader may see it: players only shared units and ships; a record
    they may not see is a 404 that names nothing."""
    model = MODELS.get(kind)
    if model is None or (role != "gm" and model is Design):
        raise Http404("No such record")
    return get_object_or_404(model.objects.in_campaign(campaign).visible_to(role), code=obj_code)


def _doc(record) -> dict:
    return record.document if isinstance(record, Design) else current(record)


def _sheet_context(campaign: Campaign, role: str, kind: str, record, **extra) -> dict[str, Any]:
    doc = _doc(record)
    heat = doc.get("heat", 0)
    pilot = doc.get("pilot") or {}
    context = {
        "campaign": campaign,
        "role": role,
        "kind": kind,
        "record": record,
        "doc": doc,
        "name": document.display_name(doc),
        "type_label": document.UNIT_TYPES.get(doc.get("unit_type"), ""),
        "diagrams": diagram.diagrams(doc) if doc else [],
        "armour_total": document.armour_total(doc) if doc else 0,
        "crew": [(document.CREW_LABELS.get(k, k), v) for k, v in (doc.get("crew") or {}).items()]
        if doc
        else [],
        "movement": [
            (label, doc["movement"][key]) for key, label in MOVEMENT if key in doc.get("movement", {})
        ],
        "heat_scale": [(level, text, heat >= level) for level, text in HEAT_SCALE],
        "heat_cells": [(n, n <= heat and heat > 0) for n in range(31)],
        "pilot_hits": [(n, roll, n <= pilot.get("hits", 0)) for n, roll in PILOT_HITS],
        "sheet_url": reverse("sheets:sheet", args=[campaign.code, kind, record.code]),
        **extra,
    }
    if role == "gm" and doc:
        context["lists_form"] = SheetListsForm(doc=doc)
    if role == "gm" and not doc and kind != "designs":
        record_kind = "unit" if kind == "units" else "ship"
        context["designs"] = [
            d for d in Design.objects.in_campaign(campaign).order_by("name") if d.record == record_kind
        ]
    return context


@member_view("GET")
def sheet_page(
    request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, kind: str, obj_code
) -> HttpResponse:
    record = _record(campaign, role, kind, obj_code)
    context = _sheet_context(campaign, role, kind, record)
    return htmx.page(request, SHEET, context, partial="sheet-panel")


def _answer(request, campaign, kind, record, *, error: str = "", message: str = "", lists_form=None):
    record.refresh_from_db()
    context = _sheet_context(campaign, "gm", kind, record, error=error, message=message)
    if lists_form is not None:
        context["lists_form"] = lists_form
    return htmx.page(request, SHEET, context, partial="sheet-panel", status=422 if error else 200)


def _number_fields(doc: dict, post) -> dict:
    """The editor's fields put onto a copy of the sheet, as typed: ``normalise`` checks them."""
    new = copy.deepcopy(doc)
    for loc in new.get("locations", []):
        for key in ("armor", "rear_armor", "structure"):
            field = f"{key}:{loc['name']}"
            if key in loc and field in post:
                loc[key] = post[field]
    for face in new.get("facings", []):
        if f"armor:{face['name']}" in post:
            face["armor"] = post[f"armor:{face['name']}"]
    for key, part, inner in (
        ("si", "structural_integrity", "value"),
        ("kf_integrity", "kf_drive", "integrity"),
        ("platoon_troopers", "platoon", "troopers"),
    ):
        if key in post and part in new:
            new[part][inner] = post[key]
    if "heat" in post:
        new["heat"] = post["heat"]
    if "pilot" in new:
        for key in ("gunnery", "piloting", "hits"):
            if f"pilot_{key}" in post:
                new["pilot"][key] = post[f"pilot_{key}"]
        if "pilot_name" in post:
            new["pilot"]["name"] = post["pilot_name"]
    for i, trooper in enumerate(new.get("troopers", []), 1):
        if f"trooper_armor:{i}" in post:
            trooper["armor"] = post[f"trooper_armor:{i}"]
        trooper["alive"] = f"trooper_alive:{i}" in post
    for name, slots in new.get("criticals", {}).items():
        for i, slot in enumerate(slots, 1):
            slot["hit"] = slot["name"] is not None and f"crit:{name}:{i}" in post
    for i, weapon in enumerate(new.get("weapons", [])):
        weapon["destroyed"] = f"weapon_destroyed:{i}" in post
    for loc in new.get("locations", []):
        loc["destroyed"] = f"destroyed:{loc['name']}" in post
    return new


@gm_view("POST")
def sheet_adjust(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """The GM's adjustments to the sheet's values (armour, structure, heat, pilot, criticals)."""
    record = _record(campaign, "gm", kind, obj_code)
    doc = _doc(record)
    if not doc:
        return _answer(
            request, campaign, kind, record, error="This record has no sheet yet: start one first."
        )
    try:
        entry = services.sheet_update(
            campaign=campaign, record=record, doc=_number_fields(doc, request.POST), actor=request.user
        )
    except PlayError as error:
        return _answer(request, campaign, kind, record, error=str(error))
    message = "Saved to the log: undo it there." if entry else "Nothing changed."
    return _answer(request, campaign, kind, record, message=message)


@gm_view("POST")
def sheet_lists(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """The sheet's weapons, equipment and bays, a row each, for what the adjustments above
    do not reach: checked cell by cell, then the sheet as a whole, then kept (logged)."""
    record = _record(campaign, "gm", kind, obj_code)
    form = SheetListsForm(request.POST, doc=current(record))
    if form.adds_a_row():  # "Add a row": the lists again, as typed, with one more blank row
        return _answer(request, campaign, kind, record, lists_form=form)
    if not form.is_valid():
        return _answer(request, campaign, kind, record, error="Check the rows marked below.", lists_form=form)
    try:
        entry = services.sheet_update(campaign=campaign, record=record, doc=form.sheet(), actor=request.user)
    except PlayError as error:
        return _answer(request, campaign, kind, record, error=str(error), lists_form=form)
    message = "Saved to the log: undo it there." if entry else "Nothing changed."
    return _answer(request, campaign, kind, record, message=message)


@gm_view("POST")
def sheet_start(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """A record without a sheet gets one: blank for its type, holding what the record says."""
    record = _record(campaign, "gm", kind, obj_code)
    if kind == "designs" or record.sheet:
        return _answer(request, campaign, kind, record, error="It has a sheet already.")
    design_code = request.POST.get("design", "")
    try:
        if design_code:
            design = Design.objects.in_campaign(campaign).filter(code=design_code).first()
            if design is None or design.record != ("unit" if kind == "units" else "ship"):
                raise PlayError("Choose one of the campaign's designs for this kind of record.")
            doc = design.document
        else:
            doc = services.blank_for(record)
        services.sheet_update(
            campaign=campaign, record=record, doc=doc, actor=request.user, why="a new sheet"
        )
    except (PlayError, ValueError) as error:
        return _answer(request, campaign, kind, record, error=str(error))
    return _answer(request, campaign, kind, record, message="The sheet is on the record: adjust it below.")


@gm_view("POST")
def design_save(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """Keep this record's sheet, as built, among the campaign's designs."""
    record = _record(campaign, "gm", kind, obj_code)
    if kind == "designs":
        raise Http404("No such record")
    default = document.display_name(current(record)) if record.sheet else str(record)
    name = (request.POST.get("name") or default).strip()
    try:
        design = services.design_save(
            campaign=campaign,
            record=record,
            name=name,
            notes=request.POST.get("notes", ""),
            actor=request.user,
        )
    except PlayError as error:
        return _answer(request, campaign, kind, record, error=str(error))
    return _answer(request, campaign, kind, record, message=f"Saved as the design {design}.")


@gm_view("GET")
def design_pick(request: HttpRequest, campaign: Campaign, record: str) -> HttpResponse:
    """“New unit” / “New ship”: pick a design (or import a unit file), then adjust."""
    if record not in ("unit", "ship"):
        raise Http404("No such kind of record")
    designs = [d for d in Design.objects.in_campaign(campaign).order_by("name") if d.record == record]
    return _pick_page(request, campaign, record, designs)


def _pick_page(request, campaign, record, designs, *, error: str = "", status: int = 200) -> HttpResponse:
    slug = "units" if record == "unit" else "ships"
    back = reverse("campaigns:detail", args=[campaign.code])
    context = {
        "campaign": campaign,
        "role": "gm",
        "record": record,
        "designs": designs,
        "blank_url": reverse("campaigns:object-create", args=[campaign.code, slug]),
        "import_url": _import_url(campaign),
        "back": back,
        "error": error,
    }
    return render(request, PICK, context, status=status)


def _import_url(campaign: Campaign) -> str:
    """Where MegaMek unit files are imported, once that page exists."""
    try:
        return reverse("imports:import", args=[campaign.code])
    except NoReverseMatch:
        return ""


@gm_view("POST")
def design_use(request: HttpRequest, campaign: Campaign, design_code) -> HttpResponse:
    """A new unit or ship from a design: it carries the design's sheet; then adjust it."""
    design = get_object_or_404(Design.objects.in_campaign(campaign), code=design_code)
    name = (request.POST.get("name") or "").strip() or document.display_name(design.document) or design.name
    try:
        record = services.record_from_design(
            campaign=campaign,
            design=design,
            name=name,
            actor=request.user,
            shared=request.POST.get("shared") == "on",
        )
    except PlayError as error:
        designs = [
            d for d in Design.objects.in_campaign(campaign).order_by("name") if d.record == design.record
        ]
        return _pick_page(request, campaign, design.record, designs, error=str(error), status=422)
    kind = "units" if design.record == "unit" else "ships"
    return redirect("sheets:sheet", campaign.code, kind, record.code)
