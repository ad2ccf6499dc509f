"""Heat (Seed B: Expanded Heat Point Table and the heat parts of Magma, section 2 of the catalogue)."""

from __future__ import annotations

import math
from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure
from rules.tables import terrain as tables


def _temperature_heat(ambient_c: float | None, mode: str) -> int:
    """-1 per 10 °C below -30 °C, +1 per 10 °C above 50 °C; whole steps or, in
    fraction mode, any part of a step counts [A39]. Exact on the decimal as entered."""
    if ambient_c is None:
        return 0
    t = Fraction(str(ambient_c))
    rounding = math.floor if mode == "floor" else math.ceil
    if t < tables.COLD_LIMIT_C:
        return -rounding((tables.COLD_LIMIT_C - t) / tables.TEMPERATURE_STEP_C)
    if t > tables.HOT_LIMIT_C:
        return rounding((t - tables.HOT_LIMIT_C) / tables.TEMPERATURE_STEP_C)
    return 0


@procedure(
    """
procedure: heat.expanded
inputs:
  movement: str enum {none|walk|run|jump} = "none"
  jump_hexes: int = 0                        # movement == jump
  stand_attempts: int = 0
  weapon_heat: int = 0
  single_sinks_operational: int = 0
  single_sinks_underwater: int = 0
  double_sinks_operational: int = 0
  double_sinks_underwater: int = 0
  fusion_engine_hits: int = 0                # 0..2
  ice_engine_hits: int = 0                   # 0..3, never adds heat
  ambient_c: float|null = null
  temperature_mode: str enum {floor|fraction} = "floor"   # [A39]
  magma_end: str enum {none|crust|liquid} = "none"
  magma_crust_exited: int = 0
  magma_liquid_exited: int = 0
  other_heat: int = 0                        # GM-data rows (snow/rain reductions) [A9]
dice: none
result:
  heat: int                                  # headline; net heat this turn (may be negative)
  movement_heat: int                         # walk 1, run 2, jump max(3, jump_hexes)
  engine_heat: int                           # 0 / 5 / 10
  sink_dissipation: int                      # single + 2×double operational + underwater_bonus
  underwater_bonus: int                      # min(6, single_underwater + 2×double_underwater)
  temperature_heat: int                      # −whole 10 °C steps below −30, +steps above 50 (fraction mode: ceil)
  magma_heat: int
effects:
  - {"target": "unit", "field": "heat", "op": "add", "value": "<heat>"}
errors:
  - InputError(single_sinks_underwater|double_sinks_underwater): more than operational
  - InputError(fusion_engine_hits): outside 0..2
  - InputError(jump_hexes): movement == jump with jump_hexes < 1
notes:
  - heat = movement_heat + stand_attempts + weapon_heat + engine_heat − sink_dissipation + temperature_heat + magma_heat + other_heat.
""",
    title="Heat: Expanded Heat Point Table",
    reference=f"{SEED_B}, Expanded Heat Point Table; Magma",
    bounds={
        "jump_hexes": (0, None),
        "stand_attempts": (0, None),
        "weapon_heat": (0, None),
        "single_sinks_operational": (0, None),
        "single_sinks_underwater": (0, None),
        "double_sinks_operational": (0, None),
        "double_sinks_underwater": (0, None),
        "fusion_engine_hits": (0, 2),
        "ice_engine_hits": (0, 3),
        "ambient_c": (-273.15, None),
        "magma_crust_exited": (0, None),
        "magma_liquid_exited": (0, None),
    },
    units={"ambient_c": "°C"},
    example={
        "movement": "run",
        "weapon_heat": 14,
        "single_sinks_operational": 10,
        "single_sinks_underwater": 2,
        "fusion_engine_hits": 1,
        "ambient_c": 65,
        "magma_end": "crust",
        "magma_crust_exited": 1,
    },
)
def expanded(inp, dice) -> Resolution:
    if inp.single_sinks_underwater > inp.single_sinks_operational:
        raise InputError(
            "single_sinks_underwater",
            f"{inp.single_sinks_underwater} heat sinks under water, but only "
            f"{inp.single_sinks_operational} work",
        )
    if inp.double_sinks_underwater > inp.double_sinks_operational:
        raise InputError(
            "double_sinks_underwater",
            f"{inp.double_sinks_underwater} double heat sinks under water, but only "
            f"{inp.double_sinks_operational} work",
        )
    if inp.movement == "jump" and inp.jump_hexes < 1:
        raise InputError("jump_hexes", "a jump covers at least 1 hex")
    if inp.movement == "jump":
        movement_heat = max(tables.JUMP_HEAT_MIN, inp.jump_hexes)
    else:
        movement_heat = tables.MOVEMENT_HEAT[inp.movement]
    engine_heat = tables.ENGINE_HEAT[inp.fusion_engine_hits]  # ICE hits never add heat
    underwater_bonus = min(
        tables.UNDERWATER_BONUS_MAX,
        inp.single_sinks_underwater + tables.DOUBLE_SINK_FACTOR * inp.double_sinks_underwater,
    )
    sink_dissipation = (
        inp.single_sinks_operational
        + tables.DOUBLE_SINK_FACTOR * inp.double_sinks_operational
        + underwater_bonus
    )
    temperature_heat = _temperature_heat(inp.ambient_c, inp.temperature_mode)
    magma_heat = (
        tables.MAGMA_END_HEAT[inp.magma_end]
        + tables.MAGMA_EXIT_HEAT["crust"] * inp.magma_crust_exited
        + tables.MAGMA_EXIT_HEAT["liquid"] * inp.magma_liquid_exited
    )
    heat = (
        movement_heat
        + inp.stand_attempts
        + inp.weapon_heat
        + engine_heat
        - sink_dissipation
        + temperature_heat
        + magma_heat
        + inp.other_heat
    )
    result = {
        "heat": heat,
        "movement_heat": movement_heat,
        "engine_heat": engine_heat,
        "sink_dissipation": sink_dissipation,
        "underwater_bonus": underwater_bonus,
        "temperature_heat": temperature_heat,
        "magma_heat": magma_heat,
    }
    return Resolution(result, _summary(result, inp), [add_effect("unit", "heat", heat)])


def _summary(r: dict, inp) -> str:
    terms = [
        ("movement", r["movement_heat"]),
        ("standing up", inp.stand_attempts),
        ("weapons", inp.weapon_heat),
        ("engine", r["engine_heat"]),
        ("heat sinks", -r["sink_dissipation"]),
        ("temperature", r["temperature_heat"]),
        ("magma", r["magma_heat"]),
        ("other", inp.other_heat),
    ]
    shown = ", ".join(f"{name} {value:+d}" for name, value in terms if value)
    return f"Heat this turn {r['heat']:+d}" + (f" ({shown})." if shown else ".")
