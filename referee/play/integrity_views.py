"""The GM's integrity tools: check the log's hash chain, download the campaign's backup."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import slugify

from referee.campaigns.access import gm_view
from referee.campaigns.models import Campaign

from . import backup, integrity


@gm_view("GET")
def log_verify(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Recompute the chain from what the database holds now."""
    report = integrity.verify_campaign(campaign)
    template = "play/integrity.html#integrity-panel" if request.htmx else "play/integrity.html"
    return render(request, template, {"campaign": campaign, "report": report})


@gm_view("GET")
def campaign_backup(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Everything the campaign keeps, log included, as one JSON document (streamed)."""
    response = StreamingHttpResponse(backup.backup_chunks(campaign), content_type="application/json")
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="{slugify(campaign.name)}-backup-{stamp}.json"'
    return response
