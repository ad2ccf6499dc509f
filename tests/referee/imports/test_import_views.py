"""The GM's unit-file import and export pages: records with full sheets, one undoable entry, access."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from referee.fleet.models import Ship, Unit
from referee.play import services as play_services
from referee.play.models import LogEntry
from referee.sheets.models import Design
from referee.unitfiles import read_unit_text
from tests.factories import UnitFactory
from tests.referee.conftest import htmx

SAMPLES = Path(__file__).resolve().parents[3] / "referee" / "unitfiles" / "samples"
VICTOR = SAMPLES / "Victor VTR-9K.mtf"


def upload(*paths: Path) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]


def zipped(members: list[tuple[str, bytes]]) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return SimpleUploadedFile("fleet.zip", buffer.getvalue(), content_type="application/zip")


def url(cast) -> str:
    return reverse("imports:import", args=[cast.campaign.code])


def test_the_gm_imports_a_mech_file_as_a_unit_with_its_full_sheet(cast):
    response = cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    assert response.status_code == 200
    unit = Unit.objects.get(campaign=cast.campaign)
    assert (unit.name, unit.kind, unit.tonnage, unit.armor_factor, unit.jump_mp) == (
        "Victor VTR-9K", "battlemech", 80, 200, 4
    )  # fmt: skip
    assert unit.sheet == read_unit_text(VICTOR.read_bytes(), name=VICTOR.name)
    assert not unit.shared
    entry = LogEntry.objects.get(campaign=cast.campaign)
    assert entry.title == "The GM imported 1 record from unit files"
    assert entry.visibility == "gm"
    assert "Victor VTR-9K (BattleMech)" in entry.summary
    assert "Victor VTR-9K" in response.content.decode()


def test_a_zip_of_every_unit_type_makes_units_and_ships_with_summary_fields(cast):
    data = zipped([(p.name, p.read_bytes()) for p in sorted(SAMPLES.iterdir())])
    response = cast.client("gm").post(url(cast), {"files": [data]})
    assert response.status_code == 200
    units = {u.name: u for u in Unit.objects.filter(campaign=cast.campaign)}
    ships = {s.name: s for s in Ship.objects.filter(campaign=cast.campaign)}
    assert sorted(u.kind for u in units.values()) == [
        "battle_armor", "battlemech", "battlemech", "infantry", "vehicle", "vehicle"
    ]  # fmt: skip
    assert sorted(s.kind for s in ships.values()) == [
        "dropship", "fighter_squadron", "jumpship", "small_craft", "station", "warship"
    ]  # fmt: skip
    invader = ships["Invader (Standard)"]
    assert (invader.class_name, invader.mass_t, invader.kf_integrity, invader.kf_integrity_max) == (
        "Invader", 152000, 4, 4
    )  # fmt: skip
    assert (invader.dropship_capacity, invader.lf_battery, invader.heat_sinks, invader.armor_nose) == (
        3,
        True,
        119,
        9,
    )
    union = ships["Union (3067)"]
    # a DropShip side is one armour value: the record's fore facing of that side holds it, once
    assert (union.armor_fore_left, union.armor_aft_left, union.armor_aft, union.crew, union.passengers) == (
        110, 0, 80, 14, 28
    )  # fmt: skip
    assert ships["Potemkin (Standard)"].military
    fighter = ships["Sparrowhawk SPR-6"]
    assert (fighter.fighters, fighter.armor_nose, fighter.fuel_points) == (1, 18, 400)
    assert units["Elemental Point [Laser]"].armor_factor == 10  # battle armour: armour per trooper
    assert units["Kestrel Scout VTOL KST-1"].engine_type == "ice"
    entry = LogEntry.objects.get(campaign=cast.campaign)
    assert entry.title == "The GM imported 12 records from unit files"
    assert sorted((c["name"], c["label"], c["after"]) for c in entry.effects) == [
        ("Ships", "imported from unit files", 6), ("Units", "imported from unit files", 6)
    ]  # fmt: skip


def test_a_zip_imports_what_it_can_and_lists_what_it_skipped(cast):
    broken = VICTOR.read_text().replace("mass:80", "mass:eighty")
    data = zipped(
        [("Victor.mtf", VICTOR.read_bytes()), ("Broken.mtf", broken.encode()), ("notes.txt", b"hi")]
    )
    response = cast.client("gm").post(url(cast), {"files": [data]})
    assert response.status_code == 200
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1
    page = response.content.decode()
    assert "fleet.zip › Broken.mtf: line 11: The mass should be a whole number, not “eighty”." in page
    assert "fleet.zip › notes.txt: not a unit file (.mtf or .blk)." in page
    assert "2 files were skipped." in LogEntry.objects.get(campaign=cast.campaign).summary


def test_a_file_that_cannot_be_read_creates_nothing_and_says_which_line(cast):
    text = VICTOR.read_text().replace("LA armor:22", "LA armor:-22")
    bad = SimpleUploadedFile("Victor.mtf", text.encode())
    response = cast.client("gm").post(url(cast), {"files": [bad]}, **htmx())
    assert response.status_code == 422
    line = VICTOR.read_text().split("\n").index("LA armor:22") + 1
    assert f"Victor.mtf: line {line}: Left Arm armour is -22" in response.content.decode()
    assert "Nothing was imported." in response.content.decode()
    assert not Unit.objects.exists() and not LogEntry.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [b"", b"\x00\x01\x02binary", b"PK\x03\x04 not really a zip", b"mass:80\n" * 200_000],
    ids=["empty", "binary", "broken-zip", "huge"],
)
def test_hostile_uploads_are_refused_with_a_message_and_create_nothing(cast, payload):
    response = cast.client("gm").post(url(cast), {"files": [SimpleUploadedFile("x.mtf", payload)]})
    assert response.status_code == 422
    assert "Nothing was imported." in response.content.decode() or "empty" in response.content.decode()
    assert not Unit.objects.exists() and not Ship.objects.exists() and not LogEntry.objects.exists()


def test_an_empty_post_asks_for_a_file(cast):
    response = cast.client("gm").post(url(cast), {"text": "   "})
    assert response.status_code == 422
    assert "Choose a unit file or a zip, or paste a unit file" in response.content.decode()


def test_pasted_text_is_imported(cast):
    text = (SAMPLES / "Union (3067).blk").read_text()
    response = cast.client("gm").post(url(cast), {"text": text}, **htmx())
    assert response.status_code == 200
    assert "campaign-changed" in response.headers["HX-Trigger"]
    page = response.content.decode()
    assert "<html" not in page
    assert Ship.objects.get(campaign=cast.campaign).kind == "dropship"
    # The dashboard's panels follow the import beside the card, which stays open with the result.
    ships_panel = page.split('id="ships-panel" hx-swap-oob="true"', 1)[1]
    assert "Union (3067)" in ships_panel
    assert 'id="units-panel" hx-swap-oob="true"' in page
    assert 'id="form-slot" hx-swap-oob' not in page


def test_pasted_nul_characters_are_refused(cast):
    response = cast.client("gm").post(url(cast), {"text": "chassis:X\x00"})
    assert response.status_code == 422
    assert not LogEntry.objects.exists()


def test_files_can_become_designs_instead_of_records(cast):
    client = cast.client("gm")
    client.post(url(cast), {"files": upload(VICTOR), "as_designs": "on"})
    client.post(url(cast), {"files": upload(VICTOR), "as_designs": "on"})
    assert sorted(Design.objects.filter(campaign=cast.campaign).values_list("name", flat=True)) == [
        "Victor VTR-9K", "Victor VTR-9K (2)"
    ]  # fmt: skip
    assert not Unit.objects.exists()
    assert Design.objects.filter(unit_type="mech").count() == 2
    page = client.post(url(cast), {"files": upload(VICTOR), "as_designs": "on"}, **htmx()).content.decode()
    assert "Victor VTR-9K (3)" in page.split('id="designs-panel" hx-swap-oob="true"', 1)[1]
    assert 'id="form-slot" hx-swap-oob' not in page


def test_undo_of_an_import_removes_what_it_created(cast):
    cast.client("gm").post(url(cast), {"files": upload(VICTOR, SAMPLES / "Union (3067).blk")})
    entry = LogEntry.objects.get(campaign=cast.campaign)
    undo = play_services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert not Unit.objects.exists() and not Ship.objects.exists()
    assert undo.summary == "Undone: the 2 records it imported are gone again."
    with pytest.raises(play_services.PlayError, match="already undone"):
        play_services.log_entry_reverse(entry=entry, actor=cast.gm)


def test_undo_through_the_log_page_button(cast):
    client = cast.client("gm")
    client.post(url(cast), {"files": upload(VICTOR)})
    entry = LogEntry.objects.get(campaign=cast.campaign)
    page = client.get(reverse("play:entry", args=[cast.campaign.code, entry.number])).content.decode()
    assert 'data-testid="undo"' in page
    response = client.post(reverse("play:undo", args=[cast.campaign.code, entry.seq]))
    assert response.status_code in (200, 302)
    assert not Unit.objects.exists()


def test_undo_is_refused_once_an_imported_record_was_changed(cast):
    client = cast.client("gm")
    client.post(url(cast), {"files": upload(VICTOR)})
    entry = LogEntry.objects.get(campaign=cast.campaign)
    unit = Unit.objects.get()
    edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "units", unit.code])
    form = client.get(edit).context["form"]
    data = {**{k: v for k, v in form.initial.items() if v is not None}, "name": "Victor of the 3rd"}
    assert client.post(edit, data).status_code in (200, 302)
    with pytest.raises(play_services.PlayError, match="changed what it imported since"):
        play_services.log_entry_reverse(entry=entry, actor=cast.gm)
    assert Unit.objects.filter(name="Victor of the 3rd").exists()


@pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_may_import(cast, who, status):
    client = cast.client(who)
    assert client.get(url(cast)).status_code == status
    assert client.post(url(cast), {"files": upload(VICTOR)}).status_code == status
    assert not Unit.objects.exists() and not LogEntry.objects.exists()


def test_the_gm_sees_the_import_form_linked_from_the_dashboard_and_record_forms(cast):
    client = cast.client("gm")
    page = client.get(url(cast))
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()
    dashboard = client.get(reverse("campaigns:detail", args=[cast.campaign.code])).content.decode()
    assert url(cast) in dashboard
    new_unit = client.get(
        reverse("campaigns:object-create", args=[cast.campaign.code, "units"])
    ).content.decode()
    assert url(cast) in new_unit


def _export(cast, who: str, record, slug: str):
    return cast.client(who).get(reverse("imports:export", args=[cast.campaign.code, slug, record.code]))


@pytest.mark.parametrize("path", sorted(SAMPLES.iterdir()), ids=lambda p: p.stem)
def test_export_then_import_round_trips_for_every_unit_type(cast, path):
    cast.client("gm").post(url(cast), {"files": upload(path)})
    record = Unit.objects.filter(campaign=cast.campaign).first() or Ship.objects.get(campaign=cast.campaign)
    slug = "units" if isinstance(record, Unit) else "ships"
    response = _export(cast, "gm", record, slug)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert path.suffix in response["Content-Disposition"]
    assert read_unit_text(response.content, name=path.name) == record.sheet
    again = cast.client("gm").post(
        url(cast), {"files": [SimpleUploadedFile(path.name, response.content)], "existing": "copy"}
    )
    assert again.status_code == 200
    model = type(record)
    first, second = model.objects.filter(campaign=cast.campaign).order_by("id")
    assert second.sheet == first.sheet
    assert second.name == f"{first.name} #2"


def test_a_unit_already_in_the_campaign_asks_then_imports_a_second_copy_without_the_files_again(cast):
    cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    asked = cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    assert asked.status_code == 422
    page = asked.content.decode()
    assert "Already in this campaign: Victor VTR-9K." in page
    assert "the files need not be chosen again" in page
    assert 'type="file"' not in page
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1  # nothing yet
    pending = re.search(r'name="pending" value="([^"]+)"', page).group(1)
    answered = cast.client("gm").post(url(cast), {"pending": pending, "existing": "copy"})
    assert answered.status_code == 200
    assert sorted(Unit.objects.filter(campaign=cast.campaign).values_list("name", flat=True)) == [
        "Victor VTR-9K",
        "Victor VTR-9K #2",
    ]


def test_a_tampered_pending_import_is_refused_and_creates_nothing(cast):
    response = cast.client("gm").post(url(cast), {"pending": "forged:value", "existing": "copy"})
    assert response.status_code == 422
    assert "expired; choose them again" in response.content.decode()
    assert not Unit.objects.filter(campaign=cast.campaign).exists()


def test_updating_the_existing_record_is_a_logged_change_that_undo_restores(cast):
    cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    victor = Unit.objects.get(campaign=cast.campaign)
    before = victor.sheet
    changed = VICTOR.read_text().replace("CT armor:31", "CT armor:20")
    response = cast.client("gm").post(
        url(cast),
        {"files": [SimpleUploadedFile("Victor VTR-9K.mtf", changed.encode())], "existing": "update"},
    )
    assert response.status_code == 200
    assert "Record sheets updated from the files" in response.content.decode()
    victor.refresh_from_db()
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1
    assert [loc["armor"] for loc in victor.sheet["locations"] if loc["name"] == "Center Torso"] == [20]
    entry = LogEntry.objects.filter(campaign=cast.campaign).order_by("-seq").first()
    assert "Center Torso armour 31 → 20" in entry.summary
    # A record players may see logs its update for them too: no file name in its words.
    assert "updated from a unit file" in entry.summary and ".mtf" not in entry.summary
    play_services.log_entry_reverse(entry=entry, actor=cast.gm)
    victor.refresh_from_db()
    assert victor.sheet == before


def test_the_export_names_the_file_from_chassis_and_model(cast):
    cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    response = _export(cast, "gm", Unit.objects.get(), "units")
    assert response["Content-Disposition"] == 'attachment; filename="Victor VTR-9K.mtf"'
    row = cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code])).content.decode()
    assert reverse("imports:export", args=[cast.campaign.code, "units", Unit.objects.get().code]) in row


@pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_may_export(cast, who, status):
    cast.client("gm").post(url(cast), {"files": upload(VICTOR)})
    assert _export(cast, who, Unit.objects.get(), "units").status_code == status


def test_a_record_without_a_sheet_has_nothing_to_export(cast):
    unit = UnitFactory(campaign=cast.campaign)
    assert _export(cast, "gm", unit, "units").status_code == 404
    assert _export(cast, "gm", unit, "characters").status_code == 404


def test_every_imported_record_shows_its_record_sheet_page(cast):
    data = zipped([(p.name, p.read_bytes()) for p in sorted(SAMPLES.iterdir())])
    client = cast.client("gm")
    client.post(url(cast), {"files": [data]})
    records = [*Unit.objects.filter(campaign=cast.campaign), *Ship.objects.filter(campaign=cast.campaign)]
    assert len(records) == 12
    for record in records:
        slug = "units" if isinstance(record, Unit) else "ships"
        page = client.get(reverse("sheets:sheet", args=[cast.campaign.code, slug, record.code]))
        assert page.status_code == 200, record.name
        assert record.name in page.content.decode()


def test_a_double_click_imports_once(cast):
    client = cast.client("gm")
    key = "6f1c1c3e-0000-4000-8000-000000000001"
    first = client.post(url(cast), {"files": upload(VICTOR), "request_key": key})
    second = client.post(url(cast), {"files": upload(VICTOR), "request_key": key})
    assert first.status_code == second.status_code == 200
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1
    assert LogEntry.objects.filter(campaign=cast.campaign).count() == 1
    assert "already sent: nothing more was imported" in second.content.decode()


VARIANTS = Path(__file__).resolve().parents[1] / "unitfiles" / "files"


def test_a_half_ton_support_vehicle_keeps_its_fraction_on_the_record(cast):
    path = VARIANTS / "tank_wheeled_support_fraction.blk"
    response = cast.client("gm").post(url(cast), {"files": upload(path)})
    assert response.status_code == 200
    truck = Unit.objects.get(campaign=cast.campaign)
    assert truck.tonnage == 20.5  # never 20
    assert truck.sheet["tonnage"] == 20.5


def test_an_odd_line_in_a_readable_file_is_a_warning_beside_the_import_not_a_refusal(cast):
    text = VICTOR.read_text().replace("walk mp:4", "walk mp:4\nthis line means nothing")
    response = cast.client("gm").post(url(cast), {"files": [SimpleUploadedFile("Victor.mtf", text.encode())]})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Imported, with lines that could not be read:" in page
    assert "Victor.mtf: Line " in page and "“this line means nothing” is neither" in page
    assert Unit.objects.filter(campaign=cast.campaign).count() == 1
