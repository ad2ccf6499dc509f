"""The record-sheet document: what normalise keeps and refuses, and damage as the rules move it."""

from __future__ import annotations

import math

import pytest

from referee.sheets import classes, document
from referee.sheets.document import SheetError


def victor() -> dict:
    return classes.victor_vtr_9k()


def loc(doc: dict, name: str) -> dict:
    return document.location(doc, name)


# -- normalise -----------------------------------------------------------------------------


def test_a_bare_mech_gets_every_location_with_the_standard_structure_for_its_tonnage():
    doc = document.normalise({"unit_type": "mech", "chassis": "Victor", "tonnage": 80})
    names = [loc["name"] for loc in doc["locations"]]
    assert names == list(document.BIPED_LOCATIONS)
    structure = {loc["name"]: loc["structure_max"] for loc in doc["locations"]}
    assert structure == {
        "Head": 3,
        "Center Torso": 25,
        "Left Torso": 17,
        "Right Torso": 17,
        "Left Arm": 13,
        "Right Arm": 13,
        "Left Leg": 17,
        "Right Leg": 17,
    }
    assert loc(doc, "Center Torso")["rear_armor_max"] == 0
    assert "rear_armor" not in loc(doc, "Left Arm")
    assert [len(doc["criticals"][n]) for n in document.BIPED_LOCATIONS] == [6, 12, 12, 12, 12, 12, 6, 6]


def test_a_quad_has_four_legs_and_no_arms():
    doc = document.normalise({"unit_type": "mech", "config": "quad", "tonnage": 50})
    assert [loc["name"] for loc in doc["locations"]] == list(document.QUAD_LOCATIONS)
    assert loc(doc, "Front Left Leg")["structure_max"] == 12


def test_normalise_is_stable_and_keeps_the_victor_as_published():
    once = victor()
    assert document.normalise(once) == once
    assert document.armour_total(once) == 200
    assert document.display_name(once) == "Victor VTR-9K"


def test_a_dropships_four_arcs_stay_four_facings():
    doc = document.normalise(
        {
            "unit_type": "dropship",
            "tonnage": 3500,
            "facings": [
                {"name": "Nose", "armor": 40},
                {"name": "Left Side", "armor": 30},
                {"name": "Right Side", "armor": 31},
                {"name": "Aft", "armor": 20},
            ],
        }
    )
    # A DropShip's record sheet has four armoured arcs; each side's armour is counted once.
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 40),
        ("Left Side", 30),
        ("Right Side", 31),
        ("Aft", 20),
    ]
    assert document.armour_total(doc) == 40 + 30 + 31 + 20


@pytest.mark.parametrize(
    ("unit_type", "said"),
    [
        ("dropship", "A DropShip has no facing “Port”: its facings are Nose, Left Side, Right Side and Aft."),
        (
            "jumpship",
            "A JumpShip has no facing “Port”: its facings are Nose, Fore-left, Fore-right, Aft-left, "
            "Aft-right and Aft.",
        ),
        ("space_station", "A space station has no facing “Port”: its facings are Nose, Fore-left,"),
        (
            "aerospace_fighter",
            "A ship has no facing “Port”: a DropShip's are Nose, Left Side, Right Side and Aft; a "
            "JumpShip's, WarShip's or station's are Nose, Fore-left, Fore-right, Aft-left, Aft-right and Aft.",
        ),
    ],
)
def test_a_facing_the_unit_type_has_not_is_refused_naming_the_facings_it_has(unit_type, said):
    doc = {"unit_type": unit_type, "tonnage": 3500, "facings": [{"name": "Port", "armor": 10}]}
    with pytest.raises(document.SheetError) as refused:
        document.normalise(doc)
    assert str(refused.value).startswith(said)
    if unit_type == "dropship":
        assert "Fore-left" not in str(refused.value)


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ("a sheet", "group of named values"),
        ({"unit_type": "robot"}, "Say what the sheet is for"),
        ({"unit_type": "mech", "tonnage": -5}, "The tonnage must be from 0"),
        ({"unit_type": "mech", "tonnage": math.inf}, "finite"),
        ({"unit_type": "mech", "tonnage": math.nan}, "finite"),
        ({"unit_type": "mech", "tonnage": 10**30}, "The tonnage must be from 0"),
        ({"unit_type": "mech", "chassis": "Vic\x00tor"}, "cannot be stored"),
        (
            {"unit_type": "mech", "tonnage": 80, "locations": [{"name": "Tail", "armor": 1}]},
            "no location “Tail”",
        ),
        (
            {
                "unit_type": "mech",
                "tonnage": 80,
                "locations": [{"name": "Head", "armor": 10, "armor_max": 9}],
            },
            "Head armour is 10, more than its undamaged 9",
        ),
        ({"unit_type": "mech", "tonnage": 80, "locations": [{"name": "Head", "armor": -1}]}, "Head armour"),
        ({"unit_type": "mech", "tonnage": 80, "locations": [{"name": "Head", "armor": 1.5}]}, "whole number"),
        ({"unit_type": "mech", "tonnage": 80, "locations": {"Head": 9}}, "The locations must be a list"),
        (
            {"unit_type": "mech", "tonnage": 80, "locations": [{"name": "Head"}, {"name": "Head"}]},
            "listed twice",
        ),
        (
            {"unit_type": "mech", "tonnage": 80, "weapons": [{"name": "Laser", "location": "Tail"}]},
            "which this unit",
        ),
        ({"unit_type": "mech", "tonnage": 80, "weapons": [{"location": "Head"}]}, "has no name"),
        ({"unit_type": "mech", "tonnage": 80, "criticals": {"Head": [None] * 7}}, "6 critical slots"),
        ({"unit_type": "mech", "tonnage": 80, "pilot": {"gunnery": 9}}, "Gunnery must be from 0 to 8"),
        ({"unit_type": "mech", "tonnage": 80, "cheat": 1}, "does not hold"),
        (
            {"unit_type": "mech", "tonnage": 80, "source": {"extra": {"a": [[[[[[[[1]]]]]]]]}}},
            "nested too deeply",
        ),
        ({"unit_type": "mech", "tonnage": 33}, "no standard internal structure"),
        ({"unit_type": "warship", "locations": [{"name": "Nose"}]}, "has no locations; it has facings"),
        (
            {"unit_type": "mech", "tonnage": 80, "heat_sinks": {"count": 10, "type": "triple"}},
            "single or double",
        ),
        ({"unit_type": "mech", "format": 2}, "only format 1"),
        ({"unit_type": "warship", "critical_boxes": {"Turrets": 1}}, "does not hold"),
        ({"unit_type": "warship", "critical_boxes": {"Doors": -1}}, "Doors critical boxes must be from 0"),
        ({"unit_type": "warship", "critical_boxes": {"Doors": math.inf}}, "finite"),
        ({"unit_type": "warship", "critical_boxes": {"Doors": 10**9}}, "from 0 to 1,000"),
        ({"unit_type": "warship", "critical_boxes": [1]}, "group of named values"),
        ({"unit_type": "mech", "tonnage": 80, "weapons": [{"name": "x" * 10}] * 301}, "at most 300"),
    ],
)
def test_normalise_refuses_what_a_sheet_cannot_hold_in_plain_words(doc, words):
    with pytest.raises(SheetError) as error:
        document.normalise(doc)
    assert words in str(error.value)
    assert "_" not in str(error.value).replace("unit_type", "")  # no keys shown raw


def test_a_huge_sheet_is_refused_with_its_size():
    doc = {"unit_type": "warship", "weapons": [{"name": "N" * 80, "bay": "B" * 80, "location": "Nose"}] * 300}
    with pytest.raises(SheetError, match="KB"):
        document.normalise(doc)


def test_every_unit_type_normalises_from_almost_nothing():
    for unit_type in document.UNIT_TYPES:
        doc = document.normalise({"unit_type": unit_type, "tonnage": 50})
        assert doc["unit_type"] == unit_type
    assert document.normalise({"unit_type": "battle_armor"})["troopers"] == []
    assert document.normalise({"unit_type": "infantry"})["platoon"]["troopers"] == 0
    assert [f["name"] for f in document.normalise({"unit_type": "jumpship"})["facings"]] == list(
        document.SHIP_FACINGS
    )
    assert [x["name"] for x in document.normalise({"unit_type": "small_craft"})["locations"]] == list(
        document.WING_LOCATIONS
    )


# -- damage --------------------------------------------------------------------------------


def test_damage_takes_armour_first_and_leaves_the_given_sheet_alone():
    before = victor()
    after, notes = document.damage(before, "Left Arm", 5)
    assert loc(after, "Left Arm")["armor"] == 13
    assert loc(before, "Left Arm")["armor"] == 18
    assert notes == ["Left Arm: 5 damage, armour 18 → 13"]


def test_damage_past_a_destroyed_arm_transfers_to_its_side_torso_and_wrecks_what_it_held():
    after, notes = document.damage(victor(), "Right Arm", 40)
    arm, torso = loc(after, "Right Arm"), loc(after, "Right Torso")
    assert (arm["armor"], arm["structure"], arm.get("destroyed")) == (0, 0, True)
    assert torso["armor"] == 23 - 9
    assert "9 damage passes on from Right Arm to Right Torso." in notes
    gauss = next(w for w in after["weapons"] if w["name"] == "Gauss Rifle")
    assert gauss["destroyed"] is True


def test_a_destroyed_side_torso_takes_its_arm_and_passes_on_to_the_centre():
    after, notes = document.damage(victor(), "Left Torso", 23 + 17 + 5)
    assert loc(after, "Left Torso")["destroyed"] and loc(after, "Left Arm")["destroyed"]
    assert loc(after, "Center Torso")["armor"] == 34 - 5
    assert "Left Arm is lost with the left torso." in notes


def test_a_rear_hit_takes_rear_armour():
    after, _ = document.damage(victor(), "Center Torso", 4, rear=True)
    ct = loc(after, "Center Torso")
    assert (ct["armor"], ct["rear_armor"]) == (34, 11)


def test_a_head_hit_wounds_the_pilot_and_a_wrecked_centre_torso_destroys_the_mech():
    after, notes = document.damage(victor(), "Head", 1)
    assert after["pilot"]["hits"] == 1
    after, notes = document.damage(victor(), "Center Torso", 34 + 25 + 10)
    assert after["destroyed"] is True
    assert "10 damage beyond what the unit could take is lost." in notes


def test_a_ships_critical_boxes_are_kept_in_the_order_of_its_systems_and_add_up():
    ship = document.normalise({"unit_type": "warship", "critical_boxes": {"Transit drive": 1, "Doors": "2"}})
    assert ship["critical_boxes"] == {"Doors": 2, "Transit drive": 1}
    after, lines = document.critical_boxes(ship, "Weapon bays", 3)
    assert lines == ["Weapon bays: 3 critical boxes"]
    assert after["critical_boxes"] == {"Weapon bays": 3, "Doors": 2, "Transit drive": 1}
    assert ship["critical_boxes"] == {"Doors": 2, "Transit drive": 1}  # the given sheet is left alone
    assert document.normalise(after) == after
    assert document.changes(ship, after) == ["Weapon bays critical boxes 0 → 3"]
    with pytest.raises(SheetError, match="from 0 to 1,000"):
        document.critical_boxes(after, "Doors", 999)


def test_ships_take_what_passes_the_facing_on_structural_integrity():
    ship = document.normalise(
        {
            "unit_type": "dropship",
            "facings": [{"name": "Nose", "armor": 10}],
            "structural_integrity": {"value": 8},
        }
    )
    after, _ = document.damage(ship, "Nose", 13)
    assert loc(after, "Nose")["armor"] == 0
    assert after["structural_integrity"] == {"value": 5, "max": 8}


def test_criticals_mark_the_slot_and_count_engine_hits():
    after, notes = document.critical(victor(), "Center Torso", slot=1)
    assert after["criticals"]["Center Torso"][0]["hit"] is True
    assert document.record_fields(after, "unit")["engine_hits"] == 1
    after, notes = document.critical(after, "Right Arm", item="Gauss")
    assert next(w for w in after["weapons"] if w["name"] == "Gauss Rifle")["destroyed"]
    _, notes = document.critical(after, "Center Torso", slot=1)
    assert "already hit" in notes[0]


def test_heat_pilot_hits_and_trooper_losses():
    doc, _ = document.add_heat(victor(), 7)
    assert doc["heat"] == 7
    doc, notes = document.pilot_hit(doc, 6)
    assert doc["pilot"]["hits"] == 6 and notes[-1].endswith("is killed.")
    point = document.normalise({"unit_type": "battle_armor", "troopers": [{"armor": 10}] * 5})
    point, notes = document.troopers_lost(point, 2)
    assert [t["alive"] for t in point["troopers"]] == [True, True, True, False, False]
    assert (
        document.record_fields(point, "unit")["armor_factor"] == 10
    )  # per trooper, as the campaign counts it
    point, _ = document.troopers_lost(point, 3)
    assert document.record_fields(point, "unit")["armor_factor"] == 0


def test_record_fields_keep_the_ship_summary_in_step():
    ship = document.normalise(
        {
            "unit_type": "jumpship",
            "tonnage": 150000,
            "facings": [{"name": "Nose", "armor": 12, "armor_max": 20}],
            "kf_drive": {"integrity": 3, "integrity_max": 4},
            "docking_collars": 2,
            "crew": {"crew": 20, "passengers": 3},
        }
    )
    fields = document.record_fields(ship, "ship")
    assert fields["armor_nose"] == 12 and fields["armor_nose_max"] == 20
    assert (fields["kf_integrity"], fields["kf_integrity_max"]) == (3, 4)
    assert fields["dropship_capacity"] == 2 and fields["crew"] == 20 and fields["mass_t"] == 150000
