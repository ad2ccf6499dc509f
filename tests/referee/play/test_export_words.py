"""The readable exports (CSV and Markdown) speak plain words: rules by book and section,
records by name (never, in a player's copy, a record kept from players), times as the
campaign's clock shows them, yes/no, changes as "field: before → after", and the CSV's
title, subjects, dice source and visibility columns filled as the log holds them."""

from __future__ import annotations

import csv
import io

import pgtrigger
import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.urls import reverse

import rules
from referee.fleet.forms import ShipForm
from referee.play import families, services
from referee.play.models import LogEntry, Visibility
from referee.play.wording import words_of
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory, StarSystemFactory
from tests.referee.conftest import Cast, htmx
from tests.referee.history import ruled_jump
from tests.referee.play.test_every_procedure import post_data
from tests.referee.play.test_hand_edits import form_data
from tests.referee.play.test_plain_words import notation_in

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]


def export(cast, who: str, fmt: str) -> str:
    response = cast.client(who).get(reverse("play:export", args=[cast.campaign.code, fmt]))
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def rows(cast, who: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(export(cast, who, "csv"))))


@pytest.fixture
def detection(cast):
    """A detection by a ship the GM has not shared (Shadow) of a shared one (Waterloo), made
    public by the GM; a jump of Waterloo rolled by the server; a jump by the table's dice,
    undone; a GM-only jump."""
    shadow = ShipFactory(campaign=cast.campaign, name="Shadow", shared=False)
    waterloo = ShipFactory(
        campaign=cast.campaign, name="Waterloo", shared=True, kf_integrity=20, kf_integrity_max=20
    )
    seen = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="sensor.emergence_wave",
        inputs={"distance_au": 3, "kf_integrity_max": 4, "dropship_factor": 3},
        dice=[4, 4],
        actor=cast.gm,
        subjects={"detector": shadow.code, "target": waterloo.code},
        visibility=Visibility.EVERYONE,
    )
    server = ruled_jump(cast.campaign, cast.gm, waterloo, dice=None)
    table = ruled_jump(cast.campaign, cast.gm, waterloo, dice=MICRO_FRACTURES)
    secret = ruled_jump(cast.campaign, cast.gm, waterloo, dice=MICRO_FRACTURES, visibility=Visibility.GM)
    undo = services.log_entry_reverse(entry=secret, actor=cast.gm)
    return {"seen": seen, "server": server, "table": table, "secret": secret, "undo": undo, "shadow": shadow}


def by_entry(table: list[dict]) -> dict[int, dict]:
    return {int(r["Entry"]): r for r in table}


def test_the_gms_csv_names_subjects_dice_source_and_visibility(cast, detection):
    gm = by_entry(rows(cast, "gm"))
    seen = gm[detection["seen"].seq]
    assert seen["Title"] == detection["seen"].words["title"] and seen["Title"]
    assert seen["Subjects"] == "Shadow and Waterloo"  # a detection names both ships
    assert seen["Procedure"] == rules.get("sensor.emergence_wave").title
    assert seen["Visibility"] == "everyone"
    assert seen["Rule"].startswith("Explorer Corps")
    assert gm[detection["server"].seq]["Dice source"] == "the server's dice"
    assert gm[detection["table"].seq]["Dice source"] == "the table's dice"
    secret = gm[detection["secret"].seq]
    assert secret["Visibility"] == "GM only"
    assert secret["Undone by"] == str(detection["undo"].seq)
    assert secret["Changes"].startswith("Waterloo K-F integrity: ")
    assert gm[detection["undo"].seq]["Procedure"] == "Undo"


def test_a_players_csv_never_names_a_record_kept_from_players(cast, detection):
    player = rows(cast, "player")
    text = export(cast, "player", "csv")
    assert "Shadow" not in text
    assert str(detection["shadow"].code) not in text
    seen = next(r for r in player if r["Procedure"] == rules.get("sensor.emergence_wave").title)
    assert seen["Subjects"] == "a record not shared with players and Waterloo"
    # Entries the player cannot see are neither rows nor numbers: the secret jump and its undo.
    assert [int(r["Entry"]) for r in player if r["Roll"] in ("", "Malfunction", "Detection")] == sorted(
        {int(r["Entry"]) for r in player}
    )
    assert len({r["Entry"] for r in player}) == 3
    assert all(r["Visibility"] == "everyone" for r in player)


def test_a_players_markdown_never_names_a_record_kept_from_players(cast, detection):
    text = export(cast, "player", "md")
    assert "Shadow" not in text
    assert "a record not shared with players and Waterloo" in text
    assert "Shadow and Waterloo" in export(cast, "gm", "md")


def test_an_undone_entry_is_struck_through_in_markdown_with_its_reversal(cast, detection):
    text = export(cast, "gm", "md")
    secret, undo = detection["secret"], detection["undo"]
    line = next(line for line in text.splitlines() if line.startswith(f"- **#{secret.seq} "))
    assert line.startswith(f"- **#{secret.seq} ~~{secret.words['title']}~~** (undone by #{undo.seq})")


def test_a_revealed_entry_says_so_in_every_readers_csv(cast, detection):
    ship = ShipFactory(campaign=cast.campaign, shared=True)
    hidden = ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=Visibility.GM)
    services.log_entry_reveal(entry=hidden, actor=cast.gm)
    assert by_entry(rows(cast, "gm"))[hidden.seq]["Visibility"] == "GM only, revealed to players"
    assert rows(cast, "player")[-1]["Visibility"] == "GM only, revealed to players"


def test_a_change_naming_an_unshared_record_is_kept_from_players(cast):
    """A shared ship moved to another star system and docked on a ship the GM has not
    shared: the GM reads every name; a player reads the star systems (common knowledge)
    and, for the carrier, that it is not shared with them."""
    tharkad = StarSystemFactory(campaign=cast.campaign, name="Tharkad")
    skye = StarSystemFactory(campaign=cast.campaign, name="Skye")
    carrier = ShipFactory(campaign=cast.campaign, name="Hidden Carrier", shared=False, kind="jumpship")
    ship = ShipFactory(
        campaign=cast.campaign, name="Waterloo", shared=True, star_system=tharkad, kind="dropship"
    )
    shown = ShipForm(instance=ship, campaign=cast.campaign)
    data = form_data(shown) | {"star_system": skye.pk, "docked_on": carrier.pk}
    form = ShipForm(data, instance=ship, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    entry = services.record_save(campaign=cast.campaign, form=form, actor=cast.gm)
    assert entry.visibility == Visibility.EVERYONE  # Waterloo is shared
    gm = by_entry(rows(cast, "gm"))[entry.seq]["Changes"]
    assert "Waterloo star system: Tharkad → Skye" in gm
    assert "Waterloo docked on: — → Hidden Carrier" in gm
    player = rows(cast, "player")[-1]
    assert "Waterloo star system: Tharkad → Skye" in player["Changes"]
    assert "Waterloo docked on: — → a record not shared with players" in player["Changes"]
    assert "Hidden Carrier" not in export(cast, "player", "csv") + export(cast, "player", "md")
    assert notation_in(gm) == []


def test_every_procedures_export_reads_in_plain_words():
    """Each of the 63 procedures resolved from its form (in a campaign of its own, as the
    forms build their records), then the GM's and a player's CSV and Markdown: no contract
    notation anywhere."""
    for procedure_id in rules.PROCEDURE_IDS:
        campaign = CampaignFactory()
        table = Cast(
            campaign=campaign,
            gm=MembershipFactory(campaign=campaign, role="gm").user,
            player=MembershipFactory(campaign=campaign, role="player").user,
            outsider=None,
        )
        url = reverse("play:procedure", args=[campaign.code, procedure_id])
        data = post_data(rules.get(procedure_id), families.binding(procedure_id), campaign)
        card = table.client("gm").post(url, data, **htmx())
        assert card.status_code == 200, (procedure_id, card.text[:500])
        entry = campaign.log.get()
        if entry.secret:  # the player's copy is read too
            services.log_entry_reveal(entry=entry, actor=table.gm)
        for who in ("gm", "player"):
            for fmt in ("csv", "md"):
                text = export(table, who, fmt)
                assert procedure_id not in text, (who, fmt)
                assert notation_in(text) == [], (procedure_id, who, fmt)


def test_existing_entries_get_their_words_from_the_migration(cast):
    """Entries written before the log kept words get them from the data migration, which
    holds the log's guard off as the table's owner, and for nothing else."""
    ship = ShipFactory(
        campaign=cast.campaign, name="Waterloo", shared=True, kf_integrity=9, kf_integrity_max=9
    )
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=MICRO_FRACTURES)
    expected = entry.words
    with pgtrigger.ignore("play.LogEntry:append_only"):
        LogEntry.objects.filter(pk=entry.pk).update(words={})
    from importlib import import_module

    migration = import_module("referee.play.migrations.0015_log_entry_words")
    with connection.schema_editor(atomic=False) as editor:
        migration.fill_words(django_apps, editor)
    entry.refresh_from_db()
    assert entry.words == expected == words_of(entry)
    assert expected["subjects"] == [{"code": str(ship.code), "name": "Waterloo"}]
    # Outside the migration the guard holds: the words are as written.
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        LogEntry.objects.filter(pk=entry.pk).update(words={"summary": "Nothing happened."})
