"""Refusals and errors read as pages that help: a heading, what happened, a way back."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_a_player_on_a_gm_page_gets_a_styled_403_with_a_way_back(cast):
    response = cast.client("player").get(reverse("play:index", args=[cast.campaign.code]))
    assert response.status_code == 403
    assert "<h1>You cannot open this page</h1>" in response.text
    assert "Only the campaign&#x27;s GM can do that." in response.text
    assert f'href="{reverse("campaigns:list")}"' in response.text
    assert 'class="skip-link"' in response.text


def test_an_outsider_gets_a_styled_404_with_a_way_back(cast):
    response = cast.client("outsider").get(reverse("play:index", args=[cast.campaign.code]))
    assert response.status_code == 404
    assert "<h1>Nothing here</h1>" in response.text
    assert f'href="{reverse("campaigns:list")}"' in response.text


def test_an_unknown_address_is_the_same_404(cast):
    response = cast.client("gm").get("/no/such/page/")
    assert response.status_code == 404
    assert "<h1>Nothing here</h1>" in response.text


def test_the_500_page_stands_alone_with_a_way_back():
    response = server_error(RequestFactory().get("/c/anything/"))
    assert response.status_code == 500
    text = response.content.decode()
    assert "<h1>Something went wrong</h1>" in text
    assert 'href="/"' in text and "<main" in text
