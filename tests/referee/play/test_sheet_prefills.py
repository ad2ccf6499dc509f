"""The record sheet feeds the rolls: Heat Phase, BattleSpace conversion and a landed attack
read an imported 'Mech's heat sinks and weapons from its sheet and say so on the form; what
the campaign cannot answer is said, never shown as a zero."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from referee.fleet.models import Unit
from referee.play.models import LogEntry
from tests.factories import ShipFactory, UnitFactory
from tests.referee.conftest import form_data, htmx, shown
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory

pytestmark = pytest.mark.django_db

VICTOR = Path(__file__).resolve().parents[3] / "referee" / "unitfiles" / "samples" / "Victor VTR-9K.mtf"


@pytest.fixture
def victor(cast) -> Unit:
    """The Victor imported through the import page, as a GM brings it."""
    upload = SimpleUploadedFile(VICTOR.name, VICTOR.read_bytes())
    response = cast.client("gm").post(
        reverse("imports:import", args=[cast.campaign.code]), {"files": [upload]}
    )
    assert response.status_code == 200
    return Unit.objects.get(campaign=cast.campaign, name="Victor VTR-9K")


def form(cast, procedure_id: str, **roles) -> str:
    query = "&".join(f"{name}={record.code}" for name, record in roles.items())
    response = cast.client("gm").get(
        reverse("play:procedure", args=[cast.campaign.code, procedure_id]) + "?" + query
    )
    assert response.status_code == 200
    return html.unescape(response.text)


def value_of(page: str, name: str) -> str | None:
    """The value an input shows ("" when it shows none); None when there is no such input."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    if tag is None:
        return None
    m = re.search(r'value="([^"]*)"', tag.group(0))
    return m.group(1) if m else ""


def source_of(page: str, name: str) -> str | None:
    m = re.search(rf'data-testid="source-{name}">([^<]*)<', page)
    return m.group(1) if m else None


def missing_of(page: str, name: str) -> str | None:
    m = re.search(rf'data-testid="missing-{name}">([^<]*)<', page)
    return m.group(1) if m else None


class TestHeatPhase:
    def test_the_heat_sinks_are_the_sheets_count_and_type_and_say_so(self, cast, victor):
        assert victor.sheet["heat_sinks"] == {"count": 15, "type": "single"}  # the file's "15 Single"
        page = form(cast, "heat.expanded", unit=victor)
        assert value_of(page, "single_sinks_operational") == "15"
        assert value_of(page, "double_sinks_operational") == "0"
        assert source_of(page, "single_sinks_operational") == "From the sheet"
        assert source_of(page, "double_sinks_operational") == "From the sheet"

    def test_double_heat_sinks_go_in_the_double_row(self, cast, victor):
        victor.sheet = {**victor.sheet, "heat_sinks": {"count": 12, "type": "double"}}
        victor.save()
        page = form(cast, "heat.expanded", unit=victor)
        assert (value_of(page, "double_sinks_operational"), value_of(page, "single_sinks_operational")) == (
            "12",
            "0",
        )

    def test_the_sheets_weapons_are_named_for_the_weapon_heat(self, cast, victor):
        page = form(cast, "heat.expanded", unit=victor)
        assert value_of(page, "weapon_heat") == ""  # which fire is the GM's: no 0 that looks like data
        note = missing_of(page, "weapon_heat")
        assert note.startswith("The sheet's weapons: ")
        for weapon in victor.sheet["weapons"]:
            assert weapon["name"] in note
        assert "Gauss Rifle" in note and "Medium Laser" in note and "SRM 4" in note

    def test_a_mech_without_a_sheet_says_what_is_missing_instead_of_zero(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", name="Bare Atlas")
        page = form(cast, "heat.expanded", unit=mech)
        assert value_of(page, "single_sinks_operational") == ""
        assert "Bare Atlas has no record sheet to give its heat sinks: import its unit file" in missing_of(
            page, "single_sinks_operational"
        )
        assert source_of(page, "single_sinks_operational") is None

    def test_the_roll_uses_the_sheets_sinks_and_the_entry_says_so(self, cast, victor):
        data = {"unit": str(victor.code), "visibility": "everyone", "action": "roll", "dice": ""}
        data.update(
            form_data("heat.expanded", {"single_sinks_operational": 15, "weapon_heat": 26, "movement": "run"})
        )
        url = reverse("play:procedure", args=[cast.campaign.code, "heat.expanded"])
        assert cast.client("gm").post(url, data, **htmx()).status_code == 200
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure="heat.expanded")
        assert entry.result["sink_dissipation"] == 15 and entry.result["heat"] == 26 + 2 - 15
        assert entry.inputs["@measured"]["single_sinks_operational"] == "from the sheet"

    def test_a_figure_typed_over_the_sheets_is_logged_as_typed(self, cast, victor):
        data = {"unit": str(victor.code), "visibility": "everyone", "action": "roll", "dice": ""}
        data.update(form_data("heat.expanded", {"single_sinks_operational": 9}))
        url = reverse("play:procedure", args=[cast.campaign.code, "heat.expanded"])
        assert cast.client("gm").post(url, data, **htmx()).status_code == 200
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure="heat.expanded")
        assert entry.inputs["@measured"]["single_sinks_operational"] == "typed by the GM"


class TestBattleSpaceConversion:
    def test_the_weapons_are_the_sheets_with_their_locations_and_mounts(self, cast, victor):
        page = form(cast, "groundspace.convert", unit=victor)
        weapons = shown(page, "groundspace.convert", "weapons")
        expected = [
            {"type": w["name"], "location": code, "rear": w["rear"], "mounts": w["count"]}
            for w in victor.sheet["weapons"]
            for code in [{"Right Arm": "RA", "Left Arm": "LA", "Left Torso": "LT"}[w["location"]]]
        ]
        got = [{k: w[k] for k in ("type", "location", "rear", "mounts")} for w in weapons]
        assert got == expected
        assert {w["type"] for w in got} == {"Gauss Rifle", "Medium Laser", "SRM 4"}
        assert source_of(page, "weapons") == "From the sheet"

    def test_armour_jump_and_heat_sinks_are_the_sheets(self, cast, victor):
        page = form(cast, "groundspace.convert", unit=victor)
        assert (value_of(page, "armor_factor"), value_of(page, "jump_mp"), value_of(page, "heat_sinks")) == (
            "200", "4", "15"
        )  # fmt: skip
        assert {source_of(page, n) for n in ("armor_factor", "jump_mp", "heat_sinks")} == {"From the sheet"}

    def test_without_a_sheet_it_says_what_is_missing(self, cast):
        mech = UnitFactory(campaign=cast.campaign, kind="battlemech", name="Bare Atlas")
        page = form(cast, "groundspace.convert", unit=mech)
        assert "Bare Atlas has no record sheet to give its weapons" in missing_of(page, "weapons")
        assert "Bare Atlas has no record sheet to give its heat sinks" in missing_of(page, "heat_sinks")
        assert source_of(page, "armor_factor") == "From the record"


class TestLandedAttack:
    def test_the_damage_per_arc_says_where_it_comes_from_instead_of_zero(self, cast, victor):
        ship = ShipFactory(campaign=cast.campaign, kind="dropship")
        victor.landed_on = ship
        victor.save()
        page = form(cast, "boarding.landed_attack", unit=victor)
        for arc in ("nose_s", "lw_s", "rw_s"):
            assert value_of(page, arc) == ""
            assert "Convert to BattleSpace gives them" in missing_of(page, arc)


def a_hex(cast):
    field = BattlefieldFactory(campaign=cast.campaign)
    return HexFactory(campaign=cast.campaign, battlefield=field)


class TestUnitType:
    def test_a_tank_is_never_taken_for_a_two_legged_mech(self, cast):
        tank = UnitFactory(campaign=cast.campaign, kind="vehicle", name="Bulwark")
        hex_ = a_hex(cast)
        page = form(cast, "terrain.hex_modifiers", hex=hex_, unit=tank)
        select = re.search(r'<select name="unit_type"[^>]*>(.*?)</select>', page, re.S).group(1)
        assert not re.search(r'<option value="battlemech_biped" selected', select)
        assert "How Bulwark moves (wheeled, tracked, hover...) is not on its record" in missing_of(
            page, "unit_type"
        )

    def test_the_sheets_motion_type_is_the_unit_type(self, cast):
        tank = UnitFactory(
            campaign=cast.campaign,
            kind="vehicle",
            name="Bulwark",
            sheet={"unit_type": "vehicle", "motion": "Hover"},
        )
        page = form(cast, "terrain.hex_modifiers", hex=a_hex(cast), unit=tank)
        assert re.search(r'<option value="hover" selected', page)
        assert source_of(page, "unit_type") == "From the sheet"

    def test_a_quad_mech_is_a_quad(self, cast, victor):
        victor.sheet = {**victor.sheet, "config": "Quad"}
        victor.save()
        page = form(cast, "terrain.hex_modifiers", hex=a_hex(cast), unit=victor)
        assert re.search(r'<option value="battlemech_quad" selected', page)


class TestRollMenu:
    def test_a_fighter_is_not_offered_detect_emergence_and_a_warship_is(self, cast):
        from referee.play import families

        fighters = ShipFactory(campaign=cast.campaign, kind="fighter_squadron", military=True)
        warship = ShipFactory(campaign=cast.campaign, kind="warship", military=True)
        merchant = ShipFactory(campaign=cast.campaign, kind="jumpship", military=False)
        offered = lambda ship: {b.procedure_id for b in families.bindings_for(ship)}  # noqa: E731
        assert "sensor.emergence_wave" not in offered(fighters)
        assert "sensor.emergence_wave" not in offered(merchant)
        assert "sensor.emergence_wave" in offered(warship)
        assert "sensor.active_radar" in offered(fighters)  # what a fighter may roll stays

    def test_an_empty_choice_list_says_why(self, cast):
        page = form(cast, "gforce.threshold")
        assert missing_of(page, "character") == (
            "Only aerospace pilots, crew and passengers take G-force checks: give a character one of those roles on its record."
        )


class TestLowTechEngine:
    def test_tonnage_tech_base_and_engine_come_from_the_sheet(self, cast, victor):
        page = form(cast, "lowtech.ice_engine", unit=victor)
        assert value_of(page, "tonnage") == "80" and source_of(page, "tonnage") == "From the sheet"
        assert re.search(r'<option value="inner_sphere" selected', page)
        assert source_of(page, "tech_base") == "From the sheet"
        assert value_of(page, "fusion_engine_weight_t") == ""
        assert missing_of(page, "fusion_engine_weight_t") == (
            "The sheet gives a 320 Fusion engine: type its weight from the engine table."
        )

    def test_an_xl_engine_is_ticked(self, cast, victor):
        victor.sheet = {**victor.sheet, "engine": {"rating": 300, "type": "XL Engine"}, "tech_base": "Clan"}
        victor.save()
        page = form(cast, "lowtech.ice_engine", unit=victor)
        assert re.search(r'<input type="checkbox" name="xl"[^>]*checked', page)
        assert re.search(r'<option value="clan" selected', page)
