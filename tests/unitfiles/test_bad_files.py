"""Files that cannot be read say which line and what is wrong, in plain words; hostile zips stay cheap."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from referee.unitfiles import UnitFileError, read_pasted, read_unit_text, read_uploads
from referee.unitfiles.files import MAX_MEMBERS

SAMPLES = Path(__file__).resolve().parents[2] / "referee" / "unitfiles" / "samples"
VICTOR = (SAMPLES / "Victor VTR-9K.mtf").read_text()
UNION = (SAMPLES / "Union (3067).blk").read_text()


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle) + 1


def refused(data, name="unit.mtf") -> UnitFileError:
    with pytest.raises(UnitFileError) as caught:
        read_unit_text(data, name=name)
    return caught.value


def test_an_empty_file_is_refused():
    assert str(refused(b"")) == "The file is empty."
    assert str(refused(b"  \n\n \r\n")) == "The file is empty."


def test_binary_garbage_is_refused_naming_the_line():
    error = refused(os.urandom(4096) + b"\x01", name="unit.blk")
    assert error.line is not None
    assert "not a text file" in error.message


def test_a_nul_byte_is_refused_on_its_line():
    text = VICTOR.replace("mass:80", "mass:8\x000")
    error = refused(text.encode())
    assert error.line == line_of(VICTOR, "mass:80")
    assert "NUL" in error.message


def test_a_huge_number_is_refused_naming_the_line():
    error = refused(VICTOR.replace("CT armor:31", "CT armor:99999999999999999999").encode())
    assert error.line == line_of(VICTOR, "CT armor:31")
    assert "whole number" in error.message


def test_negative_armour_is_refused():
    error = refused(VICTOR.replace("LA armor:22", "LA armor:-5").encode())
    assert error.line == line_of(VICTOR, "LA armor:22")
    assert str(error) == f"Line {error.line}: Left Arm armour is -5; it must be between 0 and 10,000."


def warned(data, name="unit.mtf") -> tuple[dict, list[str]]:
    """An odd line in an otherwise readable file: the unit reads, the line is a warning."""
    warnings: list[str] = []
    return read_unit_text(data, name=name, warnings=warnings), warnings


def test_more_armour_than_a_location_holds_is_a_warning_and_the_files_figure_is_kept():
    doc, warnings = warned(VICTOR.replace("HD armor:9", "HD armor:45").encode())
    assert [loc["armor"] for loc in doc["locations"] if loc["name"] == "Head"] == [45]
    assert any("Head carries 45 armour" in w and "at most 9" in w for w in warnings)
    _doc, warnings = warned(VICTOR.replace("RTC armor:10", "RTC armor:40").encode())
    assert any("holds at most 50" in w for w in warnings)


def test_negative_ship_armour_is_refused_on_its_line():
    text = UNION.replace("<armor>\n130\n", "<armor>\n-130\n")
    error = refused(text.encode(), name="u.blk")
    assert error.line == line_of(UNION, "<armor>") + 1
    assert "Armour is -130" in error.message


def test_a_ten_megabyte_file_is_refused_by_its_size():
    error = refused(b"mass:80\n" * (10 * 1024 * 1024 // 8))
    assert error.message == "The file is larger than 512 KB, the most a unit file may be."


def test_thousands_of_lines_are_refused():
    error = refused(b"\n" * 20_000 + VICTOR.encode())
    assert "lines" in error.message


def test_a_weapon_list_shorter_than_announced_is_a_warning_naming_the_line():
    doc, warnings = warned(VICTOR.replace("Weapons:4", "Weapons:5").encode())
    assert len(doc["weapons"]) == 4
    assert warnings == [
        f"Line {line_of(VICTOR, 'Weapons:4')}: the weapons list announced 5 weapons but gives 4."
    ]


def test_a_weapon_in_a_location_the_mech_lacks_is_left_out_with_a_warning():
    doc, warnings = warned(VICTOR.replace("SRM 4, Left Torso", "SRM 4, Front Left Leg").encode())
    assert "SRM 4" not in [w["name"] for w in doc["weapons"]]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"Line {line_of(VICTOR, 'SRM 4, Left Torso')}: ")
    assert "does not have" in warnings[0]


def test_a_missing_armour_line_is_named():
    assert str(refused(VICTOR.replace("RL armor:24\n", "").encode())) == (
        "The file has no “RL armor:” line (Right Leg armour)."
    )


def test_too_many_critical_slots_are_a_warning():
    text = VICTOR.replace(
        "Sensors\nLife Support\n\nLeft Leg:", "Sensors\nLife Support\n-Empty-\nJump Jet\n\nLeft Leg:"
    )
    doc, warnings = warned(text.encode())
    assert len(doc["criticals"]["Head"]) == 6
    assert warnings == [
        f"Line {line_of(VICTOR, 'Head:') + 8}: Head has 6 critical slots, but slot 8 holds “Jump Jet”; it is left out."
    ]
    text = VICTOR.replace(
        "Sensors\nLife Support\n\nLeft Leg:", "Sensors\nLife Support" + "\nJump Jet" * 7 + "\n\nLeft Leg:"
    )
    assert any("more than 12 critical slots" in w for w in warned(text.encode())[1])


def test_a_line_that_means_nothing_is_a_warning_naming_it():
    text = VICTOR.replace("walk mp:4", "walk mp:4\nthis is not a unit file line")
    doc, warnings = warned(text.encode())
    assert doc["movement"]["walk"] == 4
    assert warnings == [
        f"Line {line_of(VICTOR, 'walk mp:4') + 1}: “this is not a unit file line” is neither a “key:value” line, "
        "a weapon nor a critical slot; it is left out."
    ]


def test_an_unclosed_block_names_where_it_opens():
    text = UNION.replace("</tonnage>", "")
    error = refused(text.encode(), name="u.blk")
    assert error.line == line_of(UNION, "<tonnage>")
    assert "never closed" in error.message


def test_an_unknown_unit_type_is_refused_naming_it():
    text = UNION.replace("<UnitType>\nDropship", "<UnitType>\nBattleCastle")
    error = refused(text.encode(), name="u.blk")
    assert error.line == line_of(UNION, "<UnitType>")
    assert "“BattleCastle” is not one MegaMek writes" in error.message


def test_a_protomech_is_refused_in_words_naming_its_type():
    text = UNION.replace("<UnitType>\nDropship", "<UnitType>\nProtoMech")
    assert str(refused(text.encode(), name="u.blk")) == (
        "ProtoMechs are not supported yet: the record sheet has no ProtoMech locations "
        "(head, torso, arms, legs and main gun)."
    )


def test_a_wrong_number_of_armour_values_is_refused():
    error = refused(UNION.replace("<armor>\n130\n", "<armor>\n").encode(), name="u.blk")
    assert "has 3 values" in error.message


def test_text_that_is_no_unit_file_is_refused():
    assert "neither" in refused("hello world\n", name="").message


def test_errors_name_the_file_they_came_from():
    batch = read_uploads([("Broken.mtf", VICTOR.replace("mass:80", "mass:heavy").encode())])
    assert batch.units == []
    assert (
        str(batch.failed[0])
        == f"Broken.mtf: line {line_of(VICTOR, 'mass:80')}: The mass should be a whole number, not “heavy”."
    )
    assert str(read_pasted("").failed[0]) == "pasted text: The file is empty."


def _zip(members: list[tuple[str, bytes]], *, compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_reads_what_it_can_and_lists_what_it_skipped():
    data = _zip(
        [
            ("units/Victor VTR-9K.mtf", VICTOR.encode()),
            ("units/Union.blk", UNION.encode()),
            ("units/broken.mtf", b"mass:80\n"),
            ("readme.txt", b"hello"),
            ("inner.zip", _zip([("a.mtf", VICTOR.encode())])),
            ("units/", b""),
        ]
    )
    batch = read_uploads([("fleet.zip", data)])
    assert [unit.source for unit in batch.units] == ["fleet.zip › Victor VTR-9K.mtf", "fleet.zip › Union.blk"]
    assert [str(e).split(":")[0] for e in batch.failed] == ["fleet.zip › broken.mtf"]
    assert [(s.source, s.reason) for s in batch.skipped] == [
        ("fleet.zip › readme.txt", "not a unit file (.mtf or .blk)."),
        ("fleet.zip › inner.zip", "a zip inside a zip is not opened."),
    ]


def test_a_zip_hidden_under_a_unit_file_name_is_not_opened():
    data = _zip([("sneaky.mtf", _zip([("a.mtf", VICTOR.encode())]))])
    batch = read_uploads([("fleet.zip", data)])
    assert batch.units == []
    assert batch.skipped[0].reason == "a zip inside a zip is not opened."


def test_path_traversal_names_are_only_shown_by_their_last_part():
    data = _zip([("../../../etc/Victor.mtf", VICTOR.encode()), ("..\\..\\evil\x07.blk", b"")])
    batch = read_uploads([("fleet.zip", data)])
    assert [unit.source for unit in batch.units] == ["fleet.zip › Victor.mtf"]
    assert str(batch.failed[0]) == "fleet.zip › evil.blk: The file is empty."


def test_a_zip_bomb_member_is_refused_after_reading_a_bounded_amount():
    bomb = _zip([("bomb.mtf", b" " * (200 * 1024 * 1024))])
    assert len(bomb) < 1024 * 1024
    batch = read_uploads([("bomb.zip", bomb)])
    assert batch.units == []
    assert "unpacks to more than 512 KB" in str(batch.failed[0])


def test_a_zip_that_unpacks_to_too_much_in_total_stops_reading():
    filler = b"#" + b" " * (500 * 1024)
    data = _zip([(f"u{i}.mtf", filler) for i in range(140)])
    batch = read_uploads([("many.zip", data)])
    assert batch.units == []
    assert any("unpacks to more than 64 MB" in s.reason for s in batch.skipped)
    assert len(batch.failed) < 140


def test_a_zip_with_too_many_members_is_refused_whole():
    data = _zip([(f"u{i}.txt", b"") for i in range(MAX_MEMBERS + 1)], compression=zipfile.ZIP_STORED)
    batch = read_uploads([("many.zip", data)])
    assert batch.units == []
    assert "at most 2,000 are read" in str(batch.failed[0])


def test_a_broken_zip_is_refused():
    data = _zip([("Victor.mtf", VICTOR.encode())])
    batch = read_uploads([("fleet.zip", data[:40])])
    assert str(batch.failed[0]) == "fleet.zip: This is not a zip archive that can be opened."
