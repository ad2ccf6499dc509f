"""The players' signed head (``integrity:head``): what a player's browser checks the log
by (tests/browser/test_log_check.py drives it in Chromium)."""

import json

import pytest
from django.urls import reverse

from referee.play import signing
from referee.play.models import GENESIS_HASH, LogEntry, public_root

pytestmark = pytest.mark.django_db


def head(cast, who="player", since="0"):
    return cast.client(who).get(reverse("integrity:head", args=[cast.campaign.code]), {"since": since})


def test_the_players_head_is_signed_and_lists_only_shared_entries(six_entries):
    proof = head(six_entries).json()
    statement = json.loads(proof["statement"])
    assert statement["length"] == 5 and proof["public_key"] == signing.public_key()
    assert signing.valid(proof["public_key"], proof["statement"], proof["signature"])
    hidden = LogEntry.objects.get(campaign=six_entries.campaign, seq=4).hash
    assert hidden not in json.dumps(proof) and len(proof["hashes"]) == 5
    root = GENESIS_HASH
    for entry_hash in proof["hashes"]:
        root = public_root(root, entry_hash)
    assert root == statement["root"]
    assert head(six_entries, since="3").json()["hashes"] == proof["hashes"][3:]


@pytest.mark.parametrize("since", ["-1", "x", "1e3", "٣", "9" * 12, ""])
def test_the_players_head_refuses_a_count_that_is_not_one(six_entries, since):
    assert head(six_entries, since=since).status_code == 400


def test_the_players_head_says_a_kept_head_is_past_the_end(six_entries):
    response = head(six_entries, since="6")
    assert response.status_code == 409 and response.json()["length"] == 5


def test_the_players_head_is_for_members_only(six_entries):
    assert head(six_entries, "outsider").status_code == 404
    assert head(six_entries, "gm").status_code == 200
