"""Reads the pages people watch between rolls share: the players' page as one context,
and who plays. Nothing here writes."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Page
from django.db.models import Count, Window
from django.utils import timezone

from referee.campaigns.forms import InviteForm
from referee.campaigns.models import Campaign
from referee.fleet.models import Character, Ship, Unit
from referee.play import families
from referee.play.players import owned_actions
from referee.play.selectors import Lazy, log_page, log_reading, poll_version


def players_context(campaign: Campaign) -> dict:
    """Who plays and the invite links: the dashboard's folded group, read when it opens."""
    return {
        "campaign": campaign,
        "role": "gm",
        # Unrevoked links, and those that ran out this past week (so the GM sees why one stopped).
        "invites": campaign.invites.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now() - timedelta(days=7)
        ),
        "invite_form": InviteForm(),
        "members": campaign.memberships.select_related("user"),
    }


def owned_records(campaign: Campaign, user, ships, units) -> list:
    """The shared records ``user`` plays (of the shared ``ships`` and ``units``, and the
    characters aboard them), each with the procedures they can start from it."""
    if user is None or not user.is_authenticated:
        return []
    ships, units = (found() if callable(found) else found for found in (ships, units))
    mine = [obj for obj in [*ships, *units] if obj.owner_id == user.pk]
    if mine:
        characters = (
            Character.objects.in_campaign(campaign).visible_to("player").filter(Character.owned_by(user))
        )
        mine += list(characters.select_related("ship", "unit"))
    return [obj for obj in owned_actions(campaign, user, mine) if obj.player_actions]


def _shared(model, campaign: Campaign, related: str) -> list:
    return list(model.objects.in_campaign(campaign).visible_to("player").select_related(related))


# How many of the shared ships and units, and of the player's own records, the players'
# page shows before its "Show all" (a campaign's hundreds of records are the page's bulk).
PLAYER_RECORDS_SHOWN = 24
MY_RECORDS_SHOWN = 12


class Cut(list):
    """The first ``limit`` of ``items`` (all of them when ``limit`` is None), knowing how
    many there are in all (``total``, when ``items`` are already only the first) and how
    many it leaves out (``more``)."""

    def __init__(self, items, limit: int | None, total: int | None = None):
        items = list(items)
        super().__init__(items if limit is None else items[:limit])
        self.total = len(items) if total is None else total
        self.more = self.total - len(self)


def _first_shared(model, campaign: Campaign, related: str, limit: int) -> Cut:
    """The first ``limit`` shared records of ``model`` and how many there are, in one query."""
    found = list(
        model.objects.in_campaign(campaign)
        .visible_to("player")
        .select_related(related)
        .annotate(shared_total=Window(Count("pk")))[:limit]
    )
    return Cut(found, limit, total=found[0].shared_total if found else 0)


def player_context(
    campaign: Campaign,
    user=None,
    *,
    role: str = "player",
    version: str | None = None,
    show_all: bool = False,
) -> dict:
    """What player ``user`` sees: the shared ships and units, the family panels of what is
    shared, and the log as they read it (the status poll passes the ``version`` it has
    read, and a GM's ``role``). Each is read only when the page renders it (``Lazy``).
    The page shows the first few shared ships, units and records of the player's own,
    each list with its "Show all" (``show_all``: every one of them)."""
    panels = families.player_panels()
    reading = Lazy(log_reading, campaign, user)
    ships, units = Lazy(_shared, Ship, campaign, "star_system"), Lazy(_shared, Unit, campaign, "landed_on")
    owned = Lazy(owned_records, campaign, user, ships, units)

    def page() -> Page:
        entries, hidden, numbering = reading()
        if role == "gm":
            return log_page(campaign, role, 1, user, total=entries)
        return log_page(campaign, role, 1, user, total=entries - hidden, numbering=numbering)

    def shown(items: Lazy, limit: int, model=None, related: str = "") -> Cut:
        if show_all or model is None or items.read:  # the page read them all for the player's own
            return Cut(items, None if show_all else limit)
        return _first_shared(model, campaign, related, limit)  # the poll reads only what it shows

    return {
        "player_panels": panels,
        **{p.name: Lazy(p.context, campaign) for p in panels},
        "owned": owned,
        "my_records": Lazy(shown, owned, MY_RECORDS_SHOWN),
        "campaign": campaign,
        "role": role,
        "reader": user,
        "page": Lazy(page),
        "ships": ships,
        "units": units,
        "shown_ships": Lazy(shown, ships, PLAYER_RECORDS_SHOWN, Ship, "star_system"),
        "shown_units": Lazy(shown, units, PLAYER_RECORDS_SHOWN, Unit, "landed_on"),
        "show_all": show_all,
        "records_shown": PLAYER_RECORDS_SHOWN,
        "my_records_shown": MY_RECORDS_SHOWN,
        "poll_version": version
        if version is not None
        else Lazy(lambda: poll_version(campaign, role, hidden=reading()[1])),
    }
