"""The GM's integrity tools: check the log's hash chain, download the campaign's backup."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.text import slugify

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import gm_view, member_view

from . import backup, integrity, signing
from .models import LogEntry, LogSeal, Visibility

# The most entries one proof lists; a browser that kept a head further back starts afresh.
MAX_PROOF_ENTRIES = 5000


@gm_view("GET")
def log_verify(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Recompute the chain from what the database holds now."""
    report = integrity.database_verdict(campaign)
    return htmx.page(
        request, "play/integrity.html", {"campaign": campaign, "report": report}, partial="integrity-panel"
    )


@gm_view("GET")
def campaign_backup(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Everything the campaign keeps, log included, as one JSON document (streamed)."""
    response = StreamingHttpResponse(backup.backup_chunks(campaign), content_type="application/json")
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="{slugify(campaign.name)}-backup-{stamp}.json"'
    return response


@member_view("GET")
def log_head(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """The players' chain's signed head, and what proves it extends the head a reader kept:
    the hashes of the entries everyone reads that came after the first ``since`` of them.
    A reader's browser recomputes the chain from the root it kept through these hashes and
    checks the server's signature of where it ends (``static/js/log-check.js``). Nothing
    here counts or names an entry players may not read."""
    seal = LogSeal.objects.filter(campaign=campaign).first()
    if seal is None:
        return JsonResponse({"error": "This campaign's log has no signed head."}, status=409)
    since = request.GET.get("since", "0")
    if not since.isascii() or not since.isdigit() or len(since) > 9:
        return JsonResponse({"error": "since must be a count of entries."}, status=400)
    since = int(since)
    if since > seal.public_length:
        return JsonResponse(
            {"error": "The head you kept is past the end of this log.", "length": seal.public_length},
            status=409,
        )
    hashes = None
    if seal.public_length - since <= MAX_PROOF_ENTRIES:
        public = LogEntry.objects.filter(campaign=campaign, visibility=Visibility.EVERYONE).order_by("seq")
        hashes = list(public.values_list("hash", flat=True)[since : seal.public_length])
    response = JsonResponse(
        {
            "public_key": signing.public_key(),
            "statement": seal.public_statement(str(campaign.code)),
            "signature": seal.public_signature,
            "since": since,
            "hashes": hashes,
        }
    )
    response["Cache-Control"] = "no-store"
    return response
