"""The evening's diary: choose turns or campaign dates; read it as a page to print, or take
it as Markdown for a forum post."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import member_view

from . import selectors

MAX_TURN = 10**9


def _turn(request, name: str) -> int | None:
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise selectors.DiaryError("Give turns as whole numbers from 1, e.g. 3.")
    return int(value)


def _date(request, name: str) -> datetime | None:
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value[:19])
    except ValueError:
        raise selectors.DiaryError("Give campaign dates as 3067-03-14 or 3067-03-14 18:00.") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


@member_view("GET")
def evening(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    try:
        first, last = _turn(request, "from_turn"), _turn(request, "to_turn")
        since, until = _date(request, "since"), _date(request, "until")
        if until is not None and len(request.GET.get("until", "").strip()) <= 10:
            until = until.replace(hour=23, minute=59, second=59)  # a date alone: the whole day
        if (first and last and first > last) or (since and until and since > until):
            raise selectors.DiaryError("The range ends before it begins: swap the two.")
        lines = selectors.evening(
            campaign, role, request.user, first_turn=first, last_turn=last, since=since, until=until
        )
    except selectors.DiaryError as error:
        return render(
            request,
            "diary/evening.html",
            {"campaign": campaign, "role": role, "error": str(error), "query": request.GET},
            status=400,
        )
    span = _span(first, last, since, until)
    if request.GET.get("as") == "md":
        response = HttpResponse(
            selectors.markdown(campaign, lines, span), content_type="text/markdown; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="{slugify(campaign.name)}-{slugify(span)}.md"'
        )
        return response
    return render(
        request,
        "diary/evening.html",
        {"campaign": campaign, "role": role, "lines": lines, "span": span, "query": request.GET},
    )


def _span(first, last, since, until) -> str:
    if first or last:
        return f"turns {first or 1} to {last or 'now'}" if first != last else f"turn {first}"
    if since or until:
        start = f"{since:%Y-%m-%d %H:%M}" if since else "the start"
        end = f"{until:%Y-%m-%d %H:%M}" if until else "now"
        return f"{start} to {end}"
    return "the whole campaign"
