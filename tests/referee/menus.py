"""The GM's dashboard as a GM sees it with its Roll… menus open: each menu is read when its
button first opens it (the button's link, fetched by HTMX), so a test that looks for what
a record's menu offers fetches the menus the page links to and puts each in its panel."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

LAZY_MENU = re.compile(
    r'<a class="button small" href="(?P<url>[^"]+)" role="button" aria-expanded="false" '
    r'aria-controls="(?P<panel>[^"]+)"[^>]*data-menu-src>Roll…</a>'
    r'<div class="menu-panel" id="(?P=panel)" data-menu-panel hidden></div>'
)


def with_menus(client: Client, html: str) -> str:
    """``html`` with every lazily read Roll… menu in its panel, as the browser fills it."""

    def opened(found: re.Match) -> str:
        response = client.get(found["url"], headers={"HX-Request": "true"})
        assert response.status_code == 200, (found["url"], response.status_code)
        return found[0].replace(
            "data-menu-panel hidden></div>", f"data-menu-panel hidden>{response.text}</div>"
        )

    return LAZY_MENU.sub(opened, html)


def dashboard_with_menus(client: Client, campaign) -> str:
    """The GM's dashboard of ``campaign`` with every Roll… menu read in."""
    response = client.get(reverse("campaigns:detail", args=[campaign.code]))
    assert response.status_code == 200
    return with_menus(client, response.text)
