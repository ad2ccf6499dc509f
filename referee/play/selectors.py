"""Reads the pages share: the log a role may see, the records with the procedures they
can start, and the GM's dashboard and the players' status page as one context each.

Views, panels and family modules read through here; nothing here writes."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from django.apps import apps
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    Q,
    QuerySet,
    Value,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.functional import cached_property

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import Character, Marker, Ship, StarSystem, Unit

from . import families, pending, sharing, wording
from .models import LogEntry, Numbering, hidden_sql, unnumbered_sql

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


def log_total(campaign: Campaign, role: str, user=None) -> int:
    """How many entries ``role`` (player ``user``) sees, from two index lookups: seqs run
    1, 2, 3... without gaps, so the log holds ``max(seq)`` entries, less for players the
    ones hidden from them (few, under a partial index)."""
    entries, hidden = log_counts(campaign, user)
    return entries if role == "gm" else entries - hidden


def log_counts(campaign: Campaign, user=None) -> tuple[int, int]:
    """(entries in the log, entries hidden from player ``user``), in one query."""
    table = LogEntry._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT coalesce(max(seq), 0) FROM {table} WHERE campaign_id = %s), "
            f"(SELECT count(*) FROM {table} WHERE campaign_id = %s AND {hidden_sql()})",
            [campaign.pk, campaign.pk, getattr(user, "pk", None)],
        )
        return cursor.fetchone()


def log_reading(campaign: Campaign, user=None) -> tuple[int, int, Numbering]:
    """(entries in the log, entries hidden from player ``user``, the player's numbering), in
    one query: what the players' page needs of the log beyond its page of entries."""
    table = LogEntry._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT coalesce(max(seq), 0) FROM {table} WHERE campaign_id = %s), "
            f"(SELECT count(*) FROM {table} WHERE campaign_id = %s AND {hidden_sql()}), "
            f"ARRAY(SELECT seq FROM {table} WHERE campaign_id = %s AND {unnumbered_sql()} ORDER BY seq)",
            [campaign.pk, campaign.pk, getattr(user, "pk", None), campaign.pk, getattr(user, "pk", None)],
        )
        entries, hidden, unnumbered = cursor.fetchone()
    return entries, hidden, Numbering(unnumbered)


def log_page(
    campaign: Campaign,
    role: str,
    page: str | int | None,
    user=None,
    *,
    total: int | None = None,
    numbering: Numbering | None = None,
) -> Page:
    """One page of the log as ``role`` (player ``user``) sees it, newest first (``total``:
    how many entries that is, and ``numbering``: the player's, when the caller has read them)."""
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .visible_to(role, user)
        .select_related("reversed_by", "reversal_of")
        .order_by("-seq")
    )
    if total is None:
        total = log_total(campaign, role, user)
    page = _LogPaginator(entries, LOG_PAGE_SIZE, total=total).get_page(page)
    _read(page, campaign, role, user, numbering)
    return page


def gm_newest_page(campaign: Campaign) -> Page:
    """The GM's newest page of the log (the dashboard's feed) in one query: seqs run 1, 2,
    3... without gaps, so the newest entry's seq says how many the log holds."""
    entries = list(
        LogEntry.objects.in_campaign(campaign)
        .visible_to("gm")
        .select_related("reversed_by", "reversal_of")
        .order_by("-seq")[:LOG_PAGE_SIZE]
    )
    page = _LogPaginator(entries, LOG_PAGE_SIZE, total=entries[0].seq if entries else 0).page(1)
    _read(page, campaign, "gm", None)
    return page


def _read(page, campaign: Campaign, role: str, user, numbering: Numbering | None = None, known=None) -> None:
    """The page's entries as ``role`` reads them: numbered as the reader numbers them, the
    records they name as the reader may know them (``known``: the codes of records the
    page already holds as the reader's, read for the rest), in the diary's rows."""
    if role != "gm":
        numbering = numbering or Numbering.for_campaign(campaign, user)
        page.object_list = numbering.apply(page.object_list)
        codes = {s["code"] for e in page.object_list for s in named_codes(e)}
        seen = records_seen(campaign, role, codes) if codes else {str(campaign.code): 1}
        for entry in page.object_list:
            entry.seen = seen
    else:  # the state of each change left to the GM: pending, applied or ruled out
        page.object_list = list(page.object_list)
        pending.attach(page.object_list, campaign)
    page.rows = diary_rows(page.object_list)


def named_codes(entry: LogEntry) -> list[dict]:
    """Each record an entry names in its words: its subjects, changes and their values."""
    words = entry.words if isinstance(entry.words, dict) else {}
    found = list(words.get("subjects") or [])
    for change in words.get("changes") or []:
        found.append({"code": change.get("code", "")})
        found += [{"code": c} for c in (change.get("before_codes") or []) + (change.get("after_codes") or [])]
    return [f for f in found if _UUID.match(str(f.get("code", "")))]


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def diary_rows(entries) -> list[dict]:
    """The log as a diary reads it, newest first: a heading where the turn or phase changes
    (``heading``: turn and phase; ``marks``: the turn and phase entries that began it,
    which read as part of the heading, not as entries), and each other entry (``entry``)."""
    rows: list[dict] = []
    current = None
    for entry in entries:
        if (entry.turn, entry.phase) != current:
            current = (entry.turn, entry.phase)
            rows.append({"heading": f"Turn {entry.turn} · {entry.get_phase_display()}", "marks": []})
        if entry.procedure == "turn.advance":
            next(r for r in reversed(rows) if "heading" in r)["marks"].append(entry)
        else:
            rows.append({"entry": entry})
    return rows


@dataclass(frozen=True)
class LogFilters:
    """What a reader asks of the log page: a turn, a record, a procedure, words to find,
    and where the page starts (``before``: entries numbered below it, as the reader numbers)."""

    turn: int | None = None
    record: str | None = None
    procedure: str | None = None
    text: str = ""
    before: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.turn is not None or self.record or self.procedure or self.text or self.before)

    def query(self, **changes) -> str:
        values = {
            "turn": self.turn,
            "record": self.record,
            "procedure": self.procedure,
            "q": self.text,
            "before": self.before,
        } | changes
        return urlencode({k: v for k, v in values.items() if v not in (None, "")})


class FilteredPage:
    """One page of a filtered log, newest first, paged by entry number (``before``), so no
    page counts or skips the entries before it."""

    def __init__(self, entries: list, has_next: bool, filters: LogFilters):
        self.object_list, self.filters, self.has_next = entries, filters, has_next
        self.filtered, self.rows = True, []

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    @property
    def has_previous(self) -> bool:
        return self.filters.before is not None

    @property
    def has_other_pages(self) -> bool:
        return self.has_next or self.has_previous

    @property
    def older_query(self) -> str:
        return self.filters.query(before=self.object_list[-1].number) if self.object_list else ""

    @property
    def newest_query(self) -> str:
        return self.filters.query(before=None)


def log_filtered(campaign: Campaign, role: str, user, filters: LogFilters) -> FilteredPage:
    """The entries ``role`` (player ``user``) may read that match ``filters``, newest first,
    ``LOG_PAGE_SIZE`` at a time. Players search only what they read (an entry's words as
    players read them), and may filter only by a record they may see."""
    entries = LogEntry.objects.in_campaign(campaign).visible_to(role, user)
    numbering = Numbering.for_campaign(campaign, user) if role != "gm" else None
    if filters.turn is not None:
        entries = entries.filter(turn=min(filters.turn, 2**31 - 1))
    if filters.procedure:
        entries = entries.filter(procedure=filters.procedure)
    if filters.record:
        if role != "gm" and records_seen(campaign, role, [filters.record]).get(filters.record) != 1:
            entries = entries.none()
        entries = entries.filter(words__subjects__contains=[{"code": filters.record}])
    if filters.text:
        if role == "gm":
            found = Q(words__title__icontains=filters.text) | Q(words__summary__icontains=filters.text)
            found |= Q(words__about__icontains=filters.text) | Q(words__changed__icontains=filters.text)
        else:
            title = Coalesce(KT("words__player_title"), KT("words__title"))
            summary = Coalesce(KT("words__player_summary"), KT("words__summary"))
            entries = entries.annotate(said_title=title, said_summary=summary)
            found = Q(said_title__icontains=filters.text) | Q(said_summary__icontains=filters.text)
        entries = entries.filter(found)
    if filters.before is not None:
        before = min(filters.before, 2**62)
        entries = entries.filter(seq__lt=numbering.seq(before) if numbering else before)
    found = list(entries.select_related("reversed_by", "reversal_of").order_by("-seq")[: LOG_PAGE_SIZE + 1])
    page = FilteredPage(found[:LOG_PAGE_SIZE], len(found) > LOG_PAGE_SIZE, filters)
    _read(page, campaign, role, user, numbering)
    return page


def log_filter_choices(campaign: Campaign, role: str) -> dict:
    """The log page's filter choices: the records the reader may see, by name (one query),
    and every procedure and log event, by name."""
    parts = [
        model.objects.in_campaign(campaign).visible_to(role).order_by().values_list("code", "name")
        for model in _record_models()
        if any(f.name == "name" for f in model._meta.concrete_fields)
    ]
    records = (
        sorted(
            ((str(code), name) for code, name in parts[0].union(*parts[1:], all=True)),
            key=lambda r: r[1].lower(),
        )
        if parts
        else []
    )
    procedures = sorted(
        [(pid, wording.procedure_name(pid)) for pid in [*rules.PROCEDURE_IDS, *wording.EVENTS]],
        key=lambda p: p[1].lower(),
    )
    return {"records": records, "procedures": procedures}


def _record_models() -> list:
    """Every model whose records a campaign keeps under a code and shows by role."""
    return [
        model
        for model in apps.get_models()
        if hasattr(model, "code")
        and hasattr(model.objects, "visible_to")
        and hasattr(model.objects, "in_campaign")
    ]


def records_seen(campaign: Campaign, role: str, codes=None) -> dict[str, int] | None:
    """For a reader who may not see every record: each record's code mapped to 1 if they
    may see it, 0 if it is kept from them, ``sharing.KEPT_SYSTEM`` for a star system kept
    from them (``sharing.kept_words`` words each; the campaign itself is seen by all); a record
    not in the map is no longer kept. None for the GM, who sees all. ``codes`` narrows it
    to those records (what is not a record's code names none). One query, whatever the
    number of record types, its statement built once per process (``_seen_statement``)."""
    if role == "gm":
        return None
    found = {str(campaign.code): 1}
    wanted = None
    if codes is not None:
        wanted = list(dict.fromkeys(u for u in map(_uuid_or_none, codes) if u is not None))
        if not wanted:
            return found
    if wanted is not None and len(wanted) > RECORDS_SEEN_MAX_CODES:
        raise ValueError("too many records to look up at once")
    sql, params = _seen_statement(role, wanted is not None)
    # The campaign and the codes are the statement's first parameters (``SEEN_ARGS``).
    args = [campaign.pk, wanted or []]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*args, *params])
        for code, seen in cursor.fetchall():
            found[str(code)] = max(seen, found[str(code)]) if str(code) in found else seen
    return found


# What ``records_seen``'s statement reads its campaign and codes from: one row of
# parameters the compiled union refers to, so the ORM compiles it once per role.
SEEN_ARGS = "WITH seen_args AS (SELECT %s::bigint AS campaign_id, %s::uuid[] AS codes) "
_SEEN_CAMPAIGN = RawSQL("(SELECT campaign_id FROM seen_args)", ())
_SEEN_CODES = RawSQL("SELECT unnest(codes) FROM seen_args", ())


RECORDS_SEEN_MAX_CODES = 10_000


def _uuid_or_none(code) -> uuid.UUID | None:
    try:
        return code if isinstance(code, uuid.UUID) else uuid.UUID(str(code))
    except (ValueError, AttributeError, TypeError):
        return None


@lru_cache(maxsize=8)
def _seen_statement(role: str, by_code: bool) -> tuple[str, tuple]:
    """``records_seen``'s union over every record type, compiled by the ORM once per role
    (compiling it cost more than running it), reading its campaign and codes from
    ``SEEN_ARGS``."""
    parts = []
    for model in _record_models():
        every = model.objects.filter(campaign_id=_SEEN_CAMPAIGN).order_by()
        if by_code:
            every = every.filter(code__in=_SEEN_CODES)
        seen = every.visible_to(role)
        parts.append(every.annotate(seen=Value(sharing.kept_mark(model))).values_list("code", "seen"))
        parts.append(seen.annotate(seen=Value(1)).values_list("code", "seen"))
    if not parts:
        return SEEN_ARGS + "SELECT NULL, 0 WHERE false", ()
    sql, params = parts[0].union(*parts[1:], all=True).query.sql_with_params()
    return SEEN_ARGS + sql, params


def poll_version(campaign: Campaign, role: str, *, hidden: int | None = None, user=None) -> str:
    """The version of what ``role`` sees, for the status poll: ``state_version``, less
    for players the number of entries they cannot see (``hidden``, counted if not given)
    and the moves of GM-only changes to what they cannot see (``unseen_version``). Each
    hidden entry's insert bumps ``state_version`` by exactly one (one statement-level
    touch), and ``services.log_append`` counts the rest of a GM-only change's moves, so a
    GM-only roll or edit that changed nothing players see leaves their version as it was."""
    if role == "gm":
        return str(campaign.state_version)
    if hidden is None:
        hidden = LogEntry.objects.in_campaign(campaign).hidden(user).count()
    return str(campaign.state_version - campaign.unseen_version - hidden)


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


# The dashboard's record panels: each row's Roll… menu is read when it opens
# (``referee.dashboard.record_views.object_roll``), not with the panel. The fleet's lists show
# ``PANEL_ROWS`` records at a time, by name; the rest are a link away (``panel_page``).
PANEL_ROWS = 25


class PanelPage(list):
    """One page of a record panel's rows in name order: a list of the rows, with how many
    records there are in all (``total``), which page it is (``number``; 0 for all of them)
    and how many a page holds (``size``)."""

    def __init__(self, rows, *, total: int, number: int, size: int = PANEL_ROWS):
        super().__init__(rows)
        self.total, self.number, self.size = total, number, size

    @property
    def showing_all(self) -> bool:
        return self.number == 0

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    @property
    def has_other_pages(self) -> bool:
        return self.total > self.size

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return 0 < self.number < self.pages

    @property
    def first_row(self) -> int:
        return 1 if self.showing_all else (self.number - 1) * self.size + 1

    @property
    def last_row(self) -> int:
        return self.first_row + len(self) - 1

    @property
    def next_size(self) -> int:
        """How many rows the next page holds."""
        return min(self.size, self.total - self.number * self.size)


def _paged(records: QuerySet, number: int) -> PanelPage:
    """Page ``number`` (from 1; 0: every record) of ``records`` by name, counted in the same
    query (a window over the rows the campaign holds), so a page costs one query however
    long the list. A page past the end is empty, with the total counted apart."""
    ordered = records.order_by("name", "pk")
    page = ordered.annotate(panel_total=Window(Count("pk")))
    rows = list(page[(number - 1) * PANEL_ROWS : number * PANEL_ROWS] if number else page)
    total = rows[0].panel_total if rows else (ordered.count() if number > 1 else 0)
    return PanelPage(rows, total=total, number=number)


def _without_sheets(records: QuerySet) -> QuerySet:
    """Ships or units without their record sheets (a long document each, which a list does
    not show), and whether each has one (``has_sheet``: its row offers the unit file)."""
    has_sheet = ExpressionWrapper(~Q(sheet={}), output_field=BooleanField())
    return records.defer("sheet").annotate(has_sheet=has_sheet)


def ships_panel(campaign: Campaign, number: int = 1) -> PanelPage:
    ships = Ship.objects.in_campaign(campaign).select_related("star_system", "docked_on", "owner")
    return _paged(_without_sheets(ships), number)


def units_panel(campaign: Campaign, number: int = 1) -> PanelPage:
    units = Unit.objects.in_campaign(campaign).select_related("landed_on", "owner")
    return _paged(_without_sheets(units), number)


def characters_panel(campaign: Campaign, number: int = 1) -> PanelPage:
    return _paged(Character.objects.in_campaign(campaign).select_related("ship", "unit"), number)


def systems_panel(campaign: Campaign, number: int = 1) -> PanelPage:
    return _paged(StarSystem.objects.in_campaign(campaign), number)


def markers_panel(campaign: Campaign, number: int = 1) -> PanelPage:
    return _paged(Marker.objects.in_campaign(campaign).select_related("ship"), number)


# The panels a GM can page through, by the kind of record they list (``panel_page``).
PAGED_PANELS = {
    "ships": ships_panel,
    "units": units_panel,
    "characters": characters_panel,
    "systems": systems_panel,
    "markers": markers_panel,
}


def panel_page(campaign: Campaign, kind: str, number: int) -> PanelPage | None:
    """Page ``number`` of the dashboard panel listing ``kind`` (0: all of it); None for a
    kind whose panel is not paged."""
    panel = PAGED_PANELS.get(kind)
    return panel(campaign, number) if panel is not None else None


class Lazy:
    """A context value read from the database when a template first uses it: a panel the
    fragment cache serves (``{% fragment %}``) never does. Templates call it (as they call
    any callable they look up); the value is computed once."""

    def __init__(self, compute, *args):
        self._compute, self._args = compute, args

    @property
    def read(self) -> bool:
        """Whether the value has been read already."""
        return self._compute is None

    def __call__(self):
        if self._compute is not None:
            self._value = self._compute(*self._args)
            self._compute = self._args = None
        return self._value

    # Read from Python, it is the value it stands for.
    def __iter__(self):
        return iter(self())

    def __len__(self) -> int:
        return len(self())

    def __getitem__(self, key):
        return self()[key]


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
        "page": Lazy(gm_newest_page, campaign),
        # The players a note can be whispered to (the note form's choices).
        "members": Lazy(_players_of, campaign),
        **panels_context(campaign),
    }


def _players_of(campaign: Campaign) -> list:
    return list(campaign.memberships.filter(role="player").select_related("user").order_by("user__username"))
