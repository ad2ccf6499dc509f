"""The desk's actions: each one the service the log already has for it."""

from __future__ import annotations

from django.db import transaction

from referee.campaigns.models import Campaign
from referee.clock.services import due_events_complete
from referee.fleet.models import Ship
from referee.play import pending, players
from referee.play.effects import ChangeRecorder
from referee.play.models import LogEntry
from referee.play.resolution import PlayError, campaign_lock, changes_save
from referee.play.services import log_append

ACTIONS = ("accept", "reject", "apply", "dismiss", "complete", "share")
SHARE = "record.share"


def desk_act(
    *, campaign: Campaign, action: str, seq: int | None, number: int | None, record: str, actor
) -> LogEntry | None:
    """Accept or reject a waiting roll, apply or dismiss a change left to the GM, or
    complete the events that are due. Raises PlayError / pending.EffectError in words."""
    if action == "complete":
        return due_complete(campaign=campaign, actor=actor)
    if action not in ACTIONS or seq is None:
        raise PlayError("Choose what to do from the desk.")
    entry = LogEntry.objects.filter(campaign=campaign, seq=seq).first()
    if entry is None:
        raise PlayError(f"There is no entry #{seq} in this campaign's log.")
    if action == "share":
        return detected_ship_share(campaign=campaign, entry=entry, actor=actor)
    if action in ("accept", "reject"):
        return players.player_roll_decide(entry=entry, actor=actor, accept=action == "accept")
    if number is None:
        raise PlayError("Choose which change to rule on.")
    try:
        if action == "apply":
            return pending.pending_effect_apply(entry=entry, number=number, actor=actor, record=record)
        return pending.pending_effect_dismiss(entry=entry, number=number, actor=actor)
    except LookupError as missing:
        raise PlayError(str(missing)) from None


@transaction.atomic
def due_complete(*, campaign: Campaign, actor) -> LogEntry:
    """Complete the events whose due time the clock has reached, each its own entry, in due
    order; the clock stays where it is (moving it is the clock panel's choice, not the desk's)."""
    campaign = campaign_lock(campaign)
    entries = due_events_complete(campaign=campaign, actor=actor)
    if not entries:
        raise PlayError(
            "Nothing is due yet: no event's due time has come. Advance the clock to bring the next one."
        )
    return entries[-1]


@transaction.atomic
def detected_ship_share(*, campaign: Campaign, entry: LogEntry, actor) -> LogEntry:
    """Share the ship a successful detection found with the players (the detecting side's
    table now sees it): logged, and undoable like any change."""
    campaign = campaign_lock(campaign)
    target = (entry.inputs or {}).get("@target")
    if (
        not entry.procedure.startswith("sensor.")
        or not entry.result.get("detected")
        or not isinstance(target, dict)
    ):
        raise PlayError(f"Entry #{entry.seq} is no detection that found a ship.")
    ship = Ship.objects.in_campaign(campaign).select_for_update().filter(code=target.get("code")).first()
    if ship is None:
        raise PlayError(f"The ship entry #{entry.seq} detected is no longer kept.")
    if ship.shared:
        raise PlayError(f"{ship} is shared with the players already.")
    recorder = ChangeRecorder()
    recorder.set(ship, "shared", True)
    changes = changes_save(recorder)
    by = (entry.inputs.get("@detector") or {}).get("name", "a detector")
    return log_append(
        campaign=campaign,
        procedure=SHARE,
        title=f"The GM shared the ship {ship} with the players",
        summary=f"The GM shared the ship {ship} with the players: {by} detected it (#{entry.seq}).",
        actor=actor,
        inputs={"@ship": {"code": str(ship.code), "name": str(ship)}},
        effects=changes,
        refers_to=entry,
    )
