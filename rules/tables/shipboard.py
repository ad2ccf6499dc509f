"""Shipboard-combat tables (Seed B: Bulkheads and Objects, Damage Capacities and Thresholds
Table, Critical Hits, Specialty Ammunition)."""

from types import MappingProxyType
from typing import NamedTuple


class SurfaceRow(NamedTuple):
    """One row of the Damage Capacities and Thresholds Table.

    ``armor_rating`` is the Step 2 default (ballistic and energy ½, applied as a
    multiplier [A23]); ``kind`` says whether a pierce is a bulkhead pierce (critical
    hits, decompression) or harms an object (excess can ricochet).
    """

    label: str
    capacity: int  # shipboard damage capacity; per section for bulkheads
    threshold: int
    armor_rating: float
    kind: str  # "bulkhead" | "object"
    per_section: bool
    pressure_boundary: bool  # always a pressure boundary (external bulkhead)


DEFAULT_ARMOR_RATING = 0.5

# The web app builds a compartment's surfaces[] {type, capacity_left, threshold, armor_rating}
# from this table. "Other objects/surfaces" are GM-data: the "custom" surface of
# shipboard.bulkhead_hit, with capacity and threshold given by the GM.
DAMAGE_CAPACITIES = MappingProxyType(
    {
        "minor_bulkhead": SurfaceRow("Internal bulkhead (minor)", 50, 5, 0.5, "bulkhead", True, False),
        "major_bulkhead": SurfaceRow("Internal bulkhead (major)", 100, 10, 0.5, "bulkhead", True, False),
        "external_bulkhead": SurfaceRow("External bulkhead", 200, 20, 0.5, "bulkhead", True, True),
        "observation_port": SurfaceRow("Observation port", 50, 3, 0.5, "object", False, False),
        "door": SurfaceRow("Door", 50, 4, 0.5, "object", False, False),
        "pressure_door": SurfaceRow("Pressure door", 100, 8, 0.5, "object", False, False),
        "computer_console": SurfaceRow("Computer console", 10, 2, 0.5, "object", False, False),
    }
)

# Internal bulkheads whose pierce calls for the critical-hit check, and their column.
CRITICAL_COLUMN = MappingProxyType({"minor_bulkhead": "minor", "major_bulkhead": "major"})

# Only slug throwers and needlers ricochet; energy weapons and contact explosives stop.
RICOCHET_WEAPONS = frozenset({"slug", "needler"})
# Needlers, contact explosives, AET and frangible rounds never over-penetrate.
NO_OVER_PENETRATION_WEAPONS = frozenset({"needler", "contact_explosive"})
NO_OVER_PENETRATION_AMMO = frozenset({"aet", "frangible"})
SPECIALTY_AMMO = frozenset({"aet", "frangible"})  # slug throwers only

# Ricochet reduction dice: 1D6, or 2D6 for needlers and AET rounds.
REDUCTION_DICE_NEEDLER_OR_AET = 2
REDUCTION_DICE_STANDARD = 1

# Ricochets, shots through a destroyed surface, over-penetration: TN 8, no modifiers.
RICOCHET_TN = 8

# Dice counts the rules leave open, capped so one resolution stays small. MechWarrior
# personal weapons roll a few D6 (the seed's pistol: 2D6+3); 20D6 is far beyond any.
MAX_WEAPON_DAMAGE_DICE = 20
# A fuel blast is 1D6 per leaked point (one point per fuel-line critical per turn):
# 100 points is a compartment soaked for a whole engagement.
MAX_FUEL_BLAST_DICE = 100

# Specialty Ammunition data (both rounds).
SPECIALTY_AMMO_DATA = MappingProxyType(
    {"tech_level": 3, "availability": "C", "legality": "B", "cost_multiplier": 2}
)

# Critical Hits: 2D6 + excess -> number of critical hits (≤7: 0, 8-10: 1, 11+: 2).
CRITICAL_BANDS = ((7, 0), (10, 1), (None, 2))

# 1D6 -> result, per bulkhead column (index 0 = a roll of 1).
CRITICAL_TABLE = MappingProxyType(
    {
        "minor": (
            "power_line",
            "comm_panel",
            "emergency_equipment",
            "lights",
            "cable_mechanism",
            "no_effect",
        ),
        "major": (
            "power_line",
            "hydraulics_line",
            "fuel_line",
            "emergency_equipment",
            "lights",
            "communications_lines",
        ),
    }
)

# Critical results that put a compartment system out of use (<system>_disabled).
DISABLING_CRITICALS = (
    "power_line",
    "comm_panel",
    "emergency_equipment",
    "cable_mechanism",
    "communications_lines",
)

CRITICAL_TEXT = MappingProxyType(
    {
        "power_line": "power line dead until repaired",
        "comm_panel": "comm panel and repeater unusable",
        "emergency_equipment": "emergency-equipment locker unusable",
        "lights": "lights damaged (partial darkness from now on)",
        "cable_mechanism": "cable hand-line unusable",
        "no_effect": "no effect",
        "hydraulics_line": "hydraulics line sprays fluid (+1 visibility, +1 to Control Rolls)",
        "fuel_line": "fuel line sprays fuel (+1 visibility; the leak may ignite)",
        "communications_lines": "comm lines fail here and in adjacent areas",
    }
)

# Decompression: 10,000 Pa per penetrating point per round (10% of standard);
# explosive above 50,000 Pa in one round [A31]; bulkheads close at 50,000 Pa.
STANDARD_PRESSURE_PA = 100_000
PA_LOST_PER_POINT = 10_000
EXPLOSIVE_ABOVE_PA = 50_000
AUTO_CLOSE_AT_PA = 50_000

# Fuel leak: flamers and gyrojets always ignite it, primitive weapons never,
# any other weapon on 2D6 >= 8; the blast does 1D6 per point leaked.
FUEL_ALWAYS_IGNITES = frozenset({"flamer", "gyrojet"})
FUEL_IGNITES_ON = 8

NEXT_STEP_TEXT = MappingProxyType(
    {
        "critical": "critical-hit check (shipboard.bulkhead_critical)",
        "decompression": "decompression (shipboard.decompression)",
        "pass_through": "TN 8 attack on a character behind it, no reduction (shipboard.ricochet, reduction off)",
        "ricochet": "ricochet check (shipboard.ricochet)",
    }
)
