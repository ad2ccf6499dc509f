"""Special-vehicle tables (Seed B: Amphibious Vehicles, Dune Buggies)."""

from fractions import Fraction

# Amphibious drive equipment.
AMPHIBIOUS_MOTIVES = ("tracked", "wheeled")
AMPHIBIOUS_EQUIPMENT_SHARE = Fraction(10, 100)
AMPHIBIOUS_CBILLS_PER_T = 10_000
AMPHIBIOUS_WATER_MP_PER_HEX = 2

# Dune buggy conversion.
DUNE_BUGGY_CRUISE_LOSS = 1
FLANK_FACTOR = Fraction(3, 2)  # Flank MP = 1.5 x Cruise MP, rounded up
DUNE_BUGGY_PARTS_CBILLS_PER_T2 = 10  # tonnage squared, times 10 [A46]
DUNE_BUGGY_TONS_PER_TECH_DAY = 10
DUNE_BUGGY_MIN_DAYS = 1
WORK_HOURS_PER_DAY = 16
DUNE_BUGGY_SAND_MP_PER_HEX = 1
