"""A restore runs in its own transaction without holding up anyone else: while it is
writing a campaign back (and has not committed), a resolution in another campaign goes
through. Real threads, real connections, real PostgreSQL."""

import threading

import pgtrigger
import pytest
from django.db import connection, transaction

from referee.campaigns.models import Campaign
from referee.play import backup, integrity
from referee.play.models import LogEntry
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, ShipFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db(transaction=True)

MICRO_FRACTURES = [6, 6, 4, 5]
WAIT_S = 60


def resolve_jump(campaign, gm, ship) -> LogEntry:
    return ruled_jump(campaign, gm, ship, dice=MICRO_FRACTURES)


@pytest.fixture
def lost_campaign() -> dict:
    """The backup of a campaign with ships, characters and a log, then the campaign gone."""
    campaign = CampaignFactory(name="Lost")
    gm = MembershipFactory(campaign=campaign, role="gm").user
    ship = ShipFactory(campaign=campaign, kf_integrity=30, kf_integrity_max=30)
    CharacterFactory(campaign=campaign, ship=ship)
    for _ in range(3):
        resolve_jump(campaign, gm, ship)
    document = backup.backup_document(campaign)
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute("DELETE FROM play_logentry WHERE campaign_id = %s", [campaign.pk])
    campaign.delete()
    return document


def test_a_resolution_in_another_campaign_completes_while_a_restore_is_open(lost_campaign):
    other = CampaignFactory(name="Still playing")
    gm = MembershipFactory(campaign=other, role="gm").user
    ship = ShipFactory(campaign=other, kf_integrity=30, kf_integrity_max=30)
    restored, may_commit = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def restoring() -> None:
        try:
            with transaction.atomic():  # the restore's writes stay uncommitted until told
                backup.restore(lost_campaign, same_accounts=True)
                restored.set()
                assert may_commit.wait(WAIT_S), "the test never let the restore commit"
        except BaseException as error:
            errors.append(error)
        finally:
            restored.set()
            connection.close()

    thread = threading.Thread(target=restoring)
    thread.start()
    try:
        assert restored.wait(WAIT_S) and not errors, errors
        code = lost_campaign["campaign"]["code"]
        assert not Campaign.objects.filter(code=code).exists()  # the restore has not committed
        with connection.cursor() as cursor:  # a lock on the log would fail this, not hang it
            cursor.execute("SET lock_timeout = '5s'")
        try:
            entry = resolve_jump(other, gm, ship)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
        assert entry.seq == 1 and LogEntry.objects.filter(campaign=other).count() == 1
    finally:
        may_commit.set()
        thread.join(WAIT_S)
    assert not thread.is_alive() and not errors, errors

    back = Campaign.objects.get(code=lost_campaign["campaign"]["code"])
    assert integrity.verify_campaign(back).checked == 3
    version = back.state_version
    ShipFactory(campaign=back)  # the touch triggers are on again once the restore is done
    back.refresh_from_db()
    assert back.state_version > version
