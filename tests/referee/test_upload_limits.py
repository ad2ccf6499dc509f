"""Every upload too large is refused before it is read, with one message in plain words
naming the limit: a board, a battle's unit list, a unit file or zip to import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from referee.battles import board, mul
from referee.forms import MaxUploadSize, size_in_words, too_large
from referee.play.models import LogEntry
from referee.terrain.models import Battlefield
from referee.unitfiles.files import MAX_ZIP_BYTES

pytestmark = pytest.mark.django_db


def test_a_limit_is_said_in_kb_or_mb():
    assert size_in_words(2 * 1024 * 1024) == "2 MB"
    assert size_in_words(700 * 1024) == "700 KB"
    assert size_in_words(1536 * 1024) == "1,536 KB"
    assert too_large(2 * 1024 * 1024, "a board") == "The file is larger than 2 MB, the most a board may be."


def test_the_validator_lets_a_file_at_the_limit_through():
    check = MaxUploadSize(10, "a note")
    check(SimpleUploadedFile("a.txt", b"x" * 10))
    with pytest.raises(Exception, match="larger than 0 KB, the most a note may be"):
        check(SimpleUploadedFile("a.txt", b"x" * 11))


def test_a_board_too_large_is_refused_naming_the_limit(cast):
    upload = SimpleUploadedFile("huge.board", b"size 16 17\n" + b" " * board.MAX_BOARD_BYTES)
    response = cast.client("gm").post(f"/c/{cast.campaign.code}/battles/boards/", {"board-file": upload})
    assert response.status_code == 422
    assert "The file is larger than 2 MB, the most a board may be." in response.content.decode()
    assert "huge.board" not in response.content.decode()
    assert not Battlefield.objects.filter(campaign=cast.campaign).exists()


def test_a_board_or_unit_list_read_from_elsewhere_says_the_same():
    with pytest.raises(board.BoardError, match="larger than 2 MB, the most a board may be"):
        board.parse_board(b" " * (board.MAX_BOARD_BYTES + 1))
    with pytest.raises(mul.MulError, match="larger than 700 KB, the most a unit list of a battle may be"):
        mul.parse_mul(b" " * (mul.MAX_MUL_BYTES + 1))


def test_a_unit_file_or_zip_too_large_is_refused_naming_the_limit_and_not_the_file(cast):
    upload = SimpleUploadedFile("fleet of secrets.zip", b"\0" * (MAX_ZIP_BYTES + 1))
    response = cast.client("gm").post(
        reverse("imports:import", args=[cast.campaign.code]), {"files": [upload]}
    )
    text = response.content.decode()
    assert response.status_code == 422, text[:500]
    assert "The file is larger than 16 MB, the most a unit file or a zip of them may be." in text
    assert "fleet of secrets" not in text
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()
