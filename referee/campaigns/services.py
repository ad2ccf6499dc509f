"""Writes that touch campaigns and memberships (one transaction each)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from .models import INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, Campaign, Invite, Membership, Role


class MembershipError(ValueError):
    """A membership change that would break a campaign rule."""


@transaction.atomic
def campaign_create(*, name: str, year: int, creator, turn_length_s: int = 60) -> Campaign:
    """Create a campaign; its creator becomes its first GM."""
    campaign = Campaign.objects.create(name=name, year=year, turn_length_s=turn_length_s)
    Membership.objects.create(campaign=campaign, user=creator, role=Role.GM)
    return campaign


def invite_create(
    *, campaign: Campaign, created_by, days: int = INVITE_DEFAULT_DAYS, max_uses: int = INVITE_DEFAULT_USES
) -> Invite:
    return Invite.objects.create(
        campaign=campaign,
        created_by=created_by,
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
    )


def invite_revoke(*, invite: Invite) -> Invite:
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def invite_accept(*, invite: Invite, user) -> Membership:
    """Join through an invite as a player, using one of its uses; a member keeps the role
    they have (and uses nothing). Refused once the link is revoked, expired or used up."""
    invite = Invite.objects.select_for_update().get(pk=invite.pk)  # two joiners count in turn
    membership = Membership.objects.filter(campaign=invite.campaign, user=user).first()
    if membership is not None:
        return membership
    if refusal := invite.refusal():
        raise MembershipError(refusal)
    invite.uses += 1
    invite.save(update_fields=["uses"])
    return Membership.objects.create(campaign=invite.campaign, user=user, role=Role.PLAYER)


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a member; the campaign's last GM cannot be removed."""
    campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    if membership.role == Role.GM and campaign.memberships.filter(role=Role.GM).count() <= 1:
        raise MembershipError("A campaign keeps at least one GM.")
    membership.delete()


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str) -> Membership:
    campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    if (
        membership.role == Role.GM
        and role != Role.GM
        and campaign.memberships.filter(role=Role.GM).count() <= 1
    ):
        raise MembershipError("A campaign keeps at least one GM.")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership
