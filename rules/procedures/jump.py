"""Jump drives (Seed B, section 10 of the catalogue)."""

from __future__ import annotations

from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import jump as tables

from ._common import lookup_band, table_entry


@procedure(
    """
procedure: jump.malfunction
inputs:
  hours_since_last_jump: float|null = null   # null = never jumped
  charged_from_reactor: bool = false
  kf_integrity: int|null = null              # current; null = not tracked (kf_integrity_after null)
  kf_integrity_max: int|null = null          # informational; detection always uses it [A4]
  failed_jump_table: table2d6[str]|null = null   # GM-data (BattleSpace p. 46) [A17]
  static_discharge_keeps_charge: bool = false    # [A21] toggle for 14-15
dice:
  - malfunction: 2D6
  - effect: 2D6  [mishap]
  - effect_d6: 1D6  [the effect dice show a natural 12]
  - failed_jump: 2D6  [effect "failed_jump_table" and failed_jump_table != null]
result:
  mishap: bool                               # headline; malfunction + modifier ≥ 12
  modifier: int                              # one time band (≤1 h +4, ≤6 +3, ≤12 +2, ≤36 +1, else 0) + 2 if reactor-charged [A20]
  malfunction_total: int
  effect_total: int|null                     # (natural 12 → 11 + 1D6, else the 2D6) + modifier
  effect: str enum {none|no_effect|micro_fractures|helium_seal|drive_failure|failed_jump_table|catastrophic}   # none = no mishap; 2-8, 9-11, 12-13, 14-15, 16-17, 18+
  jump_proceeds: bool|null                   # null = decided by the Failed Jump Table / GM
  charge_lost: bool
  kf_integrity_after: int|null
  helium_tanks_destroyed: bool
  failed_jump_roll: int|null
  failed_jump_result: str|null
effects:
  - {"target": "ship", "field": "kf_integrity", "op": "add", "value": -1}   [micro_fractures]
  - {"target": "ship", "field": "drive_charged", "op": "set", "value": false}   [charge_lost, or the jump proceeds]
  - {"target": "ship", "field": "helium_tank_boxes", "op": "set", "value": "all_crossed"}   [helium_seal]
  - {"target": "ship", "field": "last_jump_at", "op": "set", "value": "now"}   [jump_proceeds]
  - {"target": "ship", "field": "charged_from_reactor", "op": "set", "value": false}   [jump_proceeds]
errors:
  - InputError(hours_since_last_jump): negative
""",
    title="Jump: drive-system malfunction roll",
    reference=f"{SEED_B}, Drive-System Malfunctions; Malfunction Roll Modifiers Table; "
    "Drive-System Malfunctions Table",
    bounds={"hours_since_last_jump": (0, None), "kf_integrity": (0, None), "kf_integrity_max": (0, None)},
    units={"hours_since_last_jump": "h"},
    example={
        "hours_since_last_jump": 5,
        "charged_from_reactor": True,
        "kf_integrity": 4,
        "kf_integrity_max": 4,
    },
)
def malfunction(inp, dice) -> Resolution:
    hours = inp.hours_since_last_jump
    modifier = (0 if hours is None else lookup_band(tables.TIME_BANDS, hours)) + (
        tables.REACTOR_CHARGE_MODIFIER if inp.charged_from_reactor else 0
    )
    malfunction_total = dice.total("malfunction", 2)
    mishap = malfunction_total + modifier >= tables.MISHAP_AT
    effect = "none"
    effect_total = failed_roll = failed_result = None
    jump_proceeds: bool | None = True
    charge_lost = helium = False
    kf_after = inp.kf_integrity
    if mishap:
        effect_dice = dice.total("effect", 2)
        if effect_dice == 12:
            effect_dice = 11 + dice.total("effect_d6", 1)
        effect_total = effect_dice + modifier
        effect = lookup_band(tables.EFFECT_BANDS, effect_total)
        if effect == "micro_fractures":
            kf_after = None if inp.kf_integrity is None else max(0, inp.kf_integrity - 1)
            # [A21] integrity reaching 0 aborts this jump; the charge is kept.
            jump_proceeds = kf_after != 0
        elif effect == "helium_seal":
            jump_proceeds, charge_lost, helium = False, True, True
        elif effect == "drive_failure":
            jump_proceeds, charge_lost = False, not inp.static_discharge_keeps_charge
        elif effect == "failed_jump_table":
            jump_proceeds = None
            if inp.failed_jump_table is not None:
                failed_roll = dice.total("failed_jump", 2)
                failed_result = table_entry(inp.failed_jump_table, failed_roll, "failed_jump_table")
    effects = []
    if effect == "micro_fractures" and inp.kf_integrity is not None:
        effects.append(add_effect("ship", "kf_integrity", -1))
    if charge_lost or jump_proceeds:
        effects.append(set_effect("ship", "drive_charged", False))
    if helium:
        effects.append(set_effect("ship", "helium_tank_boxes", "all_crossed"))
    if jump_proceeds:
        effects.append(set_effect("ship", "last_jump_at", "now"))
        effects.append(set_effect("ship", "charged_from_reactor", False))
    result = {
        "mishap": mishap,
        "modifier": modifier,
        "malfunction_total": malfunction_total,
        "effect_total": effect_total,
        "effect": effect,
        "jump_proceeds": jump_proceeds,
        "charge_lost": charge_lost,
        "kf_integrity_after": kf_after,
        "helium_tanks_destroyed": helium,
        "failed_jump_roll": failed_roll,
        "failed_jump_result": failed_result,
    }
    return Resolution(result, _malfunction_summary(result, inp), effects)


def _malfunction_summary(r: dict, inp) -> str:
    roll = f"Malfunction roll {r['malfunction_total']}{r['modifier']:+d}"
    if not r["mishap"]:
        return f"{roll}: no mishap; the jump goes ahead."
    text = tables.EFFECT_TEXT[r["effect"]]
    line = f"{roll}: mishap; effect {r['effect_total']}: {text}"
    if r["effect"] == "micro_fractures" and inp.kf_integrity is not None:
        line += f"; K-F integrity {inp.kf_integrity} -> {r['kf_integrity_after']}"
    if r["effect"] == "failed_jump_table":
        if r["failed_jump_result"] is None:
            return line + "; the GM decides the outcome on the Failed Jump Table (BattleSpace p. 46)."
        return line + f"; Failed Jump Table {r['failed_jump_roll']}: {r['failed_jump_result']}."
    if r["jump_proceeds"]:
        return line + "; the jump goes ahead."
    return line + (
        "; the jump is aborted, charge lost." if r["charge_lost"] else "; the jump is aborted, charge kept."
    )
