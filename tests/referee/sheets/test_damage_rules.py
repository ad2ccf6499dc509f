"""The sheet's damage rules as BattleTech plays them (Total Warfare, Damage and Damage Transfer),
each test quoting the rule it holds the sheet to."""

from __future__ import annotations

from referee.sheets import document
from referee.unitfiles import read_unit_text


def loc(doc: dict, name: str) -> dict:
    return document.location(doc, name)


def biped() -> dict:
    """A 50-ton biped: structure 16 centre, 12 each side torso, 8 each arm, 12 each leg."""
    return document.normalise(
        {
            "unit_type": "mech",
            "tonnage": 50,
            "locations": [
                {"name": "Head", "armor": 9},
                {"name": "Center Torso", "armor": 20, "rear_armor": 8},
                {"name": "Left Torso", "armor": 14, "rear_armor": 5},
                {"name": "Right Torso", "armor": 14, "rear_armor": 5},
                {"name": "Left Arm", "armor": 10},
                {"name": "Right Arm", "armor": 10},
                {"name": "Left Leg", "armor": 12},
                {"name": "Right Leg", "armor": 12},
            ],
        }
    )


def test_damage_passing_on_from_a_rear_hit_lands_on_the_next_locations_rear_armour():
    # Total Warfare, Damage Transfer: "If the attack struck the rear of the 'Mech, the excess
    # damage is applied to the rear armor of the next location."
    after, notes = document.damage(biped(), "Left Torso", 5 + 12 + 3, rear=True)
    assert loc(after, "Left Torso")["destroyed"]
    ct = loc(after, "Center Torso")
    assert (ct["armor"], ct["rear_armor"]) == (20, 8 - 3)  # the front armour is untouched
    assert "3 damage passes on from Left Torso to Center Torso." in notes
    assert "Center Torso (rear): 3 damage, rear armour 8 → 5" in notes


def test_a_front_hit_passes_on_to_the_front_armour():
    after, _ = document.damage(biped(), "Left Torso", 14 + 12 + 3)
    ct = loc(after, "Center Torso")
    assert (ct["armor"], ct["rear_armor"]) == (20 - 3, 8)


def test_a_destroyed_side_torso_takes_its_arm():
    # Total Warfare, Damage Transfer: "If a 'Mech's side torso is destroyed, the arm on that side
    # is also destroyed."
    after, notes = document.damage(biped(), "Right Torso", 14 + 12)
    assert loc(after, "Right Arm")["destroyed"]
    assert "Right Arm is lost with the right torso." in notes


def quad() -> dict:
    return document.normalise({"unit_type": "mech", "config": "Quad", "tonnage": 50})


def test_a_quads_front_leg_goes_with_its_destroyed_side_torso():
    # Total Warfare, Damage Transfer (four-legged 'Mechs): a destroyed side torso takes the front
    # leg on that side with it, as a biped's side torso takes its arm.
    after, notes = document.damage(quad(), "Left Torso", 12)
    assert loc(after, "Left Torso")["destroyed"]
    assert loc(after, "Front Left Leg")["destroyed"]
    assert not loc(after, "Rear Left Leg").get("destroyed")
    assert not loc(after, "Front Right Leg").get("destroyed")
    assert "Front Left Leg is lost with the left torso." in notes


def test_a_quads_weapons_in_the_lost_front_leg_are_destroyed_too():
    doc = quad()
    doc["weapons"] = [{"name": "Medium Laser", "location": "Front Right Leg"}]
    doc = document.normalise(doc)
    after, _ = document.damage(doc, "Right Torso", 12)
    assert after["weapons"][0]["destroyed"] is True


def test_a_head_hit_of_no_damage_does_not_wound_the_pilot():
    # Total Warfare, Damage (Head Hits): "Each time a 'Mech's head is hit and takes damage, the
    # MechWarrior takes 1 point of damage." No damage, no wound.
    after, notes = document.damage(biped(), "Head", 0)
    assert after["pilot"]["hits"] == 0
    assert notes == []
    after, _ = document.damage(biped(), "Head", 1)
    assert after["pilot"]["hits"] == 1


UNION_LIKE = """<UnitType>
Dropship
</UnitType>
<Name>
Lantern
</Name>
<Model>
Test
</Model>
<year>
3050
</year>
<type>
IS Level 2
</type>
<SafeThrust>
4
</SafeThrust>
<armor>
150
120
121
90
</armor>
<structural_integrity>
10
</structural_integrity>
<tonnage>
3000.0
</tonnage>
"""

JUMPSHIP_LIKE = """<UnitType>
Jumpship
</UnitType>
<Name>
Wayfarer
</Name>
<year>
2700
</year>
<armor>
9
8
7
6
5
4
</armor>
<structural_integrity>
1
</structural_integrity>
<tonnage>
100000.0
</tonnage>
"""


def test_a_dropships_facings_are_the_four_its_file_gives():
    # Total Warfare, DropShip record sheet: armour is given for the Nose, the Left and Right Sides
    # and the Aft; each side is one armour value (never counted for two facings). The file lists
    # them nose, right, left, aft (MegaMek's BLKAeroFile).
    doc = read_unit_text(UNION_LIKE, name="lantern.blk")
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 150),
        ("Left Side", 121),
        ("Right Side", 120),
        ("Aft", 90),
    ]
    assert document.armour_total(doc) == 150 + 120 + 121 + 90
    after, _notes = document.damage(doc, "Left Side", 20)
    assert loc(after, "Left Side")["armor"] == 101
    assert document.armour_total(after) == 150 + 101 + 120 + 90


def test_a_jumpships_facings_are_the_six_its_file_gives_in_the_files_order():
    # MegaMek's Jumpship locations, the order of a .blk file's armour values: Nose, Front Left
    # Side, Front Right Side, Aft, Aft Left Side, Aft Right Side.
    doc = read_unit_text(JUMPSHIP_LIKE, name="wayfarer.blk")
    assert [(f["name"], f["armor"]) for f in doc["facings"]] == [
        ("Nose", 9),
        ("Fore-left", 8),
        ("Fore-right", 7),
        ("Aft-left", 5),
        ("Aft-right", 4),
        ("Aft", 6),
    ]
    assert document.armour_total(doc) == 9 + 8 + 7 + 6 + 5 + 4
