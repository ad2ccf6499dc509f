"""Every procedure page and a result card of each of the 63 procedures read in plain words:
no contract notation (null, [A12] tags, snake_case keys, UUIDs, Python reprs, True/False,
rulebook file names) on the pages a GM reads."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

import rules
from referee.play import families
from referee.play.models import LogEntry
from tests.referee.conftest import htmx
from tests.referee.play.test_every_procedure import post_data

pytestmark = pytest.mark.django_db

NOTATION = {
    "null": re.compile(r"\bnull\b", re.I),
    "a catalogue tag": re.compile(r"\[[A-Z]\d+\]"),
    "a snake_case key": re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b"),
    "a UUID": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    "a Python repr": re.compile(r"\{'|\['|\bNone\b"),
    "True/False": re.compile(r"\b(True|False)\b"),
    "a file name": re.compile(r"\.txt\b"),
}


def visible_text(page: str) -> str:
    """What a reader sees: text outside tags, scripts and styles, plus titles and labels."""
    # A JSON box holds what the GM types (a GM-data table), not words the page says.
    page = re.sub(r"(?is)<(script|style|textarea)\b.*?</\1>", " ", page)
    shown = re.findall(r'\b(?:title|aria-label|placeholder)="([^"]*)"', page)
    text = re.sub(r"(?s)<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *shown]))


def notation_in(text: str) -> list[str]:
    found = []
    for what, pattern in NOTATION.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 40)
            found.append(f"{what}: …{text[start : match.end() + 40]}…")
    return found


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_a_procedure_page_and_its_result_card_read_in_plain_words(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    page = client.get(url)
    assert page.status_code == 200
    assert notation_in(visible_text(page.text)) == []
    assert "is required" not in visible_text(page.text)  # the odds panel asks calmly instead

    card = client.post(url, post_data(procedure, binding, cast.campaign), **htmx())
    assert card.status_code == 200, card.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
    assert notation_in(visible_text(card.text)) == []
    detail = client.get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
    assert notation_in(visible_text(detail.text)) == []
