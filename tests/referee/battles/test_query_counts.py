"""A unit list costs the same number of queries for three units as for thirty: no query per
unit for its crew going out, none per entity for the ids coming back, and the records a
result writes are locked together."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.battles import mul, services
from tests.factories import CharacterFactory
from tests.referee.battles.records import record
from tests.referee.battles.test_results import place
from tests.referee.terrain.factories import BattlefieldFactory

pytestmark = pytest.mark.django_db

FILES = ("Victor VTR-9K.mtf", "Tortuga TRT-2Q.mtf", "Bulwark Heavy Tank.blk")


def forces(campaign, count: int):
    """A battlefield with ``count`` units on it, each crewed by two characters, and a
    DropShip with its crew; the units' records and the ship."""
    field = BattlefieldFactory(campaign=campaign, name=f"Field of {count}")
    units = []
    for n in range(count):
        unit = record(campaign, FILES[n % len(FILES)], name=f"Unit {count}-{n:02}")
        place(unit, field, f"{n % 9 + 1:02}{n // 9 + 1:02}")
        CharacterFactory(campaign=campaign, unit=unit, name=f"Zed {n}")
        CharacterFactory(campaign=campaign, unit=unit, name=f"Ada {n}")
        units.append(unit)
    ship = record(campaign, "Union (3067).blk", name=f"Union {count}")
    CharacterFactory(campaign=campaign, ship=ship, name=f"Captain {count}")
    return field, units, ship


def queries(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = call()
    return len(captured.captured_queries), result


def test_a_battlefields_forces_go_out_in_the_same_queries_for_three_units_as_for_thirty(cast):
    small, _units, _ship = forces(cast.campaign, 3)
    large, _units, _ship = forces(cast.campaign, 30)
    few, (text, _notes) = queries(lambda: services.mul_export(services.battlefield_forces(small)))
    many, (big, _notes) = queries(lambda: services.mul_export(services.battlefield_forces(large)))
    assert few == many <= 3, (few, many)
    assert big.count("<entity ") == 30
    assert 'name="Ada 0"' in text and 'name="Zed 0"' not in text  # the first of the crew by name


def test_picked_records_go_out_in_the_same_queries_for_three_as_for_thirty(cast):
    _field, small, ship = forces(cast.campaign, 3)
    _field, large, _ship = forces(cast.campaign, 30)

    def picked(records):
        codes = [str(r.code) for r in [*records, ship]]
        return services.mul_export(services.records_by_code(cast.campaign, codes, "gm", cast.gm))

    few, (text, _notes) = queries(lambda: picked(small))
    many, (big, _notes) = queries(lambda: picked(large))
    assert few == many <= 5, (few, many)
    assert big.count("<entity ") == 31 and 'name="Captain 3"' in text


def test_a_battles_result_is_matched_in_the_same_queries_for_three_units_as_for_thirty(cast):
    small, _units, _ship = forces(cast.campaign, 3)
    large, _units, _ship = forces(cast.campaign, 30)
    few_entities = mul.parse_mul(services.mul_export(services.battlefield_forces(small))[0])
    many_entities = mul.parse_mul(services.mul_export(services.battlefield_forces(large))[0])
    few, preview = queries(lambda: services.result_preview(cast.campaign, few_entities))
    many, big = queries(lambda: services.result_preview(cast.campaign, many_entities))
    assert few == many <= 4, (few, many)
    assert len(preview.matched) == 3 and len(big.matched) == 30
    assert {row.how for row in big.matched} == {"id"}


def test_a_result_locks_its_records_in_one_query_whatever_their_number(cast):
    field, units, _ship = forces(cast.campaign, 6)  # as many as one entry holds
    text = services.mul_export(services.battlefield_forces(field))[0]
    hurt = text.replace('hits="', 'was="').replace('ejected="false"', 'hits="1" ejected="false"')
    entities = mul.parse_mul(hurt)  # every pilot took a hit
    with CaptureQueriesContext(connection) as captured:
        entry = services.result_apply(campaign=cast.campaign, entities=entities, chosen={}, actor=cast.gm)
    locks = [q["sql"] for q in captured.captured_queries if "FOR UPDATE" in q["sql"] and "fleet_" in q["sql"]]
    assert len(locks) == 1, locks
    assert len(entry.inputs["@records"]) == len(units)
