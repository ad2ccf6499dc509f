"""A backup's log is written by PostgreSQL, a batch at a time: each entry reads back as
exactly what the per-row writer (``backup.dump_row``) makes of it, odd values, deleted
users and references between entries included, and the backup still restores."""

import json
from io import StringIO

import pgtrigger
import pytest
from django.core.management import call_command
from django.db import connection

from referee.campaigns.models import Campaign
from referee.play import backup, services
from referee.play.models import LogEntry, Visibility
from tests.factories import MembershipFactory, UserFactory
from tests.referee.play.test_backup import wipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def log(cast):
    campaign = cast.campaign
    whispered = UserFactory(username="Zoë")
    gone = UserFactory(username="left_the_table")
    for user in (whispered, gone):
        MembershipFactory(campaign=campaign, user=user, role="player")
    first = services.log_append(
        campaign=campaign,
        procedure="note.post",
        title="Ünïcödé \x01 note",
        summary='Quotes " and \\ backslashes,\ttabs\nand lines 漢字 🚀',
        actor=cast.gm,
        result={"floats": [1.5, 1e-05, 0.1], "wide": 2**64 + 1, "keys": {"é": 1, "z": 2, "": None}},
        effects=[{"target": "ship", "field": "fuel", "before": 1.25, "after": 2}],
        visibility=Visibility.WHISPER,
        audience=[whispered.pk, gone.pk],
    )
    services.log_append(
        campaign=campaign,
        procedure="note.correct",
        title="A correction",
        summary="About the first note.",
        actor=gone,
        refers_to=first,
    )
    services.log_append(
        campaign=campaign, procedure="note.post", title="Undo", summary="Undone.", reversal_of=first
    )
    gone.delete()  # its entries keep their actor's name; the account is no longer named
    return cast


def per_row(campaign) -> tuple[list[dict], set[str]]:
    users: set[str] = set()
    fields = backup._fields(LogEntry, backup._campaign_fk(LogEntry))
    entries = LogEntry.objects.filter(campaign=campaign).select_related("actor", "reversal_of", "refers_to")
    rows = [backup.dump_row(entry, fields, users) for entry in entries.order_by("seq")]
    return json.loads(json.dumps(rows, ensure_ascii=False)), users


def test_each_entry_reads_back_as_the_per_row_writer_writes_it(log, monkeypatch):
    monkeypatch.setattr(backup, "LOG_BATCH", 2)  # two batches, streamed
    # A time on the second exactly, which isoformat() writes without a fraction.
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE play_logentry SET created_at = date_trunc('second', created_at) "
            "WHERE campaign_id = %s AND seq = 2",
            [log.campaign.pk],
        )
    document = backup.backup_document(log.campaign)
    rows, users = per_row(log.campaign)
    assert document["log"] == rows
    assert "." not in document["log"][1]["created_at"] and "." in document["log"][0]["created_at"]
    assert document["log"][0]["audience"] == ["Zoë"]
    assert [row["reversal_of"] for row in document["log"]] == [None, None, 1]
    assert [row["refers_to"] for row in document["log"]] == [None, 1, None]
    assert users <= set(document["users"]) and "left_the_table" not in document["users"]
    assert document["log_count"] == 3 and document["log_head"] == rows[-1]["hash"]


def test_a_backup_whose_log_postgresql_wrote_restores_and_verifies(log, tmp_path):
    path = tmp_path / "backup.json"
    call_command("backup_campaign", str(log.campaign.code), "-o", str(path))
    original, _users = per_row(log.campaign)
    wipe(log.campaign)
    call_command("restore_campaign", str(path), "--same-accounts", stdout=StringIO())
    restored = Campaign.objects.get(code=log.campaign.code)
    rows, _users = per_row(restored)
    assert rows == original
    out = StringIO()
    call_command("verify_log", str(restored.code), stdout=out)
    assert out.getvalue() == "chain holds: 3 entries\n"
