"""The battle commands: import_board, export_board, export_mul and import_mul [--apply], with
names as the GM wrote them and exit 2 naming the line and the problem on a bad file."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from referee.battles import board, mul
from referee.play.models import LogEntry
from referee.terrain.models import Battlefield, UnitPlacement
from tests.referee.battles.records import SAMPLES, record
from tests.referee.terrain.factories import BattlefieldFactory


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args: str) -> tuple[CommandError, str]:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(*args, stdout=io.StringIO(), stderr=err)
    return caught.value, err.getvalue()


def test_import_board_prints_the_battlefield_and_export_board_writes_it_back(cast, tmp_path):
    code = str(cast.campaign.code)
    out, _ = run("import_board", code, str(SAMPLES / "Harbour Town 8x6.board"), "--name", "Harbour Town")
    assert "Created the battlefield Harbour Town (8 by 6 hexes)." in out
    entry = LogEntry.objects.get()
    assert f"log entry #{entry.seq}, which can undo it" in out and entry.actor == cast.gm
    target = tmp_path / "harbour.board"
    out, _ = run("export_board", code, "Harbour Town", "-o", str(target))
    assert "Wrote Harbour Town (8 by 6 hexes)" in out
    back = board.parse_board(target.read_bytes())
    assert (back.columns, back.rows) == (8, 6)
    assert target.read_bytes().count(b"\r\n") > 48  # MegaMek's line ends


def test_import_board_refuses_a_bad_file_with_its_line_and_creates_nothing(cast, tmp_path):
    bad = tmp_path / "bad.board"
    bad.write_text('size 2 1\nhex 0101 0 "" ""\nhex 0201 0 "woods:heavy" ""\n')
    error, _ = refused("import_board", str(cast.campaign.code), str(bad))
    assert error.returncode == 2
    assert "Line 3: hex 0201: “woods:heavy” is not a MegaMek terrain" in str(error)
    assert "Nothing was created." in str(error)
    assert not Battlefield.objects.exists() and not LogEntry.objects.exists()


def test_a_battlefield_or_record_not_found_is_named(cast, tmp_path):
    BattlefieldFactory(campaign=cast.campaign, name="Ridge")
    error, _ = refused("export_board", str(cast.campaign.code), "Ridgeline", "-o", str(tmp_path / "x"))
    assert "has no battlefield named 'Ridgeline'. It has: Ridge." in str(error)
    error, _ = refused("export_mul", str(cast.campaign.code), "--record", "Atlas", "-o", str(tmp_path / "x"))
    assert "has no unit or ship named 'Atlas'" in str(error)
    error, _ = refused("export_mul", "not-a-code", "--record", "Atlas", "-o", str(tmp_path / "x"))
    assert "There is no campaign with the code not-a-code." in str(error)


def test_export_mul_then_import_mul_previews_and_applies(cast, tmp_path):
    code = str(cast.campaign.code)
    field = BattlefieldFactory(campaign=cast.campaign, name="Ridge")
    victor = record(cast.campaign, "Victor VTR-9K.mtf", pilot="Lena Ortiz")
    UnitPlacement.objects.create(campaign=cast.campaign, name="v", unit=victor, battlefield=field, hex="0101")
    homebrew = record(cast.campaign, "Victor VTR-9K.mtf", name="Homebrew")
    homebrew.sheet = {**homebrew.sheet, "source": {}}
    homebrew.save()
    forces = tmp_path / "ridge.mul"
    out, _ = run("export_mul", code, "--battlefield", "Ridge", "-o", str(forces))
    assert "Wrote 1 unit to" in out
    (entity,) = mul.parse_mul(forces.read_bytes())
    assert entity.external_id == str(victor.code)
    _, err = run(
        "export_mul", code, "--record", "Homebrew", "--record", "Victor VTR-9K", "-o", str(tmp_path / "b.mul")
    )
    assert "MegaMek may not find Homebrew by name" in err

    after = tmp_path / "after.mul"
    after.write_text(
        forces.read_text()
        .replace('ejected="false"', 'hits="3" ejected="false"', 1)
        .replace("  </entity>", '    <location index="4" isDestroyed="true" /> Right Arm\n  </entity>')
    )
    out, _ = run("import_mul", code, str(after))
    assert "is Victor VTR-9K, matched by its id" in out and "Right Arm destroyed" in out
    assert "Report: The Victor VTR-9K lost its right arm; MechWarrior Lena Ortiz took 3 hits." in out
    assert "Nothing was written" in out and not LogEntry.objects.exists()
    out, _ = run("import_mul", code, str(after), "--apply")
    entry = LogEntry.objects.get()
    assert f"log entry #{entry.seq}, which can undo it" in out
    victor.refresh_from_db()
    assert victor.sheet["pilot"]["hits"] == 3


def test_import_mul_exits_2_on_a_file_it_cannot_read_or_match(cast, tmp_path):
    code = str(cast.campaign.code)
    bad = tmp_path / "bad.mul"
    bad.write_text('<?xml version="1.0"?>\n<!DOCTYPE unit [<!ENTITY a "x">]>\n<unit>&a;</unit>\n')
    error, _ = refused("import_mul", code, str(bad))
    assert error.returncode == 2 and "Line 2: the file declares a DTD or XML entities" in str(error)
    lost = tmp_path / "lost.mul"
    lost.write_text('<unit version="1">\n<entity chassis="Atlas" model="AS7-D"/>\n</unit>\n')
    error, err = refused("import_mul", code, str(lost), "--apply")
    assert error.returncode == 2 and "Line 2: the Atlas AS7-D matches no record" in err
    assert not LogEntry.objects.exists()
