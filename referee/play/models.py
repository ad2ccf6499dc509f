"""The turn log: append-only, hash-chained, the product's memory."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

import rules
from referee.campaigns.models import Campaign, Phase

GENESIS_HASH = "0" * 64


class Visibility(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    GM = "gm", "GM only"


class LogEntryQuerySet(models.QuerySet):
    def in_campaign(self, campaign: Campaign) -> LogEntryQuerySet:
        return self.filter(campaign=campaign)

    def visible_to(self, role: str | None) -> LogEntryQuerySet:
        """GMs read everything; players what is public or has been revealed."""
        if role == "gm":
            return self
        if role == "player":
            return self.filter(Q(visibility=Visibility.EVERYONE) | Q(revealed_at__isnull=False))
        return self.none()

    def turns(self, first: int | None, last: int | None) -> LogEntryQuerySet:
        qs = self
        if first is not None:
            qs = qs.filter(turn__gte=first)
        if last is not None:
            qs = qs.filter(turn__lte=last)
        return qs


class LogEntry(models.Model):
    """One resolution, reversal or turn event. Never updated (except to reveal) or deleted:
    a PostgreSQL trigger enforces it (migration 0002)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="log")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices)
    game_time = models.DateTimeField()
    procedure = models.CharField(max_length=64, help_text="Procedure id, or an event such as turn.advance")
    title = models.CharField(max_length=200)
    inputs = models.JSONField(default=dict)
    rolls = models.JSONField(default=list)
    result = models.JSONField(default=dict)
    effects = models.JSONField(default=list, help_text="Applied changes: target, field, before, after")
    pending = models.JSONField(default=list, help_text="Effects the GM applies by hand")
    summary = models.TextField()
    reference = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="turn_log_entries"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.EVERYONE)
    revealed_at = models.DateTimeField(null=True, blank=True)
    reversal_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = LogEntryQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "seq"]
        verbose_name_plural = "log entries"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="log_seq_unique_per_campaign"),
            models.UniqueConstraint(fields=["campaign", "prev_hash"], name="log_chain_never_forks"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="log_seq_from_1"),
        ]
        indexes = [models.Index(fields=["campaign", "turn"], name="log_campaign_turn")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.procedure}"

    @property
    def secret(self) -> bool:
        return self.visibility == Visibility.GM and self.revealed_at is None

    @property
    def result_items(self) -> list[tuple[str, object]]:
        """The result in the contract's order, headline first (jsonb does not keep order)."""
        try:
            order = rules.get(self.procedure).result_keys
        except rules.InputError:
            return list(self.result.items())
        return [(k, self.result[k]) for k in order if k in self.result]

    @property
    def is_reversal(self) -> bool:
        return self.reversal_of_id is not None

    def hash_payload(self) -> dict:
        """Everything the hash covers: the entry as exported, without database ids.

        ``revealed_at`` is left out: revealing is the one change the log allows."""
        return entry_payload(
            campaign_code=str(self.campaign.code),
            seq=self.seq,
            turn=self.turn,
            phase=self.phase,
            game_time=self.game_time,
            procedure=self.procedure,
            title=self.title,
            inputs=self.inputs,
            rolls=self.rolls,
            result=self.result,
            effects=self.effects,
            pending=self.pending,
            summary=self.summary,
            reference=self.reference,
            actor_name=self.actor_name,
            visibility=self.visibility,
            reversal_of_seq=self.reversal_of.seq if self.reversal_of_id else None,
            created_at=self.created_at,
        )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="microseconds") if value else None


def entry_payload(*, game_time: datetime, created_at: datetime, **fields) -> dict:
    return {**fields, "game_time": _iso(game_time), "created_at": _iso(created_at)}


def _as_stored(value):
    """Numbers as PostgreSQL's jsonb gives them back: an integral float of 1e16 or more
    comes back as an int, so it is hashed as one (else an honest entry would not verify)."""
    if isinstance(value, float) and value.is_integer() and abs(value) >= 1e16:
        return int(value)
    if isinstance(value, dict):
        return {k: _as_stored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_stored(v) for v in value]
    return value


def canonical_json(payload: dict) -> str:
    return json.dumps(_as_stored(payload), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, payload: dict) -> str:
    """SHA-256 over the previous hash and the canonical JSON of the entry."""
    return hashlib.sha256((prev_hash + canonical_json(payload)).encode()).hexdigest()
