"""The desk's actions: each one the service the log already has for it."""

from __future__ import annotations

from referee.campaigns.models import Campaign
from referee.clock.services import clock_to_next_event
from referee.play import pending, players
from referee.play.models import LogEntry
from referee.play.services import PlayError

ACTIONS = ("accept", "reject", "apply", "dismiss", "complete")


def desk_act(
    *, campaign: Campaign, action: str, seq: int | None, number: int | None, record: str, actor
) -> LogEntry | None:
    """Accept or reject a waiting roll, apply or dismiss a change left to the GM, or
    complete the events that are due. Raises PlayError / pending.EffectError in words."""
    if action == "complete":
        entries = clock_to_next_event(campaign=campaign, actor=actor)
        return entries[-1] if entries else None
    if action not in ACTIONS or seq is None:
        raise PlayError("Choose what to do from the desk.")
    entry = LogEntry.objects.filter(campaign=campaign, seq=seq).first()
    if entry is None:
        raise PlayError(f"There is no entry #{seq} in this campaign's log.")
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
