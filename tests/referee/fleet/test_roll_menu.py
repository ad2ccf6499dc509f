"""A record's Roll… menu, read when it first opens: the dashboard's button fetches it from
the record's roll page (HTMX: the menu alone), which also stands on its own for a browser
without JavaScript. And Delete without a form per row: a dialog and an HTMX post, or
without JavaScript a page that asks first."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from referee.fleet.models import Ship
from tests.factories import CampaignFactory, CharacterFactory, ShipFactory, StarSystemFactory, UnitFactory
from tests.referee.boobytraps.factories import BoobyTrapFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def roll_url(campaign, kind, obj) -> str:
    return reverse("campaigns:object-roll", args=[campaign.code, kind, obj.code])


def labels(html: str) -> list[str]:
    return re.findall(r'<li><a href="[^"]+">([^<]+)</a></li>', html)


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 404)]
)
def test_only_the_gm_reads_a_records_menu(cast, who, status):
    ship = ShipFactory(campaign=cast.campaign, kind="jumpship")
    assert cast.client(who).get(roll_url(cast.campaign, "ships", ship), **htmx()).status_code == status


def test_the_menu_alone_for_htmx_lists_what_the_record_can_roll_most_used_first(cast):
    # A military JumpShip: only a large military vessel detects an emergence wave.
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", kind="jumpship", military=True)
    response = cast.client("gm").get(roll_url(cast.campaign, "ships", ship), **htmx())
    html = response.text
    assert "<html" not in html and "<h1" not in html
    assert labels(html)[:3] == ["Jump", "Charge drive", "Detect emergence"]
    jump = reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    assert f'href="{jump}?ship={ship.code}"' in html
    # The sections' headings label their lists, as in the page.
    assert re.search(rf'<span class="menu-heading" id="menu-{ship.code}-2">Jump drives</span>', html)
    assert f'aria-labelledby="menu-{ship.code}-2"' in html


def test_without_javascript_the_button_leads_to_a_page_of_what_to_roll(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", kind="jumpship", military=True)
    html = cast.client("gm").get(roll_url(cast.campaign, "ships", ship)).text
    assert "<h1>Roll for Waterloo</h1>" in html
    assert labels(html)[:3] == ["Jump", "Charge drive", "Detect emergence"]
    assert f'href="{reverse("campaigns:detail", args=[cast.campaign.code])}"' in html


@pytest.mark.parametrize(
    ("kind", "make"),
    [
        ("units", lambda c: UnitFactory(campaign=c, kind="battlemech")),
        ("characters", lambda c: CharacterFactory(campaign=c)),
        ("boobytraps", lambda c: BoobyTrapFactory(campaign=c)),
    ],
)
def test_every_kind_of_record_with_a_menu_reads_it_the_same_way(cast, kind, make):
    record = make(cast.campaign)
    dashboard = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    url = roll_url(cast.campaign, kind, record)
    assert f'href="{url}"' in dashboard
    menu = cast.client("gm").get(url, **htmx())
    assert menu.status_code == 200 and labels(menu.text)


def test_an_unknown_record_or_kind_or_another_campaigns_record_is_404(cast):
    ship = ShipFactory(campaign=cast.campaign)
    elsewhere = ShipFactory(campaign=CampaignFactory())
    gm = cast.client("gm")
    code = cast.campaign.code
    unknown = "00000000-0000-0000-0000-000000000000"
    assert gm.get(f"/c/{code}/ships/{unknown}/roll/", **htmx()).status_code == 404
    assert gm.get(roll_url(cast.campaign, "ships", elsewhere), **htmx()).status_code == 404
    assert gm.get(f"/c/{code}/no-such-kind/{ship.code}/roll/", **htmx()).status_code == 404
    assert gm.get(roll_url(cast.campaign, "units", ship), **htmx()).status_code == 404  # a ship is no unit
    assert gm.get(f"/c/{code}/ships/not-a-code/roll/", **htmx()).status_code == 404


def test_the_menu_is_only_read(cast):
    ship = ShipFactory(campaign=cast.campaign)
    assert cast.client("gm").post(roll_url(cast.campaign, "ships", ship), **htmx()).status_code == 405


def test_a_record_with_nothing_to_roll_says_so_in_words(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Galax")
    html = cast.client("gm").get(roll_url(cast.campaign, "systems", system)).text
    assert "Nothing to roll for Galax." in html


class TestDelete:
    def test_each_row_deletes_without_a_form_or_token_of_its_own(self, cast):
        ShipFactory.create_batch(3, campaign=cast.campaign)
        html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
        panel = html[
            html.index('id="ships-panel"') : html.index("</section>", html.index('id="ships-panel"'))
        ]
        assert panel.count('hx-confirm="Delete ') == 3
        assert "csrfmiddlewaretoken" not in panel
        # The one token the HTMX posts carry sits on the body.
        assert re.search(r'<body hx-headers=\'\{"X-CSRFToken": "[^"]+"\}\'>', html)

    def test_without_javascript_delete_asks_first_and_a_get_deletes_nothing(self, cast):
        ship = ShipFactory(campaign=cast.campaign, name="Waterloo")
        url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
        response = cast.client("gm").get(url)
        assert response.status_code == 200
        assert "<h1>Delete Waterloo?</h1>" in response.text
        assert f'<form method="post" action="{url}">' in response.text
        assert "csrfmiddlewaretoken" in response.text
        assert Ship.objects.filter(pk=ship.pk).exists()
        response = cast.client("gm").post(url)
        assert response.status_code == 302 and not Ship.objects.filter(pk=ship.pk).exists()

    @pytest.mark.parametrize(("who", "status"), [("player", 403), ("outsider", 404), ("anonymous", 404)])
    def test_only_the_gm_is_asked(self, cast, who, status):
        ship = ShipFactory(campaign=cast.campaign)
        url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
        assert cast.client(who).get(url).status_code == status

    def test_a_post_carries_the_pages_token_in_its_header_or_is_refused(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        client = Client(enforce_csrf_checks=True)
        client.force_login(cast.gm)
        url = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
        assert client.post(url, **htmx()).status_code == 403
        assert Ship.objects.filter(pk=ship.pk).exists()
        page = client.get(reverse("campaigns:detail", args=[cast.campaign.code])).text
        token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
        assert client.post(url, **htmx(HTTP_X_CSRFTOKEN=token)).status_code == 200
        assert not Ship.objects.filter(pk=ship.pk).exists()
