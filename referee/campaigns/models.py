"""Campaigns, who takes part in them, and how players are invited."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pgtrigger
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone


def campaign_start() -> datetime:
    """A new campaign's clock starts at the beginning of 3067 (the GM sets it)."""
    return datetime(3067, 1, 1, tzinfo=UTC)


class Phase(models.TextChoices):
    """The BattleSpace turn sequence."""

    INITIATIVE = "initiative", "Initiative Phase"
    MOVEMENT = "movement", "Movement Phase"
    COMBAT = "combat", "Combat Phase"
    END = "end", "End Phase"


# The players' change counter: every UPDATE of a campaign moves state_version, so players'
# pages ask one indexed question, "changed since v?". Writes to what the campaign keeps
# reach it through the touch triggers of CampaignScoped below.
BUMP_STATE_VERSION = pgtrigger.Trigger(
    name="bump_state_version",
    when=pgtrigger.Before,
    operation=pgtrigger.Update,
    # Counting a change as unseen by players (``unseen_version``) is no change of its own.
    condition=pgtrigger.Q(old__unseen_version=pgtrigger.F("new__unseen_version")),
    func="NEW.state_version := OLD.state_version + 1; RETURN NEW;",
)


# After each committed change of a campaign, tell the servers holding players' live
# streams (referee.dashboard.live). The payload is the campaign's public code and nothing more:
# no version, no field, nothing about what changed. Notifications with one payload in one
# transaction arrive once, at commit; a rolled-back change sends none.
NOTIFY_CHANGED = pgtrigger.Trigger(
    name="notify_changed",
    when=pgtrigger.After,
    operation=pgtrigger.Update,
    func="PERFORM pg_notify('referee_campaign', NEW.code::text); RETURN NULL;",
)


class Campaign(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=120)
    year = models.PositiveIntegerField(
        default=3067, help_text="In-universe year; booby-trap speeds are keyed to it."
    )
    clock = models.DateTimeField(default=campaign_start, help_text="In-game date and time (UTC).")
    turn = models.PositiveIntegerField(default=1)
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.INITIATIVE)
    turn_length_s = models.PositiveIntegerField(
        "turn length (seconds)", default=60, help_text="Game time one turn takes."
    )
    player_rolls_wait = models.BooleanField(
        "players' rolls wait for the GM",
        default=True,
        help_text="When set, a roll a player starts changes nothing until you accept it; "
        "otherwise its result applies at once.",
    )
    state_version = models.PositiveBigIntegerField(
        default=0, editable=False, help_text="Bumped by the database on every change players could see."
    )
    # How many of state_version's moves were GM-only changes of what players cannot see (a
    # GM's edit of an unshared record, a GM-only roll on one): the players' version leaves
    # them out, so a player's poll never tells that the GM is busy with something hidden.
    unseen_version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        triggers = [BUMP_STATE_VERSION, NOTIFY_CHANGED]
        constraints = [
            models.CheckConstraint(condition=Q(turn__gte=1), name="campaign_turn_from_1"),
            models.CheckConstraint(condition=Q(turn_length_s__gte=1), name="campaign_turn_length_positive"),
            models.CheckConstraint(
                condition=Q(phase__in=[p.value for p in Phase]), name="campaign_phase_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if self.clock.microsecond:
            self.clock = self.clock.replace(microsecond=0)  # the clock has second resolution
        super().save(*args, **kwargs)

    @property
    def turn_length(self) -> timedelta:
        return timedelta(seconds=self.turn_length_s)

    def role_of(self, user) -> str | None:
        if not user.is_authenticated:
            return None
        membership = self.memberships.filter(user=user).first()
        return membership.role if membership else None


def _touch_campaign(name: str, operation: pgtrigger.Operation, **transition_tables: str) -> pgtrigger.Trigger:
    """After each statement that writes rows of a campaign-scoped table, touch (UPDATE)
    their campaigns once, which moves their state_version. Once per statement, not per
    row: a bulk insert of thousands of rows updates each campaign row once."""
    rows = " UNION ".join(f"SELECT {{columns.campaign}} FROM {table}" for table in transition_tables.values())
    return pgtrigger.Trigger(
        name=name,
        when=pgtrigger.After,
        operation=operation,
        level=pgtrigger.Statement,
        referencing=pgtrigger.Referencing(**transition_tables),
        func=pgtrigger.Func(
            f"UPDATE {Campaign._meta.db_table} SET state_version = state_version WHERE id IN ({rows}); "
            "RETURN NULL;"
        ),
    )


# PostgreSQL allows transition tables only on single-event triggers: one per operation.
TOUCH_CAMPAIGN = [
    _touch_campaign("touch_campaign_on_insert", pgtrigger.Insert, new="new_rows"),
    _touch_campaign("touch_campaign_on_update", pgtrigger.Update, old="old_rows", new="new_rows"),
    _touch_campaign("touch_campaign_on_delete", pgtrigger.Delete, old="old_rows"),
]


def touch_campaign_trigger_uris() -> list[str]:
    """Every installed model's touch triggers, for ``pgtrigger.ignore`` (a restore holds
    them off in its own transaction, then touches its campaign once)."""
    names = {trigger.name for trigger in TOUCH_CAMPAIGN}
    uris = [trigger.get_uri(model) for model, trigger in pgtrigger.registered() if trigger.name in names]
    if not uris:  # pgtrigger.ignore() with no URI would hold off every trigger, the log's guard too
        raise RuntimeError("no touch triggers are registered: is pgtrigger in INSTALLED_APPS?")
    return uris


class CampaignScoped(models.Model):
    """What a campaign keeps: a model with a ``campaign`` foreign key. Inheriting this
    gives the table the touch triggers, so any change to its rows reaches players' pages
    (a test walks every model with a campaign key and proves it)."""

    class Meta:
        abstract = True
        triggers = TOUCH_CAMPAIGN


class Role(models.TextChoices):
    GM = "gm", "Gamemaster"
    PLAYER = "player", "Player"


class Membership(CampaignScoped):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta(CampaignScoped.Meta):
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="membership_once_per_campaign"),
            models.CheckConstraint(condition=Q(role__in=["gm", "player"]), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"


INVITE_LIFETIMES = [
    (1, "1 day"),
    (7, "7 days"),
    (30, "30 days"),
]
INVITE_DEFAULT_DAYS = 7
INVITE_DEFAULT_USES = 1
INVITE_MAX_USES = 50


class Invite(CampaignScoped):
    """A revocable link through which players join a campaign, until it expires or has been
    used as many times as the GM allowed."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(default=INVITE_DEFAULT_USES)
    uses = models.PositiveIntegerField(default=0)

    class Meta(CampaignScoped.Meta):
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_uses__gte=1) & Q(max_uses__lte=INVITE_MAX_USES), name="invite_max_uses_range"
            ),
            models.CheckConstraint(
                condition=Q(uses__lte=models.F("max_uses")), name="invite_uses_within_limit"
            ),
        ]

    def __str__(self) -> str:
        return f"Invite to {self.campaign}"

    @property
    def active(self) -> bool:
        return self.refusal() is None

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def used_up(self) -> bool:
        return self.uses >= self.max_uses

    def refusal(self) -> str | None:
        """Why this link admits nobody now, in the words a visitor reads; None while it works."""
        if self.revoked_at is not None:
            return "This invite link has been revoked. Ask your GM for a new one."
        if self.expired:
            when = timezone.localtime(self.expires_at).strftime("%-d %B %Y, %H:%M")
            return f"This invite link expired on {when} UTC. Ask your GM for a new one."
        if self.used_up:
            times = "once" if self.max_uses == 1 else f"{self.max_uses} times"
            return f"This invite link has already been used {times}, as many as the GM allowed. Ask your GM for a new one."
        return None

    def clean(self) -> None:
        if self.revoked_at and self.created_at and self.revoked_at < self.created_at:
            raise ValidationError("An invite cannot be revoked before it was created.")


class LoginFailure(models.Model):
    """One wrong password. Sign-in is refused for a while after too many of them for one
    account or from one address (``referee.campaigns.throttle``). Kept in the database, so
    every worker and host sees the same count."""

    username = models.CharField(max_length=150)
    address = models.GenericIPAddressField(null=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["username", "at"], name="login_failure_by_username"),
            models.Index(fields=["address", "at"], name="login_failure_by_address"),
            models.Index(fields=["at"], name="login_failure_by_time"),
        ]

    def __str__(self) -> str:
        return f"Failed sign-in as {self.username}"
