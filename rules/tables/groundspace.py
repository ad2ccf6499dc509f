"""Ground units in BattleSpace (Seed B: Mech / Battle Armor Conversion Tables, Mech Weapon
Conversions Table, Movement, Combat Restrictions)."""

from fractions import Fraction

# Mech / Battle Armor Conversion Tables: Armor Value = AF / 40 ('Mech) or AF per trooper / 10
# (battle armour); Safe Thrust = Jump MP / 3; Fuel Points = Jump MP x 2; no Max Thrust.
# Fractions round to nearest, .5 up (rhu) [A41].
ARMOR_DIVISOR = {"mech": 40, "battle_armor": 10}
THRUST_DIVISOR = 3
FUEL_PER_JUMP_MP = 2
TROOPERS = (1, 10)  # battle armour: 1..10 troopers, one armour row each

# Mech Weapon Conversions Table: torso, leg and head -> Nose; left arm -> Left Wing;
# right arm -> Right Wing; rear weapons -> Aft.
MECH_ARM_ARCS = {"LA": "lw", "RA": "rw"}
MECH_DEFAULT_ARC = "nose"
REAR_ARC = "aft"
BATTLE_ARMOR_ARC = "nose"  # all battle-armour weapons go in the nose arc

# Battle-armour SRM launchers are worth 75% of their BattleSpace Fire Factor (rhu) [A41].
BA_SRM_PREFIX = "SRM"
BA_SRM_FACTOR = Fraction(3, 4)

ARC_TEXT = {"nose": "Nose", "lw": "LW", "rw": "RW", "aft": "Aft"}

# Movement and Combat Restrictions.
CONTROL_PSR_MOD = 2  # 'Mech Control Roll = Piloting Skill Roll + 2
BA_CONTROL_TN = 6  # battle armour Control Roll target number
TO_HIT_MOD = 4  # every weapon attack by a 'Mech or battle armour (as if at long range)
FUEL_PER_TP = 1
