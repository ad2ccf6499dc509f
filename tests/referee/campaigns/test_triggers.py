"""The database keeps the players' change counter: any write to anything a campaign keeps
moves its state_version, whatever table it is in and whoever writes it (plain SQL too).
Walks every installed model with a campaign key, so a model added later is covered."""

import importlib

import pgtrigger
import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from referee.battles.models import MegaMekBoard
from referee.campaigns.models import TOUCH_CAMPAIGN, Campaign, CampaignScoped, Membership
from referee.clock.models import TimedEvent
from referee.fleet.models import Marker
from referee.logistics.models import CharacterSheet
from referee.maps.models import PiratePoint, RoutePlan
from referee.play.models import LogEntry
from referee.sheets.models import Design
from referee.telemissiles.models import Telemissile
from referee.terrain.models import UnitPlacement
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InviteFactory,
    ShipFactory,
    StarSystemFactory,
    UnitFactory,
)
from tests.referee.boobytraps.factories import BoobyTrapFactory, WeaponChartFactory
from tests.referee.history import ruled_jump
from tests.referee.logistics.factories import ShipStoresFactory, UnitRefitFactory
from tests.referee.shipboard.factories import CompartmentFactory, SurfaceFactory
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory, TerrainRowFactory

pytestmark = pytest.mark.django_db


def campaign_models() -> list[type]:
    """Every installed model with a foreign key to Campaign."""
    return sorted(
        (
            model
            for model in apps.get_models()
            if any(f.many_to_one and f.related_model is Campaign for f in model._meta.concrete_fields)
        ),
        key=lambda model: model._meta.label,
    )


CAMPAIGN_MODELS = [model._meta.label for model in campaign_models()]


@pytest.fixture
def rows(cast) -> dict[type, object]:
    """One row of every model a campaign keeps, all in ``cast.campaign``."""
    c = cast.campaign
    ship, unit = ShipFactory(campaign=c), UnitFactory(campaign=c)
    character = CharacterFactory(campaign=c, ship=ship)
    compartment = CompartmentFactory(campaign=c, ship=ship)
    battlefield = BattlefieldFactory(campaign=c)
    made = [
        Membership.objects.filter(campaign=c).first(),
        InviteFactory(campaign=c, created_by=cast.gm),
        StarSystemFactory(campaign=c),
        ship,
        unit,
        character,
        Marker.objects.create(campaign=c, name="Watch", kind="neutrino_watch", ship=ship, tracking={}),
        WeaponChartFactory(campaign=c),
        BoobyTrapFactory(campaign=c),
        battlefield,
        HexFactory(battlefield=battlefield),
        TerrainRowFactory(campaign=c),
        compartment,
        SurfaceFactory(compartment=compartment),
        ShipStoresFactory(ship=ship),
        UnitRefitFactory(unit=unit),
        CharacterSheet.objects.create(campaign=c, character=character, name="Kai", template="MechWarrior"),
        Telemissile.objects.create(campaign=c, name="Whale", missile_type="killer_whale_t", operator=ship),
        TimedEvent.objects.create(
            campaign=c, name="charge", kind="charge", ship=ship, started_at=c.clock, due_at=c.clock
        ),
        Design.objects.create(campaign=c, name="Victor VTR-9K", unit_type="mech", document={}),
        PiratePoint.objects.create(
            campaign=c, name="L4", star_system=StarSystemFactory(campaign=c), x_au=1, y_au=2
        ),
        UnitPlacement.objects.create(
            campaign=c, name=unit.name, unit=unit, battlefield=battlefield, hex="0101"
        ),
        MegaMekBoard.objects.create(campaign=c, name=battlefield.name, battlefield=battlefield),
        RoutePlan.objects.create(campaign=c, name="To Tharkad", ship=ship, route="A,B", arrives_at=c.clock),
        ruled_jump(c, cast.gm, ship, dice=[3, 4]),
    ]
    return {type(obj): obj for obj in made}


def version(campaign) -> int:
    return Campaign.objects.values_list("state_version", flat=True).get(pk=campaign.pk)


def sql(statement: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def test_the_walk_finds_the_campaign_tables_including_the_family_ones():
    assert len(CAMPAIGN_MODELS) >= 18
    for label in (
        "campaigns.Membership",
        "fleet.Ship",
        "play.LogEntry",
        "boobytraps.BoobyTrap",
        "boobytraps.WeaponChart",
        "shipboard.Compartment",
        "shipboard.Surface",
        "terrain.Battlefield",
        "terrain.Hex",
        "terrain.TerrainRow",
    ):
        assert label in CAMPAIGN_MODELS, label


@pytest.mark.parametrize("label", CAMPAIGN_MODELS)
def test_every_model_with_a_campaign_key_declares_the_touch_triggers(label):
    model = apps.get_model(label)
    assert issubclass(model, CampaignScoped), f"{label} should inherit CampaignScoped"
    declared = {trigger.name for trigger in model._meta.triggers}
    assert {trigger.name for trigger in TOUCH_CAMPAIGN} <= declared
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND tgenabled = 'O'",
            [model._meta.db_table],
        )
        installed = {name for (name,) in cursor.fetchall()}
    for trigger in TOUCH_CAMPAIGN:
        assert trigger.get_pgid(model) in installed, f"{label} lacks {trigger.name} in the database"


def test_every_trigger_on_the_campaign_tables_is_declared_on_a_model():
    """The hand-written triggers of the first migrations are gone, not doubled."""
    tables = [apps.get_model(label)._meta.db_table for label in CAMPAIGN_MODELS] + ["campaigns_campaign"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND c.relname = ANY(%s)",
            [tables],
        )
        installed = cursor.fetchall()
    declared = {
        (model._meta.db_table, trigger.get_pgid(model))
        for model in apps.get_models()
        for trigger in getattr(model._meta, "triggers", [])
    }
    # The door's notifications (play.0017) are on tables Django owns too, so no model declares them.
    door = importlib.import_module("referee.play.migrations.0017_door_notify")
    declared |= {(table, "referee_door_notify") for table, _ in door.WATCHED}
    assert set(installed) == {pair for pair in declared if pair[0] in tables}


@pytest.mark.parametrize("label", CAMPAIGN_MODELS)
def test_an_insert_update_or_delete_in_any_campaign_table_moves_the_state_version(label, rows, cast):
    model = apps.get_model(label)
    assert model in rows, f"the rows fixture has no {label}: add one so its triggers are proven"
    row, campaign = rows[model], cast.campaign
    table, pk = connection.ops.quote_name(model._meta.db_table), model._meta.pk.column
    campaign_column = next(
        f.column for f in model._meta.concrete_fields if f.many_to_one and f.related_model is Campaign
    )

    before = version(campaign)
    sql(f"UPDATE {table} SET {campaign_column} = {campaign_column} WHERE {pk} = %s", [row.pk])
    assert version(campaign) > before, "an UPDATE did not move it"

    sql(f"CREATE TEMP TABLE kept AS SELECT * FROM {table} WHERE {pk} = %s", [row.pk])
    if model is LogEntry:  # append-only: the delete is refused; a new entry still counts
        with pytest.raises(IntegrityError, match="cannot be deleted"), transaction.atomic():
            sql(f"DELETE FROM {table} WHERE {pk} = %s", [row.pk])
        other = CampaignFactory()
        before = version(other)
        sql(
            f"UPDATE kept SET {pk} = nextval(pg_get_serial_sequence('{model._meta.db_table}', '{pk}')), "
            f"{campaign_column} = %s",
            [other.pk],
        )
        sql(f"INSERT INTO {table} SELECT * FROM kept")
        assert version(other) > before, "an INSERT into the log did not move it"
    else:
        before = version(campaign)
        sql(f"DELETE FROM {table} WHERE {pk} = %s", [row.pk])
        assert version(campaign) > before, "a DELETE did not move it"
        before = version(campaign)
        sql(f"INSERT INTO {table} SELECT * FROM kept")
        assert version(campaign) > before, "an INSERT did not move it"
    sql("DROP TABLE kept")


def test_a_statement_touches_each_campaign_once_however_many_rows_it_writes(cast):
    ShipFactory.create_batch(5, campaign=cast.campaign)
    before = version(cast.campaign)
    sql("UPDATE fleet_ship SET x_au = x_au WHERE campaign_id = %s", [cast.campaign.pk])
    assert version(cast.campaign) == before + 1


def test_a_statement_that_writes_no_row_moves_nothing(cast):
    before = version(cast.campaign)
    sql("UPDATE fleet_ship SET x_au = x_au WHERE campaign_id = %s", [cast.campaign.pk])
    assert version(cast.campaign) == before


def test_moving_a_row_to_another_campaign_touches_both(cast):
    ship, other = ShipFactory(campaign=cast.campaign), CampaignFactory()
    before, before_other = version(cast.campaign), version(other)
    sql("UPDATE fleet_ship SET campaign_id = %s WHERE id = %s", [other.pk, ship.pk])
    assert version(cast.campaign) > before and version(other) > before_other


def test_holding_off_the_touch_triggers_leaves_the_log_guard_on(rows, cast):
    """What a restore holds off is the touch only: the log stays append-only meanwhile."""
    from referee.campaigns.models import touch_campaign_trigger_uris

    entry = rows[LogEntry]
    with pgtrigger.ignore(*touch_campaign_trigger_uris()):
        before = version(cast.campaign)
        ShipFactory(campaign=cast.campaign)
        assert version(cast.campaign) == before
        with pytest.raises(IntegrityError, match="cannot be deleted"), transaction.atomic():
            sql("DELETE FROM play_logentry WHERE id = %s", [entry.pk])
    ShipFactory(campaign=cast.campaign)
    assert version(cast.campaign) > before
