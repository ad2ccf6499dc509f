"""Hyperpulse generators (Seed B, New Equipment; catalogue 12.6)."""

from __future__ import annotations

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import equipment as tables


@procedure(
    """
procedure: hpg.transmit
inputs:
  power_points_assigned: int
  comm_minutes: float
  in_chain: bool = false
  craft: list[object{id: str, distance_m: float}] = []   # other craft near the transmitter
  aimed_at_ship: bool = false
dice: none
result:
  emp_recovery_min: float                    # headline; 5 × comm_minutes
  blinded_ids: list[str]                     # craft within 1000 m: can't fire at / be fired on by the transmitter this turn
  hpg_mass_t: int                            # 50 (Star League mobile 9, data only)
  chain_restricted: bool                     # in_chain: no sensors, fire, maneuver or jump
effects:
  - {"target": "ship", "field": "blinded_until", "op": "set", "value": "end_of_turn"}
  - {"target": "ship", "field": "emp_recovery_until", "op": "set", "value": "now + <emp_recovery_min> min"}
errors:
  - InputError(power_points_assigned): < 4
  - InputError(aimed_at_ship): true (not possible)
""",
    title="HPG: shipboard transmission",
    reference=f"{SEED_B}, Hyperpulse Generators",
    bounds={"comm_minutes": (0, None)},
    units={"power_points_assigned": "PP", "comm_minutes": "min"},
    example={
        "power_points_assigned": 4,
        "comm_minutes": 10,
        "craft": [{"id": "Escort", "distance_m": 800}, {"id": "Tender", "distance_m": 5000}],
    },
)
def transmit(inp, dice) -> Resolution:
    if inp.power_points_assigned < tables.HPG_MIN_POWER_POINTS:
        raise InputError(
            "power_points_assigned",
            f"a shipboard HPG needs at least {tables.HPG_MIN_POWER_POINTS} Power Points",
        )
    if inp.aimed_at_ship:
        raise InputError("aimed_at_ship", "an HPG cannot be aimed at a ship in the same system to blind it")
    for c in inp.craft:
        if c.distance_m < 0:
            raise InputError("craft", f"{c.id}: distance cannot be negative")
    recovery = tables.HPG_RECOVERY_MIN_PER_COMM_MIN * inp.comm_minutes
    blinded = [c.id for c in inp.craft if c.distance_m <= tables.HPG_BLIND_RADIUS_M]
    result = {
        "emp_recovery_min": float(recovery),
        "blinded_ids": blinded,
        "hpg_mass_t": tables.HPG_MASS_T,
        "chain_restricted": inp.in_chain,
    }
    effects = [
        set_effect("ship", "blinded_until", "end_of_turn"),
        set_effect("ship", "emp_recovery_until", f"now + {recovery:g} min"),
    ]
    parts = [f"HPG transmits on {inp.power_points_assigned} PP"]
    if blinded:
        parts.append(
            f"blinded this turn within 1,000 m: {', '.join(blinded)} (no fire to or from the transmitter)"
        )
    else:
        parts.append("the transmitting ship is blinded this turn (no craft within 1,000 m)")
    if inp.in_chain:
        parts.append("in an HPG chain: no sensors, fire, maneuvering or jumping")
    parts.append(f"EMP recovery {recovery:g} min ({inp.comm_minutes:g} min of traffic × 5)")
    return Resolution(result, "; ".join(parts) + ".", effects)
