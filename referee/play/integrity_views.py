"""The GM's integrity tools: check the log's hash chain, download the campaign's backup."""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.text import slugify

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import gm_view

from . import backup, integrity


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
