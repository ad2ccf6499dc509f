"""No page a GM or a player uses is a JSON box: every page of the demo campaign, walked as
the GM and as the player (the dashboard and the players' page, every link they offer,
every procedure's form for every record it applies to, record pages, sheets, maps and the
log), holds no text box whose content is JSON and no field named for a JSON input."""

from __future__ import annotations

import html
import json
import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import rules
from referee.demo.campaign import DEMO_LOGINS, demo_campaign_load
from referee.play import families

pytestmark = pytest.mark.django_db

PLAIN = ("int", "float", "bool", "enum", "str", "rational")
STRUCTURED = {
    procedure.id: {spec.name for spec in procedure.contract.inputs if spec.type.kind not in PLAIN}
    for procedure in rules.all_procedures()
}
PROCEDURE_PAGE = re.compile(r"/(?:play|roll)/([a-z0-9_.]+)/")
# Links a walk does not follow: files to download, and what signs out.
NOT_PAGES = re.compile(r"/export/|/download/|\.(csv|json|md|mtf|blk|zip|svg)$|/logout/|/accounts/")
MAX_PAGES = 3_000


def json_container(text: str) -> bool:
    try:
        value = json.loads(html.unescape(text).strip())
    except ValueError:
        return False
    return isinstance(value, (list, dict))


def json_boxes(page: str, structured: set[str] = frozenset()) -> list[str]:
    """What on a page is a JSON box: a text box holding JSON, a field whose value is JSON,
    on a procedure's page a field named after one of its list or table inputs (those are
    rows and checkboxes)."""
    found = [
        f"textarea {name!r} holds JSON"
        for name, text in re.findall(r'<textarea\b[^>]*name="([^"]*)"[^>]*>(.*?)</textarea>', page, re.S)
        if json_container(text)
    ]
    for tag in re.findall(r"<(?:input|textarea|select)\b[^>]*>", page):
        name = re.search(r'\bname="([^"]*)"', tag)
        if name is None:
            continue
        name = name.group(1)
        kind = re.search(r'\btype="([^"]*)"', tag)
        value = re.search(r'\bvalue="([^"]*)"', tag)
        if "json" in name.lower():
            found.append(f"a field named {name!r}")
        if name in structured and not (kind and kind.group(1) == "checkbox"):
            found.append(f"{name!r} is one box, not rows or checkboxes")
        if value and json_container(value.group(1)) and not (kind and kind.group(1) == "hidden"):
            found.append(f"the field {name!r} holds JSON")
    return found


def procedure_pages(campaign) -> list[str]:
    """Every procedure's form, alone and for every record each of its roles applies to."""
    urls = []
    for procedure in rules.all_procedures():
        binding = families.binding(procedure.id)
        url = reverse("play:procedure", args=[campaign.code, procedure.id])
        urls.append(url)
        for role in binding.roles:
            urls += [
                f"{url}?{role.name}={code}" for code in role.choices(campaign).values_list("code", flat=True)
            ]
    return urls


def walk(client: Client, campaign, start: list[str]) -> dict[str, list[str]]:
    """Every page reachable by a link from ``start`` within the campaign: url -> its JSON boxes."""
    prefix = f"/c/{campaign.code}/"
    seen, queue, found = set(start), deque(start), {}
    while queue and len(seen) < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        page = response.content.decode()
        procedure = PROCEDURE_PAGE.search(url)
        if boxes := json_boxes(page, STRUCTURED.get(procedure.group(1), set()) if procedure else set()):
            found[url] = boxes
        for link in re.findall(r'(?:href|hx-get)="([^"#]+)', page):
            target = urljoin(url, html.unescape(link))
            path = urlsplit(target)
            if not path.path.startswith(prefix) or NOT_PAGES.search(path.path) or "refresh=" in path.query:
                continue
            target = path.path + (f"?{path.query}" if path.query else "")
            if target not in seen:
                seen.add(target)
                queue.append(target)
    found["(pages walked)"] = [str(len(seen))]
    return found


@pytest.fixture
def demo():
    campaign, created = demo_campaign_load()
    assert created
    return campaign


def signed_in(who: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=DEMO_LOGINS[who][0]))
    return client


def test_the_walk_finds_a_json_box_where_there_is_one():
    assert json_boxes('<textarea name="weapons">[{"type": "AC/20"}]</textarea>')
    assert json_boxes('<input type="text" name="weapons" value="">', {"weapons"})
    assert not json_boxes('<select name="terrain"></select>')
    assert json_boxes('<input type="text" name="ships_json" value="">')
    assert json_boxes('<input type="text" name="notes" value="{&quot;a&quot;: 1}">')
    assert not json_boxes(
        '<textarea name="notes">Landed at dawn</textarea><input type="checkbox" name="weather" value="fog">'
    )
    assert not json_boxes('<input type="text" name="weapons-0-type" value="AC/20">')


def test_no_page_the_gm_uses_is_a_json_box(demo):
    start = [reverse("campaigns:detail", args=[demo.code]), *procedure_pages(demo)]
    found = walk(signed_in("gm"), demo, start)
    walked = int(found.pop("(pages walked)")[0])
    assert walked > len(start)  # the walk followed the pages' links too
    assert found == {}


def test_no_page_a_player_uses_is_a_json_box(demo):
    client = signed_in("player")
    players_page = client.get(reverse("campaigns:detail", args=[demo.code]), follow=True)
    assert players_page.status_code == 200
    found = walk(client, demo, [players_page.request["PATH_INFO"]])
    walked = int(found.pop("(pages walked)")[0])
    assert walked > 5
    assert found == {}
