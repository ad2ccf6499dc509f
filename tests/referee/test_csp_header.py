"""A Content-Security-Policy on every response, of every kind: GM and player pages, forms,
maps and their SVGs, sheets, the log, exports, static files and error pages. Scripts and
styles come only from this server; no inline script, no eval, no inline style but the
maps' own SVG styles, allowed by their hashes."""

import base64
import hashlib
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from referee.maps.models import PiratePoint
from tests.factories import ShipFactory, StarSystemFactory, UnitFactory
from tests.referee.terrain.factories import BattlefieldFactory

pytestmark = pytest.mark.django_db


def _named(response, where):
    assert response.headers.get("Content-Security-Policy"), where
    return directives(response)


def directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.status_code} {response.get('Content-Type')}"
    found = {}
    for part in header.split(";"):
        name, *values = part.split()
        found[name] = values
    return found


def assert_strict(response, where=None) -> None:
    policy = directives(response) if where is None else _named(response, where)
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'", *settings.CSP_STYLE_HASHES]
    assert not [v for values in policy.values() for v in values if "unsafe" in v or "nonce" in v]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    # Every inline <style> the answer carries (a map's SVG) is one the policy allows by hash:
    # otherwise the browser drops it and the map is drawn unstyled.
    body = response.content.decode(errors="replace") if not getattr(response, "streaming", False) else ""
    for style in re.findall(r"<style>(.*?)</style>", body, re.S):
        digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["style-src"], (where, style[:60])


@pytest.fixture
def world(cast):
    system = StarSystemFactory(campaign=cast.campaign, name="Galax", jump_point_au=1.5)
    ship = ShipFactory(
        campaign=cast.campaign, star_system=system, shared=True, owner=cast.player, x_au=0, y_au=1
    )
    unit = UnitFactory(campaign=cast.campaign, shared=True, owner=cast.player)
    PiratePoint.objects.create(campaign=cast.campaign, star_system=system, name="L4", x_au=2, y_au=-1)
    field = BattlefieldFactory(campaign=cast.campaign, name="Ridge")
    return cast, system, ship, unit, field


def test_every_kind_of_page_carries_the_policy(world):
    cast, system, ship, unit, field = world
    code = cast.campaign.code
    gm_pages = [
        reverse("campaigns:list"),
        reverse("campaigns:detail", args=[code]),
        reverse("campaigns:players", args=[code]),
        reverse("play:index", args=[code]),
        reverse("play:procedure", args=[code, "jump.malfunction"]) + f"?ship={ship.code}",
        reverse("play:log", args=[code]),
        reverse("maps:index", args=[code]),
        reverse("maps:system", args=[code, system.code]),
        reverse("maps:system-svg", args=[code, system.code]),
        reverse("maps:battlefield", args=[code, field.code]),
        reverse("maps:stars", args=[code]),
        reverse("maps:stars-svg", args=[code]),
        reverse("sheets:sheet", args=[code, "ships", ship.code]),
        reverse("integrity:verify", args=[code]),
        *[reverse("play:export", args=[code, fmt]) for fmt in ("csv", "json", "md")],
    ]
    player_pages = [
        reverse("campaigns:detail", args=[code]),
        reverse("play:player-roll", args=[code, "jump.malfunction"]) + f"?ship={ship.code}",
        reverse("sheets:sheet", args=[code, "units", unit.code]),
        reverse("integrity:head", args=[code]),
        reverse("maps:system", args=[code, system.code]),
        reverse("maps:stars", args=[code]),
    ]
    for who, pages in (("gm", gm_pages), ("player", player_pages)):
        client = cast.client(who)
        for page in pages:
            response = client.get(page)
            assert response.status_code == 200, (who, page, response.status_code)
            assert_strict(response, (who, page))
            # The same page served again (kept whole, where the product keeps it).
            assert_strict(client.get(page), (who, page, "again"))


def test_error_pages_and_sign_in_carry_the_policy(cast):
    anonymous = Client()
    for page, status in (
        ("/accounts/login/", 200),
        ("/no-such-page/", 404),
        (reverse("campaigns:detail", args=[cast.campaign.code]), 404),
    ):
        response = anonymous.get(page)
        assert response.status_code == status, page
        assert_strict(response)
    forbidden = cast.client("player").get(
        reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    )
    assert forbidden.status_code == 403
    assert_strict(forbidden)
    bad = cast.client("gm").post(reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"]), {})
    assert bad.status_code in (200, 422)
    assert_strict(bad)


def test_no_template_writes_an_inline_script_style_or_handler():
    import re
    from pathlib import Path

    found = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"<style", r"\sstyle=\"", r"\son[a-z]+=\"", r"\[!"):
            if re.search(pattern, text):
                found.append(f"{path.name}: {pattern}")
    assert found == []
