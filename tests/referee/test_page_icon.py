"""Every page names the product's icon, so a browser tab shows it and no page asks for a
``/favicon.ico`` that is not there (a 404 in every visitor's console)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_sign_in_page_names_an_icon_that_the_static_files_hold(client):
    page = client.get(reverse("login")).content.decode()
    found = re.search(r'<link rel="icon" href="/static/([^"]+)"', page)
    assert found, "the page names no icon"
    assert finders.find(found.group(1)), f"no static file for the icon {found.group(1)}"
