"""Tele-operated missiles (Seed B, New Equipment; catalogue 12.1-12.2)."""

from __future__ import annotations

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import equipment as tables

from ._common import success


def _fire_factor(inp) -> int | None:
    """The GM's Fire Factor, else the printed one (None: GM-data) [A33]."""
    return (
        inp.fire_factor if inp.fire_factor is not None else tables.MISSILES[inp.missile_type]["fire_factor"]
    )


@procedure(
    """
procedure: telemissile.maneuver
inputs:
  missile_type: str enum {killer_whale_t|white_shark_t|barracuda_t|kraken_t}
  fuel: int|null = null                      # null → table fuel (killer_whale_t 30, white_shark_t 40); GM-data for the others
  tp_requested: int = 0                      # Thrust Points this turn (turning or accelerating)
  los_to_operator: bool = true
  fire_factor: int|null = null               # GM-data; overrides the table (killer_whale_t 4, white_shark_t 3, barracuda_t 2)
dice: none
result:
  fuel_after: int|null                       # headline; fuel − tp_requested (null when fuel unknown)
  tp_spent: int
  armor: int|null                            # = fire factor
  can_maneuver: bool                         # fuel_after > 0 and LOS
effects:
  - {"target": "unit", "field": "fuel", "op": "set", "value": "<fuel_after>"}
errors:
  - InputError(tp_requested): more than the fuel left (or fuel unknown and tp_requested > 0)
  - InputError(los_to_operator): tp_requested > 0 without LOS (the missile keeps its vector)
notes:
  - Launched in the firer's hex with the firer's heading and velocity; moves after DropShips, before fighters; no deceleration; no G-effects; can't attack fighters.
""",
    title="Tele-operated missile: thrust and fuel",
    reference=f"{SEED_B}, Tele-Operated Missiles: Missile Types, Movement",
    bounds={"fuel": (0, None), "tp_requested": (0, None), "fire_factor": (1, None)},
    units={"fuel": "fuel points", "tp_requested": "TP"},
    example={"missile_type": "killer_whale_t", "fuel": 20, "tp_requested": 3},
)
def maneuver(inp, dice) -> Resolution:
    missile = tables.MISSILES[inp.missile_type]
    fuel = inp.fuel if inp.fuel is not None else missile["fuel"]
    tp = inp.tp_requested
    if fuel is None and tp > 0:
        raise InputError(
            "tp_requested",
            f"the {missile['name']}'s fuel is not printed: enter its Fuel Points before it spends thrust",
        )
    if fuel is not None and tp > fuel:
        raise InputError(
            "tp_requested", f"the missile has only {fuel} Fuel Points left; it cannot spend {tp} TP"
        )
    if tp > 0 and not inp.los_to_operator:
        raise InputError(
            "los_to_operator",
            "without line of sight to its operator the missile cannot thrust; it keeps its last vector",
        )
    fuel_after = None if fuel is None else fuel - tp
    armor = _fire_factor(inp)
    can_maneuver = fuel_after is not None and fuel_after > 0 and inp.los_to_operator
    result = {"fuel_after": fuel_after, "tp_spent": tp, "armor": armor, "can_maneuver": can_maneuver}
    effects = [] if fuel_after is None else [set_effect("unit", "fuel", fuel_after)]
    name = missile["name"]
    if fuel is None:
        line = f"{name}: no thrust; its fuel is GM-data, enter it before it maneuvers"
    else:
        line = f"{name}: {tp} TP spent, fuel {fuel} -> {fuel_after}"
        if not inp.los_to_operator:
            line += "; no LOS to its operator, it keeps its vector (its computer still attacks in the target's hex)"
        elif fuel_after == 0:
            line += "; out of fuel, it can no longer maneuver"
    line += f"; armour {armor}" if armor is not None else "; armour = Fire Factor (GM-data)"
    return Resolution(result, line + ".", effects)


@procedure(
    """
procedure: telemissile.attack
inputs:
  missile_type: str enum {killer_whale_t|white_shark_t|barracuda_t|kraken_t} = "killer_whale_t"
  fire_factor: int|null = null
  tp_used_this_turn: int = 0
  armor_boxes_lost: int = 0
  fuel_left: int                             # after this turn's thrust [A33]
  damage_mode: str enum {fire_factor|remaining_armor} = "fire_factor"   # [A33]
  survived_defensive_fire: bool = true
dice:
  - attack: 2D6  [survived_defensive_fire]
result:
  hit: bool                                  # headline
  tn: int                                    # 2 + tp_used_this_turn + armor_boxes_lost + (6 if fuel_left == 0)
  roll: int|null
  damage: int                                # on a hit: fire factor (or fire factor − armor_boxes_lost)
effects:
  - {"target": "ship", "field": "damage", "op": "add", "value": "<damage>"}   [hit]
errors:
  - InputError(fire_factor): unknown for the type (kraken_t) and not given
""",
    title="Tele-operated missile: attack",
    reference=f"{SEED_B}, Tele-Operated Missiles: Combat",
    bounds={
        "fire_factor": (1, None),
        "tp_used_this_turn": (0, None),
        "armor_boxes_lost": (0, None),
        "fuel_left": (0, None),
    },
    units={"tp_used_this_turn": "TP", "fuel_left": "fuel points"},
    example={"missile_type": "killer_whale_t", "tp_used_this_turn": 2, "armor_boxes_lost": 1, "fuel_left": 5},
)
def attack(inp, dice) -> Resolution:
    missile = tables.MISSILES[inp.missile_type]
    ff = _fire_factor(inp)
    if ff is None:
        raise InputError("fire_factor", f"the {missile['name']}'s Fire Factor is not printed: enter it")
    if inp.armor_boxes_lost > ff:
        raise InputError(
            "armor_boxes_lost", f"the {missile['name']} has only {ff} armour boxes (armour = Fire Factor)"
        )
    if inp.armor_boxes_lost == ff and inp.survived_defensive_fire:
        raise InputError(
            "armor_boxes_lost",
            "every armour box is crossed off: the missile was destroyed by defensive fire and cannot attack",
        )
    tn = (
        tables.MISSILE_BASE_TN
        + inp.tp_used_this_turn
        + inp.armor_boxes_lost
        + (tables.MISSILE_NO_FUEL_MODIFIER if inp.fuel_left == 0 else 0)
    )
    roll = None
    hit = False
    damage = 0
    if inp.survived_defensive_fire:
        roll = dice.total("attack", 2)
        hit = success(roll, tn)
        if hit:
            damage = ff if inp.damage_mode == "fire_factor" else ff - inp.armor_boxes_lost
    result = {"hit": hit, "tn": tn, "roll": roll, "damage": damage}
    effects = [add_effect("ship", "damage", damage)] if hit else []
    name = missile["name"]
    if roll is None:
        summary = f"The {name} was destroyed by defensive fire before it could attack."
    elif hit:
        summary = f"{name} attack roll {roll} (needs {tn}+): hit for {damage} damage."
    else:
        summary = f"{name} attack roll {roll} (needs {tn}+): miss; it stays in the target hex and can be flown again."
    return Resolution(result, summary, effects)
