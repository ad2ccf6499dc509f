"""Aerospace fighters (Seed B, section 10 of the catalogue: Overburn)."""

from __future__ import annotations

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import fighter as tables

from ._common import lookup_band


@procedure(
    """
procedure: fighter.overburn
inputs:
  heat_sinks: int
  heat_generated_this_turn: int
  prev_overburn: int = 0                     # carried overburn 0..15
  shutdown: bool = false                     # shut down before this End Phase
  strict: bool = false                       # [A22]: refuse heat that would pass 15
  fighters: int = 1                          # fighters left in the unit
dice:
  - shutdown_check: 1D6  [new overburn 8..15, also while already shut down] [A22]
result:
  overburn: int                              # headline; min(15, max(0, prev + heat − sinks))
  modifier: int                              # Control/to-hit from next turn: 0-1 → 0, 2-4 → 1, 5-10 → 2, 11-15 → 3
  check_roll: int|null
  shutdown: bool                             # after this End Phase; ends when overburn is 0
  fighter_destroyed: bool                    # 14-15 and a 6
  heat_discarded: int                        # heat above the cap of 15
effects:
  - {"target": "fighter", "field": "overburn", "op": "set", "value": "<overburn>"}
  - {"target": "fighter", "field": "shutdown", "op": "set", "value": "<shutdown>"}
  - {"target": "fighter", "field": "armor_rows", "op": "add", "value": -1}   [fighter_destroyed; random row]
errors:
  - InputError(heat_generated_this_turn): strict and prev + heat − sinks > 15
notes:
  - Shutdown check: 8-10 shuts down on 6; 11-13 on 5-6; 14-15 on 4-5, and on 6 one fighter is destroyed and the rest shut down.
""",
    title="Fighter: overburn (End Phase)",
    reference=f"{SEED_B}, Overburn; Overburn Effects Table",
    bounds={
        "heat_sinks": (0, None),
        "heat_generated_this_turn": (0, None),
        "prev_overburn": (0, tables.OVERBURN_CAP),
        "fighters": (1, None),
    },
    example={"heat_sinks": 12, "heat_generated_this_turn": 26, "fighters": 2},
)
def overburn(inp, dice) -> Resolution:
    raw = inp.prev_overburn + inp.heat_generated_this_turn - inp.heat_sinks
    if inp.strict and raw > tables.OVERBURN_CAP:
        raise InputError(
            "heat_generated_this_turn",
            f"would bring the overburn to {raw}; no fighter may overburn by more than {tables.OVERBURN_CAP}",
        )
    # Spare sink capacity is never carried forward; heat above the cap is thrown away [A22].
    ob = min(tables.OVERBURN_CAP, max(0, raw))
    discarded = max(0, raw - tables.OVERBURN_CAP)
    modifier = lookup_band(tables.MODIFIER_BANDS, ob)
    check = lookup_band(tables.SHUTDOWN_BANDS, ob)
    shutdown = inp.shutdown and ob > 0
    destroyed = False
    roll = None
    if check is not None:
        roll = dice.total("shutdown_check", 1)
        shuts, destroys, _text = check
        if roll in destroys:
            destroyed = shutdown = True
        elif roll in shuts:
            shutdown = True
    effects = [
        set_effect("fighter", "overburn", ob),
        set_effect("fighter", "shutdown", shutdown),
    ]
    if destroyed:
        effects.append(add_effect("fighter", "armor_rows", -1))
    result = {
        "overburn": ob,
        "modifier": modifier,
        "check_roll": roll,
        "shutdown": shutdown,
        "fighter_destroyed": destroyed,
        "heat_discarded": discarded,
    }
    return Resolution(result, _summary(inp, raw, result), effects)


def _summary(inp, raw: int, r: dict) -> str:
    text = (
        f"Overburn {inp.prev_overburn} -> {r['overburn']} "
        f"({inp.prev_overburn} + {inp.heat_generated_this_turn} heat - {inp.heat_sinks} sinks = {raw}"
    )
    if r["heat_discarded"]:
        text += f"; capped at {tables.OVERBURN_CAP}, {r['heat_discarded']} heat thrown away"
    text += ")"
    text += (
        f"; next turn +{r['modifier']} to Control and to-hit rolls"
        if r["modifier"]
        else "; no overburn effect"
    )
    if r["check_roll"] is not None:
        rule = lookup_band(tables.SHUTDOWN_BANDS, r["overburn"])[2]
        text += f". Shutdown check ({rule}): {r['check_roll']}"
        if r["fighter_destroyed"]:
            left = inp.fighters - 1
            if left:
                text += (
                    f": one fighter DESTROYED (cross off a random armour row); the remaining {left} shut down"
                )
            else:
                text += ": the unit's last fighter is DESTROYED"
        elif r["shutdown"] and not inp.shutdown:
            text += ": the unit SHUTS DOWN (no weapons, no thrust; sinks keep working until overburn is 0)"
        elif r["shutdown"]:
            text += ": the unit stays shut down"
        else:
            text += ": no shutdown"
    elif r["shutdown"]:
        text += ". The unit stays shut down until its overburn is 0"
    elif inp.shutdown:
        text += ". Overburn is 0: the unit is no longer shut down"
    return text + "."
