"""``manage.py check_unit_files``: a GM's own library read as the import page reads it, one line
a file, nothing written anywhere (no database at all: these tests have none)."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

OURS = Path(__file__).resolve().parents[1] / "unitfiles" / "files"


def check(*args: str) -> tuple[str, int]:
    out = io.StringIO()
    code = 0
    try:
        call_command("check_unit_files", *args, stdout=out)
    except SystemExit as stop:
        code = stop.code
    return out.getvalue(), code


def line_for(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if name in line)


def test_every_file_of_a_folder_is_told_imported_or_refused_in_words():
    out, code = check(str(OURS))
    files = sorted(p.name for p in OURS.iterdir())
    assert len(out.splitlines()) == len(files) + 1  # one line a file, then the totals
    assert line_for(out, "biped_current.mtf").startswith("imported")
    assert "(BattleMech)" in line_for(out, "biped_current.mtf")
    assert "(DropShip)" in line_for(out, "dropship_spheroid.blk")
    protomech = line_for(out, "protomech.blk")
    assert protomech.startswith("refused")
    assert "ProtoMechs are not supported yet" in protomech
    assert "Gun emplacements are not supported yet" in line_for(out, "gun_emplacement.blk")
    assert out.splitlines()[-1] == (
        f"{len(files)} units: {len(files) - 5} imported, 0 imported with warnings, 5 refused."
    )
    assert code == 1  # some were refused


def test_an_odd_line_is_a_warning_and_a_readable_library_exits_zero(tmp_path):
    text = (OURS / "tank_tracked_ice.blk").read_text()
    (tmp_path / "odd.blk").write_text(
        text.replace("</cruiseMP>\n", "</cruiseMP>\n\n<jumpingMP>\nfast\n</jumpingMP>\n")
    )
    shutil.copy(OURS / "quad.mtf", tmp_path / "quad.mtf")
    out, code = check(str(tmp_path))
    odd = line_for(out, "odd.blk")
    assert odd.startswith("warning")
    assert "Picket Medium Tank (AC2) (Combat vehicle); " in odd
    assert line_for(out, "quad.mtf").startswith("imported")
    assert out.splitlines()[-1] == "2 units: 1 imported, 1 imported with warnings, 0 refused."
    assert code == 0


def test_quiet_lists_only_what_needs_a_look_and_a_zip_is_read_member_by_member(tmp_path):
    archive = tmp_path / "library.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(OURS / "quad.mtf", "meks/quad.mtf")
        zipped.write(OURS / "protomech.blk", "protos/protomech.blk")
        zipped.writestr("readme.txt", "not a unit")
    out, code = check(str(archive), "--quiet")
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(
        f"refused  {archive}: library.zip › protomech.blk: ProtoMechs are not supported yet"
    )
    assert lines[1] == "2 units: 1 imported, 0 imported with warnings, 1 refused."
    assert code == 1


def test_a_file_that_is_no_unit_file_is_refused_in_words(tmp_path):
    (tmp_path / "notes.mtf").write_bytes(b"\x00\x01 nothing here \xff")
    out, code = check(str(tmp_path / "notes.mtf"))
    assert line_for(out, "notes.mtf").startswith(f"refused  {tmp_path / 'notes.mtf'}: ")
    assert "notes.mtf: notes.mtf" not in out  # the file is named once
    assert "Traceback" not in out
    assert code == 1


def test_a_missing_path_or_an_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match=r"Not a file or folder: .*nowhere"):
        call_command("check_unit_files", str(tmp_path / "nowhere"), stdout=io.StringIO())
    with pytest.raises(CommandError, match=r"No \.mtf, \.blk or \.zip file was found there\."):
        call_command("check_unit_files", str(tmp_path), stdout=io.StringIO())
