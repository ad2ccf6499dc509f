"""A procedure's form reads what the records give once per page: its values, where each came
from and which the records fix all come from one reading of the records, whether the GM opens
the form, refreshes it after choosing a record, or a player opens their roll form."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referee.play import families
from referee.play.bindings import Context
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.logistics.factories import ShipStoresFactory

pytestmark = pytest.mark.django_db

PROCEDURE = "cargo.stores"  # its pre-fill reads the ship's stores: one query each time it runs


def stores_reads(captured) -> int:
    return sum('"logistics_shipstores"' in q["sql"] for q in captured.captured_queries)


@pytest.fixture
def ship(cast):
    ship = ShipFactory(campaign=cast.campaign, owner=cast.player, shared=True, mass_t=3500)
    ShipStoresFactory(ship=ship, fuel_cell_bay_t=40)
    return ship


def test_the_values_their_sources_and_what_they_fix_are_one_reading(cast, ship):
    binding = families.binding(PROCEDURE)
    ctx = Context(campaign=cast.campaign, objects={"ship": ship})
    with CaptureQueriesContext(connection) as captured:
        initial = binding.initial(ctx)
        fixed = binding.prefilled(ctx)
        binding.sources(ctx)
        binding.measurements(ctx, initial)
    assert stores_reads(captured) == 1
    assert initial["tankage_t"] == fixed["tankage_t"] == 40
    other = Context(campaign=cast.campaign, objects={"ship": ship})  # another page reads afresh
    with CaptureQueriesContext(connection) as captured:
        binding.prefilled(other)
    assert stores_reads(captured) == 1


@pytest.mark.parametrize("refresh", [False, True])
def test_the_gms_form_reads_the_records_once(cast, ship, refresh):
    url = reverse("play:procedure", args=[cast.campaign.code, PROCEDURE])
    query = {"ship": str(ship.code), **({"refresh": "1", "tankage_t": "12"} if refresh else {})}
    with CaptureQueriesContext(connection) as captured:
        page = cast.client("gm").get(url, query, **htmx())
    assert page.status_code == 200
    assert 'value="40' in page.text
    assert stores_reads(captured) == 1


def test_a_players_roll_form_reads_the_records_once(cast, ship):
    url = reverse("play:player-roll", args=[cast.campaign.code, PROCEDURE])
    with CaptureQueriesContext(connection) as captured:
        page = cast.client("player").get(url, {"ship": str(ship.code)})
    assert page.status_code == 200
    assert stores_reads(captured) == 1
