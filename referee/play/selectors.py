"""Reads the pages share: the log a role may see, the records with the procedures they
can start, and the GM's dashboard and the players' status page as one context each.

Views, panels and family modules read through here; nothing here writes."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from referee.campaigns.forms import InviteForm
from referee.campaigns.models import Campaign, Membership
from referee.fleet.models import Character, Marker, Ship, StarSystem, Unit

from . import families, pending
from .models import LogEntry, Numbering

LOG_PAGE_SIZE = 25


class _LogPaginator(Paginator):
    """A paginator told the total instead of counting it: a ``COUNT(*)`` over a long log
    on every render costs more than the page it numbers."""

    def __init__(self, entries, per_page: int, *, total: int):
        super().__init__(entries, per_page)
        self.total = total

    @cached_property
    def count(self) -> int:
        return self.total


def log_total(campaign: Campaign, role: str) -> int:
    """How many entries ``role`` sees, from two index lookups: seqs run 1, 2, 3... without
    gaps, so the log holds ``max(seq)`` entries, less for players the hidden ones (few,
    under a partial index)."""
    table = LogEntry._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT coalesce(max(seq), 0) FROM {table} WHERE campaign_id = %s), "
            f"(SELECT count(*) FROM {table} WHERE campaign_id = %s AND visibility = 'gm' "
            f"AND revealed_at IS NULL)",
            [campaign.pk, campaign.pk],
        )
        entries, hidden = cursor.fetchone()
    return entries if role == "gm" else entries - hidden


def log_page(campaign: Campaign, role: str, page: str | int | None) -> Page:
    """One page of the log as ``role`` sees it, newest first."""
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .visible_to(role)
        .select_related("reversed_by", "reversal_of")
        .order_by("-seq")
    )
    page = _LogPaginator(entries, LOG_PAGE_SIZE, total=log_total(campaign, role)).get_page(page)
    if role != "gm":
        page.object_list = Numbering.for_campaign(campaign).apply(page.object_list)
    else:  # the state of each change left to the GM: pending, applied or ruled out
        page.object_list = list(page.object_list)
        pending.attach(page.object_list, campaign)
    return page


def poll_version(campaign: Campaign, role: str, *, hidden: int | None = None) -> str:
    """The version of what ``role`` sees, for the status poll: ``state_version``, less
    for players the number of entries they cannot see (``hidden``, counted if not given).
    Each hidden entry's insert bumps ``state_version`` by exactly one (one statement-level
    touch), so a GM-only roll that changed nothing players see leaves their version as it
    was; revealing it moves it on by two."""
    if role == "gm":
        return str(campaign.state_version)
    if hidden is None:
        hidden = LogEntry.objects.in_campaign(campaign).hidden().count()
    return str(campaign.state_version - hidden)


def membership_for_poll(user, code) -> Membership | None:
    """The user's membership of campaign ``code`` with its campaign and the campaign's
    count of hidden entries (``hidden``), in one query: the status poll's only one."""
    hidden = (
        LogEntry.objects.hidden()
        .filter(campaign=OuterRef("campaign"))
        .order_by()
        .values("campaign")
        .annotate(n=Count("pk"))
        .values("n")
    )
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.select_related("campaign")
        .annotate(hidden=Coalesce(Subquery(hidden), 0))
        .filter(campaign__code=code, user=user)
        .first()
    )


def with_actions(campaign: Campaign, objects) -> list:
    """Each object with the procedures it can start: ``obj.menu``, its Roll… menu as
    (heading, [(label, url)]) in the order a GM reaches for them (``families.menu``), and
    ``obj.actions``, the same (label, url) pairs in that order."""
    objects = list(objects)
    families.prepare_menus(objects)  # what the menus need, read for all the objects at once
    urls: dict[str, str] = {}  # each procedure's URL reversed once, not once per record

    def url(procedure_id: str) -> str:
        if procedure_id not in urls:
            urls[procedure_id] = reverse("play:procedure", args=[campaign.code, procedure_id])
        return urls[procedure_id]

    for obj in objects:
        obj.menu = [
            (heading, [(b.label, f"{url(b.procedure_id)}?{b.roles[0].name}={obj.code}") for b in found])
            for heading, found in families.menu(families.bindings_for(obj))
        ]
        obj.actions = [action for _, actions in obj.menu for action in actions]
    return objects


def ships_panel(campaign: Campaign) -> list:
    ships = Ship.objects.in_campaign(campaign).select_related("star_system", "docked_on", "owner")
    return with_actions(campaign, ships)


def units_panel(campaign: Campaign) -> list:
    return with_actions(campaign, Unit.objects.in_campaign(campaign).select_related("landed_on", "owner"))


def characters_panel(campaign: Campaign) -> list:
    return with_actions(campaign, Character.objects.in_campaign(campaign).select_related("ship", "unit"))


def systems_panel(campaign: Campaign) -> list:
    return list(StarSystem.objects.in_campaign(campaign))


def markers_panel(campaign: Campaign) -> list:
    return with_actions(campaign, Marker.objects.in_campaign(campaign).select_related("ship"))


class Lazy:
    """A context value read from the database when a template first uses it: a panel the
    fragment cache serves (``{% fragment %}``) never does. Templates call it (as they call
    any callable they look up); the value is computed once."""

    def __init__(self, compute, *args):
        self._compute, self._args = compute, args

    def __call__(self):
        if self._compute is not None:
            self._value = self._compute(*self._args)
            self._compute = self._args = None
        return self._value


def panels_context(campaign: Campaign) -> dict:
    """Every family's dashboard panels, each panel's context under its name, and the
    panels in their groups (``groups``), each read only when the page renders it."""
    panels = families.panels()
    context = {p.name: Lazy(p.context, campaign) for p in panels}
    return {"groups": Lazy(dashboard_groups, panels, context), **context}


def dashboard_groups(panels: list, context: dict) -> list[dict]:
    """The dashboard's groups in order, each with its panels and how many records they
    show; a group with none is ``empty`` (the page folds it away)."""
    groups = []
    for slug, title in families.GROUPS.items():
        members = [p for p in panels if p.group == slug]
        if not members:
            continue
        records = sum(p.records(context[p.name]()) for p in members)
        groups.append(
            {"slug": slug, "title": title, "panels": members, "records": records, "empty": not records}
        )
    return groups


def dashboard_context(campaign: Campaign) -> dict:
    """Everything the GM's dashboard shows, every family's panels included."""
    return {
        "campaign": campaign,
        "role": "gm",
        "kinds": families.kinds(),
        "page": Lazy(log_page, campaign, "gm", 1),
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
        "page": Lazy(log_page, campaign, "player", 1),
        "ships": Ship.objects.in_campaign(campaign).visible_to("player").select_related("star_system"),
        "units": Unit.objects.in_campaign(campaign).visible_to("player").select_related("landed_on"),
        "poll_version": Lazy(poll_version, campaign, "player"),
    }
