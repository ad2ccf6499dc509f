"""The desk panel, and its actions answered in place."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import gm_view
from referee.play.pending import EffectError
from referee.play.services import PlayError

from . import selectors, services


def _int(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def _panel(
    request, campaign: Campaign, *, error: str = "", done: str = "", status: int = 200
) -> HttpResponse:
    campaign.refresh_from_db()
    context = {
        "campaign": campaign,
        "desk": selectors.desk_context(campaign),
        "desk_error": error,
        "desk_done": done,
    }
    return render(request, selectors.TEMPLATE, context, status=status)


@gm_view("GET")
def desk_panel(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    return _panel(request, campaign)


@gm_view("POST")
def desk_act(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        entry = services.desk_act(
            campaign=campaign,
            action=request.POST.get("action", "")[:20],
            seq=_int(request.POST.get("seq")),
            number=_int(request.POST.get("number")),
            record=request.POST.get("record", "")[:40],
            actor=request.user,
        )
    except (PlayError, EffectError) as refusal:
        if not request.htmx:
            messages.error(request, str(refusal))
            return redirect("campaigns:detail", code=campaign.code)
        return _panel(request, campaign, error=str(refusal), status=409)
    done = f"#{entry.seq}: {entry.title}." if entry is not None else ""
    if not request.htmx:
        messages.success(request, done or "Done.")
        return redirect("campaigns:detail", code=campaign.code)
    return htmx.campaign_changed(_panel(request, campaign, done=done))
