"""Battle pages: hand forces and a battlefield to MegaMek, take a board and a battle's result back."""

from __future__ import annotations

import os
import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import gm_view, member_view
from referee.play.services import PlayError
from referee.terrain.models import Battlefield

from . import board as boards
from . import mul, services
from .forms import BoardUploadForm, ResultApplyForm, ResultUploadForm, pack
from .selectors import battlefields_for

PAGE = "battles/page.html"
PREVIEW = "battles/preview.html"


def _download(text: str, stem: str, suffix: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, f"{slugify(stem) or 'battle'}{suffix}")
    return response


def _context(request, campaign: Campaign, role: str, **more) -> dict:
    back = reverse("campaigns:detail", args=[campaign.code])
    context = {
        "campaign": campaign,
        "role": role,
        "back": back,
        "crumbs": [(campaign.name, back)],
        "title": "Battles in MegaMek",
        "records": services.readable_records(campaign, role, request.user),
    }
    if role == "gm":
        context["battlefields"] = battlefields_for(campaign)
        context.setdefault("board_form", BoardUploadForm())
        context.setdefault("result_form", ResultUploadForm())
    return {**context, **more}


@member_view("GET")
def battles_page(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """The GM's battles: each battlefield's forces and board for MegaMek, a board to bring in,
    a battle's result to bring back. A player: the unit list of what they may read."""
    return render(request, PAGE, _context(request, campaign, role))


@member_view("GET")
def forces_download(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """A MegaMek unit list: a battlefield's forces (the GM's), or the records chosen. A player
    gets only what they own or what is shared with them; any other record is a 404."""
    field_code = request.GET.get("battlefield")
    try:
        if field_code:
            if role != "gm":
                raise PermissionDenied("Only the GM hands a battlefield's forces to MegaMek.")
            field_ = get_object_or_404(Battlefield.objects.in_campaign(campaign), code=uuid.UUID(field_code))
            records, stem = services.battlefield_forces(field_), field_.name
        else:
            records = services.records_by_code(campaign, request.GET.getlist("record"), role, request.user)
            stem = records[0].name if len(records) == 1 else f"{campaign.name} forces"
        text, _notes = services.mul_export(records)
    except services.NoSuchRecord as error:
        raise Http404(str(error)) from None
    except PlayError as error:
        messages.error(request, str(error))
        return redirect("battles:page", campaign.code)
    except ValueError:
        raise Http404("No such battlefield") from None
    return _download(text, stem, ".mul", "application/xml; charset=utf-8")


@gm_view("GET")
def board_download(request: htmx.HtmxHttpRequest, campaign: Campaign, field_code) -> HttpResponse:
    field_ = get_object_or_404(Battlefield.objects.in_campaign(campaign), code=field_code)
    text, _notes = services.board_export(field_)
    return _download(text, field_.name, ".board", "text/plain; charset=utf-8")


@gm_view("POST")
def board_upload(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """A MegaMek board becomes a battlefield (one logged entry; Undo removes it), or is
    refused with the line and problem, nothing created."""
    form = BoardUploadForm(request.POST, request.FILES)
    problem = ""
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            read = boards.parse_board(upload.read(boards.MAX_BOARD_BYTES + 1))
            name = form.cleaned_data["name"] or os.path.splitext(os.path.basename(upload.name))[0]
            _field, entry = services.board_import(campaign=campaign, read=read, name=name, actor=request.user)
        except (boards.BoardError, PlayError) as error:
            problem = f"Nothing was created. {error}"
        else:
            messages.success(
                request,
                f"{entry.title}. Entry #{entry.seq} in the log can undo it.",
            )
            return htmx.campaign_changed(redirect("battles:page", campaign.code))
    context = _context(request, campaign, "gm", board_form=form, board_problem=problem)
    return render(request, PAGE, context, status=htmx.INVALID)


def _refused(request, campaign: Campaign, problem: str) -> HttpResponse:
    """The battle page again, saying why nothing was written."""
    context = _context(request, campaign, "gm", result_problem=f"Nothing was written. {problem}")
    return render(request, PAGE, context, status=htmx.INVALID)


def _preview_page(
    request, campaign: Campaign, raw: bytes, chosen=None, *, status=200, problem=""
) -> HttpResponse:
    try:
        entities = mul.parse_mul(raw)
        preview = services.result_preview(campaign, entities, chosen)
    except (mul.MulError, PlayError) as error:
        return _refused(request, campaign, str(error))
    apply_form = ResultApplyForm(initial={"data": pack(raw)})
    context = _context(
        request,
        campaign,
        "gm",
        preview=preview,
        report=services.battle_report(preview.rows),
        apply_form=apply_form,
        problem=problem,
        title="A battle's result from MegaMek",
    )
    return render(request, PREVIEW, context, status=status)


@gm_view("POST")
def result_upload(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """The unit list MegaMek saved: each entity matched to its record and the change shown,
    nothing written yet."""
    form = ResultUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        context = _context(request, campaign, "gm", result_form=form)
        return render(request, PAGE, context, status=htmx.INVALID)
    return _preview_page(request, campaign, form.cleaned_data["file"].read(mul.MAX_MUL_BYTES + 1))


@gm_view("POST")
def result_apply(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Apply (one entry, every sheet) or show the preview again with the GM's matching."""
    form = ResultApplyForm(request.POST)
    if not form.is_valid():
        return _refused(request, campaign, " ".join(m for errors in form.errors.values() for m in errors))
    raw = form.cleaned_data["data"]
    try:
        entities = mul.parse_mul(raw)
    except mul.MulError as error:
        return _refused(request, campaign, str(error))
    chosen = services.parse_chosen(request.POST, len(entities))
    if request.POST.get("action") != "apply":
        return _preview_page(request, campaign, raw, chosen)
    try:
        entry = services.result_apply(
            campaign=campaign,
            entities=entities,
            chosen=chosen,
            actor=request.user,
            request_key=form.cleaned_data["request_key"],
        )
    except PlayError as error:
        return _preview_page(
            request, campaign, raw, chosen, status=htmx.INVALID, problem=f"Nothing was written. {error}"
        )
    messages.success(request, f"{entry.summary} Entry #{entry.seq} in the log can undo it.")
    return htmx.campaign_changed(redirect("battles:page", campaign.code))
