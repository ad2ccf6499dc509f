"""Weather (Seed B: Advanced Terrain and Weather Rules, section 2 of the catalogue)."""

from __future__ import annotations

import math

from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import terrain as tables

from ._common import success


@procedure(
    """
procedure: weather.earthquake
inputs:
  strength: int                              # 1..5
  is_quad: bool = false
  psr_tn: int|null = null                    # the 'Mech's PSR target number before the quake; when given the Movement-Phase PSR is rolled
dice:
  - psr: 2D6  [psr_tn != null]
result:
  psr_mod: int                               # headline; +strength, quads ceil(strength/2) − 2 [A44]
  to_hit_mod: int                            # +strength for all fire this turn
  psr_target: int|null                       # psr_tn + psr_mod
  fell: bool|null
effects:
  - {"target": "unit", "field": "prone", "op": "set", "value": true}   [fell]
errors:
  - InputError(strength): outside 1..5
""",
    title="Weather: earthquake tremor",
    reference=f"{SEED_B}, Earthquake",
    bounds={"strength": (1, 5)},
    example={"strength": 3, "is_quad": True, "psr_tn": 5},
)
def earthquake(inp, dice) -> Resolution:
    strength = inp.strength
    # [A44] quads take half the penalty (round up), combined with their usual -2.
    psr_mod = math.ceil(strength / 2) + tables.QUAD_PSR_MOD if inp.is_quad else strength
    psr_target = fell = None
    if inp.psr_tn is not None:
        psr_target = inp.psr_tn + psr_mod
        roll = dice.total("psr", 2)
        fell = not success(roll, psr_target)
    result = {
        "psr_mod": psr_mod,
        "to_hit_mod": strength,
        "psr_target": psr_target,
        "fell": fell,
    }
    effects = [set_effect("unit", "prone", True)] if fell else []
    who = "quad 'Mech" if inp.is_quad else "'Mech"
    summary = f"Earthquake strength {strength}: to-hit {strength:+d} for all fire; {who} PSR {psr_mod:+d}"
    if psr_target is not None:
        summary += f"; PSR {roll} vs {psr_target}: " + (
            "the 'Mech falls (standard fall damage)" if fell else "stays standing"
        )
    return Resolution(result, summary + ".", effects)


@procedure(
    """
procedure: weather.missile_hits_modifier
inputs:
  wind: str enum {none|moderate|high} = "none"
  blizzard: bool = false
  roll: int|null = null                      # Missile Hits Table roll 2..12; null → rolled
dice:
  - missile_hits: 2D6  [roll == null]
result:
  all_miss: bool                             # headline; modified roll < 2
  modifier: int                              # 0, −2 (moderate), −4 (high or blizzard; worst only) [A40]
  modified_roll: int
  table_row: int|null                        # modified_roll when ≥ 2, else null
effects: none
errors:
  - InputError(roll): outside 2..12
""",
    title="Weather: winds and blizzard on the Missile Hits Table",
    reference=f"{SEED_B}, Winds; Blizzard",
    bounds={"roll": (2, 12)},
    example={"wind": "high"},
)
def missile_hits_modifier(inp, dice) -> Resolution:
    # [A40] heavy = high = blizzard = -4; they do not stack, the worst applies.
    modifier = tables.WIND_MISSILE_MOD[inp.wind]
    if inp.blizzard:
        modifier = min(modifier, tables.BLIZZARD_MISSILE_MOD)
    roll = inp.roll if inp.roll is not None else dice.total("missile_hits", 2)
    modified = roll + modifier
    all_miss = modified < tables.MISSILE_TABLE_MIN
    result = {
        "all_miss": all_miss,
        "modifier": modifier,
        "modified_roll": modified,
        "table_row": None if all_miss else modified,
    }
    line = f"Missile Hits roll {roll}{modifier:+d} = {modified}"
    summary = line + (": every missile misses." if all_miss else f": read the {modified} row.")
    return Resolution(result, summary, ())
