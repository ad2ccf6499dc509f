"""Every page costs the same number of queries whatever the campaign's size: no query per
ship, unit, 'Mech or log entry, no count of the whole log. Each page is rendered for a
small campaign and for one with 200 of every record and a long log: the counts must be
equal, and at most 15 once its panels are cached for the campaign's version; rendered afresh
after a change, the GM dashboard reads each rule family's panel,
``DASHBOARD_QUERIES_AFTER_A_CHANGE``)."""

import uuid

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.campaigns.models import Campaign
from referee.play import services
from referee.play.management.commands import bench_export
from referee.play.models import LogEntry, Numbering, Visibility
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    ShipFactory,
    StarSystemFactory,
    UnitFactory,
)
from tests.referee.boobytraps.factories import BoobyTrapFactory
from tests.referee.history import ruled_jump
from tests.referee.shipboard.factories import CompartmentFactory
from tests.referee.terrain.factories import BattlefieldFactory

pytestmark = pytest.mark.django_db

MAX_QUERIES = 15
# The GM dashboard rendered afresh after a change: one statement vouches for the session
# and reads the user (kept pages), then the membership (2), the log's newest page (1: its
# size is the newest entry's number), the fleet's five lists (5: a page each, counted in
# the same query; no record's Roll… menu, which is read when it opens; who plays and the
# invite links are read when their group opens), the players a note can be whispered to
# (1), and each rule family's panel its own
# tables (13: missiles, battlefields, hexes and terrain rows, compartments and their
# surfaces, ships with their stores, units with their refits, character sheets and the
# units to assign one to, booby traps and weapon charts, designs), the GM's desk (3: rolls
# waiting, changes left to apply, events due) and the clock's agenda (4: the events under
# way, the entries that started them, the stores that may run low, the routes planned) and the ships' status
# lines (1). Served again while the campaign has not changed, the table is one kept piece
# and it reads only who is asking.
DASHBOARD_QUERIES_AFTER_A_CHANGE = 30
# The players' page rendered afresh after a change: one statement vouches for the session
# and reads the user and the campaign's version (kept pages), then the membership, the
# shared records and the player's own, the family panels, the log (its size, hidden entries
# and the player's numbering in one statement, then the page of entries) and which records
# that page names the player may see, and what the shared ships are doing (2: the panel
# of what is under way, the ships' status lines). Served again, it is that first
# statement alone.
PLAYER_PAGE_QUERIES_AFTER_A_CHANGE = 16
# The status poll after a change: the same first statement, the membership with the
# player's version, then the panel's reads (the page's, less the player's own records).
POLL_QUERIES_AFTER_A_CHANGE = 14
MICRO_FRACTURES = [6, 6, 4, 5]


def campaign_of(size: int, log_entries: int) -> dict:
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    player = MembershipFactory(campaign=campaign, role="player").user
    system = StarSystemFactory(campaign=campaign)
    StarSystemFactory.create_batch(size - 1, campaign=campaign)
    ships = ShipFactory.create_batch(size, campaign=campaign, star_system=system, shared=True, owner=player)
    UnitFactory.create_batch(size, campaign=campaign, shared=True, owner=player, landed_on=ships[0])
    UnitFactory.create_batch(size, campaign=campaign, kind="vehicle", shared=True)
    CharacterFactory.create_batch(size, campaign=campaign, ship=ships[0])
    CompartmentFactory.create_batch(size, campaign=campaign, ship=ships[0])
    BattlefieldFactory.create_batch(min(size, 20), campaign=campaign)
    BoobyTrapFactory.create_batch(min(size, 20), campaign=campaign)
    if log_entries:
        bench_export._fill_log(campaign, log_entries, 1000)
    jump = ruled_jump(campaign, gm, ships[0], dice=MICRO_FRACTURES)
    ruled_jump(campaign, gm, ships[0], dice=[3, 4], visibility=Visibility.GM)
    services.log_entry_reverse(entry=jump, actor=gm)
    return {"campaign": Campaign.objects.get(pk=campaign.pk), "gm": gm, "player": player, "ship": ships[0]}


def pages(world: dict) -> dict[str, tuple[str, str, dict]]:
    code = world["campaign"].code
    version = Client()
    version.force_login(world["player"])
    status = reverse("play:status", args=[code])
    panel = version.get(status, {"v": "x"}, headers={"HX-Request": "true"}).text
    current = panel.split(f"{status}?v=", 1)[1].split('"', 1)[0]
    last_public = Numbering.for_campaign(world["campaign"]).number(
        LogEntry.objects.filter(campaign=world["campaign"], visibility="everyone")
        .order_by("-seq")
        .first()
        .seq
    )
    return {
        "GM dashboard": ("gm", reverse("campaigns:detail", args=[code]), {}),
        "player page": ("player", reverse("campaigns:detail", args=[code]), {}),
        "procedure form": (
            "gm",
            reverse("play:procedure", args=[code, "jump.malfunction"]) + f"?ship={world['ship'].code}",
            {},
        ),
        "log page (GM)": ("gm", reverse("play:log", args=[code]), {}),
        "log page (player)": ("player", reverse("play:log", args=[code]), {}),
        # Filtered by record, turn and words, from an entry on: a query for the entries,
        # the reader's records (the filter's choices, and for players which they may see),
        # never one per entry or a count of the log.
        "log page filtered (GM)": (
            "gm",
            reverse("play:log", args=[code]) + f"?record={world['ship'].code}&turn=1&q=jump&before=100000",
            {},
        ),
        "log page filtered (player)": (
            "player",
            reverse("play:log", args=[code]) + f"?record={world['ship'].code}&q=jump",
            {},
        ),
        "entry page": ("player", reverse("play:entry", args=[code, last_public]), {}),
        "status poll, nothing changed": ("player", f"{status}?v={current}", {"HX-Request": "true"}),
        "status poll after a change": ("player", f"{status}?v=0", {"HX-Request": "true"}),
    }


def query_counts(world: dict, *, after_a_change: bool) -> dict[str, int]:
    clients = {"gm": Client(), "player": Client()}
    for who, client in clients.items():
        client.force_login(world[who])
    counts = {}
    for name, (who, url, headers) in pages(world).items():
        client = clients[who]
        assert client.get(url, headers=headers).status_code in (200, 204), name  # warm caches
        if after_a_change:  # the campaign moved on: nothing rendered before may be reused
            Campaign.objects.filter(pk=world["campaign"].pk).update(state_version=F("state_version") + 2)
            if "nothing changed" in name:
                url = url.rsplit("=", 1)[0] + "=" + _poll_version(client, url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, headers=headers)
        assert response.status_code in (200, 204), name
        counts[name] = len(queries)
    return counts


def _poll_version(client: Client, url: str) -> str:
    panel = client.get(url.rsplit("=", 1)[0] + "=x", headers={"HX-Request": "true"}).text
    return panel.split("?v=", 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("after_a_change", [False, True], ids=["served again", "after a change"])
def test_every_page_costs_the_same_few_queries_at_any_campaign_size(after_a_change):
    small = query_counts(campaign_of(5, 0), after_a_change=after_a_change)
    large = query_counts(campaign_of(200, 600), after_a_change=after_a_change)
    assert large == small, {name: (small[name], large[name]) for name in small if small[name] != large[name]}
    if after_a_change:
        assert large.pop("GM dashboard") <= DASHBOARD_QUERIES_AFTER_A_CHANGE
        assert large.pop("player page") <= PLAYER_PAGE_QUERIES_AFTER_A_CHANGE
        assert large["status poll after a change"] <= POLL_QUERIES_AFTER_A_CHANGE
    assert max(large.values()) <= MAX_QUERIES, large


# The GM's procedure form: served again while the campaign is unchanged, the whole page is
# kept and served in one statement (session, member, user, campaign and version together:
# the door's). After a change it reads, beside that statement, the records in its roles
# (one query each, whatever the campaign holds), their sharing, the choices of each record
# select, the players for a whisper and the log's first page.
PROCEDURE_FORM_QUERIES = 1
PROCEDURE_FORM_QUERIES_AFTER_A_CHANGE = 9
# A roll (HTMX POST): the door's one statement (session, member, user, campaign, where
# Django's authentication read the session, the user and the membership: three); then in
# one transaction the campaign
# locked, the form's key looked up (a resent form gets the first roll), the ship locked and
# read, its star system (the ship's own check that it is the campaign's), its change saved
# (a savepoint around the update), the log's seal (where the chain ends), the new entry,
# the seal moved on. The result card asks nothing more. In a test the transaction is a
# savepoint of the test's own: two more.
RESOLVE_QUERIES = 11 + 2


def form_and_roll_counts(world: dict) -> dict[str, int]:
    client = Client()
    client.force_login(world["gm"])
    code, ship = world["campaign"].code, world["ship"]
    url = reverse("play:procedure", args=[code, "jump.malfunction"])
    counts = {}
    for name in ("procedure form", "procedure form after a change"):
        assert client.get(url, {"ship": str(ship.code)}).status_code == 200  # warm caches
        if name.endswith("change"):
            Campaign.objects.filter(pk=world["campaign"].pk).update(state_version=F("state_version") + 2)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"ship": str(ship.code)})
        assert response.status_code == 200 and 'name="request_key"' in response.text
        counts[name] = len(queries)
    data = {"ship": str(ship.code), "visibility": "everyone", "gm_ruling": "on", "action": "roll"}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url, {**data, "request_key": str(uuid.uuid4())}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200 and 'data-testid="result-card"' in response.text
    counts["resolve"] = len(queries)
    return counts


def test_the_procedure_form_and_a_roll_cost_the_same_few_queries_at_any_campaign_size():
    small = form_and_roll_counts(campaign_of(5, 0))
    large = form_and_roll_counts(campaign_of(200, 600))
    assert large == small
    assert large == {
        "procedure form": PROCEDURE_FORM_QUERIES,
        "procedure form after a change": PROCEDURE_FORM_QUERIES_AFTER_A_CHANGE,
        "resolve": RESOLVE_QUERIES,
    }
