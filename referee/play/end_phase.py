"""End Phase automation: the procedures the rules run at the end of every turn,
for the state the campaign holds. Each hook resolves and logs through the same
service as a GM's click, so every die is on the record and every change undoable."""

from __future__ import annotations

from collections.abc import Callable

from referee.campaigns.models import Campaign

from . import bindings
from .models import LogEntry

END_PHASE_HOOKS: list[Callable[..., list[LogEntry]]] = []


def end_phase_hook(func: Callable[..., list[LogEntry]]) -> Callable[..., list[LogEntry]]:
    END_PHASE_HOOKS.append(func)
    return func


def end_phase_run(*, campaign: Campaign, actor) -> list[LogEntry]:
    bindings._load()  # families register their hooks beside their bindings
    entries: list[LogEntry] = []
    for hook in END_PHASE_HOOKS:
        entries += hook(campaign=campaign, actor=actor)
    return entries
