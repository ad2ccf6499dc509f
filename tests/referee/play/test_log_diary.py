"""The log page as the campaign's diary: turn and phase changes as headings, undone entries
struck through with their reversal, every entry naming its subjects (never, for a player,
a record kept from them), and filters by turn, record, procedure and words that take any
query string without a 500."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import Visibility
from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]


def log(cast, who: str = "gm", **params):
    return cast.client(who).get(reverse("play:log", args=[cast.campaign.code]), params)


def numbers(text: str) -> list[int]:
    """The entries shown as cards, newest first."""
    return [
        int(n) for n in re.findall(r'data-testid="result-card"[^>]*>\s*<header[^>]*>\s*<h2>#(\d+) ', text)
    ]


@pytest.fixture
def diary(cast):
    """Turn 1: Shadow (not shared) detects Waterloo, made public; Waterloo jumps (undone);
    four phase changes; turn 2: Waterloo jumps again."""
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
    jump = ruled_jump(cast.campaign, cast.gm, waterloo, dice=MICRO_FRACTURES)
    undo = services.log_entry_reverse(entry=jump, actor=cast.gm)
    for _ in range(4):
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    later = ruled_jump(cast.campaign, cast.gm, waterloo, dice=[3, 4])
    return {"seen": seen, "jump": jump, "undo": undo, "later": later, "shadow": shadow, "waterloo": waterloo}


def test_turn_and_phase_changes_read_as_headings_not_entries(cast, diary):
    text = log(cast).text
    headings = re.findall(r"<h3>(Turn \d+ · [^<]+)</h3>", text)
    assert headings == [
        "Turn 2 · Initiative Phase",
        "Turn 1 · End Phase",
        "Turn 1 · Combat Phase",
        "Turn 1 · Movement Phase",
        "Turn 1 · Initiative Phase",
    ]
    assert "Next phase" not in text  # the phase entries are the headings' lines, not cards
    assert numbers(text) == [diary["later"].seq, diary["undo"].seq, diary["jump"].seq, diary["seen"].seq]
    assert 'href="/c/' in text and "Turn 2 begins at" in text  # the turn's entry stays linked


def test_an_undone_entry_is_struck_through_and_names_its_reversal(cast, diary):
    text = log(cast).text
    card = text.split(f"<h2>#{diary['jump'].seq} ", 1)[1].split("</article>", 1)[0]
    assert card.startswith("<del>")
    assert f'data-testid="undone-by">undone by #{diary["undo"].seq}</span>' in card
    assert re.search(r'<p class="summary" data-testid="summary"><del>', card)
    assert 'class="card result-card undone"' in text


def test_every_entry_names_its_subjects_a_detection_both_ships(cast, diary):
    gm = log(cast).text
    assert '<span class="muted">About</span> Shadow and Waterloo</p>' in gm
    player = log(cast, "player").text
    assert "Shadow" not in player
    assert '<span class="muted">About</span> a record not shared with players and Waterloo</p>' in player


@pytest.mark.parametrize(
    "params,expected",
    [
        ({"turn": "2"}, ["later"]),
        ({"turn": "1"}, ["undo", "jump", "seen"]),
        ({"procedure": "sensor.emergence_wave"}, ["seen"]),
        ({"procedure": "log.undo"}, ["undo"]),
        ({"q": "undid"}, ["undo"]),
        ({"q": "MICRO-FRACTURES", "turn": "1"}, ["undo", "jump"]),
        ({"q": "no mishap", "turn": "2"}, ["later"]),
    ],
)
def test_filters_find_the_entries_asked_for(cast, diary, params, expected):
    response = log(cast, **params)
    assert response.status_code == 200
    assert numbers(response.text) == [diary[name].seq for name in expected]


def test_a_record_filter_finds_the_entries_about_it(cast, diary):
    waterloo = log(cast, record=str(diary["waterloo"].code)).text
    assert numbers(waterloo) == [diary[n].seq for n in ("later", "undo", "jump", "seen")]
    shadow = log(cast, record=str(diary["shadow"].code)).text
    assert numbers(shadow) == [diary["seen"].seq]
    assert "Shadow" in log(cast).text.split('name="record"', 1)[1].split("</select>", 1)[0]


def test_a_player_cannot_filter_or_search_by_a_record_kept_from_them(cast, diary):
    assert numbers(log(cast, "player", record=str(diary["shadow"].code)).text) == []
    assert numbers(log(cast, "player", q="Shadow").text) == []
    options = log(cast, "player").text.split('name="record"', 1)[1].split("</select>", 1)[0]
    assert "Waterloo" in options and "Shadow" not in options


def test_filtered_pages_run_by_entry_number(cast):
    ship = ShipFactory(campaign=cast.campaign, shared=True, kf_integrity=20, kf_integrity_max=20)
    for _ in range(30):
        ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    first = log(cast, "player", q="mishap")
    assert numbers(first.text) == list(range(30, 5, -1))
    older = re.search(r'href="\?([^"]+)"[^>]*data-testid="log-older"', first.text).group(1)
    assert older.replace("&amp;", "&") == "q=mishap&before=6"
    assert numbers(log(cast, "player", q="mishap", before="6").text) == [5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    "params",
    [
        {"turn": "-1"},
        {"turn": "two"},
        {"turn": "1.5"},
        {"turn": "１"},  # a full-width digit
        {"before": "-5"},
        {"record": "not-a-code"},
        {"record": "1" * 5000},
        {"procedure": "'; DROP TABLE play_logentry; --"},
        {"procedure": "x" * 500},
        {"q": "x" * 101},
        {"q": "a\x00b"},
        {"turn": "1\x00"},
    ],
)
def test_bad_filters_get_400_with_the_reason_never_500(cast, diary, params):
    response = log(cast, "player", **params)
    assert response.status_code == 400
    assert 'data-testid="log-error"' in response.text
    assert numbers(response.text) == []
    assert log(cast, "gm", **params).status_code == 400


@pytest.mark.parametrize(
    "params",
    [
        {"turn": "9" * 40},
        {"before": "9" * 400},
        {"page": "9" * 400},
        {"page": "-3"},
        {"q": "%_\\"},
        {"record": "6f1c1f4e-8d0a-4a43-9a1e-4c2d7e0b9f11"},
        {"procedure": "no.such_procedure"},
    ],
)
def test_odd_but_harmless_filters_give_a_clean_page(cast, diary, params):
    response = log(cast, "player", **params)
    assert response.status_code == 200
    htmx_response = cast.client("player").get(
        reverse("play:log", args=[cast.campaign.code]), params, **htmx()
    )
    assert htmx_response.status_code == 200 and "<html" not in htmx_response.text


def test_the_live_refresh_keeps_the_filters(cast, diary):
    text = log(cast, q="mishap", turn="2").text
    assert re.search(r'id="log-panel"[^>]*hx-get="/c/[^"?]+/log/\?turn=2&amp;q=mishap"', text)


def test_the_panel_on_another_page_refreshes_as_it_is_there(cast, diary):
    """The dashboard's log panel re-fetches itself without the log page's filters."""
    dashboard = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    assert re.search(r'id="log-panel"[^>]*hx-get="/c/[^"?]+/log/\?embedded=1"', dashboard)
    panel = log(cast, embedded="1").text
    assert 'data-testid="log-filters"' not in panel and "Search the log" in panel
    assert 'data-testid="log-filters"' in log(cast).text
