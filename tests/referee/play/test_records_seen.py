"""Which records a player may know by name: one statement, compiled once, whatever the
number of record types; codes that name nothing name no record."""

import uuid

import pytest

from referee.play.selectors import _seen_statement, records_seen
from tests.factories import CampaignFactory, ShipFactory, UnitFactory

pytestmark = pytest.mark.django_db


def test_shared_records_are_seen_kept_ones_are_not_and_others_are_no_longer_kept(cast):
    shared = ShipFactory(campaign=cast.campaign, shared=True)
    kept = UnitFactory(campaign=cast.campaign, shared=False)
    elsewhere = ShipFactory(campaign=CampaignFactory(), shared=True)
    gone = uuid.uuid4()
    seen = records_seen(cast.campaign, "player", [shared.code, str(kept.code), elsewhere.code, gone])
    assert seen[str(shared.code)] == 1
    assert seen[str(kept.code)] == 0
    assert str(elsewhere.code) not in seen and str(gone) not in seen
    assert seen[str(cast.campaign.code)] == 1
    assert records_seen(cast.campaign, "gm", [shared.code]) is None

    whole = records_seen(cast.campaign, "player")
    assert whole[str(shared.code)] == 1 and whole[str(kept.code)] == 0
    assert str(elsewhere.code) not in whole


@pytest.mark.parametrize(
    "junk", ["", "not a code", "\x00", "0" * 5000, None, 12, "00000000-0000-0000-0000-000000000001"]
)
def test_what_is_not_a_records_code_names_no_record(cast, junk):
    shared = ShipFactory(campaign=cast.campaign, shared=True)
    seen = records_seen(cast.campaign, "player", [junk, shared.code])
    assert seen == {str(cast.campaign.code): 1, str(shared.code): 1}
    assert records_seen(cast.campaign, "player", [junk]) == {str(cast.campaign.code): 1}


def test_the_statement_is_built_once_and_run_as_one_query(cast, django_assert_num_queries):
    ship = ShipFactory(campaign=cast.campaign, shared=True)
    records_seen(cast.campaign, "player", [ship.code])
    before = _seen_statement.cache_info().hits
    with django_assert_num_queries(1):
        assert records_seen(cast.campaign, "player", [ship.code])[str(ship.code)] == 1
    assert _seen_statement.cache_info().hits == before + 1
