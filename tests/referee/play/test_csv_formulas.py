"""No cell of a CSV the product writes is run by a spreadsheet: a cell that starts with
=, +, -, @, a tab or a carriage return is written after a single quote (OWASP's advice)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.factories import ShipFactory
from tests.referee.conftest import htmx
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

FORMULAS = ['=HYPERLINK("http://example.com","click")', "@SUM(1+1)", "+1+1", "-1+1", "\tTAB", "\rCR"]


def test_formulas_in_a_players_notes_and_names_are_neutralised_in_the_csv(cast):
    for text in FORMULAS:
        response = cast.client("player").post(
            reverse("play:note", args=[cast.campaign.code]), {"text": text}, **htmx()
        )
        assert response.status_code < 400, text
    ship = ShipFactory(campaign=cast.campaign, name="=1+2", kf_integrity=9, kf_integrity_max=9, shared=True)
    ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4])
    response = cast.client("gm").get(reverse("play:export", args=[cast.campaign.code, "csv"]))
    text = b"".join(response.streaming_content).decode()
    rows = list(csv.reader(io.StringIO(text)))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    assert '\'=HYPERLINK("http://example.com","click")' in cells or any(
        c.startswith("'=HYPERLINK") for c in cells
    )
    assert any(c.startswith("'@SUM(1+1)") for c in cells)
    assert any(c.startswith("'=1+2") for c in cells)
    # Cells that are plain stay as they were.
    assert rows[0][0] == "Entry" and all(row[0].isdigit() for row in rows[1:])
