"""The widgets of a procedure's lists, tables and sets: typed row by row, read cell by cell,
every bad value told beside its cell in plain words with a 422, never a 500 and never JSON."""

from __future__ import annotations

import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.urls import reverse

import rules
from referee.play import widgets
from referee.play.forms import input_field
from referee.play.models import LogEntry
from rules import schema
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import form_data, htmx, posted_by, shown, typed

pytestmark = pytest.mark.django_db

CONVERT = "groundspace.convert"
WEAPON = {"type": "AC/20", "location": "RA", "heat": 7, "range_value": 2}


def spec_of(procedure_id: str, name: str):
    return next(i for i in rules.get(procedure_id).contract.inputs if i.name == name)


def field_of(procedure_id: str, name: str):
    return input_field(spec_of(procedure_id, name), procedure_id)


def clean(procedure_id: str, name: str, data: dict):
    field = field_of(procedure_id, name)
    query = QueryDict(mutable=True)
    for key, value in data.items():
        for v in value if isinstance(value, list) else [value]:
            query.appendlist(key, v)
    return field.clean(field.widget.value_from_datadict(query, {}, name)), field


def post(cast, procedure_id: str, data: dict, **roles):
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    body = {"visibility": "everyone", "action": "roll", "dice": "", **data}
    body.update({name: str(record.code) for name, record in roles.items()})
    return cast.client("gm").post(url, body, **htmx())


def every_structured_input():
    for procedure in rules.all_procedures():
        for spec in procedure.contract.inputs:
            if spec.type.kind not in ("int", "float", "bool", "enum", "str", "rational"):
                yield procedure.id, spec.name


STRUCTURED = list(every_structured_input())


def test_there_are_thirty_structured_inputs_on_twenty_three_forms():
    assert len(STRUCTURED) == 30 and len({p for p, _ in STRUCTURED}) == 23


@pytest.mark.parametrize(("procedure_id", "name"), STRUCTURED)
def test_every_list_and_table_is_a_widget_that_reads_back_what_it_shows(procedure_id, name):
    field = field_of(procedure_id, name)
    assert widgets.reads_rows(field)
    markup = str(field.widget.render(name, field.initial, {"id": f"id_{name}"}))
    assert "<textarea" not in markup and "{" not in markup and "[" not in markup
    example = rules.get(procedure_id).example
    if name in example:  # the example typed in and read back is the example, as the engine checks it
        spec = spec_of(procedure_id, name)
        value, _ = clean(procedure_id, name, typed(procedure_id, name, example[name]))
        assert spec.validate(value) == spec.validate(example[name])
        page = str(field.widget.render(name, spec.validate(example[name])))
        assert spec.validate(widgets.kept_value(procedure_id, spec, posted_by(page, name))) == spec.validate(
            value
        )


class TestRows:
    def test_a_blank_row_is_left_out_and_a_removed_row_too(self):
        data = {**typed(CONVERT, "weapons", [WEAPON, {**WEAPON, "type": "SRM 6"}]), "weapons-1-remove": "on"}
        data["weapons-5-type"] = "   "
        value, _ = clean(CONVERT, "weapons", data)
        assert [w["type"] for w in value] == ["AC/20"]

    def test_a_bad_number_is_told_beside_its_cell(self):
        data = typed(CONVERT, "weapons", [WEAPON])
        data["weapons-0-heat"] = "seven"
        with pytest.raises(ValidationError) as caught:
            clean(CONVERT, "weapons", data)
        assert caught.value.messages == ["Row 1, Heat: Enter a whole number."]
        field = field_of(CONVERT, "weapons")
        query = QueryDict(mutable=True)
        query.update(data)
        with pytest.raises(ValidationError):
            field.clean(field.widget.value_from_datadict(query, {}, "weapons"))
        markup = str(field.widget.render("weapons", field.widget.value_from_datadict(query, {}, "weapons")))
        assert re.search(r'value="seven"[^>]*aria-invalid="true"', markup)
        assert 'data-testid="error-weapons-0-heat">Enter a whole number.</div>' in markup

    @pytest.mark.parametrize(
        ("cell", "text", "message"),
        [
            ("heat", "1e400", "Enter a whole number."),
            ("range_value", "nan", "Enter a whole number."),
            ("bs_fire_factor", "inf", "Enter a number of ordinary size."),
            ("bs_fire_factor", "1" * 30, "Enter a number of ordinary size."),
            ("type", "Laser\x00", "This holds a character that cannot be stored."),
            ("type", "x" * 201, "At most 200 characters (this has 201)."),
            ("location", "Left pocket", "Choose one of the listed values."),
            ("location", '{"a": [1, {"b": null}]}', "Choose one of the listed values."),
        ],
    )
    def test_junk_in_a_cell_is_refused_in_plain_words(self, cell, text, message):
        data = {**typed(CONVERT, "weapons", [WEAPON]), f"weapons-0-{cell}": text}
        with pytest.raises(ValidationError) as caught:
            clean(CONVERT, "weapons", data)
        assert caught.value.messages[0].endswith(message)

    def test_a_required_cell_left_blank_says_fill_it_in(self):
        data = {"weapons-0-location": "RA", "weapons-0-heat": "3"}  # no weapon type
        with pytest.raises(ValidationError) as caught:
            clean(CONVERT, "weapons", data)
        assert caught.value.messages == ["Row 1, Type: Fill in type."]

    def test_more_than_a_hundred_rows_are_refused(self):
        data = typed(CONVERT, "weapons", [{**WEAPON, "type": f"Laser {n}"} for n in range(101)])
        with pytest.raises(ValidationError) as caught:
            clean(CONVERT, "weapons", data)
        assert caught.value.messages == ["At most 100 rows are allowed (this has 101)."]

    def test_a_hundred_rows_are_read(self):
        rows = [{**WEAPON, "type": f"Laser {n}"} for n in range(100)]
        value, _ = clean(CONVERT, "weapons", typed(CONVERT, "weapons", rows))
        assert len(value) == 100 and value[99]["type"] == "Laser 99"

    def test_row_numbers_out_of_reach_name_no_row(self):
        value, _ = clean(CONVERT, "weapons", {"weapons-99999-type": "AC/20", "weapons--1-type": "x"})
        assert value == []

    def test_add_a_row_gives_one_more_blank_row_however_often_it_is_asked_for(self):
        field = field_of(CONVERT, "weapons")
        query = QueryDict(mutable=True)
        query.update({"weapons-blank": "2", widgets.ADD_ROW: "weapons"})
        assert field.widget.value_from_datadict(query, {}, "weapons").blank == 3
        query["weapons-blank"] = "100000000"
        assert field.widget.value_from_datadict(query, {}, "weapons").blank == widgets.MAX_BLANK_ROWS
        query["weapons-blank"] = "-5"  # no count a form shows: the usual two, and the one asked for
        assert field.widget.value_from_datadict(query, {}, "weapons").blank == widgets.BLANK_ROWS + 1

    def test_names_inside_a_row_are_written_with_commas(self):
        data = {"ships-0-id": "Lodestar", "ships-0-facings": "nose, aft ,, fore_left"}
        value, _ = clean("jump.nonstandard_arrival", "ships", data)
        assert value == [{"id": "Lodestar", "facings": ["nose", "aft", "fore_left"]}]

    def test_a_list_of_plain_numbers_is_one_column(self):
        value, field = clean(
            "boarding.landed_attack",
            "melee_damage",
            {"melee_damage-0-value": "16", "melee_damage-1-value": "8"},
        )
        assert value == [16, 8] and [c.name for c in field.columns] == ["value"]

    def test_a_row_of_ticks_counts_only_when_it_is_ticked_to_count(self):
        value, _ = clean(
            "terrain.careful_movement",
            "hexes",
            {
                "hexes-0-row": "on",
                "hexes-1-clear": "on",
                "hexes-2-row": "on",
                "hexes-2-elevation_change": "on",
            },
        )
        assert value == [
            {"clear": False, "elevation_change": False},
            {"clear": False, "elevation_change": True},
        ]


class TestTables:
    def test_a_2d6_table_reads_the_totals_filled_in(self):
        value, _ = clean(
            "ram.deliberate",
            "fighter_hits_table",
            {"fighter_hits_table-2-value": "1", "fighter_hits_table-12-value": "4"},
        )
        assert value == {"2": 1, "12": 4}

    def test_an_empty_table_is_the_printed_one(self):
        value, _ = clean("ram.deliberate", "fighter_hits_table", {})
        assert value is None

    def test_a_total_outside_2_to_12_names_no_row(self):
        value, _ = clean(
            "ram.deliberate",
            "fighter_hits_table",
            {"fighter_hits_table-13-value": "1", "fighter_hits_table-1-value": "1"},
        )
        assert value is None

    def test_a_negative_count_is_refused_by_the_rules_with_a_422(self, cast):
        data = form_data("ram.deliberate", rules.get("ram.deliberate").example)
        data["fighter_hits_table-7-value"] = "-3"
        response = post(cast, "ram.deliberate", data)
        assert response.status_code in (200, 422)  # the rules may allow it; never a 500
        data["fighter_hits_table-7-value"] = "-"
        response = post(cast, "ram.deliberate", data)
        assert response.status_code == 422
        assert "7, Result: Enter a whole number." in html.unescape(response.text)

    def test_a_chart_half_filled_asks_for_the_rest(self):
        with pytest.raises(ValidationError) as caught:
            clean(
                "booby_trap.fill_weapons", "chart", {"chart-2-weapon": "Photon (FA)", "chart-2-spaces": "1"}
            )
        assert caught.value.messages[0].startswith(
            "A chart needs a weapon for every total from 2 to 12, or none at all"
        )


class TestCheckboxes:
    def test_conditions_are_checkboxes_with_their_names(self):
        field = field_of("terrain.hex_modifiers", "weather")
        markup = str(field.widget.render("weather", ["fog"]))
        assert markup.count('type="checkbox"') == len(
            spec_of("terrain.hex_modifiers", "weather").type.item.choices
        )
        assert re.search(r'value="fog"[^>]*checked', markup)

    def test_a_value_posted_twice_is_chosen_once_and_an_unknown_one_refused(self):
        value, _ = clean("terrain.hex_modifiers", "weather", {"weather": ["fog", "fog"]})
        assert value == ["fog"]
        with pytest.raises(ValidationError) as caught:
            clean("terrain.hex_modifiers", "weather", {"weather": ["fog", "lava rain"]})
        assert "Select a valid choice" in caught.value.messages[0]

    def test_a_path_whose_order_matters_is_rows_not_checkboxes(self):
        value, _ = clean(
            "terrain.magma",
            "movement_path",
            {
                "movement_path-0-value": "crust",
                "movement_path-1-value": "other",
                "movement_path-2-value": "crust",
            },
        )
        assert value == ["crust", "other", "crust"]


class TestThroughTheForm:
    def test_the_form_has_no_json_box(self, cast):
        url = reverse("play:procedure", args=[cast.campaign.code, CONVERT])
        page = cast.client("gm").get(url).text
        assert "<textarea" not in page
        assert 'data-testid="rows-weapons"' in page and 'data-testid="add-row-weapons"' in page

    def test_add_a_row_posts_back_the_form_as_typed_with_one_more_row_and_rolls_nothing(self, cast):
        data = {"unit_kind": "mech", **typed(CONVERT, "weapons", [WEAPON]), widgets.ADD_ROW: "weapons"}
        data["weapons-blank"] = "2"
        for client_extra in ({}, htmx()):
            url = reverse("play:procedure", args=[cast.campaign.code, CONVERT])
            response = cast.client("gm").post(
                url, {"visibility": "everyone", "dice": "", **data}, **client_extra
            )
            assert response.status_code == 200
            page = html.unescape(response.text)
            assert shown(page, CONVERT, "weapons")[0]["type"] == "AC/20"
            assert len(re.findall(r'name="weapons-\d+-type"', page)) == 4  # the row and three blank
            assert 'class="error"' not in page
        assert not LogEntry.objects.filter(campaign=cast.campaign).exists()

    def test_a_bad_cell_posted_is_a_422_with_the_error_beside_it_and_nothing_logged(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        data = {"unit_kind": "mech", **typed(CONVERT, "weapons", [WEAPON]), "weapons-0-mounts": "-2"}
        response = post(cast, CONVERT, data, unit=mech)
        assert response.status_code == 422
        assert "mounts must be at least 1" in html.unescape(response.text)
        data["weapons-0-mounts"] = "two"
        response = post(cast, CONVERT, data, unit=mech)
        assert response.status_code == 422
        assert 'data-testid="error-weapons-0-mounts">Enter a whole number.</div>' in response.text
        assert not LogEntry.objects.filter(campaign=cast.campaign).exists()

    def test_a_nul_typed_in_a_cell_is_refused_and_not_shown_back(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech")
        data = {"unit_kind": "mech", **typed(CONVERT, "weapons", [WEAPON]), "weapons-0-type": "AC\x00/20"}
        response = post(cast, CONVERT, data, unit=mech)
        assert response.status_code == 422
        assert "This holds a character that cannot be stored." in response.text
        assert "\x00" not in response.text and 'value="AC/20"' in response.text

    def test_the_odds_read_the_rows(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        url = reverse("play:odds", args=[cast.campaign.code, "jump.nonstandard_arrival"])
        data = {
            "ship": str(ship.code),
            "navigation_tn": "8",
            "plot_mos": "0",
            "kf_integrity": "3",
            **typed("jump.nonstandard_arrival", "ships", [{"id": "Lodestar", "facings": ["nose"]}]),
        }
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 200 and "Complete the form" not in response.text
        data["ships-0-facings"] = "x" * 300
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 200 and "Complete the form to see the odds." in response.text

    def test_a_flood_of_fields_is_refused_with_a_400(self, cast):
        data = {f"weapons-{n}-type": "x" for n in range(1500)}
        assert post(cast, CONVERT, {"unit_kind": "mech", **data}).status_code == 400


def test_the_engine_still_takes_json_from_the_command_line():
    value = schema.parse_json_text('[{"type": "AC/20", "location": "RA"}]', "weapons")
    assert rules.resolve(CONVERT, {"unit_kind": "mech", "weapons": value}).result["weapons"][0]["arc"] == "rw"


class TestFixedForAPlayer:
    def test_a_disabled_list_keeps_the_campaigns_value_and_shows_no_add_row(self):
        field = field_of(CONVERT, "weapons")
        field.disabled = True
        assert field.clean([WEAPON]) == spec_of(CONVERT, "weapons").validate([WEAPON])
        assert field.clean(None) == []
        markup = str(field.widget.render("weapons", [WEAPON], {"disabled": True}))
        assert (
            'name="weapons-0-type" id="id_weapons-0-type" value="AC/20"' in markup and " disabled" in markup
        )
        assert "add-row-weapons" not in markup

    def test_a_disabled_list_with_a_bad_value_is_refused_in_words(self):
        field = field_of(CONVERT, "weapons")
        with pytest.raises(ValidationError) as caught:
            field.clean([{"type": "AC/20", "location": "Pocket"}])
        assert "must be one of" in caught.value.messages[0]
