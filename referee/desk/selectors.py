"""The GM's desk: what waits on the GM, read in a few queries whatever the log's length.

Player rolls waiting to be accepted, changes the rules left for the GM to apply, and the
campaign clock's events that have come due."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q

from referee.campaigns.models import Campaign
from referee.clock.models import EventStatus, TimedEvent
from referee.fleet.models import Ship
from referee.play import pending
from referee.play.models import RULINGS, LogEntry

TEMPLATE = "desk/desk.html#desk-panel"
# The most of each kind the desk lists; the rest are counted and found in the log.
SHOWN = 20


@dataclass
class Desk:
    rolls: list[LogEntry] = field(default_factory=list)
    changes: list[tuple[LogEntry, pending.PendingEffect]] = field(default_factory=list)
    events: list[TimedEvent] = field(default_factory=list)
    detections: list[tuple[LogEntry, Ship, Ship]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def waiting_rolls(campaign: Campaign):
    ruled = LogEntry.objects.filter(refers_to=OuterRef("pk"), procedure__in=RULINGS)
    return (
        LogEntry.objects.filter(campaign=campaign, inputs__has_key="@awaiting_gm")
        .filter(~Exists(ruled))
        .order_by("seq")
    )


def _open_changes(campaign: Campaign) -> list[tuple[LogEntry, pending.PendingEffect]]:
    """Each change left to the GM and not yet applied or dismissed, oldest first; the
    entries that hold them are few beside the log (``pending`` is empty on most)."""
    entries = list(
        LogEntry.objects.filter(campaign=campaign)
        .exclude(Q(pending=[]) | Q(reversed_by__isnull=False))
        .order_by("seq")
    )
    pending.attach(entries, campaign)
    return [(e, p) for e in entries for p in getattr(e, "pending_effects", []) if p.state == "pending"]


# How far back the desk looks for detections whose target the players could be shown.
RECENT_DETECTIONS = 50


def detections(campaign: Campaign) -> list[tuple[LogEntry, Ship, Ship]]:
    """Successful detection rolls, by a ship the players see, of a ship they do not see yet:
    the GM may share the detected ship with them (newest first, each ship once)."""
    entries = list(
        LogEntry.objects.filter(campaign=campaign, procedure__startswith="sensor.", result__detected=True)
        .filter(reversed_by__isnull=True, reversal_of__isnull=True)
        .order_by("-seq")[:RECENT_DETECTIONS]
    )
    codes = {c for e in entries for c in (_code(e, "detector"), _code(e, "target")) if c}
    ships = {str(s.code): s for s in Ship.objects.in_campaign(campaign).filter(code__in=codes)}
    found, offered = [], set()
    for entry in entries:
        detector, target = ships.get(_code(entry, "detector") or ""), ships.get(_code(entry, "target") or "")
        if detector and target and detector.shared and not target.shared and target.pk not in offered:
            offered.add(target.pk)
            found.append((entry, target, detector))
    return found


def _code(entry: LogEntry, role: str) -> str | None:
    found = (entry.inputs or {}).get(f"@{role}")
    return found.get("code") if isinstance(found, dict) else None


def desk_context(campaign: Campaign) -> Desk:
    rolls = list(waiting_rolls(campaign))
    changes = _open_changes(campaign)
    events = list(
        TimedEvent.objects.in_campaign(campaign)
        .filter(status=EventStatus.WAITING, due_at__lte=campaign.clock)
        .select_related("ship")
        .order_by("due_at", "pk")
    )
    return Desk(
        rolls=rolls[:SHOWN],
        changes=changes[:SHOWN],
        events=events[:SHOWN],
        detections=(spotted := detections(campaign))[:SHOWN],
        counts={
            "rolls": len(rolls),
            "changes": len(changes),
            "events": len(events),
            "detections": len(spotted),
        },
    )
