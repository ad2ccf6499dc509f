"""Whether a GM-only change touches what players see is read in one query per kind of record
changed, however many records the change names: a change of fifty ships the players cannot
see costs what a change of one does, and one shared ship among them is seen."""

import pytest

from referee.play.services import unseen_by_players
from tests.factories import ShipFactory, UnitFactory

pytestmark = pytest.mark.django_db


def changes(records, field="heat") -> list[dict]:
    return [
        {"target": r._meta.model_name, "code": str(r.code), "field": field, "before": 0, "after": 1}
        for r in records
    ]


def test_fifty_changed_records_players_cannot_see_are_read_in_one_query_per_kind(
    cast, django_assert_max_num_queries
):
    ships = ShipFactory.create_batch(50, campaign=cast.campaign, shared=False)
    units = UnitFactory.create_batch(50, campaign=cast.campaign, shared=False)
    with django_assert_max_num_queries(2):
        assert unseen_by_players(changes(ships) + changes(units)) is True
    with django_assert_max_num_queries(1):
        assert unseen_by_players(changes(ships[:1])) is True


def test_one_shared_record_among_many_is_seen(cast, django_assert_max_num_queries):
    ships = ShipFactory.create_batch(30, campaign=cast.campaign, shared=False)
    shown = ShipFactory(campaign=cast.campaign, shared=True)
    with django_assert_max_num_queries(1):
        assert unseen_by_players(changes([*ships, shown, *ships])) is False


def test_what_cannot_be_told_apart_is_seen(cast):
    hidden = ShipFactory(campaign=cast.campaign, shared=False)
    assert unseen_by_players(changes([hidden], field="shared")) is False
    assert unseen_by_players([{"target": "campaign", "field": "clock"}]) is False
    assert unseen_by_players([*changes([hidden]), {"target": "ship", "code": "not a code"}]) is False
    assert unseen_by_players([{"target": "no such record", "code": str(hidden.code)}]) is False
    assert unseen_by_players(["not a change"]) is False
    assert unseen_by_players([{"target": "membership", "code": "anything"}]) is True
