"""Cargo and supplies tables (Seed B: Food, Spare Parts, Ammunition, Fuel)."""

from fractions import Fraction

# One ton of food feeds this many people for one day.
PEOPLE_PER_TON_DAY = 200
# Sourcebook mode rounds the daily ration to the nearest quarter ton, ties up,
# never below one step when anyone is aboard [A6].
SOURCEBOOK_STEP_T = Fraction(1, 4)

# Spare parts as a share of the vessel's mass: normal, and up to this for long trips.
SPARE_PARTS_SHARE = Fraction(1, 100)
SPARE_PARTS_LONG_TRIP_SHARE = Fraction(5, 100)

# Tons of fuel one ton of cargo space holds once lined with polymer fuel cells.
FUEL_CELL_T_PER_CARGO_T = Fraction(9, 10)

# Station-keeping (0.1 G) burns this share of a normal burn-day of fuel per day.
STATION_KEEPING_SHARE = Fraction(1, 10)
