"""The JSON export gives the changes left to the GM in plain words, naming the record
(the GM's copy), and leaves them out of a player's copy; both still verify, because the
hash covers a keyed digest of them. The database's own check still sees them rewritten."""

import json

import pgtrigger
import pytest
from django.db import connection
from django.urls import reverse

from referee.play import integrity, services
from tests.factories import ShipFactory

pytestmark = pytest.mark.django_db


def json_export(cast, who: str) -> dict:
    response = cast.client(who).get(reverse("play:export", args=[cast.campaign.code, "json"]))
    assert response.status_code == 200
    return json.loads(b"".join(response.streaming_content).decode())


@pytest.fixture
def attacked(cast):
    """A shared ship hit by a shared tele-operated missile: the damage is left to the GM
    (the campaign keeps no ship damage), on a public entry."""
    from referee.telemissiles.models import Telemissile

    ship = ShipFactory(campaign=cast.campaign, name="Black Lion", kind="warship", shared=True)
    missile = Telemissile.objects.create(
        campaign=cast.campaign, name="Lance", missile_type="barracuda_t", fuel=10, shared=True
    )
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="telemissile.attack",
        inputs={"missile_type": "barracuda_t", "fuel_left": 5},
        dice=None,
        actor=cast.gm,
        subjects={"missile": missile.code, "target": ship.code},
        visibility="everyone",
    )
    assert entry.pending and entry.visibility == "everyone"
    return entry


def test_the_gms_copy_words_each_pending_change_and_verifies(cast, attacked):
    document = json_export(cast, "gm")
    [exported] = [e for e in document["entries"] if e["procedure"] == "telemissile.attack"]
    assert exported["pending"] == attacked.pending_words
    assert all(isinstance(w, str) for w in exported["pending"])
    assert "Ship: add" in exported["pending"][0]
    assert '"op"' not in json.dumps(exported["pending"]) and "target" not in json.dumps(exported["pending"])
    assert len(exported["pending_digest"]) == 64
    assert integrity.verify_export(document).holds


def test_a_change_whose_record_filled_its_role_names_it(cast):
    from referee.play.pending_words import words

    inputs = {"@unit": {"code": "6f1f3f8e-8d0b-4f57-9c55-2f8f0c6a7a11", "name": "Atlas AS7-D"}}
    effect = {"target": "unit", "field": "damage", "op": "add", "value": 1}
    assert words("boarding.landing", inputs, [effect], cast.campaign) == [
        "Atlas AS7-D (unit): add 1 to damage"
    ]
    assert words("boarding.landing", {}, [effect], cast.campaign) == ["Unit: add 1 to damage"]


def test_a_players_copy_holds_no_pending_change_and_verifies(cast, attacked):
    document = json_export(cast, "player")
    [exported] = [e for e in document["entries"] if e["procedure"] == "telemissile.attack"]
    assert exported["pending"] == []
    text = json.dumps(document)
    assert "add 4 to damage" not in text and attacked.pending_words[0] not in text
    assert integrity.verify_export(document).holds


def test_a_rewrite_of_the_pending_changes_in_the_database_is_caught(cast, attacked):
    assert integrity.verify_campaign(cast.campaign).holds
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE play_logentry SET pending = '[]'::jsonb WHERE id = %s",
            [attacked.pk],
        )
    report = integrity.verify_campaign(cast.campaign)
    assert not report.holds
    assert report.problem.seq == attacked.seq and "rewritten" in report.problem.reason
