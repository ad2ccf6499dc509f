"""Who plays is on the record: joins, removals, role changes and invite links are GM-only
log entries with the change before -> after, undone where undo means something."""

import pytest
from django.urls import reverse

from referee.campaigns.models import Invite, Membership
from referee.play import members, services
from referee.play.models import LogEntry
from tests.factories import InviteFactory, MembershipFactory, UserFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def last(cast) -> LogEntry:
    return LogEntry.objects.filter(campaign=cast.campaign).order_by("-seq").first()


def player_sees(cast, *texts) -> bool:
    player = cast.client("player")
    pages = [
        player.get(reverse("play:log", args=[cast.campaign.code])).text,
        b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "json"])).streaming_content
        ).decode(),
        player.get(reverse("play:status", args=[cast.campaign.code])).text,
    ]
    return any(text in page for page in pages for text in texts)


def test_an_invite_link_made_and_revoked_is_logged_for_the_gm_only_and_undone(cast):
    gm = cast.client("gm")
    made = gm.post(
        reverse("campaigns:invite-create", args=[cast.campaign.code]), {"days": 7, "max_uses": 3}, **htmx()
    )
    assert made.status_code == 200
    invite = Invite.objects.get(campaign=cast.campaign)
    entry = last(cast)
    assert entry.procedure == members.INVITE_CREATE and entry.visibility == "gm"
    assert entry.effects[0]["name"].startswith("invite link for 3 players until")
    assert str(invite.token) not in str(entry.effects) + entry.summary  # the link itself is never logged
    gm.post(reverse("campaigns:invite-revoke", args=[cast.campaign.code, invite.token]), **htmx())
    revoked = last(cast)
    assert revoked.procedure == members.INVITE_REVOKE
    assert revoked.effects[0]["before"] is None and revoked.effects[0]["after"]
    services.log_entry_reverse(entry=revoked, actor=cast.gm)
    invite.refresh_from_db()
    assert invite.revoked_at is None and invite.active
    services.log_entry_reverse(entry=entry, actor=cast.gm)  # undoing the link's making revokes it
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert not player_sees(cast, "invite link")


def test_a_join_is_logged_and_undoing_it_takes_the_membership_back(cast):
    invite = InviteFactory(campaign=cast.campaign, created_by=cast.gm)
    newcomer = UserFactory(username="newcomer")
    client = cast.client("outsider")
    client.force_login(newcomer)
    assert client.post(reverse("campaigns:join", args=[invite.token])).status_code == 302
    entry = last(cast)
    assert entry.procedure == members.JOIN and entry.visibility == "gm"
    assert entry.effects[0]["name"] == "newcomer"
    assert (entry.effects[0]["before"], entry.effects[0]["after"]) == (None, "Player")
    # A second join of the same member changes nothing and logs nothing.
    client.post(reverse("campaigns:join", args=[invite.token]))
    assert last(cast).pk == entry.pk
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert not Membership.objects.filter(campaign=cast.campaign, user=newcomer).exists()
    assert not player_sees(cast, "newcomer")


def test_a_removal_is_logged_and_undoing_it_brings_the_member_back(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player", user=UserFactory(username="leaver"))
    response = cast.client("gm").post(
        reverse("campaigns:member-remove", args=[cast.campaign.code, other.pk]), **htmx()
    )
    assert response.status_code == 200
    entry = last(cast)
    assert entry.procedure == members.REMOVE and entry.visibility == "gm"
    assert (entry.effects[0]["before"], entry.effects[0]["after"]) == ("Player", None)
    services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert Membership.objects.get(campaign=cast.campaign, user__username="leaver").role == "player"
    assert not player_sees(cast, "leaver")


def test_a_role_change_is_logged_and_undone_and_the_last_gm_stays(cast):
    membership = Membership.objects.get(campaign=cast.campaign, user=cast.player)
    members.member_set_role(membership=membership, role="gm", actor=cast.gm)
    entry = last(cast)
    assert entry.procedure == members.ROLE
    assert (entry.effects[0]["before"], entry.effects[0]["after"]) == ("Player", "Gamemaster")
    gm_membership = Membership.objects.get(campaign=cast.campaign, user=cast.gm)
    members.member_remove(membership=gm_membership, actor=cast.player)
    # Undoing the promotion would leave the campaign without a GM: refused, nothing changes.
    with pytest.raises(services.PlayError, match="at least one GM"):
        services.log_entry_reverse(entry=entry, actor=cast.player)
    assert Membership.objects.get(campaign=cast.campaign, user=cast.player).role == "gm"


def test_removing_the_last_gm_is_refused_and_logs_nothing(cast):
    gm_membership = Membership.objects.get(campaign=cast.campaign, user=cast.gm)
    response = cast.client("gm").post(
        reverse("campaigns:member-remove", args=[cast.campaign.code, gm_membership.pk]), **htmx()
    )
    assert response.status_code == 409
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


@pytest.mark.parametrize("who, status", [("player", 403), ("outsider", 404)])
def test_only_the_gm_changes_who_plays(cast, who, status):
    invite = InviteFactory(campaign=cast.campaign, created_by=cast.gm)
    client = cast.client(who)
    assert (
        client.post(
            reverse("campaigns:invite-create", args=[cast.campaign.code]), {"days": 7, "max_uses": 1}
        ).status_code
        == status
    )
    assert (
        client.post(reverse("campaigns:invite-revoke", args=[cast.campaign.code, invite.token])).status_code
        == status
    )
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()
