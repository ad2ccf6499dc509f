import pytest

from referee.campaigns import services
from referee.campaigns.models import Membership
from tests.factories import CampaignFactory, InviteFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_campaign_keeps_at_least_one_gm_when_demoting():
    gm = MembershipFactory(role="gm")
    with pytest.raises(services.MembershipError, match="at least one GM"):
        services.membership_set_role(membership=gm, role="player")
    gm.refresh_from_db()
    assert gm.role == "gm"


def test_a_second_gm_lets_the_first_step_down():
    first = MembershipFactory(role="gm")
    MembershipFactory(role="gm", campaign=first.campaign)
    services.membership_set_role(membership=first, role="player")
    services.membership_remove(membership=first)
    assert Membership.objects.filter(campaign=first.campaign, role="gm").count() == 1


def test_accepting_a_revoked_invite_is_refused():
    invite = services.invite_revoke(invite=InviteFactory())
    with pytest.raises(services.MembershipError, match="revoked"):
        services.invite_accept(invite=invite, user=UserFactory())


def test_campaign_create_records_the_creator_as_gm():
    user = UserFactory()
    campaign = services.campaign_create(name="Deep Periphery", year=3070, creator=user)
    assert campaign.role_of(user) == "gm"
    assert campaign.clock.year == 3067  # the GM sets the in-game date afterwards


def test_the_clock_keeps_whole_seconds():
    from datetime import UTC, datetime

    campaign = CampaignFactory(clock=datetime(3067, 1, 1, 10, 0, 5, 999999, tzinfo=UTC))
    campaign.refresh_from_db()
    assert campaign.clock.microsecond == 0
