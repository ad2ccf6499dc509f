"""MegaMek unit lists written as MegaMek's writer writes them and read as its reader reads them;
hostile lists refused with the line and the problem."""

from __future__ import annotations

import copy

import pytest

from referee.battles import mul
from referee.sheets import document
from tests.referee.battles.records import SAMPLES, sheet


def out(doc: dict, external_id: str = "c0ffee00-0000-4000-8000-000000000001", **more) -> mul.Outgoing:
    return mul.Outgoing(external_id=external_id, doc=doc, name=more.pop("name", "Record"), **more)


def damaged_victor() -> dict:
    doc = sheet("Victor VTR-9K.mtf")
    doc["pilot"].update(name="Lena Ortiz", gunnery=3, piloting=4, hits=2)
    arm = document.location(doc, "Right Arm")
    arm["armor"] = 10
    torso = document.location(doc, "Left Torso")
    torso.update(armor=5, structure=12, rear_armor=3)
    doc["criticals"]["Left Torso"][2]["hit"] = True  # Jump Jet
    leg = document.location(doc, "Left Leg")
    leg.update(armor=0, structure=0, destroyed=True)
    doc["equipment"][0]["shots"] = 7  # the SRM-4 ammunition in the left torso
    return document.normalise(doc)


def test_a_mech_goes_out_with_its_id_crew_and_damage_as_megamek_writes_them():
    text, notes = mul.write_mul([out(damaged_victor())])
    assert notes == []
    assert '<unit version="' in text
    assert 'chassis="Victor" model="VTR-9K" type="Biped"' in text
    assert 'externalId="c0ffee00-0000-4000-8000-000000000001"' in text
    assert 'name="Lena Ortiz" nick="" gunnery="3" piloting="4" hits="2"' in text
    # MegaMek's numbers: right arm 4, left torso 3, left leg 7; slots from 1.
    assert '<location index="4"> Right Arm\n      <armor points="10"/>' in text
    assert '<armor points="12" type="Internal"/>' in text and '<armor points="3" type="Rear"/>' in text
    assert '<slot index="3" type="Jump Jet" isHit="true" isDestroyed="true"/>' in text
    assert '<slot index="2" type="IS Ammo SRM-4" shots="7"/>' in text
    assert '<location index="7" isDestroyed="true" /> Left Leg' in text
    assert 'location index="0"' not in text  # an undamaged head is not written


def test_what_goes_out_comes_back_as_it_went():
    doc = damaged_victor()
    (entity,) = mul.parse_mul(mul.write_mul([out(doc)])[0])
    assert entity.record_code is not None and entity.name == "Victor VTR-9K"
    whole = copy.deepcopy(doc)
    for loc in whole["locations"]:
        loc.update(armor=loc["armor_max"], structure=loc["structure_max"])
        loc.pop("destroyed", None)
        if "rear_armor" in loc:
            loc["rear_armor"] = loc["rear_armor_max"]
    back = document.normalise(mul.apply_to_sheet(whole, entity))
    assert back["locations"] == doc["locations"]
    assert back["criticals"] == doc["criticals"]
    assert back["pilot"]["hits"] == 2 and back["equipment"][0]["shots"] == 7


@pytest.mark.parametrize(
    "file_name",
    [
        "Tortuga TRT-2Q.mtf",
        "Bulwark Heavy Tank.blk",
        "Kestrel Scout VTOL.blk",
        "Elemental Point [Laser].blk",
        "Foot Rifle Platoon.blk",
        "Sparrowhawk SPR-6.blk",
        "Tern Cargo Shuttle.blk",
        "Union (3067).blk",
        "Invader (Standard).blk",
        "Potemkin (Standard).blk",
        "Waypoint Orbital Station.blk",
    ],
)
def test_every_kind_of_unit_makes_the_round_trip(file_name):
    built = sheet(file_name)
    doc = copy.deepcopy(built)
    for part in (*doc.get("locations", []), *doc.get("facings", [])):
        part["armor"] = part["armor_max"] // 2
    for trooper in doc.get("troopers", [])[1:2]:
        trooper.update(alive=False, armor=0)
    if "platoon" in doc:
        doc["platoon"]["troopers"] -= 3
    if "structural_integrity" in doc:
        doc["structural_integrity"]["value"] -= 1
    if "kf_drive" in doc:
        doc["kf_drive"]["integrity"] -= 1
    doc = document.normalise(doc)
    text, _ = mul.write_mul([out(doc)])
    (entity,) = mul.parse_mul(text)
    back = document.normalise(mul.apply_to_sheet(built, entity))
    for key in ("locations", "facings", "troopers", "platoon", "structural_integrity", "kf_drive"):
        assert back.get(key) == doc.get(key), key


def test_a_dropships_side_goes_out_as_megameks_side():
    doc = sheet("Union (3067).blk")
    top = document.location(doc, "Left Side")["armor_max"]
    document.location(doc, "Left Side")["armor"] = top - 10
    text, _ = mul.write_mul([out(doc)])
    assert f'<location index="1"> Left Side\n      <armor points="{top - 10}"/>' in text
    (entity,) = mul.parse_mul(text.replace(f'points="{top - 10}"', f'points="{top - 15}"'))
    assert document.location(mul.apply_to_sheet(doc, entity), "Left Side")["armor"] == top - 15


def test_a_dropship_sheet_split_into_six_facings_writes_a_side_as_its_lower_facing():
    doc = sheet("Union (3067).blk")
    arcs = {f["name"]: f["armor_max"] for f in doc["facings"]}
    split = {"Left Side": ("Fore-left", "Aft-left"), "Right Side": ("Fore-right", "Aft-right")}
    doc["facings"] = [
        {"name": name, "armor": arcs[arc], "armor_max": arcs[arc]}
        for arc in ("Nose", "Left Side", "Right Side", "Aft")
        for name in split.get(arc, (arc,))
    ]
    doc = document.normalise(doc)
    faces = {f["name"]: f for f in doc["facings"]}
    top = faces["Fore-left"]["armor_max"]
    faces["Fore-left"]["armor"], faces["Aft-left"]["armor"] = top - 10, top - 4
    text, _ = mul.write_mul([out(doc)])
    assert f'<location index="1"> Fore-left and Aft-left\n      <armor points="{top - 10}"/>' in text
    (entity,) = mul.parse_mul(text.replace(f'points="{top - 10}"', f'points="{top - 15}"'))
    back = {f["name"]: f["armor"] for f in mul.apply_to_sheet(doc, entity)["facings"]}
    assert (back["Fore-left"], back["Aft-left"]) == (top - 15, top - 9)


def test_a_design_made_here_is_named_in_the_notes():
    blank = document.blank("mech", tonnage=50, chassis="Homebrew")
    text, notes = mul.write_mul([out(blank, name="Homebrew HB-1"), out(sheet("Victor VTR-9K.mtf"))])
    assert len(notes) == 1 and "MegaMek may not find Homebrew HB-1 by name" in notes[0]
    assert "<!-- Notes from the referee:" in text and "Homebrew HB-1" in text.split("<unit")[0]
    assert len(mul.parse_mul(text)) == 2  # the notes are a comment MegaMek's reader passes over


def test_ammunition_goes_out_only_under_megameks_own_names():
    made_here = {**damaged_victor(), "source": {}}
    text, _ = mul.write_mul([out(document.normalise(made_here))])
    assert "shots=" not in text  # its names are not MegaMek's: MegaMek keeps its full load
    assert '<slot index="3" type="Jump Jet" isHit="true"' in text  # a hit is a hit whatever the name


def test_the_samples_read_as_megamek_wrote_them():
    lobby = mul.parse_mul((SAMPLES / "Lobby Force.mul").read_bytes())
    assert [e.name for e in lobby] == ["Victor VTR-9K", "Bulwark Heavy Tank", "Sparrowhawk SPR-6"]
    victor = lobby[0]
    assert victor.crew[0].name == "Lena Ortiz" and victor.crew[0].hits == 1
    assert victor.locations[4].armor == 10 and victor.locations[4].slots[3].hit
    assert victor.locations[2].slots[1].shots == 6
    assert lobby[2].structural_integrity == 5 and lobby[2].fuel == 240
    record = mul.parse_mul((SAMPLES / "After the Battle.mul").read_bytes())
    assert [(e.section, e.name) for e in record] == [
        ("survivors", "Victor VTR-9K"),
        ("salvage", "Elemental Point [Laser]"),
        ("devastated", "Kestrel Scout VTOL"),
    ]
    assert record[0].locations[5].destroyed and record[0].locations[3].rear == 2
    assert record[1].crew[0].hits == mul.DEAD  # a <crew> of crewMembers, "Dead"
    assert record[2].locations[5].destroyed


def test_a_devastated_unit_is_destroyed_and_a_mech_without_its_centre_torso_too():
    doc = sheet("Kestrel Scout VTOL.blk")
    (kestrel,) = [
        e for e in mul.parse_mul((SAMPLES / "After the Battle.mul").read_bytes()) if e.section == "devastated"
    ]
    assert mul.apply_to_sheet(doc, kestrel)["destroyed"] is True
    victor = sheet("Victor VTR-9K.mtf")
    (entity,) = mul.parse_mul(
        '<unit version="1"><entity chassis="Victor" model="VTR-9K"><location index="1" isDestroyed="true"/></entity></unit>'
    )
    assert mul.apply_to_sheet(victor, entity)["destroyed"] is True


HOSTILE = {
    "entity expansion": (
        '<?xml version="1.0"?><!DOCTYPE unit [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        '<unit version="1"><entity chassis="&b;" model="x"/></unit>',
        "declares a DTD or XML entities",
    ),
    "external entity": (
        '<?xml version="1.0"?><!DOCTYPE unit [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<unit><entity chassis="&x;"/></unit>',
        "declares a DTD or XML entities",
    ),
    "10,000 entities": (
        '<unit version="1">\n' + '<entity chassis="Atlas" model="AS7-D"/>\n' * 10_000 + "</unit>",
        f"more than {mul.MAX_ENTITIES} entities",
    ),
    "deep nesting": (
        "<unit>" + "<location>" * 5_000 + "</location>" * 5_000 + "</unit>",
        "nests elements more than",
    ),
    "not XML": ('size 16 17\nhex 0101 0 "" ""\n', "not well-formed XML"),
    "another root": ('<html><entity chassis="x"/></html>', "starts with <html>"),
    "no entity": ('<unit version="1"></unit>', "lists no entity"),
    "no chassis": ('<unit>\n<entity model="x"/></unit>', "Line 2: an entity has no chassis"),
    "bad gunnery": (
        '<unit><entity chassis="Atlas"><pilot gunnery="-3" piloting="5"/></entity></unit>',
        "gunnery is -3",
    ),
    "huge armour": (
        '<unit><entity chassis="Atlas"><location index="1"><armor points="99999999"/></location></entity></unit>',
        "not a whole number",
    ),
    "location out of range": (
        '<unit><entity chassis="Atlas"><location index="4000"/></entity></unit>',
        "index is 4000",
    ),
    "NUL bytes": ('<unit><entity chassis="At\x00las"/></unit>', "NUL bytes"),
    "too large": ("<unit>" + " " * (mul.MAX_MUL_BYTES + 1) + "</unit>", "larger than"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_or_broken_unit_list_is_refused_with_its_problem(case):
    text, words = HOSTILE[case]
    with pytest.raises(mul.MulError) as refused:
        mul.parse_mul(text)
    assert words in str(refused.value)


def test_ammunition_megamek_counted_lands_on_a_sheet_that_did_not_count_it():
    doc = sheet("Victor VTR-9K.mtf")
    assert all("shots" not in e for e in doc["equipment"])  # a unit file gives no shots
    slots = doc["criticals"]["Right Torso"]
    gauss = [n for n, s in enumerate(slots, start=1) if s["name"] == "IS Gauss Ammo"]
    (entity,) = mul.parse_mul(
        '<unit version="1"><entity chassis="Victor" model="VTR-9K"><location index="2">'
        f'<slot index="{gauss[0]}" type="IS Gauss Ammo" shots="3"/><slot index="{gauss[1]}" type="IS Gauss Ammo" shots="8"/>'
        "</location></entity></unit>"
    )
    back = mul.apply_to_sheet(doc, entity)
    assert [e.get("shots") for e in back["equipment"] if e["name"] == "IS Gauss Ammo"] == [3, 8]
    text, _ = mul.write_mul([out(document.normalise(back))])
    assert f'<slot index="{gauss[0]}" type="IS Gauss Ammo" shots="3"/>' in text
