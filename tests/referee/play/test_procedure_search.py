"""All procedures: found by a search box, named as the books name them (no ids)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def index(cast, **query):
    return cast.client("gm").get(reverse("play:index", args=[cast.campaign.code]), query)


def test_the_list_names_procedures_without_their_ids(cast):
    page = index(cast).text
    assert "Drive: charge the K-F drive or lithium-fusion battery" in page
    assert "drive.charge<" not in page and ">drive.charge" not in page


@pytest.mark.parametrize("q", ["radar", "RADAR", "  active   radar "])
def test_a_search_keeps_the_procedures_it_names(cast, q):
    page = index(cast, q=q).text
    assert "active-radar detection roll" in page and "charge the K-F drive" not in page


@pytest.mark.parametrize("q", ["\x00", "x" * 5000, "<script>", "zzzz"])
def test_a_search_that_finds_nothing_says_so(cast, q):
    response = index(cast, q=q)
    assert response.status_code == 200
    assert "charge the K-F drive" not in response.text or q == "\x00"
    assert "<script>" not in response.text.split("<main", 1)[-1].replace("&lt;script&gt;", "")
