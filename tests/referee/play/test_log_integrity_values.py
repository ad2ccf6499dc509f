"""The chain check reads the database's log with orjson and recomputes each hash over
orjson's text, falling back to the exact (json.dumps) text where the two differ. A log
holding odd floats, integers past 64 bits, non-ASCII text and control characters still
verifies, and any rewrite of such a value is still caught with the same plain report."""

import hmac
import json
import math
from decimal import Decimal
from io import StringIO

import orjson
import pgtrigger
import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.play import integrity, log_sql, services
from referee.play.models import LogEntry, canonical

pytestmark = pytest.mark.django_db

# Values orjson writes as json.dumps does: these entries are confirmed by the fast text.
SAME_TEXT = {
    "text": {
        "accents": "Ünïcödé — 漢字 🚀",
        "controls": "\x01\x1f\t\n\r\b\f",
        "quotes": '"\\/',
        "separators": "\u2028\u2029\x7f\ud7ff\ue000\uffff",
    },
    "keys": {"é": 1, "z": 2, "Z": 3, "a\x01": 4, "😀": 5, "\uffff": 6, "": 7},
    "numbers": [0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 0.1, 1.5, -2.75, 123456789.125, 0.0],
}
# Values whose text differs (orjson writes 1e-5 for 1e-05, reads an integer past 64 bits as
# a float): these entries' hashes are recomputed the exact way, and hold.
OTHER_TEXT = {
    "small floats": [1e-05, 2.5e-08, 1e-300, 5e-324],
    "wide integers": [2**64 + 1, -(2**63) - 1, 10**100, int("9" * 4000)],
    # Stored as jsonb gives them back: -0.0 as 0.0, 1e16 and the largest float as integers.
    "read back": [-0.0, 1e16, 1.7976931348623157e308],
}


def append(campaign, title: str, result: dict, pending: list | None = None) -> LogEntry:
    return services.log_append(
        campaign=campaign,
        procedure="note.post",
        title=title,
        summary=f"{title}: ünïcödé\twith a tab",
        result=result,
        pending=pending,
    )


@pytest.fixture
def odd(cast):
    entries = {}
    for name, value in {**SAME_TEXT, **OTHER_TEXT}.items():
        entries[name] = append(cast.campaign, name, {"value": value})
    return cast, entries


def verify(code) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_log", str(code), stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def tamper(sql: str, params=()) -> None:
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_odd_values_verify_and_only_the_differing_texts_are_read_again(odd):
    cast, entries = odd
    report = integrity.verify_campaign(cast.campaign)
    assert report.holds and report.checked == len(entries), report.message()
    assert verify(cast.campaign.code) == (0, f"chain holds: {len(entries)} entries\n")
    # The entries whose texts agree are confirmed by orjson's text alone.
    assert report.exact_reads == len(OTHER_TEXT)


@pytest.mark.parametrize("name", [*SAME_TEXT, *OTHER_TEXT])
def test_each_odd_value_takes_the_path_its_text_calls_for(cast, name):
    """orjson's text confirms an entry's hash where it is json.dumps' text; elsewhere the
    entry is read again the exact way, once."""
    value = {**SAME_TEXT, **OTHER_TEXT}[name]
    append(cast.campaign, name, {"value": value})
    report = integrity.verify_campaign(cast.campaign)
    assert report.holds and report.checked == 1
    assert report.exact_reads == (0 if name in SAME_TEXT else 1)


@pytest.mark.parametrize(
    "title, forged",
    [
        # orjson reads 2**64 + 1 and 2**64 + 2 as the same float: the exact reading tells them apart.
        ("wide integers", "jsonb_set(result, '{value,0}', '18446744073709551618')"),
        ("small floats", "jsonb_set(result, '{value,0}', '0.00002')"),
        ("numbers", "jsonb_set(result, '{value,9}', '1.0')"),
        ("read back", "jsonb_set(result, '{value,1}', '10000000000000001')"),
        (
            "keys",
            "result - 'value' || jsonb_build_object('value', (result -> 'value') - 'é' || '{\"e\": 1}')",
        ),
        ("text", "jsonb_set(result, '{value,controls}', '\"\\u0001\\u001f\\t\\n\\r\\b\"')"),
    ],
)
def test_a_rewritten_odd_value_breaks_the_chain_with_the_plain_report(odd, title, forged):
    cast, entries = odd
    entry = entries[title]
    tamper(f"UPDATE play_logentry SET result = {forged} WHERE id = %s", [entry.pk])
    status, out = verify(cast.campaign.code)
    assert status == 1
    assert out.startswith(f"chain broken at #{entry.seq} (turn 1, note.post: {title}): ")
    assert "its hash does not match its contents" in out


def test_a_whole_number_rewritten_as_a_decimal_is_caught(odd):
    """1 and 1.0 are one number to jsonb, two texts to the hash."""
    cast, entries = odd
    entry = entries["numbers"]
    tamper(
        "UPDATE play_logentry SET result = jsonb_set(result, '{value,1}', '-1.0') WHERE id = %s", [entry.pk]
    )
    assert verify(cast.campaign.code)[1].startswith(f"chain broken at #{entry.seq} ")


def test_changes_left_to_the_gm_with_odd_values_verify_and_a_rewrite_is_caught(cast):
    plain = append(cast.campaign, "plain", {}, pending=[{"field": "fuel", "before": 1, "after": "Ünï\x01"}])
    odd = append(cast.campaign, "odd", {}, pending=[{"field": "fuel", "before": 1e-05, "after": 2**64 + 1}])
    report = integrity.verify_campaign(cast.campaign)
    assert report.holds and report.checked == 2 and report.exact_reads == 1
    for entry, forged in ((odd, "18446744073709551618"), (plain, '"Uni\\u0001"')):
        tamper(
            f"UPDATE play_logentry SET pending = jsonb_set(pending, '{{0,after}}', '{forged}') WHERE id = %s",
            [entry.pk],
        )
        report = integrity.verify_campaign(cast.campaign)
        assert report.message() == (
            f"chain broken at #{entry.seq} (turn 1, note.post: {entry.title}): "
            "its changes left to the GM are not those its hash covers (they were rewritten)"
        )


def test_a_log_of_many_batches_verifies_and_a_break_in_the_middle_leaves_the_connection_usable(
    cast, monkeypatch
):
    monkeypatch.setattr(log_sql, "CHAIN_BATCH", 3)
    entries = [append(cast.campaign, f"entry {n}", {"n": n, "f": n / 7}) for n in range(1, 12)]
    report = integrity.verify_campaign(cast.campaign)
    assert report.holds and report.checked == 11
    tamper("UPDATE play_logentry SET summary = 'forged' WHERE id = %s", [entries[4].pk])
    assert integrity.verify_campaign(cast.campaign).message().startswith("chain broken at #5 ")
    # The rest of the stream was read off; the test's transaction goes on.
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 11
    tamper("DELETE FROM play_logentry WHERE id = %s", [entries[7].pk])  # a gap at a batch's edge
    tamper("UPDATE play_logentry SET summary = %s WHERE id = %s", [entries[4].summary, entries[4].pk])
    assert integrity.verify_campaign(cast.campaign).message().startswith("chain broken at #9 ")


@pytest.mark.parametrize("size", [0, 16, 32, 64, 65, 200])
def test_the_keyed_hash_is_hmac_sha256(size):
    key = bytes(range(size % 256)) * (size // 256 + 1)
    key = key[:size]
    for text in (b"", b"x", "ünï".encode() * 500):
        assert integrity.Keyed(key).hexdigest(text) == hmac.new(key, text, "sha256").hexdigest()


# --- the fast text never passes for an exact text it is not ---------------------------------


def exact_text(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def exact_reading(text: str | bytes):
    return json.loads(text, parse_float=integrity._canonical_float)


def as_postgres_writes(value) -> str:
    """JSON text as jsonb writes it: numbers in positional notation, keys by length."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(map(as_postgres_writes, value)) + "]"
    keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
    return (
        "{"
        + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {as_postgres_writes(value[k])}" for k in keys)
        + "}"
    )


TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=8)
NUMBERS = (
    st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=-1e-3, max_value=1e-3)
)
VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_the_fast_text_is_the_exact_text_or_one_json_dumps_never_writes(value):
    """Where orjson's text of a value read from PostgreSQL's text is not json.dumps' text of
    it, it is no text json.dumps writes of any value (reading it back the exact way and
    writing it again changes it), so no keyed hash of an entry can match it."""
    value = canonical(value)
    stored = as_postgres_writes(value).encode()
    exact = exact_text(exact_reading(stored))
    try:
        fast = orjson.dumps(orjson.loads(stored), option=orjson.OPT_SORT_KEYS).decode()
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return  # read the exact way instead
    assert fast == exact or exact_text(exact_reading(fast)) != fast


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.decimals(allow_nan=False, allow_infinity=False))
def test_orjson_reads_a_decimal_as_python_does(number):
    """The fast path reads numbers with orjson: each decimal PostgreSQL may write is read as
    the same float Python reads (correctly rounded), else the texts above could not agree."""
    text = format(Decimal(repr(number)) if isinstance(number, float) else number, "f")
    if "." not in text:
        text += ".0"
    read = orjson.loads(text) if not math.isinf(float(text)) else None
    if read is not None:
        assert read == float(text) and math.copysign(1, read) == math.copysign(1, float(text))


@pytest.mark.parametrize(
    "forged, reason",
    [
        (
            "jsonb_build_object('n', repeat('7', 4001)::numeric)",
            "a number in the entry has more than 4000 digits",
        ),
        (
            "jsonb_build_object('n', repeat('7', 5000)::numeric)",
            "a number in the entry has more than 4000 digits",
        ),
    ],
)
def test_a_row_that_cannot_be_a_log_entry_is_where_the_chain_breaks_in_words(odd, forged, reason):
    """Only a row written past the app can hold it: verify_log and the GM's verify page say
    the chain is broken there, in words, instead of failing."""
    cast, entries = odd
    entry = entries["text"]
    tamper(f"UPDATE play_logentry SET result = {forged} WHERE id = %s", [entry.pk])
    assert verify(cast.campaign.code) == (
        1,
        f"chain broken at #{entry.seq}: it cannot be a log entry: {reason}\n",
    )
    page = cast.client("gm").get(reverse("integrity:verify", args=[cast.campaign.code]))
    assert page.status_code == 200 and "Chain broken" in page.content.decode()
    assert reason in page.content.decode()
