"""Cargo and supplies (Seed B, section 4 of the catalogue)."""

from __future__ import annotations

from fractions import Fraction

from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import cargo as tables

from ._common import rhu


def _exact(x: float) -> Fraction:
    """A number as the decimal the GM typed (0.1 -> 1/10), so tonnage sums stay exact."""
    return Fraction(str(x))


def _t(x: float) -> str:
    return f"{x:,.10g}"


@procedure(
    """
procedure: cargo.food
inputs:
  crew: int = 0
  passengers: int = 0
  days: float = 1
  mode: str enum {sourcebook|exact} = "sourcebook"   # [A6]
dice: none
result:
  tons_per_day: float                        # headline; sourcebook: nearest 0.25 t (ties up, ≥ 0.25 t when people > 0); exact: people/200
  tons_total: float                          # tons_per_day × days
  people: int
  exact_tons_per_day: float                  # people/200
effects:
  - {"target": "campaign", "field": "food_stock_t", "op": "add", "value": "-<tons_total>"}
errors:
  - InputError(crew|passengers|days): negative
""",
    title="Cargo: food for the crew and passengers",
    reference=f"{SEED_B}, Food",
    bounds={"crew": (0, None), "passengers": (0, None), "days": (0, None)},
    units={"days": "days"},
    example={"crew": 578, "passengers": 296, "days": 30, "mode": "sourcebook"},
)
def food(inp, dice) -> Resolution:
    people = inp.crew + inp.passengers
    exact_per_day = Fraction(people, tables.PEOPLE_PER_TON_DAY)
    if inp.mode == "exact":
        per_day = exact_per_day
    else:
        # Nearest step, ties up [A6]; at least one step when anyone is aboard.
        steps = rhu(exact_per_day / tables.SOURCEBOOK_STEP_T)
        if people > 0:
            steps = max(1, steps)
        per_day = steps * tables.SOURCEBOOK_STEP_T
    total = per_day * _exact(inp.days)
    result = {
        "tons_per_day": float(per_day),
        "tons_total": float(total),
        "people": people,
        "exact_tons_per_day": float(exact_per_day),
    }
    effects = [add_effect("campaign", "food_stock_t", float(-total))]
    how = "exactly" if inp.mode == "exact" else f"sourcebook rounding; exact {_t(float(exact_per_day))} t"
    summary = (
        f"Food for {people} people ({inp.crew} crew + {inp.passengers} passengers): "
        f"{_t(result['tons_per_day'])} t/day ({how}) x {_t(inp.days)} days = {_t(result['tons_total'])} t"
    )
    return Resolution(result, summary, effects)


@procedure(
    """
procedure: cargo.stores
inputs:
  mass_t: float|null = null
  tankage_t: float = 0                       # cargo space lined as fuel cells
  burn_day_fuel_t: float|null = null         # fuel of one normal burn-day
  station_keeping_days: float = 0
dice: none
result:
  spare_parts_t: float|null                  # headline; 0.01 × mass_t
  spare_parts_long_trip_t: float|null        # 0.05 × mass_t
  extra_fuel_t: float                        # 0.9 × tankage_t
  station_keeping_fraction: float            # 0.1 of a burn-day per day
  station_keeping_fuel_t: float|null         # 0.1 × burn_day_fuel_t × station_keeping_days
effects:
  - {"target": "ship", "field": "cargo_fuel_capacity_t", "op": "set", "value": "<extra_fuel_t>"}
errors: none
notes:
  - Extra ammunition is GM-data. Fuel in cargo cells is burnt first, which frees the bay.
""",
    title="Cargo: spare parts, fuel cells and station-keeping fuel",
    reference=f"{SEED_B}, Spare Parts, Ammunition, Fuel",
    bounds={
        "mass_t": (0, None),
        "tankage_t": (0, None),
        "burn_day_fuel_t": (0, None),
        "station_keeping_days": (0, None),
    },
    units={
        "mass_t": "t",
        "tankage_t": "t",
        "burn_day_fuel_t": "t",
        "station_keeping_days": "days",
    },
    example={"mass_t": 3500, "tankage_t": 20, "burn_day_fuel_t": 5, "station_keeping_days": 10},
)
def stores(inp, dice) -> Resolution:
    spare = long_trip = keeping_fuel = None
    if inp.mass_t is not None:
        mass = _exact(inp.mass_t)
        spare = float(mass * tables.SPARE_PARTS_SHARE)
        long_trip = float(mass * tables.SPARE_PARTS_LONG_TRIP_SHARE)
    extra_fuel = float(_exact(inp.tankage_t) * tables.FUEL_CELL_T_PER_CARGO_T)
    if inp.burn_day_fuel_t is not None:
        keeping_fuel = float(
            tables.STATION_KEEPING_SHARE * _exact(inp.burn_day_fuel_t) * _exact(inp.station_keeping_days)
        )
    result = {
        "spare_parts_t": spare,
        "spare_parts_long_trip_t": long_trip,
        "extra_fuel_t": extra_fuel,
        "station_keeping_fraction": float(tables.STATION_KEEPING_SHARE),
        "station_keeping_fuel_t": keeping_fuel,
    }
    effects = [set_effect("ship", "cargo_fuel_capacity_t", extra_fuel)]
    return Resolution(result, _stores_summary(result, inp), effects)


def _stores_summary(r: dict, inp) -> str:
    parts = []
    if r["spare_parts_t"] is None:
        parts.append("spare parts: give the ship's mass")
    else:
        parts.append(
            f"spare parts {_t(r['spare_parts_t'])} t (long trips up to {_t(r['spare_parts_long_trip_t'])} t)"
        )
    parts.append(
        f"{_t(inp.tankage_t)} t of cargo space as fuel cells holds {_t(r['extra_fuel_t'])} t of fuel, "
        "burnt first"
    )
    if r["station_keeping_fuel_t"] is None:
        parts.append("station-keeping burns 10% of a burn-day of fuel per day")
    else:
        parts.append(
            f"station-keeping for {_t(inp.station_keeping_days)} days burns "
            f"{_t(r['station_keeping_fuel_t'])} t of fuel"
        )
    return "; ".join(parts) + "; extra ammunition is the GM's call."
