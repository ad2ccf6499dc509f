"""Who plays, on the record: joins, role changes, removals and invite links are log entries
with each change before -> after, GM-only (players never read who else was invited or
removed), and undoable where undo means something (a removed member comes back, a role
goes back, a revoked link works again, a new link is revoked, a join is taken back).

The campaign's own services (``referee.campaigns.services``) keep the rules (a campaign
keeps one GM; a link counts its uses); each write here wraps one of them and its entry in
one transaction."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from referee.campaigns import services as campaign_services
from referee.campaigns.models import Campaign, Invite, Membership, Role

from . import wording
from .models import LogEntry, Visibility
from .resolution import PlayError, campaign_lock
from .services import log_append, reverser

JOIN, ROLE, REMOVE = "member.join", "member.role", "member.remove"
INVITE_CREATE, INVITE_REVOKE = "invite.create", "invite.revoke"
PROCEDURES = {JOIN, ROLE, REMOVE, INVITE_CREATE, INVITE_REVOKE}


def _role_words(role: str | None) -> str | None:
    return None if role is None else str(Role(role).label)


def _member_change(user, before: str | None, after: str | None) -> dict:
    return {
        "target": "membership",
        "code": f"member-{user.pk}",
        "name": user.username,
        "field": "role",
        "label": "role",
        "before": _role_words(before),
        "after": _role_words(after),
    }


def _role_value(words: str | None) -> str | None:
    return None if words is None else next(r.value for r in Role if str(r.label) == words)


def _invite_name(invite: Invite) -> str:
    plural = "s" if invite.max_uses != 1 else ""
    return f"invite link for {invite.max_uses} player{plural} until {wording.when(invite.expires_at)}"


def _invite_change(invite: Invite, field: str, label: str, before, after) -> dict:
    return {
        "target": "invite",
        "code": f"invite-{invite.pk}",
        "name": _invite_name(invite),
        "field": field,
        "label": label,
        "before": before,
        "after": after,
    }


def _log(campaign, procedure: str, title: str, change: dict, actor, reversal_of=None) -> LogEntry:
    what = f"{change['name']}: {change['label']} {wording.words(change['before'])} -> {wording.words(change['after'])}"
    return log_append(
        campaign=campaign,
        procedure=procedure if reversal_of is None else "log.undo",
        title=title,
        summary=f"{title} ({what}).",
        actor=actor,
        effects=[change],
        visibility=Visibility.GM,
        reversal_of=reversal_of,
    )


def _refused(error: campaign_services.MembershipError) -> PlayError:
    return PlayError(str(error))


@transaction.atomic
def member_join(*, invite: Invite, user) -> Membership:
    """Join through an invite, on the record (a member already keeps their role, unlogged)."""
    campaign = campaign_lock(invite.campaign)
    was = Membership.objects.filter(campaign=campaign, user=user).first()
    membership = campaign_services.invite_accept(invite=invite, user=user)
    if was is None:
        change = _member_change(user, None, membership.role)
        _log(campaign, JOIN, f"{user.username} joined through an invite link", change, user)
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, actor) -> None:
    campaign = campaign_lock(membership.campaign)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    campaign_services.membership_remove(membership=membership)
    change = _member_change(membership.user, membership.role, None)
    _log(campaign, REMOVE, f"The GM removed {membership.user.username} from the campaign", change, actor)


@transaction.atomic
def member_set_role(*, membership: Membership, role: str, actor) -> Membership:
    campaign = campaign_lock(membership.campaign)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    before = membership.role
    membership = campaign_services.membership_set_role(membership=membership, role=role)
    if before != role:
        change = _member_change(membership.user, before, role)
        title = f"The GM made {membership.user.username} {_role_words(role)}"
        _log(campaign, ROLE, title, change, actor)
    return membership


@transaction.atomic
def invite_create(*, campaign: Campaign, created_by, days: int, max_uses: int) -> Invite:
    campaign = campaign_lock(campaign)
    invite = campaign_services.invite_create(
        campaign=campaign, created_by=created_by, days=days, max_uses=max_uses
    )
    change = _invite_change(invite, "active", "works", None, True)
    _log(campaign, INVITE_CREATE, "The GM made an invite link", change, created_by)
    return invite


@transaction.atomic
def invite_revoke(*, invite: Invite, actor) -> Invite:
    campaign = campaign_lock(invite.campaign)
    invite = Invite.objects.select_for_update().get(pk=invite.pk)
    if invite.revoked_at is not None:
        return invite
    invite = campaign_services.invite_revoke(invite=invite)
    change = _invite_change(invite, "revoked_at", "revoked", None, invite.revoked_at.isoformat())
    _log(campaign, INVITE_REVOKE, "The GM revoked an invite link", change, actor)
    return invite


@reverser(*PROCEDURES)
def reverse(*, campaign: Campaign, entry: LogEntry, actor) -> LogEntry:
    """Undo a change of who plays (the caller holds the campaign lock)."""
    change = entry.effects[0]
    if entry.procedure in (JOIN, ROLE, REMOVE):
        user = get_user_model().objects.filter(pk=int(change["code"].removeprefix("member-"))).first()
        if user is None:
            raise PlayError(f"{change['name']} no longer has an account, so #{entry.seq} cannot be undone.")
        before, after = _role_value(change["before"]), _role_value(change["after"])
        membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
        now = membership.role if membership else None
        if now != after:
            raise PlayError(
                f"Cannot undo #{entry.seq}: {user.username} is now {_role_words(now) or 'not a member'}."
            )
        try:
            if before is None:
                campaign_services.membership_remove(membership=membership)
            elif membership is None:
                Membership.objects.create(campaign=campaign, user=user, role=before)
            else:
                campaign_services.membership_set_role(membership=membership, role=before)
        except campaign_services.MembershipError as error:
            raise PlayError(f"Cannot undo #{entry.seq}: {error}") from None
        undone = _member_change(user, after, before)
    else:
        invite = (
            Invite.objects.select_for_update()
            .filter(campaign=campaign, pk=int(change["code"].removeprefix("invite-")))
            .first()
        )
        if invite is None:
            raise PlayError(f"The invite link is gone, so #{entry.seq} cannot be undone.")
        if entry.procedure == INVITE_CREATE:
            if invite.revoked_at is not None:
                raise PlayError(f"The invite link of #{entry.seq} is already revoked.")
            invite = campaign_services.invite_revoke(invite=invite)
            undone = _invite_change(invite, "active", "works", True, False)
        else:
            if invite.revoked_at is None:
                raise PlayError(f"The invite link of #{entry.seq} works already.")
            if invite.expires_at <= timezone.now() + timedelta(seconds=1):
                raise PlayError(f"Cannot undo #{entry.seq}: the invite link has expired since.")
            revoked = invite.revoked_at.isoformat()
            invite.revoked_at = None
            invite.save(update_fields=["revoked_at"])
            undone = _invite_change(invite, "revoked_at", "revoked", revoked, None)
    return _log(campaign, entry.procedure, f"Undo: {entry.title}", undone, actor, reversal_of=entry)
