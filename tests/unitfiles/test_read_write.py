"""Reading MegaMek unit files into record sheets and writing them back: every unit type, and round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.sheets.document import normalise
from referee.unitfiles import read_unit_text, write_unit_text

SAMPLES = Path(__file__).resolve().parents[2] / "referee" / "unitfiles" / "samples"
ALL_SAMPLES = sorted(SAMPLES.iterdir())


def sample(name: str) -> dict:
    path = SAMPLES / name
    return read_unit_text(path.read_bytes(), name=path.name)


def by_name(items: list[dict], name: str) -> dict:
    return next(item for item in items if item["name"] == name)


def test_the_samples_cover_every_unit_type():
    types = {read_unit_text(p.read_bytes(), name=p.name)["unit_type"] for p in ALL_SAMPLES}
    assert types == {
        "mech",
        "vehicle",
        "battle_armor",
        "infantry",
        "aerospace_fighter",
        "small_craft",
        "dropship",
        "jumpship",
        "warship",
        "space_station",
    }


def test_a_biped_mech_reads_armour_rear_armour_structure_weapons_and_criticals():
    victor = sample("Victor VTR-9K.mtf")
    assert (victor["chassis"], victor["model"], victor["tonnage"], victor["config"]) == (
        "Victor",
        "VTR-9K",
        80,
        "Biped",
    )
    assert victor["engine"] == {"rating": 320, "type": "Fusion"}
    assert victor["movement"] == {"walk": 4, "run": 6, "jump": 4}
    assert victor["heat_sinks"] == {"count": 15, "type": "single"}
    head = by_name(victor["locations"], "Head")
    assert (head["armor"], head["structure"]) == (9, 3)
    centre = by_name(victor["locations"], "Center Torso")
    assert (centre["armor"], centre["rear_armor"], centre["structure"]) == (31, 10, 25)
    assert by_name(victor["locations"], "Left Leg")["structure"] == 17
    total = sum(loc["armor"] + loc.get("rear_armor", 0) for loc in victor["locations"])
    assert total == 200
    assert [loc["name"] for loc in victor["locations"]] == [
        "Head", "Center Torso", "Left Torso", "Right Torso", "Left Arm", "Right Arm", "Left Leg", "Right Leg"
    ]  # fmt: skip
    gauss = by_name(victor["weapons"], "Gauss Rifle")
    assert (gauss["location"], gauss["rear"]) == ("Right Arm", False)
    assert len(victor["criticals"]["Head"]) == 6
    assert len(victor["criticals"]["Right Arm"]) == 12
    assert victor["criticals"]["Head"][3] == {"name": None, "hit": False}
    assert victor["criticals"]["Right Arm"][2] == {"name": "Gauss Rifle", "hit": False}
    assert {"name": "IS Gauss Ammo", "location": "Right Torso"} in victor["equipment"]
    assert victor["source"]["extra"]["entries"] == [
        ["source", "Written for the referee's own tests"],
        ["role", "Brawler"],
        ["myomer", "Standard"],
    ]


def test_a_quad_mech_has_four_legs_and_no_arms():
    quad = sample("Tortuga TRT-2Q.mtf")
    assert quad["config"] == "Quad"
    names = [loc["name"] for loc in quad["locations"]]
    assert names == [
        "Head", "Center Torso", "Left Torso", "Right Torso",
        "Front Left Leg", "Front Right Leg", "Rear Left Leg", "Rear Right Leg",
    ]  # fmt: skip
    assert all(by_name(quad["locations"], leg)["structure"] == 14 for leg in names[4:])
    assert set(quad["criticals"]) == set(names)
    # A leg block padded to 12 lines with -Empty- still has 6 slots.
    assert len(quad["criticals"]["Front Left Leg"]) == 6
    assert len(quad["criticals"]["Head"]) == 6
    rear_laser = by_name(quad["weapons"], "Medium Laser")
    assert (rear_laser["location"], rear_laser["rear"]) == ("Center Torso", True)
    assert quad["heat_sinks"] == {"count": 10, "type": "double"}
    assert quad["engine"] == {"rating": 240, "type": "XL"}
    # Repeated keys (quirks) are kept, in order.
    assert quad["source"]["extra"]["entries"][:2] == [["quirk", "stable"], ["quirk", "rugged_1"]]


def test_a_tracked_tank_has_a_turret_and_structure_from_its_tonnage():
    tank = sample("Bulwark Heavy Tank.blk")
    assert (tank["unit_type"], tank["motion"], tank["tonnage"]) == ("vehicle", "Tracked", 60)
    assert [(loc["name"], loc["armor"], loc["structure"]) for loc in tank["locations"]] == [
        ("Front", 40, 6), ("Left", 30, 6), ("Right", 30, 6), ("Rear", 24, 6), ("Turret", 32, 6)
    ]  # fmt: skip
    assert tank["movement"] == {"walk": 4, "run": 6, "jump": 0}
    # engine_type 0 is a fusion engine; the rating is cruise MP × tons less a tracked suspension of 0
    assert tank["engine"] == {"rating": 4 * 60, "type": "Fusion"}
    assert [(w["name"], w["location"]) for w in tank["weapons"]] == [
        ("Medium Laser", "Front"), ("Medium Laser", "Front"), ("Machine Gun", "Rear"), ("PPC", "Turret"), ("LRM 10", "Turret")
    ]  # fmt: skip
    assert tank["equipment"] == [{"name": "IS Ammo LRM-10", "location": "Body"}]
    assert tank["bays"] == [{"type": "Troop space", "capacity": 2, "doors": 0}]


def test_a_vtol_has_a_rotor():
    vtol = sample("Kestrel Scout VTOL.blk")
    assert vtol["motion"] == "VTOL"
    assert [loc["name"] for loc in vtol["locations"]] == ["Front", "Left", "Right", "Rear", "Rotor"]
    assert by_name(vtol["locations"], "Rotor")["armor"] == 2
    # engine_type 1 is an ICE; rating 11 × 20 t less a 20-ton VTOL's suspension factor of 95
    assert vtol["engine"] == {"rating": 11 * 20 - 95, "type": "ICE"}
    assert vtol["source"]["extra"]["unit_type"] == "VTOL"


def test_battle_armour_has_armour_per_trooper_and_mounted_equipment():
    point = sample("Elemental Point [Laser].blk")
    assert point["unit_type"] == "battle_armor"
    assert point["troopers"] == [{"armor": 10, "armor_max": 10, "alive": True}] * 5
    assert point["movement"] == {"walk": 1, "run": 1, "jump": 3}
    assert point["tonnage"] == 5  # five medium troopers, a ton each at most
    laser = by_name(point["weapons"], "CLBAERSmallLaser")
    assert laser["location"] == "Right Arm"
    ammo = by_name(point["equipment"], "BA-SRM2 Ammo")
    assert (ammo["location"], ammo["shots"]) == ("Body", 2)
    assert ["chassis", ["biped"]] in point["source"]["extra"]["blocks"]


def test_conventional_infantry_is_a_platoon_of_troopers():
    platoon = sample("Foot Rifle Platoon.blk")
    assert platoon["unit_type"] == "infantry"
    assert platoon["platoon"] == {"troopers": 28, "troopers_max": 28, "weapon": "InfantryAutoRifle"}
    assert platoon["motion"] == "Leg"


def test_an_aerospace_fighter_has_wings_thrust_fuel_and_structural_integrity():
    fighter = sample("Sparrowhawk SPR-6.blk")
    assert fighter["unit_type"] == "aerospace_fighter"
    assert [(loc["name"], loc["armor"]) for loc in fighter["locations"]] == [
        ("Nose", 18), ("Left Wing", 14), ("Right Wing", 14), ("Aft", 10)
    ]  # fmt: skip
    assert fighter["movement"] == {"safe_thrust": 6, "max_thrust": 9}
    assert fighter["structural_integrity"] == {"value": 6, "max": 6}  # the larger of thrust 6 and 45 t / 10
    assert fighter["fuel"] == {"points": 400}
    assert fighter["heat_sinks"] == {"count": 12, "type": "single"}


def test_a_small_craft_has_crew_bays_and_structural_integrity():
    craft = sample("Tern Cargo Shuttle.blk")
    assert craft["unit_type"] == "small_craft"
    assert [loc["name"] for loc in craft["locations"]] == ["Nose", "Left Wing", "Right Wing", "Aft"]
    assert craft["structural_integrity"] == {"value": 8, "max": 8}
    assert craft["bays"] == [{"type": "Cargo", "capacity": 62.5, "doors": 1}]
    assert craft["crew"] == {"crew": 3, "passengers": 0}


def test_a_dropship_has_facings_weapon_bays_and_its_transport_bays():
    union = sample("Union (3067).blk")
    assert union["unit_type"] == "dropship"
    # A DropShip's four armoured arcs stay four: each side's armour is counted once.
    assert [(f["name"], f["armor"]) for f in union["facings"]] == [
        ("Nose", 130), ("Left Side", 110), ("Right Side", 110), ("Aft", 80)
    ]  # fmt: skip
    ppc = by_name(union["weapons"], "PPC")
    assert (ppc["bay"], ppc["count"]) == ("Nose bay 1", 2)
    left = [w for w in union["weapons"] if w["location"] == "Left Side"]
    assert [(w["name"], w["bay"], w["count"]) for w in left] == [
        ("Large Laser", "Left Side bay 1", 2), ("Medium Laser", "Left Side bay 2", 2)
    ]  # fmt: skip
    assert all(w["rear"] for w in union["weapons"] if w["location"] == "Aft")
    assert by_name(union["equipment"], "IS Ammo LRM-20")["shots"] == 18
    # quarters are transport space MegaMek reads as bays too (BLKFile.addTransports)
    assert [b["type"] for b in union["bays"]] == ["Mech", "Fighter", "Cargo", "Second-class quarters"]
    assert union["crew"] == {"crew": 14, "officers": 2, "gunners": 6, "passengers": 28, "marines": 0}
    assert "transporters" not in union["source"]["extra"]
    assert union["bays"][0] == {"type": "Mech", "capacity": 12, "doors": 3}


def test_a_jumpship_has_six_facings_a_kf_drive_and_collars():
    invader = sample("Invader (Standard).blk")
    assert invader["unit_type"] == "jumpship"
    assert [f["name"] for f in invader["facings"]] == [
        "Nose",
        "Fore-left",
        "Fore-right",
        "Aft-left",
        "Aft-right",
        "Aft",
    ]
    assert invader["kf_drive"] == {"integrity": 4, "integrity_max": 4, "lf_battery": True}
    assert invader["docking_collars"] == 3
    assert invader["structural_integrity"] == {"value": 1, "max": 1}


def test_a_warship_has_broadsides_thrust_and_a_kf_drive():
    potemkin = sample("Potemkin (Standard).blk")
    assert potemkin["unit_type"] == "warship"
    assert potemkin["movement"] == {"safe_thrust": 2, "max_thrust": 3}
    assert potemkin["docking_collars"] == 25
    assert potemkin["kf_drive"]["lf_battery"] is False
    broadside = [w for w in potemkin["weapons"] if w["location"] == "Left Broadside"]
    assert [(w["name"], w["count"]) for w in broadside] == [("Naval Autocannon/35", 2)]
    nose = [(w["name"], w["bay"], w["count"]) for w in potemkin["weapons"] if w["location"] == "Nose"]
    assert nose == [("Naval Autocannon/25", "Nose bay 1", 2), ("Naval Laser 45", "Nose bay 2", 1)]


def test_a_space_station_has_facings_collars_and_no_kf_drive():
    station = sample("Waypoint Orbital Station.blk")
    assert station["unit_type"] == "space_station"
    assert len(station["facings"]) == 6
    assert "kf_drive" not in station
    assert station["docking_collars"] == 2
    assert station["crew"] == {"crew": 60, "passengers": 40}


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_sheet(path):
    doc = read_unit_text(path.read_bytes(), name=path.name)
    name, text = write_unit_text(doc)
    assert name.endswith(path.suffix)
    again = read_unit_text(text, name=name)
    assert again == doc
    # ...and writing it again gives the same file.
    assert write_unit_text(again) == (name, text)


def test_export_names_the_file_from_chassis_and_model():
    assert write_unit_text(sample("Victor VTR-9K.mtf"))[0] == "Victor VTR-9K.mtf"
    assert write_unit_text(sample("Union (3067).blk"))[0] == "Union (3067).blk"


def test_damage_on_a_sheet_does_not_change_what_is_exported():
    victor = sample("Victor VTR-9K.mtf")
    _, clean = write_unit_text(victor)
    victor["locations"][0]["armor"] = 2
    victor["criticals"]["Head"][0]["hit"] = True
    assert write_unit_text(victor)[1] == clean


def test_old_mtf_files_give_chassis_and_model_as_bare_lines():
    text = (
        (SAMPLES / "Victor VTR-9K.mtf").read_text().replace("chassis:Victor\nmodel:VTR-9K", "Victor\nVTR-9K")
    )
    doc = read_unit_text(text, name="old.mtf")
    assert (doc["chassis"], doc["model"]) == ("Victor", "VTR-9K")


def test_pasted_text_is_recognised_without_a_file_name():
    assert read_unit_text((SAMPLES / "Victor VTR-9K.mtf").read_text())["unit_type"] == "mech"
    assert read_unit_text((SAMPLES / "Union (3067).blk").read_text())["unit_type"] == "dropship"


def test_windows_line_ends_and_latin_1_text_are_read():
    text = (SAMPLES / "Victor VTR-9K.mtf").read_text().replace("role:Brawler", "role:Brawler — côté")
    doc = read_unit_text(text.replace("\n", "\r\n").encode("cp1252"), name="v.mtf")
    assert ["role", "Brawler — côté"] in doc["source"]["extra"]["entries"]
    doc = read_unit_text(text.encode("latin-1", errors="replace"), name="v.mtf")
    assert doc["chassis"] == "Victor"


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: p.stem)
def test_what_is_read_is_a_sheet_in_its_canonical_shape(path):
    doc = read_unit_text(path.read_bytes(), name=path.name)
    assert normalise(doc) == doc


def test_a_long_description_that_would_overflow_the_sheet_is_left_out():
    text = (
        (SAMPLES / "Victor VTR-9K.mtf")
        .read_text()
        .replace("role:Brawler", "role:Brawler\noverview:" + "A" * 5000)
    )
    doc = read_unit_text(text, name="v.mtf")
    assert [key for key, _value in doc["source"]["extra"]["entries"]] == ["source", "role", "myomer"]


def test_a_battle_armour_sheet_made_here_exports_its_weight_class():
    point = sample("Elemental Point [Laser].blk")
    point["source"] = {"format": "blk", "extra": {}}
    _, text = write_unit_text(point)
    assert "<weightclass>\n2\n</weightclass>" in text
    assert read_unit_text(text, name="x.blk")["tonnage"] == 5
