"""MegaMek boards in and out: every board of the test set imports and exports back with the same
size, levels and terrain; what is not modelled is kept by name; a bad board creates nothing."""

from __future__ import annotations

import pytest

from referee.battles import board, services
from referee.battles.models import MegaMekBoard
from referee.play.models import LogEntry
from referee.play.services import PlayError, log_entry_reverse
from referee.terrain.models import Battlefield, Hex
from tests.referee.battles.records import SAMPLES
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory

BOARDS = sorted(SAMPLES.glob("*.board"))


def terrain_sets(read: board.ReadBoard) -> dict[str, tuple[int, frozenset]]:
    """Each hex's level and its MegaMek terrain items, as MegaMek reads them back."""
    notes: list[str] = []
    return {
        h.label: (h.level, frozenset(t for t in board.hex_terrain(h, notes, {}).split(";") if t))
        for h in read.hexes
    }


def raw_sets(text: str) -> tuple[tuple[int, int], dict[str, tuple[int, frozenset]]]:
    """The size and each hex's level and terrain items exactly as the file says (file order)."""
    size, hexes = None, {}
    for line in text.splitlines():
        words = board._tokens(line.strip())
        if words and words[0] == "size":
            size = (int(words[1]), int(words[2]))
        elif words and words[0] == "hex":
            index = len(hexes)
            label = f"{index % size[0] + 1:02d}{index // size[0] + 1:02d}"
            hexes[label] = (int(words[2]), frozenset(t for t in words[3].split(";") if t))
    for index in range(len(hexes), size[0] * size[1]):
        hexes[f"{index % size[0] + 1:02d}{index // size[0] + 1:02d}"] = (0, frozenset())
    return size, hexes


def test_the_test_set_has_a_board_for_each_variant():
    assert len(BOARDS) >= 3


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_every_board_imports_and_exports_back_the_same(cast, path):
    text = path.read_text()
    read = board.parse_board(path.read_bytes())
    field, entry = services.board_import(campaign=cast.campaign, read=read, name=path.stem, actor=cast.gm)
    assert (field.columns, field.rows) == raw_sets(text)[0]
    assert entry.visibility == "gm" and "from a MegaMek board" in entry.title
    exported, _notes = services.board_export(field)
    assert raw_sets(exported) == raw_sets(text)
    again = board.parse_board(exported)
    assert terrain_sets(again) == terrain_sets(read)


def test_what_we_model_lands_on_the_hexes_and_the_rest_is_kept_by_name(cast):
    read = board.parse_board((SAMPLES / "Frozen Vents 5x4.board").read_bytes())
    field, _ = services.board_import(campaign=cast.campaign, read=read, name="Frozen Vents", actor=cast.gm)
    hexes = {h.name: h for h in Hex.objects.filter(battlefield=field)}
    assert hexes["0101"].conditions == ["deep_snow"]
    assert hexes["0301"].conditions == ["ice"] and hexes["0401"].conditions == ["mud"]
    assert hexes["0202"].terrain == "tundra"
    assert hexes["0302"].geyser and not hexes["0302"].volcanic
    assert hexes["0402"].geyser and hexes["0402"].volcanic and hexes["0402"].terrain == "magma_crust"
    assert hexes["0502"].terrain == "liquid_magma"
    assert hexes["0103"].weather == ["fire"] and hexes["0103"].terrain == "light_woods"
    assert "Thin snow" in hexes["0201"].notes  # kept, and shown by its name
    assert "Quicksand" in hexes["0102"].notes and "Heavy smoke" in hexes["0203"].notes
    assert "Impassable terrain" in hexes["0403"].notes
    assert "0505" not in hexes  # MegaMek fills a short board with clear hexes: nothing to describe
    kept = MegaMekBoard.objects.get(battlefield=field).kept
    assert kept["0201"] == ["snow:1"] and kept["0203"] == ["smoke:2"]


def test_the_board_page_lists_the_kept_terrain_by_name(cast):
    read = board.parse_board((SAMPLES / "Harbour Town 8x6.board").read_bytes())
    services.board_import(campaign=cast.campaign, read=read, name="Harbour Town", actor=cast.gm)
    page = cast.client("gm").get(f"/c/{cast.campaign.code}/battles/").content.decode()
    assert "Hex 0806: Heavy industrial zone 3, Metal content 4" in page
    assert "bldg_cf" not in page and "heavy_industrial" not in page


def test_undoing_the_import_removes_the_battlefield_and_its_hexes(cast):
    read = board.parse_board((SAMPLES / "Ridge and River 16x17.board").read_bytes())
    field, entry = services.board_import(campaign=cast.campaign, read=read, name="Ridge", actor=cast.gm)
    assert Hex.objects.filter(battlefield=field).count() > 10
    log_entry_reverse(entry=entry, actor=cast.gm)
    assert not Battlefield.objects.filter(pk=field.pk).exists()
    assert not Hex.objects.filter(campaign=cast.campaign).exists()
    assert not MegaMekBoard.objects.exists()


def test_a_name_taken_gets_a_number(cast):
    BattlefieldFactory(campaign=cast.campaign, name="Ridge")
    read = board.parse_board((SAMPLES / "Frozen Vents 5x4.board").read_bytes())
    field, _ = services.board_import(campaign=cast.campaign, read=read, name="Ridge", actor=cast.gm)
    assert field.name == "Ridge (2)"


def test_our_weather_and_what_megamek_lacks_are_in_the_notes(cast):
    field = BattlefieldFactory(
        campaign=cast.campaign,
        weather=["blizzard", "rain_heavy", "wind_high", "fire"],
        earthquake=2,
        ambient_c=-12.5,
    )
    HexFactory(battlefield=field, name="0203", terrain="heavy_woods", conditions=["mud"], weather=["fog"])
    HexFactory(battlefield=field, name="0101", terrain="glass_plain", level=3)
    text, notes = services.board_export(field)
    assert 'hex 0203 0 "woods:2;mud:1" ""' in text
    assert 'hex 0101 3 "" ""' in text  # a terrain of the campaign's own: its level stays
    joined = " ".join(notes)
    assert "Weather: Heavy Rain; Wind: Strong Gale; Temperature: -12.5 °C" in joined
    assert "Fire over the whole battlefield has no planetary condition" in joined
    assert "earthquake of strength 2" in joined
    assert "Blizzard over the whole battlefield has no planetary condition in MegaMek (the nearest" in joined
    assert "Hex 0203: Fog over one hex has no MegaMek terrain" in joined
    assert "Hex 0101: MegaMek has no Glass plain" in joined
    assert all(f"# {n}" in text for n in notes)
    assert text.startswith("# ") and "\r\nsize 16 17\r\n" in text


BAD = {
    "no size": ('hex 0101 0 "" ""\n', "Line 1: a hex comes before the board's size."),
    "too big": ("size 120 40\n", "Line 1: the board is 120 by 40 hexes"),
    "bad size": ("size sixteen 17\n", "Line 1: give the size as two whole numbers"),
    "level": ('size 2 1\nhex 0101 0 "" ""\nhex 0201 900 "" ""\n', "Line 3: hex 0201 is at level 900"),
    "terrain": ('size 1 1\nhex 0101 0 "woods:heavy" ""\n', "not a MegaMek terrain"),
    "too many hexes": ('size 1 1\nhex 0101 0 "" ""\nhex 0201 0 "" ""\n', "Line 3: more hexes than"),
    "not a board": ("<unit></unit>\n", "is not a line of a MegaMek board"),
    "empty": ("# nothing\n", "gives no size"),
    "NUL": ("size 1 1\x00\n", "NUL bytes"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_board_is_refused_with_its_line(case):
    text, words = BAD[case]
    with pytest.raises(board.BoardError) as refused:
        board.parse_board(text)
    assert words in str(refused.value)


def test_a_refused_upload_creates_nothing(cast):
    client = cast.client("gm")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("Bad.board", b'size 2 1\nhex 0101 0 "" ""\nhex 0201 900 "" ""\n')
    response = client.post(f"/c/{cast.campaign.code}/battles/boards/", {"board-file": upload})
    assert response.status_code == 422
    assert "Nothing was created. Line 3: hex 0201 is at level 900" in response.content.decode()
    assert not Battlefield.objects.exists() and not LogEntry.objects.exists()


def test_the_upload_makes_the_battlefield(cast):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("Harbour Town 8x6.board", (SAMPLES / "Harbour Town 8x6.board").read_bytes())
    response = cast.client("gm").post(
        f"/c/{cast.campaign.code}/battles/boards/", {"board-file": upload}, follow=True
    )
    assert response.status_code == 200
    field = Battlefield.objects.get(campaign=cast.campaign)
    assert field.name == "Harbour Town 8x6" and (field.columns, field.rows) == (8, 6)
    assert "Entry #1 in the log can undo it" in response.content.decode()


@pytest.mark.parametrize("who, status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_brings_a_board_in_or_takes_one_out(cast, who, status):
    field = BattlefieldFactory(campaign=cast.campaign)
    client = cast.client(who)
    assert client.post(f"/c/{cast.campaign.code}/battles/boards/").status_code == status
    assert (
        client.get(f"/c/{cast.campaign.code}/battles/battlefields/{field.code}/board/").status_code == status
    )


def test_a_hex_off_the_map_is_named_in_the_notes(cast):
    field = BattlefieldFactory(campaign=cast.campaign, columns=4, rows=4)
    HexFactory(battlefield=field, name="0909", terrain="heavy_woods")
    text, notes = services.board_export(field)
    assert "Hex 0909 lies off the 4 by 4 map; left out." in notes
    assert "0909" not in text.split("size")[1]


def _woods(side: int) -> str:
    return (
        f"size {side} {side}\n"
        + "\n".join('hex 0000 1 "woods:1" "grass"' for _ in range(side * side))
        + "\nend\n"
    )


def test_a_board_describing_as_many_hexes_as_one_entry_lists_imports(cast):
    side = int(services.MAX_DESCRIBED_HEXES**0.5)
    field, entry = services.board_import(
        campaign=cast.campaign, read=board.parse_board(_woods(side)), name="Forest", actor=cast.gm
    )
    assert Hex.objects.filter(battlefield=field).count() == side * side
    assert len(entry.inputs["@created"]["hex"]) == side * side


def test_a_board_describing_more_hexes_is_refused_and_creates_nothing(cast):
    with pytest.raises(PlayError, match="describes 1,600 hexes"):
        services.board_import(
            campaign=cast.campaign, read=board.parse_board(_woods(40)), name="Big", actor=cast.gm
        )
    assert not Battlefield.objects.exists() and not Hex.objects.exists() and not LogEntry.objects.exists()


def test_a_theme_alone_describes_no_hex_but_goes_back_to_megamek(cast):
    text = 'size 2 1\nhex 0101 0 "" "grass"\nhex 0201 0 "" "snow"\nend\n'
    field, _ = services.board_import(
        campaign=cast.campaign, read=board.parse_board(text), name="Plain", actor=cast.gm
    )
    assert not Hex.objects.filter(battlefield=field).exists()
    exported, _ = services.board_export(field)
    assert 'hex 0101 0 "" "grass"' in exported and 'hex 0201 0 "" "snow"' in exported
