"""The turn log cannot be rewritten through SQL, and any rewrite that gets past the
database (trigger disabled) is caught by verify_log and the GM's verify page."""

import json
from io import StringIO

import pgtrigger
import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from referee.play import integrity, services
from referee.play.models import GENESIS_HASH, LogEntry, Visibility, chain_hash
from tests.factories import CampaignFactory, ShipFactory, UserFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]
NO_MISHAP = [3, 4]


@pytest.fixture
def logged(cast):
    """Five entries: two jumps, a phase advance, a secret jump, an undo."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9, shared=True)
    resolve = {
        "campaign": cast.campaign,
        "procedure_id": "jump.malfunction",
        "inputs": {},
        "actor": cast.gm,
        "gm_ruling": True,
    }
    first = services.procedure_resolve(**resolve, dice=MICRO_FRACTURES, subjects={"ship": ship.code})
    services.procedure_resolve(**resolve, dice=NO_MISHAP, subjects={"ship": ship.code})
    services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    services.procedure_resolve(
        **resolve, dice=MICRO_FRACTURES, subjects={"ship": ship.code}, visibility=Visibility.GM
    )
    services.procedure_resolve(**resolve, dice=MICRO_FRACTURES, subjects={"ship": ship.code})
    services.log_entry_reverse(entry=LogEntry.objects.get(seq=5, campaign=cast.campaign), actor=cast.gm)
    assert first.seq == 1 and cast.campaign.log.count() == 6
    return cast


def verify(code) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_log", str(code), stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def entry_id(campaign, seq: int) -> int:
    return LogEntry.objects.get(campaign=campaign, seq=seq).pk


def raw(sql: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def row_json(pk: int) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_jsonb(e) FROM play_logentry e WHERE id = %s", [pk])
        return cursor.fetchone()[0]


@pytest.fixture
def tamper():
    """Run SQL with the append-only trigger off, as someone with the database's keys could."""

    def run(sql: str, params=()):
        with pgtrigger.ignore("play.LogEntry:append_only"):
            raw(sql, params)

    return run


# --- the database refuses rewrites -----------------------------------------------------

OTHER_VALUES = {
    "seq": "seq + 100",
    "turn": "turn + 1",
    "phase": "'combat'",
    "game_time": "game_time + interval '1 second'",
    "procedure": "procedure || 'x'",
    "title": "title || 'x'",
    "inputs": """'{"forged": 1}'::jsonb""",
    "rolls": """'[]'::jsonb""",
    "result": """'{"mishap": false}'::jsonb""",
    "effects": """'[{"forged": true}]'::jsonb""",
    "pending": """'[{"x": 1}]'::jsonb""",
    "pending_words": """'["forged words"]'::jsonb""",
    "pending_digest": "repeat('c', 64)",
    "summary": "summary || ' (edited)'",
    "reference": "reference || 'x'",
    "actor_name": "'somebody else'",
    "visibility": "'gm'",
    "audience": "ARRAY[1]::bigint[]",
    "created_at": "created_at - interval '1 day'",
    "prev_hash": "repeat('a', 64)",
    "hash": "repeat('b', 64)",
    "hash_scheme": "hash_scheme + 1",
    "nonce": "reverse(nonce)",
    "request_key": "gen_random_uuid()",
    # The words people read are not hashed: the guard alone keeps them as written.
    "words": """'{"summary": "Nothing happened."}'::jsonb""",
    "id": "id + 100000",
}


def test_the_table_of_forged_values_covers_every_column_but_the_allowed_ones():
    columns = {f.column.removesuffix("_id") if f.is_relation else f.column for f in LogEntry._meta.fields}
    assert columns - set(OTHER_VALUES) == {"campaign", "actor", "revealed_at", "reversal_of", "refers_to"}


@pytest.mark.parametrize("column", sorted(OTHER_VALUES))
def test_sql_cannot_update_any_column_of_an_entry(logged, column):
    pk = entry_id(logged.campaign, 2)
    before = row_json(pk)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        raw(f"UPDATE play_logentry SET {column} = {OTHER_VALUES[column]} WHERE id = %s", [pk])
    assert row_json(pk) == before
    assert verify(logged.campaign.code)[0] == 0


def test_sql_cannot_move_an_entry_to_another_campaign_actor_or_reversal(logged):
    pk = entry_id(logged.campaign, 2)
    other_campaign, other_user = CampaignFactory(), UserFactory()
    for column, value in (
        ("campaign_id", other_campaign.pk),
        ("actor_id", other_user.pk),
        ("reversal_of_id", entry_id(logged.campaign, 1)),
        ("refers_to_id", entry_id(logged.campaign, 1)),
    ):
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            raw(f"UPDATE play_logentry SET {column} = %s WHERE id = %s", [value, pk])
    assert LogEntry.objects.get(pk=pk).actor == logged.gm


def test_sql_cannot_delete_an_entry(logged):
    with pytest.raises(IntegrityError, match="cannot be deleted"), transaction.atomic():
        raw("DELETE FROM play_logentry WHERE id = %s", [entry_id(logged.campaign, 6)])
    with pytest.raises(IntegrityError), transaction.atomic():
        raw("DELETE FROM play_logentry WHERE campaign_id = %s", [logged.campaign.pk])
    assert logged.campaign.log.count() == 6


def test_sql_may_only_reveal_an_entry_once(logged):
    pk = entry_id(logged.campaign, 4)
    raw("UPDATE play_logentry SET revealed_at = now() WHERE id = %s", [pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        raw("UPDATE play_logentry SET revealed_at = revealed_at + interval '1 hour' WHERE id = %s", [pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        raw("UPDATE play_logentry SET revealed_at = NULL WHERE id = %s", [pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        raw("UPDATE play_logentry SET revealed_at = now(), summary = 'x' WHERE id = %s", [pk])


def test_forgetting_a_deleted_user_is_the_other_update_allowed(logged):
    """actor_id may become NULL (ON DELETE SET NULL); actor_name keeps who it was, and the
    hash does not cover the id, so the chain still holds."""
    logged.gm.delete()
    assert LogEntry.objects.filter(campaign=logged.campaign, actor__isnull=True).count() == 6
    assert LogEntry.objects.get(campaign=logged.campaign, seq=1).actor_name == logged.gm.username
    assert verify(logged.campaign.code)[0] == 0


def test_revealing_through_the_service_works_once(logged):
    secret = LogEntry.objects.get(campaign=logged.campaign, seq=4)
    assert secret.secret
    revealed = services.log_entry_reveal(entry=secret, actor=logged.gm)
    assert revealed.revealed_at is not None and not revealed.secret
    again = services.log_entry_reveal(entry=secret, actor=logged.gm)
    assert again.revealed_at == revealed.revealed_at
    public = LogEntry.objects.get(campaign=logged.campaign, seq=1)
    with pytest.raises(services.PlayError, match="not secret"):
        services.log_entry_reveal(entry=public, actor=logged.gm)
    assert verify(logged.campaign.code) == (0, "chain holds: 6 entries\n")


# --- verify_log over the database --------------------------------------------------------


def test_an_intact_chain_exits_0(logged):
    assert verify(logged.campaign.code) == (0, "chain holds: 6 entries\n")


def test_an_empty_log_holds(cast):
    assert verify(cast.campaign.code) == (0, "chain holds: 0 entries\n")


def test_a_changed_summary_exits_1_naming_the_entry(logged, tamper):
    tamper(
        "UPDATE play_logentry SET summary = 'Nothing happened.' WHERE id = %s", [entry_id(logged.campaign, 3)]
    )
    status, out = verify(logged.campaign.code)
    assert status == 1
    assert out.startswith("chain broken at #3 ")
    assert "hash does not match its contents" in out


def test_a_rewrite_that_recomputes_the_hash_breaks_the_next_link(logged, tamper):
    entry = LogEntry.objects.select_related("campaign", "reversal_of").get(campaign=logged.campaign, seq=2)
    entry.summary = "A quiet jump."
    forged = chain_hash(entry.prev_hash, entry.hash_payload())
    tamper(
        "UPDATE play_logentry SET summary = %s, hash = %s WHERE id = %s", [entry.summary, forged, entry.pk]
    )
    status, out = verify(logged.campaign.code)
    assert status == 1
    assert out.startswith("chain broken at #3 ") and "prev_hash is not #2's hash" in out


def test_a_deleted_entry_is_a_gap(logged, tamper):
    tamper("DELETE FROM play_logentry WHERE id = %s", [entry_id(logged.campaign, 3)])
    status, out = verify(logged.campaign.code)
    assert status == 1
    assert out.startswith("chain broken at #4 ") and "seq 3 is missing" in out


def test_a_changed_revealed_at_is_not_tampering(logged, tamper):
    """revealed_at is left out of the hash on purpose: revealing is the change the log allows."""
    tamper("UPDATE play_logentry SET revealed_at = now() WHERE id = %s", [entry_id(logged.campaign, 1)])
    assert verify(logged.campaign.code)[0] == 0


def test_verify_log_refuses_bad_arguments(cast):
    from django.core.management.base import CommandError

    for args in ([], ["not-a-uuid"], ["00000000-0000-0000-0000-000000000000"]):
        with pytest.raises(CommandError) as error:
            call_command("verify_log", *args)
        assert error.value.returncode == 2


# --- pure checks ---------------------------------------------------------------------------


def _chain(n: int) -> list[dict]:
    entries, prev = [], GENESIS_HASH
    for seq in range(1, n + 1):
        payload = {"campaign_code": "c", "seq": seq, "summary": f"entry {seq}", "turn": 1}
        entry = {**payload, "revealed_at": None, "prev_hash": prev, "hash": chain_hash(prev, payload)}
        entries.append(entry)
        prev = entry["hash"]
    return entries


def test_a_partial_chain_counts_what_is_missing_and_still_checks_each_hash():
    entries = _chain(8)
    kept = [entries[i] for i in (1, 2, 5, 7)]  # seqs 2, 3, 6, 8
    report = integrity.verify_entries(kept, partial=True)
    assert report.holds and report.checked == 4
    assert report.missing == 4 and report.missing_seqs == ((1, 1), (4, 5), (7, 7))
    assert "4 earlier entries were not included: #1, #4-#5, #7" in report.message()
    assert not integrity.verify_entries(kept).holds  # the same entries as a full chain: a gap
    forged = [*kept[:2], {**kept[2], "summary": "forged"}, kept[3]]
    assert integrity.verify_entries(forged, partial=True).problem.seq == 6


def test_a_partial_chain_still_checks_links_between_consecutive_entries():
    entries = _chain(3)
    entries[2] = {**entries[2], "prev_hash": "f" * 64}
    entries[2]["hash"] = chain_hash(entries[2]["prev_hash"], integrity.payload_of(entries[2]))
    report = integrity.verify_entries(entries, partial=True)
    assert report.problem.seq == 3 and "prev_hash" in report.problem.reason


def test_repeated_or_unordered_seqs_are_refused():
    entries = _chain(3)
    assert integrity.verify_entries([entries[0], entries[0]]).problem.seq == 1
    assert integrity.verify_entries([entries[1], entries[0]], partial=True).problem.seq == 1


# --- the GM's verify page ---------------------------------------------------------------


def verify_url(cast) -> str:
    return reverse("integrity:verify", args=[cast.campaign.code])


def test_the_verify_page_says_the_chain_holds(logged):
    response = logged.client("gm").get(verify_url(logged))
    assert response.status_code == 200
    assert "Chain holds:" in response.text and "6 entries" in response.text


def test_the_verify_page_names_the_first_bad_entry(logged, tamper):
    tamper("UPDATE play_logentry SET summary = 'x' WHERE id = %s", [entry_id(logged.campaign, 4)])
    response = logged.client("gm").get(verify_url(logged))
    assert response.status_code == 200
    assert "Chain broken" in response.text
    entry_url = reverse("play:entry", args=[logged.campaign.code, 4])
    assert f'<a href="{entry_url}" data-testid="bad-entry">#4</a>' in response.text
    assert "3 entries before it check out" in response.text


def test_the_verify_page_swaps_its_panel_for_htmx(logged):
    response = logged.client("gm").get(verify_url(logged), **htmx())
    assert response.text.lstrip().startswith('<section class="card" id="integrity-panel">')


@pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_the_verify_page_is_for_the_gm_only(cast, who, status):
    assert cast.client(who).get(verify_url(cast)).status_code == status


def test_the_verify_page_only_answers_get(cast):
    assert cast.client("gm").post(verify_url(cast)).status_code == 405


def test_reveal_time_is_not_covered_but_everything_else_is(logged):
    entry = LogEntry.objects.select_related("campaign", "reversal_of").get(campaign=logged.campaign, seq=6)
    payload = entry.hash_payload()
    assert "revealed_at" not in payload
    assert payload["reversal_of_hash"] == entry.reversal_of.hash and entry.reversal_of.seq == 5
    assert "seq" not in payload and "reversal_of_seq" not in payload
    entry.revealed_at = timezone.now()
    assert chain_hash(entry.prev_hash, entry.hash_payload()) == entry.hash


def _judged_like_a_file(campaign) -> str:
    """The verdict on the same entries read without the database path's fast reading."""
    from referee.play.log_sql import Selection, json_entry_batches

    entries = []
    for _last, text, _hashes in json_entry_batches(Selection(campaign, "gm", None, None)):
        entries += json.loads(f"[{text}]")
    try:
        return integrity.verify_entries(entries, campaign_code=str(campaign.code)).message()
    except integrity.NotAnExport as error:
        return f"not a log: {error}"


def _judged_from_the_database(campaign) -> str:
    try:
        return integrity.verify_campaign(campaign).message()
    except integrity.NotAnExport as error:
        return f"not a log: {error}"


@pytest.mark.parametrize(
    "forged",
    [
        pytest.param("'{\"n\": 1.5}'::jsonb", id="a float"),
        pytest.param("'{\"n\": 123456789012345678.5}'::jsonb", id="a float read back as an integer"),
        pytest.param("'{\"n\": 0.0000001}'::jsonb", id="a float with a small exponent"),
        pytest.param(
            "jsonb_build_object('n', repeat('7', 4001)::numeric)", id="an integer too long to record"
        ),
        pytest.param(
            "jsonb_build_object('n', repeat('7', 4000)::numeric)", id="the longest integer recorded"
        ),
    ],
)
def test_the_database_check_judges_forged_numbers_as_a_files_entries_are_judged(logged, tamper, forged):
    """The database path skips re-canonicalising what jsonb gives back; whatever a row
    written past the app holds, its verdict is the one the full check gives."""
    tamper(f"UPDATE play_logentry SET result = {forged} WHERE id = %s", [entry_id(logged.campaign, 2)])
    verdict = _judged_from_the_database(logged.campaign)
    assert verdict == _judged_like_a_file(logged.campaign)
    assert "#2" in verdict or "not a log" in verdict
