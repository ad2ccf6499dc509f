"""G-forces (Seed B, section 11 of the catalogue): thresholds and tactical use."""

from __future__ import annotations

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import gforce as tables


def _g(value: float) -> str:
    return f"{value:g} G"


@procedure(
    """
procedure: gforce.threshold
inputs:
  thrust_points_this_turn: int
  g_suit: bool = false
  role: str enum {aerospace_pilot|crew|passenger} = "crew"
  consecutive_turns_over_secondary: int = 0  # before this turn
  extended_exposure: bool = false            # G-suit "extended periods" option: primary 6 G
dice: none
result:
  blackout: bool                             # headline; g > primary_g
  g: float                                   # thrust_points_this_turn / 2
  primary_g: float                           # 6, or 11 with a G-suit [A19]
  secondary_g: float                         # pilot 6, crew/passenger 3
  penalty: int                               # to-hit and PSR for the rest of the turn: streak when g > secondary_g and no blackout, else 0
  streak: int                                # consecutive turns over secondary including this one (0 when not over)
effects:
  - {"target": "character", "field": "unconscious_until", "op": "set", "value": "end_phase_of_next_turn"}   [blackout]
  - {"target": "character", "field": "g_streak", "op": "set", "value": "<streak>"}
errors: none
""",
    title="G-forces: blackout and fatigue thresholds",
    reference=f"{SEED_B}, Effects of Gravitational Forces on Characters; G-Force Thresholds Table",
    bounds={"thrust_points_this_turn": (0, None), "consecutive_turns_over_secondary": (0, None)},
    units={"thrust_points_this_turn": "TP"},
    example={"thrust_points_this_turn": 10, "role": "crew", "consecutive_turns_over_secondary": 1},
)
def threshold(inp, dice) -> Resolution:
    g = inp.thrust_points_this_turn / tables.TP_PER_G
    if not inp.g_suit:
        primary = tables.PRIMARY_NO_SUIT
    elif inp.extended_exposure:
        primary = tables.PRIMARY_G_SUIT_EXTENDED
    else:
        primary = tables.PRIMARY_G_SUIT
    secondary = tables.SECONDARY[inp.role]
    blackout = g > primary
    over_secondary = g > secondary
    streak = inp.consecutive_turns_over_secondary + 1 if over_secondary else 0
    penalty = streak if over_secondary and not blackout else 0
    result = {
        "blackout": blackout,
        "g": g,
        "primary_g": float(primary),
        "secondary_g": float(secondary),
        "penalty": penalty,
        "streak": streak,
    }
    effects = []
    if blackout:
        effects.append(set_effect("character", "unconscious_until", "end_phase_of_next_turn"))
    effects.append(set_effect("character", "g_streak", streak))
    head = f"{inp.thrust_points_this_turn} TP = {_g(g)} for a {tables.ROLE_NAMES[inp.role]}"
    head += " in a G-suit" if inp.g_suit else " without a G-suit"
    if blackout:
        text = (
            f"{head}: above the {_g(primary)} primary threshold, blackout until the End Phase of "
            "next turn; the craft keeps its heading and velocity"
        )
    elif over_secondary:
        text = (
            f"{head}: above the {_g(secondary)} secondary threshold for turn {streak} in a row, "
            f"+{penalty} to-hit and Piloting Skill rolls for the rest of the turn"
        )
    else:
        text = f"{head}: within the {_g(secondary)} secondary threshold, no effect"
    streak_change = f" (G streak {inp.consecutive_turns_over_secondary} -> {streak})"
    return Resolution(result, text + streak_change + ".", effects)


@procedure(
    """
procedure: gforce.tactical
inputs:
  mode: str enum {mechwarrior|boarding}
  thrust_points: int = 0
  ref_failed: bool = true                    # mechwarrior: the character failed the REF roll
  boarding_roll: int|null = null             # boarding: the boarding-action dice result
dice:
  - bruise: kD6  [mechwarrior and ref_failed; k = thrust_points]
result:
  bruise_damage: int                         # headline
  adjusted_roll: int|null                    # boarding: max(2, boarding_roll − 2)
  column_shift_left: int                     # boarding: 2 columns toward the defender, else 0
effects:
  - {"target": "character", "field": "bruise_damage", "op": "add", "value": "<bruise_damage>"}   [> 0]
errors:
  - InputError(boarding_roll): boarding mode without it
""",
    title="G-forces: tactical use of unexpected G-forces",
    reference=f"{SEED_B}, Tactical Use of Unexpected G-Forces",
    bounds={"thrust_points": (0, tables.MAX_THRUST_POINTS)},
    units={"thrust_points": "TP"},
    example={"mode": "mechwarrior", "thrust_points": 3},
)
def tactical(inp, dice) -> Resolution:
    if inp.mode == "boarding":
        if inp.boarding_roll is None:
            raise InputError("boarding_roll", "boarding mode needs the boarding-action dice result")
        adjusted = max(tables.BOARDING_MIN_RESULT, inp.boarding_roll + tables.BOARDING_ROLL_MODIFIER)
        result = {
            "bruise_damage": 0,
            "adjusted_roll": adjusted,
            "column_shift_left": tables.BOARDING_COLUMN_SHIFT,
        }
        summary = (
            f"Boarding action: shift the combat ratio {tables.BOARDING_COLUMN_SHIFT} columns left "
            f"(toward the defender); roll {inp.boarding_roll} -> {adjusted}."
        )
        return Resolution(result, summary, [])
    bruise = 0
    if not inp.ref_failed:
        summary = "The character makes the REF roll and keeps their footing: no bruise damage."
    elif inp.thrust_points == 0:
        summary = "No Thrust Points spent: no bruise damage."
    else:
        bruise = dice.total("bruise", inp.thrust_points)
        summary = (
            f"The character fails the REF roll and falls: {inp.thrust_points}D6 bruise damage = {bruise}."
        )
    result = {"bruise_damage": bruise, "adjusted_roll": None, "column_shift_left": 0}
    effects = [add_effect("character", "bruise_damage", bruise)] if bruise > 0 else []
    return Resolution(result, summary, effects)
