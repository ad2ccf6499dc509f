"""Reads the pages people watch between rolls share: the players' page as one context,
and who plays. Nothing here writes."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Page
from django.db.models import Count, Q, Subquery
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
    """The shared records ``user`` plays (their own of the shared ``ships`` and ``units``,
    and the characters aboard them), each with the procedures they can start from it."""
    if user is None or not user.is_authenticated:
        return []
    mine = [*ships().own, *units().own]
    if mine:
        characters = (
            Character.objects.in_campaign(campaign).visible_to("player").filter(Character.owned_by(user))
        )
        mine += list(characters.select_related("ship", "unit"))
    return [obj for obj in owned_actions(campaign, user, mine) if obj.player_actions]


# How many of the shared ships and units, and of the player's own records, the players'
# page shows before its "Show all" (a campaign's hundreds of records are the page's bulk).
PLAYER_RECORDS_SHOWN = 24
MY_RECORDS_SHOWN = 12


class Cut(list):
    """The first ``limit`` of ``items`` (all of them when ``limit`` is None), knowing how
    many there are in all (``total``, when ``items`` are already only the first) and how
    many it leaves out (``more``); ``own``: those of ``items`` the reader plays."""

    def __init__(self, items, limit: int | None, total: int | None = None, own: list | None = None):
        items = list(items)
        super().__init__(items if limit is None else items[:limit])
        self.total = len(items) if total is None else total
        self.more = self.total - len(self)
        self.own = [] if own is None else own


def shared_records(model, campaign: Campaign, related: str, user, limit: int | None) -> Cut:
    """The shared records of ``model`` a players' page shows (the first ``limit``, or all
    when None) and how many there are, with the reader's own among them (``Cut.own``), in
    one query: the first ``limit`` and the reader's own, in the list's order, so the first
    ``limit`` of them are the first ``limit`` shared."""
    shared = model.objects.in_campaign(campaign).visible_to("player")
    found = shared.select_related(related)
    if limit is not None:
        first = shared.values("pk")[:limit]
        owned = model.owned_by(user) if user is not None and user.is_authenticated else Q(pk__in=[])
        found = found.filter(Q(pk__in=first) | owned)
        total = shared.order_by().values("campaign").annotate(n=Count("pk")).values("n")
        found = found.annotate(shared_total=Subquery(total))
    found = list(found)
    user_id = getattr(user, "pk", None)
    own = [obj for obj in found if user_id is not None and obj.owner_id == user_id]
    if limit is None:
        return Cut(found, None, own=own)
    return Cut(found, limit, total=found[0].shared_total if found else 0, own=own)


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
    limit = None if show_all else PLAYER_RECORDS_SHOWN
    ships = Lazy(shared_records, Ship, campaign, "star_system", user, limit)
    units = Lazy(shared_records, Unit, campaign, "landed_on", user, limit)
    owned = Lazy(owned_records, campaign, user, ships, units)

    def page() -> Page:
        entries, hidden, numbering = reading()
        if role == "gm":
            return log_page(campaign, role, 1, user, total=entries)
        return log_page(campaign, role, 1, user, total=entries - hidden, numbering=numbering)

    return {
        "player_panels": panels,
        **{p.name: Lazy(p.context, campaign) for p in panels},
        "owned": owned,
        "my_records": Lazy(lambda: Cut(owned(), None if show_all else MY_RECORDS_SHOWN)),
        "campaign": campaign,
        "role": role,
        "reader": user,
        "page": Lazy(page),
        "ships": ships,
        "units": units,
        "shown_ships": ships,
        "shown_units": units,
        "show_all": show_all,
        "records_shown": PLAYER_RECORDS_SHOWN,
        "my_records_shown": MY_RECORDS_SHOWN,
        "poll_version": version
        if version is not None
        else Lazy(lambda: poll_version(campaign, role, hidden=reading()[1])),
    }
