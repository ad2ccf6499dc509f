"""Numbers a GM types are ASCII digits once stored, whatever script they were typed in: a
hex "٠١٠٥" (Arabic-Indic digits) is hex 0105, not a second hex beside it; digits that are
not decimal digits (superscripts) are not numbers, and no number in a URL answers 500."""

import pytest
from django.urls import reverse

from referee.campaigns.forms import ascii_digits
from referee.play.models import LogEntry
from referee.terrain.models import Hex
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.terrain.factories import BattlefieldFactory

pytestmark = pytest.mark.django_db


def hex_post(cast, field, name):
    data = {"battlefield": str(field.pk), "name": name, "terrain": "clear", "erupting_turns_left": "0"}
    return cast.client("gm").post(
        reverse("campaigns:object-create", args=[cast.campaign.code, "hexes"]), data, **htmx()
    )


@pytest.mark.parametrize(
    "text, ascii", [("٠١٠٥", "0105"), ("۰۴۱۲", "0412"), ("０４１２", "0412"), ("०४१२", "0412")]
)
def test_digits_of_any_script_are_written_in_ascii(text, ascii):
    assert ascii_digits(text) == ascii


def test_a_hex_in_arabic_indic_digits_is_the_same_hex(cast):
    field = BattlefieldFactory(campaign=cast.campaign, name="Ridge")
    assert hex_post(cast, field, "0105").status_code == 200
    response = hex_post(cast, field, "٠١٠٥")
    assert response.status_code == 422 and "already has a hex 0105" in response.text
    assert hex_post(cast, field, "٠١٠٦").status_code == 200
    assert sorted(Hex.objects.filter(battlefield=field).values_list("name", flat=True)) == ["0105", "0106"]


def test_dice_typed_in_other_digits_are_the_dice(cast):
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    data = {
        "ship": str(ship.code),
        "dice": "٣ ٤",
        "action": "enter",
        "gm_ruling": "on",
        "visibility": "everyone",
    }
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text[:1000]
    assert LogEntry.objects.get(campaign=cast.campaign).rolls[0]["values"] == [3, 4]


def test_superscript_digits_are_not_a_number(cast):
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9)
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    data = {"ship": str(ship.code), "kf_integrity": "²", "action": "roll", "gm_ruling": "on"}
    assert cast.client("gm").post(url, data, **htmx()).status_code == 422
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


@pytest.mark.parametrize("value", ["²", "٣", "３", "①"])
def test_the_diary_and_the_desk_refuse_numbers_in_other_digits_in_words(cast, value):
    client = cast.client("gm")
    code = cast.campaign.code
    diary = client.get(reverse("diary:evening", args=[code]), {"from_turn": value})
    assert diary.status_code == 400 and "whole numbers" in diary.text
    desk = client.post(reverse("desk:act", args=[code]), {"action": "accept", "seq": value}, **htmx())
    assert desk.status_code == 409 and "Choose what to do from the desk" in desk.text


@pytest.mark.parametrize("value", ["²", "٣", "9" * 40])
def test_a_whisper_to_players_named_in_other_digits_is_refused_in_words(cast, value):
    client = cast.client("gm")
    url = reverse("play:note", args=[cast.campaign.code])
    response = client.post(url, {"text": "hello", "audience": value}, **htmx())
    assert 400 <= response.status_code < 500 and "Choose players from the list" in response.text
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()


@pytest.mark.parametrize("value", ["²", "٣", "①"])
def test_a_number_in_a_url_in_other_digits_never_answers_500(cast, value):
    client = cast.client("gm")
    code = cast.campaign.code
    assert client.get(reverse("play:log", args=[code]), {"page": value}).status_code < 500
    assert client.get(reverse("play:export", args=[code, "csv"]), {"first": value}).status_code < 500
    note = client.post(reverse("play:note", args=[code]), {"text": "hello", "about": value}, **htmx())
    assert note.status_code < 500
