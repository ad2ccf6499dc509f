"""Fire (Seed B: Intentional Fires, section 2 of the catalogue)."""

from __future__ import annotations

from rules.registry import SEED_B, Resolution, procedure
from rules.tables import terrain as tables


@procedure(
    """
procedure: fire.intentional
inputs:
  weather: list[str enum {rain|thick_fog|falling_snow|blizzard|high_winds}] = []
dice: none
result:
  start_mod: int                             # headline; +2 once for any of rain/fog/snow/blizzard, −1 for high winds
  spread_mod: int                            # +1 once for any of rain/fog/snow/blizzard
  downwind_hexes_per_turn: int|null          # 2 with high winds; null = standard BTC:RoW spread
effects: none
errors: none
""",
    title="Fire: weather modifiers for intentional fires",
    reference=f"{SEED_B}, Intentional Fires",
    example={"weather": ["rain", "high_winds"]},
)
def intentional(inp, dice) -> Resolution:
    damp = bool(tables.DAMPENING_WEATHER.intersection(inp.weather))
    windy = "high_winds" in inp.weather
    start_mod = (tables.DAMPENING_START_MOD if damp else 0) + (tables.HIGH_WINDS_START_MOD if windy else 0)
    spread_mod = tables.DAMPENING_SPREAD_MOD if damp else 0
    downwind = tables.HIGH_WINDS_DOWNWIND_HEXES if windy else None
    result = {
        "start_mod": start_mod,
        "spread_mod": spread_mod,
        "downwind_hexes_per_turn": downwind,
    }
    summary = f"Intentional fire: fire-start roll {start_mod:+d}, spread rolls {spread_mod:+d}"
    if downwind is not None:
        summary += f"; the fire spreads {downwind} hexes per turn downwind into flammable hexes"
    else:
        summary += "; standard BTC:RoW spread"
    return Resolution(result, summary + ".", ())
