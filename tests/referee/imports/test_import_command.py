"""``manage.py import_units``: all or nothing, exit 2 when a file cannot be read, prints what it created."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from referee.fleet.models import Ship, Unit
from referee.play.models import LogEntry
from referee.sheets.models import Design

SAMPLES = Path(__file__).resolve().parents[3] / "referee" / "unitfiles" / "samples"
VICTOR = SAMPLES / "Victor VTR-9K.mtf"
UNION = SAMPLES / "Union (3067).blk"


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_units", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args: str) -> tuple[CommandError, str]:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_units", *args, stdout=io.StringIO(), stderr=err)
    return caught.value, err.getvalue()


def test_it_imports_the_files_and_prints_what_it_created(cast):
    out, _ = run(str(cast.campaign.code), str(VICTOR), str(UNION))
    assert "Created Victor VTR-9K (BattleMech)" in out
    assert "Created Union (3067) (DropShip)" in out
    assert Unit.objects.get(campaign=cast.campaign).armor_factor == 200
    assert Ship.objects.get(campaign=cast.campaign).kind == "dropship"
    entry = LogEntry.objects.get(campaign=cast.campaign)
    assert entry.actor == cast.gm
    assert f"log entry #{entry.seq}" in out


def test_designs_from_the_command_line(cast):
    run(str(cast.campaign.code), str(VICTOR), "--designs")
    assert Design.objects.get(campaign=cast.campaign).name == "Victor VTR-9K"


def test_a_file_that_cannot_be_read_creates_nothing_and_exits_2(cast, tmp_path):
    bad = tmp_path / "Bad.mtf"
    bad.write_text(VICTOR.read_text().replace("walk mp:4", "walk mp:-4"))
    error, err = refused(str(cast.campaign.code), str(VICTOR), str(bad))
    assert error.returncode == 2
    line = VICTOR.read_text().split("\n").index("walk mp:4") + 1
    assert f"Bad.mtf: line {line}: Walking MP is -4" in err
    assert "Nothing was imported." in str(error)
    assert not Unit.objects.exists() and not LogEntry.objects.exists()


def test_a_bad_file_inside_a_zip_stops_the_whole_command(cast, tmp_path):
    archive = tmp_path / "fleet.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Victor.mtf", VICTOR.read_bytes())
        z.writestr("readme.txt", b"not a unit")
        z.writestr("Broken.blk", b"<UnitType>\nTank\n")
    error, err = refused(str(cast.campaign.code), str(archive))
    assert error.returncode == 2
    assert "fleet.zip › Broken.blk: line 1: the <UnitType> block that opens here is never closed" in err
    assert "Skipped fleet.zip › readme.txt: not a unit file (.mtf or .blk)." in err
    assert not Unit.objects.exists()


def test_a_zip_of_good_files_with_a_readme_imports_the_files(cast, tmp_path):
    archive = tmp_path / "fleet.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Victor.mtf", VICTOR.read_bytes())
        z.writestr("readme.txt", b"not a unit")
    out, err = run(str(cast.campaign.code), str(archive))
    assert "Created Victor VTR-9K (BattleMech)" in out
    assert "Skipped fleet.zip › readme.txt" in err


def test_a_missing_file_exits_2(cast, tmp_path):
    error, err = refused(str(cast.campaign.code), str(VICTOR), str(tmp_path / "nowhere.mtf"))
    assert error.returncode == 2
    assert "nowhere.mtf: cannot be opened" in err
    assert not Unit.objects.exists()


def test_an_unknown_campaign_is_named(db):
    error, _ = refused("00000000-0000-0000-0000-000000000000", str(VICTOR))
    assert error.returncode == 1
    assert "There is no campaign with the code" in str(error)
    error, _ = refused("not-a-code", str(VICTOR))
    assert error.returncode == 1


def test_the_benchmark_prints_its_figures_and_leaves_nothing_behind(db):
    out = io.StringIO()
    call_command("bench_import", "--files", "24", stdout=out)
    text = out.getvalue()
    assert "Zip of 24 unit files" in text and "10 unit types" in text
    assert "import in all" in text and "everything created was rolled back" in text
    assert not Unit.objects.exists() and not Ship.objects.exists() and not LogEntry.objects.exists()


def test_a_unit_already_in_the_campaign_stops_the_command_until_it_is_told_what_to_do(cast):
    code = str(cast.campaign.code)
    run(code, str(VICTOR))
    error, _ = refused(code, str(VICTOR))
    assert error.returncode == 2
    assert "Already in this campaign: Victor VTR-9K." in str(error)
    assert "--existing copy or --existing update" in str(error)
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1
    out, _ = run(code, str(VICTOR), "--existing", "copy")
    assert "Created Victor VTR-9K #2 (BattleMech)" in out
    out, _ = run(code, str(VICTOR), "--existing", "update")
    assert "Updated the record sheet of Victor VTR-9K (BattleMech)" in out
    assert Unit.objects.filter(campaign=cast.campaign).count() == 2
