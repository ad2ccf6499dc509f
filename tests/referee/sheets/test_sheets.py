"""Record sheets on records: damage from the procedures, the sheet page for each visitor,
the GM's adjustments (bounds, undo) and designs."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from referee.fleet.models import Ship, Unit
from referee.play import services, widgets
from referee.play.models import LogEntry
from referee.sheets import classes, document
from referee.sheets.forms import SheetListsForm
from referee.sheets.models import Design
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def victor(cast, shared=True) -> Unit:
    doc = classes.victor_vtr_9k()
    return UnitFactory(
        campaign=cast.campaign,
        name="Victor VTR-9K",
        kind="battlemech",
        tonnage=80,
        armor_factor=200,
        jump_mp=4,
        shared=shared,
        sheet=doc,
    )


def sheet_url(cast, record, kind="units", action=""):
    name = "sheets:sheet" if not action else f"sheets:{action}"
    return reverse(name, args=[cast.campaign.code, kind, record.code])


def loc(record, name):
    record.refresh_from_db()
    return document.location(record.sheet, name)


def board(cast, unit, dice, boxes=None, **inputs):
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="boarding.bs_to_bt_damage",
        inputs={"boxes": boxes or len(dice) // 2, "unit_kind": "mech", **inputs},
        dice=dice,
        actor=cast.gm,
        subjects={"unit": unit.code},
    )


class TestDamageLandsOnTheSheet:
    def test_battlespace_boxes_land_on_the_rolled_locations_and_undo_restores_them(self, cast):
        unit = victor(cast)
        entry = board(cast, unit, [1, 2, 4, 4])  # 3: right arm; 8: left torso
        assert loc(unit, "Right Arm")["armor"] == 8
        assert loc(unit, "Left Torso")["armor"] == 13
        unit.refresh_from_db()
        assert unit.armor_factor == 180
        assert entry.pending == []
        sheet_change = next(c for c in entry.effects if c["field"] == "sheet")
        assert document.armour_total(sheet_change["before"]) == 200
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        assert loc(unit, "Right Arm")["armor"] == 18
        unit.refresh_from_db()
        assert unit.armor_factor == 200

    def test_damage_past_a_location_passes_inwards(self, cast):
        unit = victor(cast)
        board(cast, unit, [1, 2] * 4)  # four boxes on the right arm: 40 points against its 18 + 13
        arm, torso = loc(unit, "Right Arm"), loc(unit, "Right Torso")
        assert arm["destroyed"] and arm["armor"] == 0 and arm["structure"] == 0
        assert torso["armor"] == 23 - 9
        unit.refresh_from_db()
        assert next(w for w in unit.sheet["weapons"] if w["name"] == "Gauss Rifle")["destroyed"]

    def test_magma_burns_the_legs_on_the_sheet_and_its_heat_shows_on_it(self, cast):
        unit = victor(cast)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="terrain.magma",
            inputs={"unit_type": "battlemech", "start_hex": "liquid"},
            dice=None,
            actor=cast.gm,
            subjects={"unit": unit.code},
        )
        burnt = entry.result["damage"]
        assert set(burnt) == {"LL", "RL"} and entry.pending == []
        assert loc(unit, "Left Leg")["armor"] == max(0, 20 - burnt["LL"])
        assert loc(unit, "Right Leg")["armor"] == max(0, 20 - burnt["RL"])
        unit.refresh_from_db()
        assert unit.heat == entry.result["heat"] > 0
        page = cast.client("gm").get(sheet_url(cast, unit))
        assert f'<strong data-testid="heat">{entry.result["heat"]}</strong>' in page.text

    def test_a_landed_units_hull_attack_shows_on_the_ships_sheet(self, cast):
        ship = ShipFactory(campaign=cast.campaign, kind="jumpship", shared=True, sheet=classes.invader())
        Ship.objects.filter(pk=ship.pk).update(armor_nose=9, armor_nose_max=9)
        unit = victor(cast)
        Unit.objects.filter(pk=unit.pk).update(landed_on=ship)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.landed_attack",
            inputs={"attack": "hull", "location": "nose", "nose_s": 2, "lw_s": 1, "rw_s": 1},
            dice=[],
            actor=cast.gm,
            subjects={"unit": unit.code, "target": ship.code},
        )
        assert entry.result["boxes"] == 4
        page = cast.client("player").get(sheet_url(cast, ship, "ships")).text
        assert "Nose: armour 5 of 9" in page
        assert '<tr data-testid="values-nose"><th scope="row">Nose</th><td>5 / 9</td></tr>' in page

    def landed_attack(self, cast, ship, **inputs):
        unit = victor(cast)
        Unit.objects.filter(pk=unit.pk).update(landed_on=ship)
        return services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.landed_attack",
            inputs=inputs,
            dice=[],
            actor=cast.gm,
            subjects={"unit": unit.code, "target": ship.code},
        )

    def test_a_landed_units_critical_boxes_land_on_the_ships_sheet_and_undo_clears_them(self, cast):
        ship = ShipFactory(campaign=cast.campaign, kind="jumpship", shared=True, sheet=classes.invader())
        entry = self.landed_attack(cast, ship, attack="thruster", location="fore_left", attacking_units=2)
        assert entry.pending == []
        ship.refresh_from_db()
        assert ship.sheet["critical_boxes"] == {"Maneuvering thrusters": 2}
        self.landed_attack(cast, ship, attack="thruster", location="aft_right", attacking_units=1)
        ship.refresh_from_db()
        assert ship.sheet["critical_boxes"] == {"Maneuvering thrusters": 3}
        page = cast.client("player").get(sheet_url(cast, ship, "ships")).text
        assert "Critical boxes" in page and "Maneuvering thrusters: 3 boxes marked" in page
        card = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).text
        assert "Maneuvering thrusters critical boxes 0 → 2" in card and "crit_boxes" not in card
        last = LogEntry.objects.filter(campaign=cast.campaign).order_by("-seq").first()
        services.log_entry_reverse(entry=last, actor=cast.gm)
        ship.refresh_from_db()
        assert ship.sheet["critical_boxes"] == {"Maneuvering thrusters": 2}
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        ship.refresh_from_db()
        assert "critical_boxes" not in ship.sheet
        assert "Critical boxes" not in cast.client("player").get(sheet_url(cast, ship, "ships")).text

    def test_a_ship_without_a_sheet_keeps_the_critical_boxes_pending_and_says_why(self, cast):
        ship = ShipFactory(campaign=cast.campaign, name="Potemkin", kind="warship")
        entry = self.landed_attack(cast, ship, attack="transit_drive", location="aft")
        assert [p["why"] for p in entry.pending] == [
            "Potemkin has no record sheet yet; give it one from its sheet page"
        ]
        ship.refresh_from_db()
        assert ship.sheet == {}
        page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).text
        assert "Potemkin has no record sheet yet; give it one from its sheet page" in page

    def test_the_result_card_names_what_changed_on_the_sheet(self, cast):
        unit = victor(cast)
        entry = board(cast, unit, [1, 2])
        page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
        assert "Right Arm armour 18 → 8" in page.text
        assert "&#x27;format&#x27;" not in page.text and "unit_type" not in page.text

    def test_a_unit_without_a_sheet_keeps_the_damage_pending_and_says_why(self, cast):
        unit = UnitFactory(campaign=cast.campaign, name="Atlas", kind="battlemech", tonnage=100)
        entry = board(cast, unit, [6, 6])
        assert entry.pending and "has no record sheet yet" in entry.pending[0]["why"]
        page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
        assert "has no record sheet yet" in page.text

    def test_landing_damage_without_a_location_stays_pending_with_the_reason(self, cast):
        unit = victor(cast)
        ship = ShipFactory(campaign=cast.campaign, kind="dropship")
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.landing",
            inputs={"unit_kind": "mech", "piloting": 5, "target_kind": "dropship"},
            dice=[1, 1],
            actor=cast.gm,
            subjects={"unit": unit.code, "target": ship.code},
        )
        assert entry.result["damage"] == 3
        damage = [p for p in entry.pending if p["field"] == "damage"]
        assert "which location" in damage[0]["why"]
        assert loc(unit, "Head")["armor"] == 9  # nothing guessed

    def test_battle_armour_loses_troopers_on_its_sheet(self, cast):
        point = UnitFactory(
            campaign=cast.campaign, kind="battle_armor", armor_factor=10, sheet=classes.elemental_point()
        )
        services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="boarding.bs_to_bt_damage",
            inputs={"boxes": 2, "unit_kind": "battle_armor", "troopers": 5},
            dice=[],
            actor=cast.gm,
            subjects={"unit": point.code},
        )
        point.refresh_from_db()
        assert [t["alive"] for t in point.sheet["troopers"]] == [True, True, True, False, False]

    def test_heat_on_the_record_shows_on_the_sheet(self, cast):
        unit = victor(cast)
        Unit.objects.filter(pk=unit.pk).update(heat=9)
        page = cast.client("gm").get(sheet_url(cast, unit))
        assert '<strong data-testid="heat">9</strong>' in page.text

    def test_an_ice_explosion_marks_the_sheet_destroyed(self, cast):
        doc = classes.victor_vtr_9k()
        doc["engine"]["type"] = "ICE"
        unit = UnitFactory(campaign=cast.campaign, kind="battlemech", engine_type="ice", sheet=doc)
        entry = services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="lowtech.ice_explosion",
            inputs={"engine_hit_number": 3},
            dice=[6, 6],
            actor=cast.gm,
            subjects={"unit": unit.code},
        )
        unit.refresh_from_db()
        assert entry.result["destroyed_for_play"] is True
        assert unit.sheet["destroyed"] is True


class TestTheSheetPage:
    @pytest.mark.parametrize(
        "who,status", [("anonymous", 404), ("outsider", 404), ("player", 200), ("gm", 200)]
    )
    def test_a_shared_records_sheet_is_for_members(self, cast, who, status):
        unit = victor(cast)
        assert cast.client(who).get(sheet_url(cast, unit)).status_code == status

    def test_a_player_gets_a_404_that_names_nothing_for_an_unshared_record(self, cast):
        unit = victor(cast, shared=False)
        response = cast.client("player").get(sheet_url(cast, unit))
        assert response.status_code == 404
        assert "Victor" not in response.text

    def test_players_never_see_designs(self, cast):
        design = Design.objects.create(campaign=cast.campaign, name="Victor", unit_type="mech", document={})
        assert cast.client("player").get(sheet_url(cast, design, "designs")).status_code == 404

    def test_the_page_draws_the_diagram_with_text_for_each_location(self, cast):
        unit = victor(cast)
        board(cast, unit, [1, 2])
        text = cast.client("player").get(sheet_url(cast, unit)).text
        assert 'data-testid="loc-right-arm"' in text and "Right Arm: armour 8 of 18" in text
        assert 'class="loc damaged"' in text
        assert "Armour diagram, rear torso" in text
        assert "Gauss Rifle" in text and "Heat scale" in text and "Critical hits" in text
        assert "Adjust the sheet" not in text  # the editor is the GM's

    def test_the_print_stylesheet_is_linked_and_has_a_print_block(self, cast):
        unit = victor(cast)
        text = cast.client("gm").get(sheet_url(cast, unit)).text
        assert "css/sheets.css" in text
        css = Path(finders.find("css/sheets.css")).read_text()
        assert "@media print" in css and ".no-print" in css

    def test_the_dashboard_and_the_player_page_link_to_sheets(self, cast):
        unit = victor(cast)
        ship = ShipFactory(campaign=cast.campaign, shared=True)
        campaign = reverse("campaigns:detail", args=[cast.campaign.code])
        dashboard = cast.client("gm").get(campaign).text
        assert sheet_url(cast, unit) in dashboard
        assert reverse("sheets:pick", args=[cast.campaign.code, "unit"]) in dashboard
        assert reverse("sheets:pick", args=[cast.campaign.code, "ship"]) in dashboard
        assert 'id="designs-panel"' in dashboard
        player = cast.client("player").get(campaign).text
        assert sheet_url(cast, unit) in player and sheet_url(cast, ship, "ships") in player

    def test_a_ship_sheet_draws_its_facings(self, cast):
        ship = ShipFactory(campaign=cast.campaign, kind="jumpship", shared=True, sheet=classes.invader())
        text = cast.client("player").get(sheet_url(cast, ship, "ships")).text
        assert 'data-testid="facing-nose"' in text and "Structural integrity 1 of 1" in text


class TestTheEditor:
    def post(self, cast, unit, data, action="adjust"):
        return cast.client("gm").post(sheet_url(cast, unit, action=action), data, **htmx())

    def test_the_gm_adjusts_a_location_logged_and_undoable(self, cast):
        unit = victor(cast)
        response = self.post(cast, unit, {"armor:Head": "5", "structure:Head": "3"})
        assert response.status_code == 200
        assert loc(unit, "Head")["armor"] == 5
        entry = LogEntry.objects.filter(campaign=cast.campaign, procedure="sheet.edit").get()
        assert "Head armour 9 → 5" in entry.summary
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        assert loc(unit, "Head")["armor"] == 9

    @pytest.mark.parametrize(
        "data,words",
        [
            ({"armor:Head": "-1"}, "Head armour must be from 0"),
            ({"armor:Head": "10"}, "more than its undamaged 9"),
            ({"armor:Head": "1e400"}, "finite"),
            ({"armor:Head": "nan"}, "finite"),
            ({"armor:Head": "99999999999999999999"}, "Head armour"),
            ({"armor:Head": "x\x00"}, "must be a number"),
            ({"pilot_name": "Kai\x00"}, "cannot be stored"),
            ({"pilot_gunnery": "12"}, "Gunnery must be from 0 to 8"),
            ({"heat": "-3"}, "The heat must be from 0"),
        ],
    )
    def test_bad_values_are_refused_with_a_message_and_nothing_is_written(self, cast, data, words):
        unit = victor(cast)
        before = LogEntry.objects.count()
        response = self.post(cast, unit, data)
        assert response.status_code == 422
        assert words in response.text and "\x00" not in response.text
        unit.refresh_from_db()
        assert unit.sheet == classes.victor_vtr_9k()
        assert LogEntry.objects.count() == before

    def lists(self, doc: dict, **changes) -> dict:
        """The sheet's lists as its form posts them, row by row, with ``changes`` laid over."""
        form = SheetListsForm(doc=doc)
        data = {}
        for name, field in form.fields.items():
            data.update(widgets.posted(field, name, doc.get(name, [])))
        return {**data, **changes}

    @pytest.mark.parametrize(
        "cell,text,words",
        [
            ("weapons-0-count", "many", "Enter a whole number."),
            ("weapons-0-count", "-3", "The number of"),
            ("weapons-0-name", "Laser\x00", "cannot be stored"),
            ("weapons-0-location", "Left pocket", "which this unit does not have"),
            ("weapons-0-name", "x" * 300, "At most 200 characters"),
            ("equipment-0-shots", "1e999", "Enter a whole number."),
        ],
    )
    def test_the_lists_refuse_junk_beside_the_row(self, cast, cell, text, words):
        unit = victor(cast)
        before = LogEntry.objects.count()
        response = self.post(cast, unit, self.lists(unit.sheet, **{cell: text}), action="lists")
        assert response.status_code == 422, response.text[:300]
        assert words in html.unescape(response.text) and "\x00" not in response.text
        unit.refresh_from_db()
        assert unit.sheet == classes.victor_vtr_9k()
        assert LogEntry.objects.count() == before

    def test_more_than_a_hundred_rows_are_refused(self, cast):
        unit = victor(cast)
        rows = {f"weapons-{n}-name": f"Laser {n}" for n in range(101)}
        response = self.post(cast, unit, {**self.lists(unit.sheet), **rows}, action="lists")
        assert response.status_code == 422
        assert "At most 100 rows are allowed" in response.text

    def test_a_weapon_row_added_is_kept_on_the_sheet_and_logged(self, cast):
        unit = victor(cast)
        n = len(unit.sheet["weapons"])
        data = self.lists(unit.sheet, **{f"weapons-{n}-name": "Small Laser", f"weapons-{n}-location": "Head"})
        response = self.post(cast, unit, data, action="lists")
        assert response.status_code == 200
        unit.refresh_from_db()
        assert unit.sheet["weapons"][-1]["name"] == "Small Laser" and len(unit.sheet["weapons"]) == n + 1
        assert unit.sheet["weapons"][:n] == classes.victor_vtr_9k()["weapons"]

    def test_saving_the_lists_keeps_what_a_unit_file_gave_beyond_their_columns(self, cast):
        """A weapon's mount and a piece of equipment's size (read from a unit file, written back
        to one) survive an edit of the lists."""
        unit = victor(cast)
        sheet = dict(unit.sheet)
        sheet["weapons"] = [{**sheet["weapons"][0], "mount": "Body"}, *sheet["weapons"][1:]]
        sheet["equipment"] = [
            *sheet.get("equipment", []),
            {"name": "Cargo", "location": "Left Torso", "size": 2.5},
        ]
        unit.sheet = document.normalise(sheet)
        unit.save(update_fields=["sheet"])
        n = len(unit.sheet["weapons"])
        data = self.lists(unit.sheet, **{f"weapons-{n}-name": "Small Laser", f"weapons-{n}-location": "Head"})
        response = self.post(cast, unit, data, action="lists")
        assert response.status_code == 200
        unit.refresh_from_db()
        assert unit.sheet["weapons"][0]["mount"] == "Body"
        assert unit.sheet["equipment"][-1]["size"] == 2.5

    def test_add_a_row_shows_the_lists_as_typed_with_one_more_row_and_writes_nothing(self, cast):
        unit = victor(cast)
        n = len(unit.sheet["weapons"])
        data = self.lists(unit.sheet, **{"weapons-0-count": "many", widgets.ADD_ROW: "weapons"})
        response = self.post(cast, unit, data, action="lists")
        assert response.status_code == 200
        page = html.unescape(response.text)
        assert 'value="many"' in page  # as typed, not yet checked
        assert "Enter a whole number." not in page and 'class="error"' not in page
        blank = int(data.get("weapons-blank", widgets.BLANK_ROWS))
        assert len(re.findall(r'name="weapons-\d+-name"', page)) == n + blank + 1
        unit.refresh_from_db()
        assert unit.sheet == classes.victor_vtr_9k() and not LogEntry.objects.exists()

    def test_a_removed_row_leaves_the_sheet(self, cast):
        unit = victor(cast)
        response = self.post(cast, unit, self.lists(unit.sheet, **{"weapons-0-remove": "on"}), action="lists")
        assert response.status_code == 200
        unit.refresh_from_db()
        assert unit.sheet["weapons"] == classes.victor_vtr_9k()["weapons"][1:]

    def test_the_sheet_page_has_no_json_box(self, cast):
        unit = victor(cast)
        page = cast.client("gm").get(sheet_url(cast, unit)).text
        assert "<textarea" not in page and 'data-testid="rows-weapons"' in page

    def test_players_cannot_adjust(self, cast):
        unit = victor(cast)
        response = cast.client("player").post(sheet_url(cast, unit, action="adjust"), {"armor:Head": "1"})
        assert response.status_code == 403
        assert loc(unit, "Head")["armor"] == 9

    def test_critical_slots_are_marked_from_the_editor(self, cast):
        unit = victor(cast)
        self.post(cast, unit, {"crit:Center Torso:1": "on"})
        unit.refresh_from_db()
        assert unit.sheet["criticals"]["Center Torso"][0]["hit"] and unit.engine_hits == 1


class TestDesigns:
    def test_a_record_is_saved_as_a_design_as_built_and_undo_removes_it(self, cast):
        unit = victor(cast)
        board(cast, unit, [1, 2])
        response = cast.client("gm").post(
            sheet_url(cast, unit, action="design-save"), {"name": "My Victor"}, **htmx()
        )
        assert response.status_code == 200
        design = Design.objects.get(name="My Victor")
        assert document.location(design.document, "Right Arm")["armor"] == 18
        entry = LogEntry.objects.filter(campaign=cast.campaign).order_by("-seq").first()
        # One line in the diary; the sheet as recorded stays in the entry's changes.
        assert entry.summary == "The GM added the design My Victor."
        assert any(change.get("field") == "document" for change in entry.effects)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        assert not Design.objects.filter(name="My Victor").exists()

    def test_a_new_unit_starts_from_a_design_with_its_sheet_and_summary(self, cast):
        design = Design.objects.create(
            campaign=cast.campaign, name="Victor VTR-9K", unit_type="mech", document=classes.victor_vtr_9k()
        )
        response = cast.client("gm").post(
            reverse("sheets:use", args=[cast.campaign.code, design.code]), {"name": "Tomas's Victor"}
        )
        unit = Unit.objects.get(name="Tomas's Victor")
        assert response.status_code == 302 and response["Location"] == sheet_url(cast, unit)
        assert (unit.kind, unit.tonnage, unit.armor_factor, unit.jump_mp) == ("battlemech", 80, 200, 4)
        assert LogEntry.objects.filter(procedure="record.create").exists()

    def test_the_pick_page_lists_designs_and_leaves_a_place_for_import(self, cast):
        Design.objects.create(
            campaign=cast.campaign, name="Victor VTR-9K", unit_type="mech", document=classes.victor_vtr_9k()
        )
        page = cast.client("gm").get(reverse("sheets:pick", args=[cast.campaign.code, "unit"]))
        assert "Victor VTR-9K" in page.text and 'data-testid="import-place"' in page.text
        assert (
            cast.client("player").get(reverse("sheets:pick", args=[cast.campaign.code, "unit"])).status_code
            == 403
        )

    def test_the_dashboard_adds_a_blank_design(self, cast):
        url = reverse("campaigns:object-create", args=[cast.campaign.code, "designs"])
        response = cast.client("gm").post(
            url, {"name": "Atlas", "unit_type": "mech", "tonnage": "100"}, **htmx()
        )
        assert response.status_code == 200
        design = Design.objects.get(name="Atlas")
        assert document.location(design.document, "Center Torso")["structure_max"] == 31
        bad = cast.client("gm").post(url, {"name": "Odd", "unit_type": "mech", "tonnage": "33"}, **htmx())
        assert bad.status_code == 422 and "no standard internal structure" in bad.text


class TestPendingDamageAppliedLater:
    def test_damage_left_pending_lands_once_the_unit_has_a_sheet(self, cast):
        from referee.play import pending

        unit = UnitFactory(campaign=cast.campaign, name="Victor", kind="battlemech", tonnage=80, shared=True)
        entry = board(cast, unit, [1, 2])
        with pytest.raises(pending.EffectError, match="has no record sheet yet"):
            pending.pending_effect_apply(entry=entry, number=1, actor=cast.gm)
        Unit.objects.filter(pk=unit.pk).update(sheet=classes.victor_vtr_9k())
        applied = pending.pending_effect_apply(entry=entry, number=1, actor=cast.gm)
        assert loc(unit, "Right Arm")["armor"] == 8
        assert "{" not in applied.summary


class TestStartingASheet:
    def test_a_record_without_a_sheet_starts_a_blank_one_holding_what_it_says(self, cast):
        ship = ShipFactory(campaign=cast.campaign, kind="jumpship", kf_integrity=3, kf_integrity_max=4)
        response = cast.client("gm").post(sheet_url(cast, ship, "ships", "start"), **htmx())
        assert response.status_code == 200
        ship.refresh_from_db()
        assert ship.sheet["kf_drive"] == {"integrity": 3, "integrity_max": 4, "lf_battery": False}
        assert document.location(ship.sheet, "Nose")["armor"] == ship.armor_nose
        entry = LogEntry.objects.get(procedure="sheet.edit")
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        ship.refresh_from_db()
        assert ship.sheet == {}

    def test_or_takes_a_designs_sheet(self, cast):
        unit = UnitFactory(campaign=cast.campaign, kind="battlemech", tonnage=80)
        design = Design.objects.create(
            campaign=cast.campaign, name="Victor VTR-9K", unit_type="mech", document=classes.victor_vtr_9k()
        )
        page = cast.client("gm").get(sheet_url(cast, unit)).text
        assert "Take its sheet" in page
        cast.client("gm").post(sheet_url(cast, unit, action="start"), {"design": str(design.code)}, **htmx())
        unit.refresh_from_db()
        assert unit.armor_factor == 200 and document.display_name(unit.sheet) == "Victor VTR-9K"

    @pytest.mark.parametrize("name", ["Vic\x00tor", "x" * 500])
    def test_a_bad_name_is_refused_and_nothing_is_made(self, cast, name):
        unit = victor(cast)
        design = Design.objects.create(
            campaign=cast.campaign, name="Victor VTR-9K", unit_type="mech", document=classes.victor_vtr_9k()
        )
        before = (Unit.objects.count(), Design.objects.count(), LogEntry.objects.count())
        use = cast.client("gm").post(
            reverse("sheets:use", args=[cast.campaign.code, design.code]), {"name": name}
        )
        save = cast.client("gm").post(sheet_url(cast, unit, action="design-save"), {"name": name}, **htmx())
        assert (use.status_code, save.status_code) == (422, 422)
        assert (Unit.objects.count(), Design.objects.count(), LogEntry.objects.count()) == before


class TestTheLogReadsPlainly:
    def test_the_markdown_export_names_the_sheet_and_never_spells_it_out(self, cast):
        unit = victor(cast)
        board(cast, unit, [1, 2])
        response = cast.client("gm").get(reverse("play:export", args=[cast.campaign.code, "md"]))
        text = b"".join(response.streaming_content).decode()
        assert "the record sheet of Victor VTR-9K → the record sheet of Victor VTR-9K" in text
        assert "unit_type" not in text and "{" not in text

    def test_an_undo_of_a_sheet_change_summarises_without_the_sheet(self, cast):
        unit = victor(cast)
        entry = board(cast, unit, [1, 2])
        undo = services.log_entry_reverse(entry=entry, actor=cast.gm)
        assert "as recorded" in undo.summary and "{" not in undo.summary
