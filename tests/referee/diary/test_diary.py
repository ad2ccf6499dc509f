"""The evening's diary as a page and as Markdown: for whom, which range, in what words."""

import pytest
from django.urls import reverse

from referee.fleet.forms import ShipForm
from referee.fleet.models import Ship
from referee.play import players, services
from tests.factories import ShipFactory
from tests.referee.play.test_hand_edits import form_data

pytestmark = pytest.mark.django_db


def diary(cast, who="gm", **query):
    return cast.client(who).get(reverse("diary:evening", args=[cast.campaign.code]), query)


def test_a_record_added_or_deleted_is_one_line_and_an_owner_is_named(cast):
    data = form_data(ShipForm(campaign=cast.campaign))
    data |= {"name": "Marauder's Pride", "kind": "dropship", "owner": cast.player.pk, "shared": "True"}
    form = ShipForm(data, campaign=cast.campaign)
    assert form.is_valid(), form.errors
    added = services.record_save(campaign=cast.campaign, form=form, actor=cast.gm)
    assert added.summary == "The GM added the ship Marauder's Pride."
    assert any(c["field"] == "owner" for c in added.effects)  # the detail stays on the entry
    ship = Ship.objects.get(name="Marauder's Pride")
    edit = ShipForm(
        form_data(ShipForm(instance=ship, campaign=cast.campaign)) | {"owner": ""},
        instance=ship,
        campaign=cast.campaign,
    )
    assert edit.is_valid(), edit.errors
    edited = services.record_save(campaign=cast.campaign, form=edit, actor=cast.gm)
    assert f"owner {cast.player.username} -> —" in edited.summary
    deleted = services.record_delete(campaign=cast.campaign, obj=ship, actor=cast.gm)
    assert deleted.summary == "The GM deleted the ship Marauder's Pride."
    text = diary(cast, **{"as": "md"}).content.decode()
    assert "- **#1 The GM added the ship Marauder's Pride**" in text
    assert f"owner {cast.player.username} → —" in text or f"owner {cast.player.username} -> —" in text
    assert "- **#3 The GM deleted the ship Marauder's Pride**\n" in text


def test_players_read_only_what_they_may_and_numbered_as_they_number(cast):
    ShipFactory(campaign=cast.campaign, name="Secret")
    players.note_post(campaign=cast.campaign, actor=cast.gm, role="gm", text="GM only", to_gm_only=True)
    players.note_post(
        campaign=cast.campaign, actor=cast.gm, role="gm", text="For everyone <b>bold</b> & more"
    )
    page = diary(cast, "player")
    assert page.status_code == 200
    assert "GM only" not in page.text and "#1 Note by" in page.text
    md = diary(cast, "player", **{"as": "md"}).content.decode()
    assert "For everyone \\<b>bold\\</b> & more" in md and "&lt;" not in md and "&amp;" not in md


def test_a_range_of_turns_or_of_dates(cast):
    players.note_post(campaign=cast.campaign, actor=cast.gm, role="gm", text="Turn one")
    cast.campaign.refresh_from_db()
    for _ in range(4):
        cast.campaign.refresh_from_db()
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    players.note_post(campaign=cast.campaign, actor=cast.gm, role="gm", text="Turn two")
    only_two = diary(cast, from_turn="2", to_turn="2").text
    assert "Turn two" in only_two and "Turn one" not in only_two and ": turn 2" in only_two
    cast.campaign.refresh_from_db()
    day = f"{cast.campaign.clock:%Y-%m-%d}"
    assert "Turn one" in diary(cast, since=day, until=day).text
    assert "Nothing in the log" in diary(cast, since="9999-01-01").text


@pytest.mark.parametrize(
    "query",
    [
        {"from_turn": "-1"},
        {"from_turn": "1e9"},
        {"from_turn": "9" * 40},
        {"to_turn": "\x00"},
        {"since": "yesterday"},
        {"since": "3067-13-45"},
        {"from_turn": "5", "to_turn": "2"},
        {"since": "3067-03-15", "until": "3067-03-14"},
    ],
)
def test_a_bad_range_is_a_400_in_words(cast, query):
    response = diary(cast, **query)
    assert response.status_code == 400
    assert 'data-testid="diary-error"' in response.text


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 200), ("gm", 200)]
)
def test_the_diary_is_for_the_campaigns_members(cast, who, status):
    assert diary(cast, who).status_code == status
