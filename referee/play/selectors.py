"""Reads the pages share: the log a role may see, the records with the procedures they
can start, and the GM's dashboard and the players' status page as one context each.

Views, panels and family modules read through here; nothing here writes."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils import timezone

from referee.campaigns.forms import InviteForm
from referee.campaigns.models import Campaign
from referee.campaigns.panels import panels_context
from referee.fleet.forms import KINDS
from referee.fleet.models import Character, Marker, Ship, StarSystem, Unit

from . import bindings
from .models import LogEntry

LOG_PAGE_SIZE = 25


def log_page(campaign: Campaign, role: str, page: str | int | None) -> Page:
    """One page of the log as ``role`` sees it, newest first."""
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .visible_to(role)
        .select_related("reversed_by", "reversal_of")
        .order_by("-seq")
    )
    return Paginator(entries, LOG_PAGE_SIZE).get_page(page)


def with_actions(campaign: Campaign, objects) -> list:
    """Each object with the procedures it can start (``obj.actions``: label, url)."""
    objects = list(objects)
    for obj in objects:
        obj.actions = [
            (
                b.label,
                reverse("play:procedure", args=[campaign.code, b.procedure_id])
                + f"?{b.roles[0].name}={obj.code}",
            )
            for b in bindings.for_object(obj)
        ]
    return objects


def dashboard_context(campaign: Campaign) -> dict:
    """Everything the GM's dashboard shows, every family's panels included."""
    ships = Ship.objects.in_campaign(campaign).select_related("star_system", "docked_on", "owner")
    return {
        "campaign": campaign,
        "role": "gm",
        "kinds": KINDS,
        "ships": with_actions(campaign, ships),
        "units": with_actions(
            campaign, Unit.objects.in_campaign(campaign).select_related("landed_on", "owner")
        ),
        "characters": with_actions(
            campaign, Character.objects.in_campaign(campaign).select_related("ship", "unit")
        ),
        "page": log_page(campaign, "gm", 1),
        "systems": StarSystem.objects.in_campaign(campaign),
        "markers": with_actions(campaign, Marker.objects.in_campaign(campaign).select_related("ship")),
        # Unrevoked links, and those that ran out this past week (so the GM sees why one stopped).
        "invites": campaign.invites.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now() - timedelta(days=7)
        ),
        "invite_form": InviteForm(),
        **panels_context(campaign),
        "members": campaign.memberships.select_related("user"),
    }


def player_context(campaign: Campaign) -> dict:
    """What players see: the shared ships and units, and the public log."""
    return {
        "campaign": campaign,
        "role": "player",
        "page": log_page(campaign, "player", 1),
        "ships": Ship.objects.in_campaign(campaign).visible_to("player").select_related("star_system"),
        "units": Unit.objects.in_campaign(campaign).visible_to("player").select_related("landed_on"),
    }
