"""One file of our own for each way MegaMek's unit files are written (files/), every one read
with the values its format means, or refused in words naming its unit type; export → import
gives the same sheet back. The expected figures come from the formats' meaning (MegaMek's
MtfFile, BLKFile and per-type loaders), not from this reader's output."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.sheets import document
from referee.unitfiles import UnitFileError, read_unit_text, write_unit_text

FILES = Path(__file__).resolve().parent / "files"
REFUSED = {
    "superheavy.mtf": "Superheavy 'Mechs (over 100 tons; this one is 150) are not supported yet",
    "tank_superheavy.blk": "Superheavy vehicles (over 100 tons; this one is 150) are not supported yet",
    "tank_large_support.blk": "Large support vehicles are not supported yet",
    "protomech.blk": "ProtoMechs are not supported yet",
    "gun_emplacement.blk": "Gun emplacements are not supported yet",
}


def read(name: str) -> dict:
    warnings: list[str] = []
    doc = read_unit_text((FILES / name).read_bytes(), name=name, warnings=warnings)
    assert warnings == [], warnings  # our own files have no odd line
    return doc


def by_name(items: list[dict], name: str) -> dict:
    return next(item for item in items if item["name"] == name)


def weapons(doc: dict) -> list[tuple]:
    return [(w["name"], w["location"], w["rear"], w["count"]) for w in doc["weapons"]]


@pytest.mark.parametrize("name", sorted(p.name for p in FILES.iterdir() if p.name not in REFUSED))
def test_every_file_round_trips_through_export(name):
    doc = read(name)
    file_name, text = write_unit_text(doc)
    assert file_name.endswith(Path(name).suffix)
    assert read_unit_text(text, name=file_name) == doc


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_type_the_sheet_cannot_hold_is_refused_naming_it_in_words(name):
    with pytest.raises(UnitFileError) as caught:
        read_unit_text((FILES / name).read_bytes(), name=name)
    assert str(caught.value).startswith(REFUSED[name])
    assert caught.value.line is None  # a reason about the unit, not a parser message about a line


# --- 'Mechs -----------------------------------------------------------------------------------


def test_a_current_biped_file_with_quantities_rear_locations_and_ammo_fields():
    doc = read("biped_current.mtf")
    assert (doc["chassis"], doc["model"], doc["tonnage"], doc["config"]) == ("Warden", "WRD-2K", 100, "Biped")
    assert doc["engine"] == {"rating": 300, "type": "XL"}
    assert doc["heat_sinks"] == {"count": 20, "type": "single"}
    # "2 ISMediumPulseLaser, Center Torso (R)": two lasers, rear-mounted in the centre torso
    assert weapons(doc) == [
        ("ISGaussRifle", "Right Torso", False, 1),
        ("ISERLargeLaser", "Left Arm", False, 1),
        ("ISMediumPulseLaser", "Center Torso", True, 2),
        ("ISAntiMissileSystem", "Left Arm", False, 1),
    ]
    ct = by_name(doc["locations"], "Center Torso")
    assert (ct["armor"], ct["rear_armor"], ct["structure"]) == (47, 14, 31)
    assert document.armour_total(doc) == 34 + 34 + 32 + 32 + 47 + 9 + 41 + 41 + 10 + 10 + 14


def test_an_older_biped_file_with_bare_name_lines_and_rear_marks_on_the_name_or_only_in_its_slots():
    doc = read("biped_older.mtf")
    assert (doc["chassis"], doc["model"]) == ("Sentry", "STR-1A")
    assert doc["heat_sinks"] == {"count": 10, "type": "single"}  # "Heat Sinks:10": single
    assert doc["movement"] == {"walk": 5, "run": 8, "jump": 5}
    assert weapons(doc) == [
        ("Medium Laser", "Center Torso", True, 1),  # "Medium Laser (R), Center Torso"
        ("Medium Laser", "Right Torso", False, 1),
        ("Small Laser", "Left Torso", True, 1),  # rear only in its slot: "Small Laser (R)"
    ]


def test_re_engineered_lasers_are_weapons_with_an_xxl_engine_and_is_doubles():
    doc = read("biped_reengineered.mtf")
    assert doc["engine"] == {"rating": 200, "type": "XXL"}
    assert doc["heat_sinks"] == {"count": 10, "type": "double"}  # "10 IS Double"
    # "Re-engineered" names a laser, not an engine part
    assert weapons(doc) == [
        ("Medium Re-engineered Laser", "Left Torso", False, 1),
        ("Medium Re-engineered Laser", "Right Torso", False, 1),
        ("Small Re-engineered Laser", "Right Arm", False, 1),
    ]
    assert doc["equipment"] == []


def test_a_quad_has_four_legs_and_light_engine_and_double_sinks():
    doc = read("quad.mtf")
    assert doc["config"] == "Quad"
    assert [loc["name"] for loc in doc["locations"]][4:] == [
        "Front Left Leg", "Front Right Leg", "Rear Left Leg", "Rear Right Leg"
    ]  # fmt: skip
    assert doc["engine"] == {"rating": 240, "type": "Light"}
    assert doc["heat_sinks"] == {"count": 12, "type": "double"}
    assert weapons(doc)[0] == ("ISLargeLaser", "Front Left Leg", False, 1)


def test_a_tripod_has_a_centre_leg_an_xxl_engine_and_is_double_sinks():
    doc = read("tripod.mtf")
    assert doc["config"] == "Tripod"
    assert by_name(doc["locations"], "Center Leg")["armor"] == 26
    assert doc["engine"] == {"rating": 320, "type": "XXL"}
    assert doc["heat_sinks"] == {"count": 15, "type": "double"}  # "15 IS Double"
    assert doc["rules_level"] == 3


def test_a_land_air_mech_is_a_lam_with_jump_jets():
    doc = read("lam.mtf")
    assert (doc["config"], doc["movement"]["jump"]) == ("LAM", 5)


def test_an_industrial_mech_burns_fuel_and_its_lift_hoist_is_not_a_weapon():
    doc = read("industrial.mtf")
    assert doc["engine"] == {"rating": 120, "type": "ICE"}
    assert doc["structure_type"] == "IndustrialMech"
    assert doc["weapons"] == []
    assert doc["equipment"] == [{"name": "Lift Hoist", "location": "Right Arm"}]
    assert document.record_fields(doc, "unit")["engine_type"] == "ice"


def test_a_primitive_mechs_primitive_fusion_engine_is_fusion():
    doc = read("primitive.mtf")
    assert doc["engine"] == {"rating": 280, "type": "Fusion"}
    assert doc["armor_type"] == "Primitive"


def test_an_omnimech_is_a_biped_kept_as_omni_with_clan_doubles():
    doc = read("omni.mtf")
    assert (doc["config"], doc["tech_base"]) == ("Biped", "Clan")
    assert doc["source"]["extra"]["omni"] is True
    assert doc["heat_sinks"] == {"count": 15, "type": "double"}
    assert ("CLUltraAC10", "Left Arm", False, 1) in weapons(doc)


def test_mixed_tech_is_written_back_as_megamek_spells_it():
    doc = read("mixed.mtf")
    assert doc["tech_base"] == "Mixed"
    assert doc["heat_sinks"] == {"count": 11, "type": "double"}  # laser heat sinks sink 2 each
    _name, text = write_unit_text(doc)
    assert "techbase:Mixed (IS Chassis)\n" in text  # MegaMek refuses a bare "Mixed"


# --- vehicles ---------------------------------------------------------------------------------


def test_a_tracked_ice_tank_reads_ice_with_its_rating_turret_and_rear_gun():
    doc = read("tank_tracked_ice.blk")
    # BLKFile engine codes: 1 is an internal combustion engine (not MegaMek's Engine constant 1)
    assert doc["engine"] == {"rating": 5 * 50, "type": "ICE"}  # tracked: suspension factor 0
    assert {loc["name"]: loc["armor"] for loc in doc["locations"]} == {
        "Front": 30, "Right": 24, "Left": 24, "Rear": 18, "Turret": 28
    }  # fmt: skip
    assert ("Machine Gun", "Rear", True, 1) in weapons(doc)  # "(R) Machine Gun"
    assert ("Autocannon/2", "Turret", False, 1) in weapons(doc)
    assert document.record_fields(doc, "unit")["engine_type"] == "ice"


def test_a_wheeled_support_vehicle_keeps_its_half_ton_and_its_medical_gear_is_not_a_weapon():
    doc = read("tank_wheeled_support_fraction.blk")
    assert doc["tonnage"] == 20.5
    assert document.record_fields(doc, "unit")["tonnage"] == 20.5
    assert doc["engine"] == {"rating": 6 * 20 - 20, "type": "Fusion"}  # wheeled ≤ 80 t: 20
    assert weapons(doc) == [("Machine Gun", "Front", False, 1)]
    assert by_name(doc["equipment"], "MASH Equipment") == {
        "name": "MASH Equipment",
        "location": "Body",
        "size": 2,
    }
    assert by_name(doc["equipment"], "Paramedic Equipment")["location"] == "Body"
    assert doc["bays"] == [{"type": "Standard seats", "capacity": 4, "doors": 0}]
    assert doc["source"]["extra"]["unit_type"] == "SupportTank"


def test_a_tanks_targeting_computer_capacitor_signature_system_and_mg_array_are_equipment():
    doc = read("tank_targeting_computer.blk")
    # MegaMek keeps these as equipment (MiscType): they fire nothing of their own
    assert weapons(doc) == [
        ("Machine Gun", "Front", False, 1),
        ("Machine Gun", "Front", False, 1),
        ("ISERLargeLaser", "Turret", False, 1),
        ("ISPPC", "Turret", False, 1),
    ]
    assert [(e["name"], e["location"]) for e in doc["equipment"]] == [
        ("ISMGA", "Front"),
        ("ISPPCCapacitor", "Turret"),
        ("ISTargeting Computer", "Body"),
        ("ISNullSignatureSystem", "Body"),
        ("IS Ammo MG - Full", "Body"),
    ]


def test_gear_named_as_megamek_runs_its_words_together_is_equipment_and_a_gyrojet_gun_a_weapon():
    doc = read("tank_support_field_base.blk")
    assert doc["engine"] == {"rating": 3 * 40, "type": "ICE"}  # tracked: suspension factor 0
    assert weapons(doc) == [("Heavy Gyrojet Gun", "Turret", False, 1)]  # "gyro" in it is no gyro
    assert [e["name"] for e in doc["equipment"]] == [
        "ISMobileFieldBase",  # "field base" run together
        "ISFieldKitchen",
        "LiftHoist",
        "Armored Chassis",
    ]
    assert [(b["type"], b["capacity"]) for b in doc["bays"]] == [("Troop space", 2), ("Cargo", 4.5)]


def test_a_hover_tank_reads_fusion_less_its_suspension():
    doc = read("tank_hover_fusion.blk")
    assert (doc["motion"], doc["engine"]) == ("Hover", {"rating": 8 * 20 - 85, "type": "Fusion"})


def test_a_vtol_with_a_chin_turret_has_rotor_then_turret():
    doc = read("vtol_chin_turret.blk")
    # file order: front, right, left, rear, rotor, then the chin turret
    assert {loc["name"]: loc["armor"] for loc in doc["locations"]} == {
        "Front": 8, "Right": 6, "Left": 6, "Rear": 4, "Rotor": 2, "Turret": 5
    }  # fmt: skip
    assert doc["engine"] == {"rating": 10 * 25 - 140, "type": "XL"}


def test_naval_and_wige_vehicles():
    naval = read("tank_naval.blk")
    assert (naval["motion"], naval["engine"]) == ("Naval", {"rating": 6 * 60 - 30, "type": "ICE"})
    wige = read("tank_wige.blk")
    assert (wige["motion"], wige["engine"]["rating"]) == ("WiGE", 9 * 30 - 80)


def test_a_dual_turret_tank_has_both_turrets_and_their_weapons():
    doc = read("tank_dual_turret.blk")
    assert [(loc["name"], loc["armor"]) for loc in doc["locations"]][4:] == [
        ("Turret", 25),
        ("Front Turret", 22),
    ]
    assert ("PPC", "Turret", False, 1) in weapons(doc)
    assert [w for w in weapons(doc) if w[1] == "Front Turret"] == [
        ("Medium Laser", "Front Turret", False, 1)
    ] * 2


# --- battle armour and infantry ------------------------------------------------------------------


def test_battle_armour_mounts_modular_parts_and_pods():
    doc = read("battle_armor_modular.blk")
    assert doc["troopers"] == [{"armor": 8, "armor_max": 8, "alive": True}] * 4
    assert doc["tonnage"] == 4  # four medium troopers, a ton each at most
    assert by_name(doc["weapons"], "ISBAMediumLaser")["location"] == "Right Arm"
    assert by_name(doc["weapons"], "ISBASRM2")["mount"] == "detachable weapon pack"
    assert by_name(doc["weapons"], "ISBAMachineGun")["mount"] == "anti-personnel weapon mount"
    mortar = by_name(doc["weapons"], "ISBALightMortar")
    assert (mortar["location"], mortar["mount"]) == ("Turret", "omni-pod")
    assert by_name(doc["equipment"], "BA Modular Weapon Mount") == {
        "name": "BA Modular Weapon Mount", "location": "Right Arm", "mount": "modular"
    }  # fmt: skip
    assert by_name(doc["equipment"], "ISBA SRM-2 Ammo")["shots"] == 4


def test_clan_battle_armour_lists_its_gear_under_point_and_is_written_back_so():
    doc = read("battle_armor_clan_point.blk")
    # MegaMek's BattleArmor calls the whole unit's location "Point" on a Clan suit, "Squad" otherwise
    assert weapons(doc) == [
        ("CLBAHeavyMG", "Right Arm", False, 1),
        ("CLBASRM2", "Body", False, 1),
        ("InfantryAssaultRifle", "Left Arm", False, 1),
    ]
    assert by_name(doc["weapons"], "InfantryAssaultRifle")["mount"] == "anti-personnel weapon mount"
    assert by_name(doc["equipment"], "BA-SRM2 Ammo") == {
        "name": "BA-SRM2 Ammo",
        "location": "Body",
        "shots": 2,
    }
    # fire-resistant armour fills slots of the suit: it is no weapon
    fire_resistant = [e["location"] for e in doc["equipment"] if e["name"] == "Clan BA Fire Resistant"]
    assert fire_resistant == ["Body", "Right Arm"]
    assert [t["armor"] for t in doc["troopers"]] == [10] * 5
    _name, text = write_unit_text(doc)
    assert "<Point Equipment>" in text
    assert "<Squad Equipment>" not in text
    _name, text = write_unit_text(read("battle_armor_modular.blk"))  # an Inner Sphere suit
    assert "<Squad Equipment>" in text


def test_infantry_carries_its_secondary_weapons_per_squad():
    doc = read("infantry_secondary.blk")
    assert doc["platoon"] == {"troopers": 28, "troopers_max": 28, "weapon": "InfantryAutoRifle"}
    # secondn 2 per squad × 4 squads carry the laser rifle; the other 20 the primary weapon
    assert weapons(doc) == [
        ("InfantryAutoRifle", "Platoon", False, 20),
        ("InfantryLaserRifle", "Platoon", False, 8),
    ]


def test_infantry_field_guns_are_weapons_and_their_ammo_is_not():
    doc = read("infantry_field_guns.blk")
    assert [w for w in weapons(doc) if w[1] == "Field Guns"] == [("Autocannon/5", "Field Guns", False, 1)] * 2
    assert doc["equipment"] == [{"name": "IS Ammo AC/5", "location": "Field Guns", "shots": 40}]


def test_beast_mounted_infantry_keeps_its_mount():
    assert read("infantry_beast.blk")["motion"] == "Camel"


# --- aerospace ------------------------------------------------------------------------------------


def test_a_fusion_fighter_reads_fusion_with_its_rating_sinks_and_aft_laser():
    doc = read("fighter_fusion.blk")
    # BLKFile engine code 0 is fusion; a fighter's rating is (safe thrust − 2) × tons
    assert doc["engine"] == {"rating": (4 - 2) * 100, "type": "Fusion"}
    assert doc["heat_sinks"] == {"count": 18, "type": "single"}
    assert {loc["name"]: loc["armor"] for loc in doc["locations"]} == {  # nose, right, left, aft
        "Nose": 48, "Right Wing": 41, "Left Wing": 40, "Aft": 30
    }  # fmt: skip
    assert ("Medium Laser", "Aft", True, 1) in weapons(doc)
    assert by_name(doc["equipment"], "IS Ammo LRM-20") == {
        "name": "IS Ammo LRM-20",
        "location": "",
        "shots": 12,
    }


def test_a_fighter_with_double_heat_sinks():
    assert read("fighter_double_sinks.blk")["heat_sinks"] == {"count": 12, "type": "double"}


def test_a_conventional_fighter_with_an_ice():
    doc = read("conv_fighter_ice.blk")
    assert doc["engine"] == {"rating": (5 - 2) * 20, "type": "ICE"}
    assert doc["source"]["extra"]["unit_type"] == "ConvFighter"


def test_a_support_aircrafts_chassis_mods_and_chaff_pods_are_equipment():
    doc = read("support_aircraft_stol.blk")
    assert doc["source"]["extra"]["unit_type"] == "FixedWingSupport"
    assert doc["engine"] == {"rating": (5 - 2) * 40, "type": "ICE"}  # (safe thrust − 2) × tons; code 1
    assert weapons(doc) == [("Medium Laser", "Nose", False, 1)]
    assert sorted(e["name"] for e in doc["equipment"]) == [
        "Armored Chassis",
        "Communications Equipment (1 ton)",
        "ISChaffPod",
        "ISChaffPod",
        "STOLChassisMod",
    ]
    assert [(b["type"], b["capacity"]) for b in doc["bays"]] == [("Ejection seats", 4), ("Cargo", 2.5)]


def test_a_small_craft_has_its_half_ton_cargo_and_crew():
    doc = read("small_craft.blk")
    assert doc["bays"] == [{"type": "Cargo", "capacity": 40.5, "doors": 1}]
    assert doc["crew"] == {"crew": 3, "passengers": 4}
    assert doc["structural_integrity"] == {"value": 8, "max": 8}


def test_a_spheroid_dropship_has_its_four_arcs_mekbays_quarters_and_rear_side_weapons():
    doc = read("dropship_spheroid.blk")
    # armour in file order nose, right side, left side, aft (MegaMek's BLKAeroFile)
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 180), ("Left Side", 170), ("Right Side", 171), ("Aft", 104)
    ]  # fmt: skip
    assert document.armour_total(doc) == 180 + 171 + 170 + 104
    assert doc["engine"]["type"] == "Fusion"  # MegaMek gives every DropShip a fusion engine
    assert [(b["type"], b["capacity"], b["doors"]) for b in doc["bays"]] == [
        ("Mech", 4, 2), ("Mech", 8, 2), ("Fighter", 2, 2), ("Cargo", 74.5, 2),
        ("First-class quarters", 30, 0), ("Crew quarters", 77, 0),
    ]  # fmt: skip
    left = [(w["name"], w["rear"], w["bay"]) for w in doc["weapons"] if w["location"] == "Left Side"]
    assert left == [  # "(R) (B) Large Laser": a new bay, firing aft
        ("Large Laser", False, "Left Side bay 1"),
        ("Large Laser", True, "Left Side bay 2"),
        ("Medium Laser", True, "Left Side bay 2"),
    ]
    assert doc["crew"] == {
        "crew": 42,
        "officers": 3,
        "gunners": 6,
        "passengers": 0,
        "marines": 0,
        "battle_armor": 0,
    }
    fields = document.record_fields(doc, "ship")
    assert (fields["armor_fore_left"], fields.get("armor_aft_left", 0)) == (170, 0)  # one side, counted once
    assert fields["armor_fore_right"] == 171
    assert fields["heat_sinks"] == 90


def test_an_aerodyne_dropship_has_battle_armour_and_jump_infantry_bays():
    doc = read("dropship_aerodyne.blk")
    assert doc["motion"] == "Aerodyne"
    assert [(b["type"], b["capacity"], b["doors"]) for b in doc["bays"]] == [
        ("Fighter", 6, 3), ("Battle Armor", 10, 2), ("Infantry (jump)", 2, 1)
    ]  # fmt: skip
    assert doc["heat_sinks"] == {"count": 120, "type": "double"}


def test_a_jumpship_counts_a_docking_collar_per_line():
    doc = read("jumpship_collars.blk")
    assert doc["docking_collars"] == 3
    assert document.record_fields(doc, "ship")["dropship_capacity"] == 3
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 4), ("Fore-left", 5), ("Fore-right", 6), ("Aft-left", 2), ("Aft-right", 1), ("Aft", 3)
    ]  # fmt: skip
    assert [b["type"] for b in doc["bays"]] == [
        "Small Craft",
        "Cargo",
        "First-class quarters",
        "Crew quarters",
    ]
    assert doc["bays"][1]["capacity"] == 328.5


def test_a_warship_keeps_broadsides_hull_naval_repair_arts_bays_and_collars():
    doc = read("warship_broadsides.blk")
    assert doc["docking_collars"] == 2
    assert [(b["type"], b["capacity"], b["doors"]) for b in doc["bays"]] == [
        ("Small Craft", 2, 1), ("Fighter", 12, 6), ("Naval repair (pressurized)", 5000, 1), ("Fighter", 6, 2)
    ]  # fmt: skip
    assert ("Capital Missile Launcher (Barracuda)", "Left Broadside", False, 1) in weapons(doc)
    assert ("Capital Missile Launcher (Barracuda)", "Right Broadside", False, 1) in weapons(doc)
    assert by_name(doc["equipment"], "Lithium-Fusion Battery")["location"] == "Hull"
    assert by_name(doc["facings"], "Aft")["armor"] == 64  # the fourth armour value is the aft
    assert doc["kf_drive"]["lf_battery"] is True
    assert doc["heat_sinks"] == {"count": 338, "type": "double"}


def test_a_warships_hull_sensors_self_destruct_and_tactical_computer_are_equipment():
    doc = read("warship_survey_sensors.blk")
    assert weapons(doc) == [
        ("PPC", "Nose", False, 1),
        ("Large Laser", "Fore-left", False, 1),
        ("Large Laser", "Fore-right", False, 1),
        ("Autocannon/10", "Aft", False, 1),
    ]
    hull = [(e["name"], e.get("size")) for e in doc["equipment"] if e["location"] == "Hull"]
    assert hull == [
        ("ISLargeNavalCommScannerSuite", None),
        ("ISHighResImager", None),
        ("ISInfraredImager", None),
        ("ISLookDownRadar", None),
        ("SDSSelfDestructSystem", None),
        ("AutoTacticalAnalysisComputer", 20),  # ":SIZE:20.0"
    ]
    # armour in MegaMek's Jumpship order: nose, fore-left, fore-right, aft, aft-left, aft-right
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 9), ("Fore-left", 8), ("Fore-right", 7), ("Aft-left", 6), ("Aft-right", 5), ("Aft", 4)
    ]  # fmt: skip


def test_a_space_station_with_collars_and_a_naval_yard():
    doc = read("space_station.blk")
    assert doc["unit_type"] == "space_station"
    assert doc["docking_collars"] == 4
    assert doc["bays"][1] == {"type": "Naval repair (unpressurized)", "capacity": 100000, "doors": 2}
    assert doc["motion"] == "Station Keeping"


def test_a_ship_sheet_made_here_exports_with_every_block_megamek_needs():
    # MegaMek's BLKDropshipFile refuses a file without motion_type, heatsinks, sink_type, fuel,
    # SafeThrust, structural_integrity, life_boat or escape_pod.
    doc = document.normalise({"unit_type": "dropship", "chassis": "Homemade", "tonnage": 2000})
    _name, text = write_unit_text(doc)
    for tag in ("motion_type", "heatsinks", "sink_type", "fuel", "SafeThrust", "structural_integrity",
                "life_boat", "escape_pod", "year", "type"):  # fmt: skip
        assert f"<{tag}>" in text, tag
    assert "<type>\nIS\n</type>" in text
    again = read_unit_text(text, name="homemade.blk")
    assert [f["name"] for f in again["facings"]] == ["Nose", "Left Side", "Right Side", "Aft"]


def test_a_refusal_named_after_its_file_still_reads_as_a_sentence():
    with pytest.raises(UnitFileError) as caught:
        read_unit_text((FILES / "tank_superheavy.blk").read_bytes(), name="tank_superheavy.blk")
    named = str(caught.value.named("Monitor.blk"))
    assert named.startswith(
        "Monitor.blk: Superheavy vehicles (over 100 tons; this one is 150) are not supported yet"
    )
