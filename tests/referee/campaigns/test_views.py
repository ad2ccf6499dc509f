"""Campaign pages for every kind of visitor: anonymous, outsider, player and GM."""

import pytest
from django.urls import reverse

from referee.campaigns.models import Campaign, Invite, Membership
from tests.factories import InviteFactory, MembershipFactory, ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def detail_url(campaign):
    return reverse("campaigns:detail", args=[campaign.code])


class TestCampaignList:
    def test_it_sends_anonymous_visitors_to_sign_in(self, client):
        response = client.get(reverse("campaigns:list"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))

    def test_it_lists_only_the_users_campaigns(self, cast):
        other = MembershipFactory(role="gm").campaign
        response = cast.client("player").get(reverse("campaigns:list"))
        assert response.status_code == 200
        assert cast.campaign.name in response.text
        assert other.name not in response.text

    def test_creating_a_campaign_makes_the_creator_its_gm(self, cast):
        response = cast.client("outsider").post(
            reverse("campaigns:list"), {"name": "Periphery run", "year": 3067, "turn_length_s": 60}
        )
        campaign = Campaign.objects.get(name="Periphery run")
        assert response.status_code == 302
        assert response["Location"] == detail_url(campaign)
        assert Membership.objects.get(campaign=campaign).role == "gm"

    def test_a_bad_campaign_form_answers_422_and_keeps_what_was_typed(self, cast):
        response = cast.client("gm").post(
            reverse("campaigns:list"), {"name": "Half typed", "year": "", "turn_length_s": 0}
        )
        assert response.status_code == 422
        assert 'value="Half typed"' in response.text
        assert not Campaign.objects.filter(name="Half typed").exists()

    def test_it_refuses_other_methods(self, cast):
        assert cast.client("gm").put(reverse("campaigns:list")).status_code == 405


class TestCampaignDetail:
    @pytest.mark.parametrize("who", ["anonymous", "outsider"])
    def test_non_members_get_404(self, cast, who):
        assert cast.client(who).get(detail_url(cast.campaign)).status_code == 404

    def test_outsiders_get_404_even_with_the_wrong_method(self, cast):
        assert cast.client("outsider").post(detail_url(cast.campaign)).status_code == 404

    def test_the_gm_sees_the_dashboard_with_everything(self, cast):
        ShipFactory(campaign=cast.campaign, name="Secret Raider", shared=False)
        response = cast.client("gm").get(detail_url(cast.campaign))
        assert response.status_code == 200
        assert "Secret Raider" in response.text
        players = reverse("campaigns:players", args=[cast.campaign.code])
        assert f'hx-get="{players}" hx-trigger="toggle once"' in response.text  # read when opened
        assert "New invite link" in cast.client("gm").get(players, **htmx()).text

    def test_a_player_sees_only_shared_ships_and_units(self, cast):
        ShipFactory(campaign=cast.campaign, name="Waterloo", shared=True, kf_integrity=3)
        ShipFactory(campaign=cast.campaign, name="Secret Raider", shared=False)
        UnitFactory(campaign=cast.campaign, name="Victor", shared=True)
        UnitFactory(campaign=cast.campaign, name="Hidden Lance", shared=False)
        response = cast.client("player").get(detail_url(cast.campaign))
        assert response.status_code == 200
        assert "Waterloo" in response.text and "3/4" in response.text
        assert "Victor" in response.text
        assert "Secret Raider" not in response.text
        assert "Hidden Lance" not in response.text
        assert "Edit" not in response.text

    def test_members_get_405_for_the_wrong_method(self, cast):
        assert cast.client("player").post(detail_url(cast.campaign)).status_code == 405
        assert cast.client("gm").delete(detail_url(cast.campaign)).status_code == 405

    def test_a_malformed_code_is_404(self, cast):
        assert cast.client("gm").get("/c/not-a-uuid/").status_code == 404


class TestInvites:
    def url(self, cast):
        return reverse("campaigns:invite-create", args=[cast.campaign.code])

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_creates_invites(self, cast, who, status):
        assert cast.client(who).post(self.url(cast)).status_code == status
        assert not Invite.objects.exists()

    def test_the_gm_creates_an_invite_link(self, cast):
        response = cast.client("gm").post(self.url(cast), {"days": 7, "max_uses": 1}, **htmx())
        invite = Invite.objects.get(campaign=cast.campaign)
        assert response.status_code == 200
        assert reverse("campaigns:join", args=[invite.token]) in response.text

    def test_invites_refuse_get(self, cast):
        assert cast.client("gm").get(self.url(cast)).status_code == 405

    def test_a_revoked_link_no_longer_lets_anyone_join(self, cast):
        invite = InviteFactory(campaign=cast.campaign)
        revoke = reverse("campaigns:invite-revoke", args=[cast.campaign.code, invite.token])
        assert cast.client("player").post(revoke).status_code == 403
        assert cast.client("gm").post(revoke).status_code == 302
        response = cast.client("outsider").post(reverse("campaigns:join", args=[invite.token]))
        assert response.status_code == 410
        assert "revoked" in response.text
        assert cast.campaign.role_of(cast.outsider) is None


class TestJoin:
    def test_anonymous_visitors_sign_in_first(self, cast):
        invite = InviteFactory(campaign=cast.campaign)
        response = cast.client("anonymous").get(reverse("campaigns:join", args=[invite.token]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))

    def test_an_outsider_joins_as_a_player(self, cast):
        invite = InviteFactory(campaign=cast.campaign)
        url = reverse("campaigns:join", args=[invite.token])
        assert cast.client("outsider").get(url).status_code == 200
        response = cast.client("outsider").post(url)
        assert response.status_code == 302
        assert cast.campaign.role_of(cast.outsider) == "player"

    def test_a_gm_who_opens_the_link_stays_gm(self, cast):
        invite = InviteFactory(campaign=cast.campaign)
        cast.client("gm").post(reverse("campaigns:join", args=[invite.token]))
        assert cast.campaign.role_of(cast.gm) == "gm"

    def test_an_unknown_token_is_404(self, cast):
        url = reverse("campaigns:join", args=["00000000-0000-0000-0000-000000000000"])
        assert cast.client("outsider").get(url).status_code == 404

    def test_join_refuses_other_methods(self, cast):
        invite = InviteFactory(campaign=cast.campaign)
        assert cast.client("outsider").put(reverse("campaigns:join", args=[invite.token])).status_code == 405


class TestPlayersAndInvites:
    def url(self, cast):
        return reverse("campaigns:players", args=[cast.campaign.code])

    @pytest.mark.parametrize(
        ("who", "status"), [("gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 404)]
    )
    def test_only_the_gm_reads_who_plays(self, cast, who, status):
        assert cast.client(who).get(self.url(cast), **htmx()).status_code == status

    def test_the_dashboards_folded_group_reads_them_when_it_opens(self, cast):
        html = cast.client("gm").get(self.url(cast), **htmx()).text
        assert "<html" not in html
        assert 'id="invites-panel"' in html and 'id="members-panel"' in html
        assert cast.gm.username in html and cast.player.username in html

    def test_without_javascript_they_are_a_page_of_their_own(self, cast):
        html = cast.client("gm").get(self.url(cast)).text
        assert "<h1" in html and 'id="invites-panel"' in html
        dashboard = cast.client("gm").get(detail_url(cast.campaign)).text
        assert f'<a href="{self.url(cast)}">' in dashboard

    def test_a_plain_form_post_comes_back_to_them(self, cast):
        response = cast.client("gm").post(
            reverse("campaigns:invite-create", args=[cast.campaign.code]), {"days": 7, "max_uses": 1}
        )
        assert response.status_code == 302 and response["Location"] == self.url(cast)


class TestMembers:
    def test_the_last_gm_cannot_be_removed(self, cast):
        gm_membership = Membership.objects.get(campaign=cast.campaign, user=cast.gm)
        url = reverse("campaigns:member-remove", args=[cast.campaign.code, gm_membership.pk])
        response = cast.client("gm").post(url, **htmx())
        assert response.status_code == 409
        assert "at least one GM" in response.text
        assert cast.campaign.role_of(cast.gm) == "gm"

    def test_the_gm_removes_a_player(self, cast):
        membership = Membership.objects.get(campaign=cast.campaign, user=cast.player)
        url = reverse("campaigns:member-remove", args=[cast.campaign.code, membership.pk])
        assert cast.client("player").post(url).status_code == 403
        assert cast.client("outsider").post(url).status_code == 404
        assert cast.client("anonymous").post(url).status_code == 404
        assert cast.client("gm").get(url).status_code == 405
        assert cast.client("gm").post(url).status_code == 302
        assert cast.campaign.role_of(cast.player) is None


class TestSignup:
    def test_a_newcomer_creates_an_account_and_is_signed_in(self, client, db):
        response = client.post(
            reverse("signup"),
            {"username": "newgm", "password1": "a-long-passphrase-1", "password2": "a-long-passphrase-1"},
        )
        assert response.status_code == 302
        assert client.get(reverse("campaigns:list")).status_code == 200

    def test_mismatched_passwords_answer_422(self, client, db):
        response = client.post(
            reverse("signup"), {"username": "x", "password1": "a-long-passphrase-1", "password2": "nope"}
        )
        assert response.status_code == 422
