"""Honest entries always verify: what is hashed is exactly what the database gives back."""

import json
import math
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.campaigns.models import Campaign
from referee.play import backup, integrity, services
from referee.play.exports import entry_json
from referee.play.models import LogEntry, canonical, chain_hash
from tests.factories import CampaignFactory, ShipFactory

pytestmark = pytest.mark.django_db

# Text as anyone may type it (no NUL, no unpaired surrogate: those are refused, below).
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
NUMBERS = st.one_of(
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=False, allow_infinity=False),  # -0.0, 1e23, 5e-324, 1.7e308 ...
    st.sampled_from([-0.0, 1e23, 1e16, 9007199254740993.0, 0.1, 1.5e-7, 1e308, -1e-320]),
)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=25,
)


def read_back(entry: LogEntry) -> LogEntry:
    return LogEntry.objects.select_related("campaign", "reversal_of").get(pk=entry.pk)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(result=st.dictionaries(TEXT, VALUES, max_size=5), rolls=st.lists(VALUES, max_size=3))
def test_any_value_reads_back_as_hashed_and_verifies(db, result, rolls):
    campaign = Campaign.objects.first() or CampaignFactory()
    with transaction.atomic():
        entry = services.log_append(
            campaign=campaign,
            procedure="test.values",
            title="Values",
            summary="Any values",
            inputs={"nested": result},
            rolls=rolls,
            result=result,
        )
    stored = read_back(entry)
    # The database gives back exactly the canonical form, and that is what was hashed.
    assert stored.result == canonical(result) == entry.result
    assert stored.rolls == canonical(rolls) and stored.inputs == {"nested": canonical(result)}
    assert chain_hash(stored.prev_hash, stored.hash_payload()) == stored.hash
    assert integrity.entry_fault(entry_json(stored)) is None


def test_the_numbers_jsonb_changes_are_hashed_as_jsonb_gives_them_back(cast):
    values = {"neg_zero": -0.0, "big": 1e23, "huge": 1.7976931348623157e308, "tiny": 5e-324, "int": 10**40}
    entry = services.log_append(
        campaign=cast.campaign, procedure="test", title="t", summary="s", result=values
    )
    stored = read_back(entry)
    assert stored.result["big"] == 10**23 and isinstance(
        stored.result["big"], int
    )  # not 99999999999999991611392
    assert math.copysign(1, stored.result["neg_zero"]) == 1
    assert stored.result == entry.result
    assert integrity.verify_campaign(cast.campaign).holds


@pytest.mark.parametrize(
    "value,message",
    [
        (math.inf, "not finite"),
        (-math.inf, "not finite"),
        (math.nan, "not finite"),
        (Decimal("NaN"), "not finite"),
        ("a\x00b", "NUL character"),
        ("\ud800", "not valid Unicode"),
        (10**4001, "more than 4000 digits"),
        (object(), "not plain data"),
    ],
)
def test_what_cannot_be_stored_exactly_is_refused_with_a_message(cast, value, message):
    with pytest.raises(services.PlayError, match=message):
        services.log_append(
            campaign=cast.campaign, procedure="test", title="t", summary="s", result={"x": [value]}
        )
    assert not cast.campaign.log.exists()


def test_a_non_finite_engine_result_is_a_422_not_a_500(cast):
    url = reverse("play:procedure", args=[cast.campaign.code, "hpg.transmit"])
    response = cast.client("gm").post(url, {"comm_minutes": "1e308", "action": "roll"})
    assert response.status_code in (200, 302, 422)
    assert all(
        integrity.entry_fault(entry_json(e)) is None
        for e in LogEntry.objects.filter(campaign=cast.campaign).select_related("campaign", "reversal_of")
    )


def test_a_negative_zero_override_writes_an_entry_that_verifies_and_restores(cast, tmp_path):
    ship = ShipFactory(campaign=cast.campaign, lf_battery_charged=True)
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.double_jump_interval"])
    response = cast.client("gm").post(
        url,
        {
            "ship": ship.code,
            "ly_first_jump": "30",
            "dropship_factor": "0",
            "field_collapse_s": "-0",
            "lf_battery_charged": "on",
            "visibility": "everyone",
            "action": "roll",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign)
    assert entry.inputs["field_collapse_s"] == 0 and math.copysign(1, entry.inputs["field_collapse_s"]) == 1
    out = StringIO()
    call_command("verify_log", str(cast.campaign.code), stdout=out)
    assert out.getvalue() == "chain holds: 1 entries\n"

    path = tmp_path / "backup.json"
    call_command("backup_campaign", str(cast.campaign.code), "-o", str(path))
    document = json.loads(path.read_text())
    code = cast.campaign.code
    with transaction.atomic():  # a lost database: the campaign goes, log and all
        from tests.referee.play.test_backup import wipe

        wipe(cast.campaign)
    restored, _ = backup.restore(document, same_accounts=True)
    assert restored.code == code and integrity.verify_campaign(restored).holds
