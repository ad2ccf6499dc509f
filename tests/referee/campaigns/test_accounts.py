"""Accounts and invites against a guesser and a forwarded link: sign-in throttling, where
sign-in and sign-up send you afterwards, and invite links that expire and run out."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from referee.campaigns import throttle
from referee.campaigns.models import Invite, LoginFailure
from tests.factories import InviteFactory, UserFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def sign_in(client: Client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def pass_the_window() -> None:
    """A quarter of an hour goes by (the failures are rows with a time; age them)."""
    LoginFailure.objects.update(at=timezone.now() - throttle.WINDOW - timedelta(seconds=1))


class TestSignInThrottling:
    def test_forty_wrong_passwords_then_the_right_one_does_not_sign_in_until_the_window_passes(self):
        UserFactory(username="commodore", password="the-right-one")
        client = Client()
        statuses = [sign_in(client, "commodore", f"guess-{n}").status_code for n in range(40)]
        assert statuses[:5] == [200] * 5  # wrong, said so
        assert set(statuses[5:]) == {429}  # then refused without checking
        response = sign_in(client, "commodore", "the-right-one")
        assert response.status_code == 429
        assert "Too many wrong passwords" in response.text
        assert "try again in 15 minutes" in response.text
        assert not signed_in(client)

        pass_the_window()
        response = sign_in(client, "commodore", "the-right-one")
        assert response.status_code == 302
        assert signed_in(client)

    def test_the_pause_is_per_account_from_any_address(self):
        UserFactory(username="commodore", password="the-right-one")
        for n in range(5):
            sign_in(Client(), "commodore", "wrong", address=f"198.51.100.{n}")
        response = sign_in(Client(), "Commodore", "the-right-one", address="192.0.2.99")
        assert response.status_code == 429
        # Another account is not paused by it.
        UserFactory(username="navigator", password="her-own")
        assert sign_in(Client(), "navigator", "her-own", address="192.0.2.99").status_code == 302

    def test_the_pause_is_per_address_across_accounts(self):
        UserFactory(username="navigator", password="her-own")
        for n in range(throttle.PER_ADDRESS):
            sign_in(Client(), f"someone-{n}", "wrong", address="203.0.113.50")
        assert sign_in(Client(), "navigator", "her-own", address="203.0.113.50").status_code == 429
        assert sign_in(Client(), "navigator", "her-own", address="203.0.113.51").status_code == 302

    def test_the_admin_sign_in_page_pauses_too(self):
        UserFactory(username="root", password="the-right-one", is_staff=True, is_superuser=True)
        client = Client()
        for n in range(10):
            client.post(
                "/admin/login/", {"username": "root", "password": f"guess-{n}"}, REMOTE_ADDR="203.0.113.8"
            )
        response = client.post(
            "/admin/login/", {"username": "root", "password": "the-right-one"}, REMOTE_ADDR="203.0.113.8"
        )
        assert "Too many wrong passwords" in response.text
        assert not signed_in(client)

    def test_a_proxy_header_that_is_not_an_address_counts_per_account_only(self, settings):
        settings.CLIENT_ADDRESS_HEADER = "HTTP_X_REAL_IP"
        response = Client().post(
            LOGIN, {"username": "commodore", "password": "wrong"}, HTTP_X_REAL_IP="not an address\x00"
        )
        assert response.status_code == 200
        assert LoginFailure.objects.get().address is None

    def test_a_few_slips_then_the_right_password_signs_in_and_forgives_them(self):
        UserFactory(username="commodore", password="the-right-one")
        for _ in range(throttle.PER_ACCOUNT - 1):
            sign_in(Client(), "commodore", "wrong")
        client = Client()
        assert sign_in(client, "commodore", "the-right-one").status_code == 302
        assert not LoginFailure.objects.filter(username="commodore").exists()

    def test_failures_are_kept_in_the_database_where_every_worker_sees_them(self):
        sign_in(Client(), "commodore", "wrong", address="203.0.113.9")
        failure = LoginFailure.objects.get()
        assert (failure.username, failure.address) == ("commodore", "203.0.113.9")

    def test_the_proxy_header_names_the_address_only_when_configured(self, settings):
        UserFactory(username="navigator", password="her-own")
        for n in range(throttle.PER_ADDRESS):
            Client().post(
                LOGIN,
                {"username": f"x{n}", "password": "wrong"},
                REMOTE_ADDR="10.0.0.2",
                HTTP_X_REAL_IP="203.0.113.77",
            )
        assert set(LoginFailure.objects.values_list("address", flat=True)) == {"10.0.0.2"}
        LoginFailure.objects.all().delete()
        settings.CLIENT_ADDRESS_HEADER = "HTTP_X_REAL_IP"
        for n in range(throttle.PER_ADDRESS):
            Client().post(
                LOGIN,
                {"username": f"x{n}", "password": "wrong"},
                REMOTE_ADDR="10.0.0.2",
                HTTP_X_REAL_IP="203.0.113.77",
            )
        assert set(LoginFailure.objects.values_list("address", flat=True)) == {"203.0.113.77"}
        # The visitor behind the proxy is paused, another visitor behind the same proxy is not.
        paused = Client().post(
            LOGIN, {"username": "navigator", "password": "her-own"}, HTTP_X_REAL_IP="203.0.113.77"
        )
        assert paused.status_code == 429
        other = Client().post(
            LOGIN, {"username": "navigator", "password": "her-own"}, HTTP_X_REAL_IP="203.0.113.78"
        )
        assert other.status_code == 302


OFF_SITE = [
    "https://evil.example/",
    "//evil.example/",
    "http://evil.example/c/",
    "https:evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
]


class TestNextStaysOnTheSite:
    @pytest.mark.parametrize("target", OFF_SITE)
    def test_signup_never_redirects_off_site(self, client, target):
        response = client.post(
            f"{reverse('signup')}?next={target}",
            {"username": "newcomer", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"},
        )
        assert response.status_code == 302
        assert response["Location"] == reverse("campaigns:list")

    def test_signup_follows_a_next_on_this_site(self, client):
        response = client.post(
            f"{reverse('signup')}?next=/join/00000000-0000-0000-0000-000000000001/",
            {"username": "newcomer", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"},
        )
        assert response["Location"] == "/join/00000000-0000-0000-0000-000000000001/"

    @pytest.mark.parametrize("target", OFF_SITE)
    def test_sign_in_never_redirects_off_site(self, client, target):
        UserFactory(username="commodore", password="the-right-one")
        response = client.post(
            f"{LOGIN}?next={target}", {"username": "commodore", "password": "the-right-one"}
        )
        assert response.status_code == 302
        assert response["Location"] == reverse("campaigns:list")
        page = Client().get(f"{LOGIN}?next={target}")
        assert "evil.example" not in page.text and "javascript:" not in page.text


class TestInviteLimits:
    def url(self, cast):
        return reverse("campaigns:invite-create", args=[cast.campaign.code])

    def test_the_gm_chooses_how_long_a_link_works_and_how_many_it_admits(self, cast):
        response = cast.client("gm").post(self.url(cast), {"days": 30, "max_uses": 6}, **htmx())
        assert response.status_code == 200
        invite = Invite.objects.get(campaign=cast.campaign)
        assert invite.max_uses == 6 and invite.uses == 0
        assert abs(invite.expires_at - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)
        when = timezone.localtime(invite.expires_at).strftime("%-d %b %Y")
        assert f"works until {when}" in response.text
        assert "0 of 6 players joined" in response.text

    def test_the_form_offers_a_week_and_one_player(self, cast):
        page = cast.client("gm").get(reverse("campaigns:players", args=[cast.campaign.code])).text
        assert '<option value="7" selected>7 days</option>' in page
        assert 'name="max_uses" value="1"' in page

    @pytest.mark.parametrize(
        "data",
        [{"days": 3650, "max_uses": 1}, {"days": 7, "max_uses": 0}, {"days": 7, "max_uses": 10**9}, {}],
    )
    def test_impossible_terms_are_refused_with_a_message(self, cast, data):
        response = cast.client("gm").post(self.url(cast), data, **htmx())
        assert response.status_code == 422
        assert 'role="alert"' in response.text
        assert not Invite.objects.exists()

    def test_a_one_use_link_admits_one_player_and_then_says_it_is_used(self, cast):
        invite = InviteFactory(campaign=cast.campaign, max_uses=1)
        url = reverse("campaigns:join", args=[invite.token])
        first, second = UserFactory(), UserFactory()
        assert client_of(first).post(url).status_code == 302
        response = client_of(second).post(url)
        assert response.status_code == 410
        assert "already been used once" in response.text
        assert cast.campaign.role_of(first) == "player"
        assert cast.campaign.role_of(second) is None
        assert client_of(second).get(url).status_code == 410
        invite.refresh_from_db()
        assert invite.uses == 1

    def test_a_member_opening_the_link_again_uses_nothing(self, cast):
        invite = InviteFactory(campaign=cast.campaign, max_uses=2)
        url = reverse("campaigns:join", args=[invite.token])
        joiner = client_of(UserFactory())
        joiner.post(url)
        joiner.post(url)
        assert cast.client("player").post(url).status_code == 302
        invite.refresh_from_db()
        assert invite.uses == 1

    def test_an_expired_link_admits_nobody_and_says_when_it_expired(self, cast):
        invite = InviteFactory(
            campaign=cast.campaign, max_uses=5, expires_at=timezone.now() - timedelta(hours=1)
        )
        url = reverse("campaigns:join", args=[invite.token])
        response = cast.client("outsider").post(url)
        assert response.status_code == 410
        assert "This invite link expired on" in response.text
        assert cast.campaign.role_of(cast.outsider) is None
        assert cast.client("outsider").get(url).status_code == 410

    def test_a_used_up_link_shows_as_such(self, cast):
        InviteFactory(campaign=cast.campaign, max_uses=2, uses=2)
        page = cast.client("gm").get(reverse("campaigns:players", args=[cast.campaign.code])).text
        assert "used up: 2 of 2 players joined" in page


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
