"""The dashboard's record lists a page at a time: the first 25 by name, where the list
stands ("1–25 of 30 ships") and a link to the next page and to all of them, read in
place by HTMX or on a page of their own; a page that is no page is refused in words."""

import re

import pytest
from django.urls import reverse

from referee.play.selectors import PANEL_ROWS
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def names(html: str) -> list[str]:
    return re.findall(r'<tr id="ship-[^"]+">\s*<td><strong>([^<]+)</strong>', html)


def ships_panel(html: str) -> str:
    start = html.index('<section class="card" id="ships-panel"')
    return html[start : html.index("</section>", start)]


@pytest.fixture
def thirty(cast):
    # Made out of order: the panel lists them by name.
    return [ShipFactory(campaign=cast.campaign, name=f"Ship {n:02}") for n in reversed(range(1, 31))]


def list_url(cast, kind="ships", **query) -> str:
    url = reverse("campaigns:object-list", args=[cast.campaign.code, kind])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_dashboard_shows_the_first_page_by_name_and_says_how_many_there_are(cast, thirty):
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    panel = ships_panel(html)
    assert names(panel) == [f"Ship {n:02}" for n in range(1, PANEL_ROWS + 1)]
    assert "1–25 of 30 ships" in panel
    assert f'href="{list_url(cast, page=2)}"' in panel and "Next 5 ships" in panel
    assert f'href="{list_url(cast, page="all")}"' in panel and "Show all 30 ships" in panel
    assert "Previous" not in panel
    # The group counts every record, not only the ones on the page.
    assert re.search(r'id="group-space".*?data-testid="group-count">3\d records<', html, re.S)


def test_a_short_list_has_no_pages(cast):
    ShipFactory.create_batch(3, campaign=cast.campaign)
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert 'data-testid="ships-pages"' not in html and len(names(ships_panel(html))) == 3


def test_the_next_page_comes_in_place_for_htmx(cast, thirty):
    response = cast.client("gm").get(list_url(cast, page=2), **htmx())
    assert response.status_code == 200
    assert "<html" not in response.text and response.text.lstrip().startswith(
        '<section class="card" id="ships-panel"'
    )
    assert names(response.text) == [f"Ship {n:02}" for n in range(26, 31)]
    assert "26–30 of 30 ships" in response.text and "Previous 25" in response.text
    assert "Next" not in response.text
    assert 'hx-target="#ships-panel"' in response.text
    assert re.search(r'<span class="muted" tabindex="-1" autofocus>26–30 of 30 ships</span>', response.text)


def test_all_of_them_on_one_page_and_back_to_pages(cast, thirty):
    response = cast.client("gm").get(list_url(cast, page="all"), **htmx())
    assert len(names(response.text)) == 30 and "All 30 ships" in response.text
    assert "Show 25 at a time" in response.text


def test_without_javascript_a_page_of_its_own_holds_the_panel(cast, thirty):
    response = cast.client("gm").get(list_url(cast, page=2))
    assert response.status_code == 200
    assert "<h1" in response.text and 'id="form-slot"' in response.text
    assert names(response.text) == [f"Ship {n:02}" for n in range(26, 31)]
    assert "autofocus" not in response.text


def test_other_lists_page_the_same_way(cast):
    UnitFactory.create_batch(PANEL_ROWS + 2, campaign=cast.campaign)
    html = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert f"1–25 of {PANEL_ROWS + 2} units" in html
    response = cast.client("gm").get(list_url(cast, "units", page=2), **htmx())
    assert response.status_code == 200 and f"26–27 of {PANEL_ROWS + 2} units" in response.text


@pytest.mark.parametrize(
    "page",
    [
        "0",
        "-1",
        "abc",
        "",
        "2.5",
        "1e3",
        "99999999999999999999999999999",
        "%00",
        "1%00",
        "%C2%B2",
        "%D9%A1",
        "1,2",
    ],
)
def test_a_page_that_is_no_page_is_refused_in_words(cast, thirty, page):
    response = cast.client("gm").get(list_url(cast, page=page))
    assert response.status_code == 400
    assert "A page is a whole number from 1" in response.text
    assert f'href="{list_url(cast)}"' in response.text  # the first page, a click away


def test_a_page_past_the_last_says_how_many_there_are(cast, thirty):
    response = cast.client("gm").get(list_url(cast, page=3), **htmx())
    assert response.status_code == 400
    assert "There are 30 ships, 2 pages of 25: page 3 is past the last." in response.text
    assert cast.client("gm").get(list_url(cast, page=2)).status_code == 200


def test_without_the_page_asked_the_first_one_shows(cast, thirty):
    response = cast.client("gm").get(list_url(cast))
    assert response.status_code == 200 and "1–25 of 30 ships" in response.text


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 404)]
)
def test_only_the_gm_pages_through_the_records(cast, thirty, who, status):
    assert cast.client(who).get(list_url(cast, page=2)).status_code == status


def test_an_unknown_kind_or_one_shown_whole_is_404(cast):
    assert cast.client("gm").get(list_url(cast, "no-such-kind")).status_code == 404
    assert cast.client("gm").get(list_url(cast, "boobytraps")).status_code == 404
