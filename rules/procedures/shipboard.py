"""Shipboard combat (Seed B, section 3 of the catalogue).

Each step of a shot is one call (C.9): missed shot -> bulkhead hit -> critical hit,
decompression or ricochet; the caller passes the carried values (excess, capacity
left) back in.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.schema import words
from rules.tables import shipboard as tables

from ._common import lookup_band, success


def _exact(x: float) -> Fraction:
    """A GM-given multiplier as an exact fraction (0.29 means 29/100, not the float)."""
    return Fraction(x) if isinstance(x, int) else Fraction(repr(x))


def _step1_damage(given: int | None, damage_dice: int, damage_bonus: int, dice) -> int:
    """Step 1 damage: a known value, or the weapon's dice plus its bonus (never below 0)."""
    if given is not None:
        return given
    return max(0, dice.total("damage", damage_dice) + damage_bonus)


def _check_step1_inputs(given: int | None, given_field: str, damage_dice: int, damage_bonus: int) -> None:
    if (given is None) == (damage_dice == 0):
        raise InputError(
            given_field,
            f"give either the {words(given_field)} (damage already known) or the damage dice "
            "(the weapon's D6), not " + ("both" if given is not None else "neither"),
        )
    if given is not None and damage_bonus != 0:
        raise InputError(
            "damage_bonus",
            f"only applies to rolled damage; the {words(given_field)} is the full damage including any bonus",
        )


def _check_ammo(ammo: str, weapon_kind: str) -> None:
    if ammo in tables.SPECIALTY_AMMO and weapon_kind != "slug":
        raise InputError(
            "ammo",
            f"{ammo.upper() if ammo == 'aet' else ammo} rounds exist only for slug throwers, "
            f"not {weapon_kind.replace('_', ' ')} weapons",
        )


def _capacity_before(field: str, capacity_left: int | None, capacity: int) -> int:
    if capacity_left is None:
        return capacity
    if capacity_left <= 0:
        raise InputError(
            field,
            f"is {capacity_left}: the surface is already destroyed. A shot through it is a TN 8 attack "
            "on whoever is behind it: roll it as a ricochet, with reduction off",
        )
    if capacity_left > capacity:
        raise InputError(field, f"cannot be more than the surface's capacity ({capacity})")
    return capacity_left


def _hit_surface(
    *,
    surface: str,
    capacity_left: int,
    threshold: int,
    kind: str,
    raw: int,
    armor_rating: Fraction,
    ammo: str,
    weapon_kind: str,
    pressure_boundary: bool,
    frangible_capacity_damage: bool = False,
) -> dict:
    """Bulkheads and Objects Steps 2-4 for ``raw`` Step 1 damage."""
    potential = raw // 2 if ammo == "aet" else raw  # [A26]
    inflicted = math.floor(potential * armor_rating)  # [A23]
    frangible = ammo == "frangible"
    capacity_damage = 0 if frangible and not frangible_capacity_damage else inflicted  # [A27]
    left = capacity_left - capacity_damage  # not clamped (C.9)
    destroyed = left <= 0
    pierced = inflicted > threshold and not frangible  # strictly greater [A24]
    excess = inflicted - threshold if pierced else 0
    steps = []
    if pierced and surface in tables.CRITICAL_COLUMN:
        steps.append("critical")
    if pierced and pressure_boundary:
        steps.append("decompression")
    if destroyed and excess > 0:
        steps.append("pass_through")  # destruction wins over the ricochet check [A60]
    elif excess > 0 and kind != "bulkhead" and weapon_kind in tables.RICOCHET_WEAPONS:
        steps.append("ricochet")
    return {
        "damage_potential": potential,
        "inflicted": inflicted,
        "capacity_damage": capacity_damage,
        "capacity_left": left,
        "destroyed": destroyed,
        "pierced": pierced,
        "excess": excess,
        "next_steps": steps,
    }


def _surface_line(label: str, raw: int, hit: dict, threshold: int, capacity_before: int) -> str:
    line = f"{label}: {raw} damage -> {hit['inflicted']} inflicted vs threshold {threshold}"
    line += f": pierced, excess {hit['excess']}" if hit["pierced"] else ": not pierced"
    line += f"; capacity {capacity_before} -> {hit['capacity_left']}"
    if hit["destroyed"]:
        line += " (destroyed)"
    return line


def _next_steps_text(steps: list[str]) -> str:
    if not steps:
        return "nothing further"
    return "; ".join(tables.NEXT_STEP_TEXT[s] for s in steps)


# --------------------------------------------------------------------------- 3.1


# The second roll cannot change the margin of the miss; which candidate is hit, only the id.
SECOND_ROLL_KEYS = ("outcome", "second_roll", "second_success", "character_id")


@procedure(
    """
procedure: shipboard.missed_shot
inputs:
  tn: int
  roll: int|null = null                      # the first to-hit roll (2..12); null → rolled
  weapon_class: str enum {ballistic|energy} = "ballistic"   # carried to the bulkhead step (energy never ricochets)
  candidates: list[object{id: str, distance_m: float}] = []   # characters near the intended target; the caller leaves out the firer and anyone directly behind the firer unless the shot comes off a bounce [A29]
dice:
  - to_hit: 2D6  [roll == null]
  - second: 2D6  [the first roll missed (< tn)]
  - pick: 1dN  [second ≥ tn and N ≥ 2 candidates have distance_m ≤ mof; k picks the k-th of them in input order]
result:
  outcome: str enum {hit_target|character|bulkhead}   # headline
  mof: int|null                              # tn − first roll when it missed
  second_roll: int|null
  second_success: bool|null
  radius_m: int|null                         # == mof
  character_id: str|null
effects: none
errors:
  - InputError(roll): outside 2..12
notes:
  - outcome "bulkhead" → shipboard.bulkhead_hit (weapon_kind "energy" for energy weapons).
""",
    title="Shipboard: where a missed shot goes",
    reference=f"{SEED_B}, Missed Shots",
    bounds={"roll": (2, 12)},
    example={
        "tn": 8,
        "candidates": [
            {"id": "Crewman 1", "distance_m": 1},
            {"id": "Crewman 2", "distance_m": 2.5},
            {"id": "Marine", "distance_m": 6},
        ],
    },
)
def missed_shot(inp, dice) -> Resolution:
    for c in inp.candidates:
        if c.distance_m < 0:
            raise InputError("candidates", f"{c.id}: the distance cannot be negative")
    first = inp.roll if inp.roll is not None else dice.total("to_hit", 2)
    result = {
        "outcome": "hit_target",
        "mof": None,
        "second_roll": None,
        "second_success": None,
        "radius_m": None,
        "character_id": None,
    }
    if success(first, inp.tn):
        return Resolution(result, f"To-hit {first} vs TN {inp.tn}: the shot hits its intended target.")
    mof = inp.tn - first

    def hits(total: int) -> bool:  # what the outcome reads of the second roll
        return success(total, inp.tn)

    second = dice.total(
        "second",
        2,
        feeds=SECOND_ROLL_KEYS,
        reads=dict.fromkeys(("outcome", "second_success", "character_id"), hits),
    )
    second_success = success(second, inp.tn)
    outcome, character_id = "bulkhead", None
    if second_success:
        in_range = [c.id for c in inp.candidates if c.distance_m <= mof]
        if len(in_range) == 1:
            outcome, character_id = "character", in_range[0]
        elif in_range:
            outcome, character_id = (
                "character",
                in_range[dice.pick("pick", len(in_range), feeds=("character_id",))],
            )
    result.update(
        outcome=outcome,
        mof=mof,
        second_roll=second,
        second_success=second_success,
        radius_m=mof,
        character_id=character_id,
    )
    line = f"To-hit {first} vs TN {inp.tn}: missed by {mof}; second roll {second}"
    if outcome == "character":
        line += f" succeeds: the shot hits {character_id} (within {mof} m of the target)."
    else:
        line += f" succeeds but nobody is within {mof} m" if second_success else " fails"
        line += ": the shot hits a bulkhead (shipboard.bulkhead_hit"
        line += ", energy weapon: no ricochet)." if inp.weapon_class == "energy" else ")."
    return Resolution(result, line)


# --------------------------------------------------------------------------- 3.2


@procedure(
    """
procedure: shipboard.bulkhead_hit
inputs:
  surface: str enum {minor_bulkhead|major_bulkhead|external_bulkhead|observation_port|door|pressure_door|computer_console|custom}
  capacity: int|null = null                  # full capacity; default from the table; required for custom
  threshold: int|null = null                 # default from the table; required for custom
  surface_kind: str enum {bulkhead|object} = "object"   # custom only: a bulkhead pierces (no ricochet), an object can ricochet
  capacity_left: int|null = null             # before this hit; null = full capacity (damage is cumulative) [A25]
  raw_damage: int|null = null                # Step 1 damage when already known
  damage_dice: int = 0                       # D6 rolled for Step 1 when raw_damage is null
  damage_bonus: int = 0                      # added to the damage dice (e.g. pistol 2D6+3)
  armor_rating: float = 0.5                  # multiplier, default ½ [A23]
  ammo: str enum {standard|aet|frangible} = "standard"
  weapon_kind: str enum {slug|needler|energy|contact_explosive} = "slug"
  pressure_boundary: bool = false            # external bulkhead (always) or a wall between different pressures
  frangible_capacity_damage: bool = false    # [A27] toggle
dice:
  - damage: kD6  [raw_damage == null; k = damage_dice]
result:
  pierced: bool                              # headline; inflicted > threshold (frangible never) [A24]
  raw_damage: int
  damage_potential: int                      # floor(raw/2) for AET, else raw [A26]
  inflicted: int                             # floor(damage_potential × armor_rating)
  capacity_damage: int                       # subtracted from capacity (0 for frangible unless toggled)
  capacity_left: int                         # may be ≤ 0
  destroyed: bool                            # capacity_left ≤ 0
  excess: int                                # inflicted − threshold when pierced, else 0
  next_steps: list[str enum {critical|decompression|pass_through|ricochet}]
effects:
  - {"target": "compartment", "field": "surfaces.<surface>.capacity_left", "op": "set", "value": "<capacity_left>"}
  - {"target": "compartment", "field": "surfaces.<surface>.destroyed", "op": "set", "value": true}   [destroyed]
errors:
  - InputError(raw_damage): both or neither of raw_damage and damage_dice > 0
  - InputError(capacity|threshold): missing for custom
  - InputError(ammo): aet/frangible with a weapon_kind other than slug
notes:
  - next_steps, in this order: "critical" (pierced minor/major bulkhead → shipboard.bulkhead_critical); "decompression" (pierced and pressure boundary → shipboard.decompression); "pass_through" (destroyed and excess > 0: TN 8 attack on a character behind, no reduction → shipboard.ricochet with reduction false) [A25][A60]; "ricochet" (excess > 0, not destroyed, surface not a bulkhead, weapon_kind slug/needler → shipboard.ricochet).
""",
    title="Shipboard: damage to a bulkhead, door or object",
    reference=f"{SEED_B}, Bulkheads and Objects; Damage Capacities and Thresholds Table; "
    "Specialty Ammunition",
    bounds={
        "capacity": (1, None),
        "threshold": (0, None),
        "raw_damage": (0, None),
        "damage_dice": (0, tables.MAX_WEAPON_DAMAGE_DICE),
        "armor_rating": (0, None),
    },
    example={"surface": "door", "damage_dice": 2, "damage_bonus": 3},
)
def bulkhead_hit(inp, dice) -> Resolution:
    _check_step1_inputs(inp.raw_damage, "raw_damage", inp.damage_dice, inp.damage_bonus)
    if inp.surface == "custom":
        for field in ("capacity", "threshold"):
            if getattr(inp, field) is None:
                raise InputError(field, "is required for a custom surface (the GM sets it)")
        row = None
        kind = inp.surface_kind
    else:
        row = tables.DAMAGE_CAPACITIES[inp.surface]
        kind = row.kind
    capacity = inp.capacity if inp.capacity is not None else row.capacity
    threshold = inp.threshold if inp.threshold is not None else row.threshold
    before = _capacity_before("capacity_left", inp.capacity_left, capacity)
    _check_ammo(inp.ammo, inp.weapon_kind)
    raw = _step1_damage(inp.raw_damage, inp.damage_dice, inp.damage_bonus, dice)
    hit = _hit_surface(
        surface=inp.surface,
        capacity_left=before,
        threshold=threshold,
        kind=kind,
        raw=raw,
        armor_rating=_exact(inp.armor_rating),
        ammo=inp.ammo,
        weapon_kind=inp.weapon_kind,
        pressure_boundary=inp.pressure_boundary or (row is not None and row.pressure_boundary),
        frangible_capacity_damage=inp.frangible_capacity_damage,
    )
    result = {"pierced": hit["pierced"], "raw_damage": raw} | {
        k: hit[k]
        for k in (
            "damage_potential",
            "inflicted",
            "capacity_damage",
            "capacity_left",
            "destroyed",
            "excess",
            "next_steps",
        )
    }
    effects = [set_effect("compartment", f"surfaces.{inp.surface}.capacity_left", hit["capacity_left"])]
    if hit["destroyed"]:
        effects.append(set_effect("compartment", f"surfaces.{inp.surface}.destroyed", True))
    label = "Custom surface" if row is None else row.label
    line = _surface_line(label, raw, hit, threshold, before)
    if inp.ammo == "aet":
        line += f" (AET: damage potential {raw} -> {hit['damage_potential']})"
    if inp.ammo == "frangible":
        line += " (frangible: no pierce" + (")" if inp.frangible_capacity_damage else ", no capacity damage)")
    return Resolution(result, f"{line}. Next: {_next_steps_text(hit['next_steps'])}.", effects)


# --------------------------------------------------------------------------- 3.3


@procedure(
    """
procedure: shipboard.ricochet
inputs:
  excess: int                                # ≥ 1
  weapon_kind: str enum {slug|needler|energy|contact_explosive} = "slug"
  ammo: str enum {standard|aet|frangible} = "standard"
  reduction: bool = true                     # false: a pass-through from a destroyed surface [A60] or an over-penetration [A28]: no reduction dice, any weapon_kind
  miss_surface: str enum {minor_bulkhead|major_bulkhead|external_bulkhead|observation_port|door|pressure_door|computer_console} = "minor_bulkhead"   # what a missed ricochet hits [A30]
  miss_capacity_left: int|null = null
dice:
  - reduction: 1D6 (slug, standard) or 2D6 (needler, or ammo aet)  [reduction]
  - attack: 2D6 vs TN 8  [net > 0]
result:
  ricochet: bool                             # headline; net > 0
  reduction_roll: int|null
  net: int                                   # excess − reduction_roll (may be ≤ 0)
  damage: int                                # net when ricochet, else 0
  attack_roll: int|null
  attack_hit: bool|null                      # hit the random character
  bulkhead_inflicted: int|null               # missed attack: shipboard.bulkhead_hit Steps 1-3 with raw_damage = net, same ammo/weapon_kind
  bulkhead_excess: int|null
  next_steps: list[str]                      # next_steps of that bulkhead hit ([] when none or no miss)
effects:
  - {"target": "compartment", "field": "surfaces.<miss_surface>.capacity_left", "op": "add", "value": "-<bulkhead_inflicted>"}   [attack missed]
errors:
  - InputError(excess): < 1
  - InputError(weapon_kind|ammo): reduction true with weapon_kind not slug/needler, or ammo frangible (never ricochets)
notes:
  - The target character is picked at random by the caller; after the first bounce the firer is a valid target [A29].
""",
    title="Shipboard: ricochet (or a shot through a destroyed surface)",
    reference=f"{SEED_B}, Ricochets; Bulkheads and Objects; Over-Penetration",
    bounds={"excess": (1, None)},
    example={"excess": 4},
)
def ricochet(inp, dice) -> Resolution:
    if inp.ammo == "frangible":
        raise InputError("ammo", "frangible rounds never ricochet, pierce bulkheads or over-penetrate")
    if inp.reduction and inp.weapon_kind not in tables.RICOCHET_WEAPONS:
        raise InputError(
            "weapon_kind",
            "only slug throwers and needlers ricochet; a shot through a destroyed surface or an "
            "over-penetration is resolved with reduction off",
        )
    _check_ammo(inp.ammo, inp.weapon_kind)
    row = tables.DAMAGE_CAPACITIES[inp.miss_surface]
    before = _capacity_before("miss_capacity_left", inp.miss_capacity_left, row.capacity)
    reduction_roll = None
    if inp.reduction:
        k = (
            tables.REDUCTION_DICE_NEEDLER_OR_AET
            if inp.weapon_kind == "needler" or inp.ammo == "aet"
            else tables.REDUCTION_DICE_STANDARD
        )
        reduction_roll = dice.total("reduction", k)
    net = inp.excess - (reduction_roll or 0)
    ricocheted = net > 0
    attack_roll = attack_hit = inflicted = bulkhead_excess = None
    steps: list[str] = []
    effects = []
    hit = None
    if ricocheted:
        attack_roll = dice.total("attack", 2)
        attack_hit = success(attack_roll, tables.RICOCHET_TN)
        if not attack_hit:  # a missed ricochet hits a bulkhead or door [A30]
            hit = _hit_surface(
                surface=inp.miss_surface,
                capacity_left=before,
                threshold=row.threshold,
                kind=row.kind,
                raw=net,
                armor_rating=_exact(row.armor_rating),
                ammo=inp.ammo,
                weapon_kind=inp.weapon_kind,
                pressure_boundary=row.pressure_boundary,
            )
            inflicted, bulkhead_excess, steps = hit["inflicted"], hit["excess"], hit["next_steps"]
            effects.append(
                add_effect("compartment", f"surfaces.{inp.miss_surface}.capacity_left", -inflicted)
            )
    result = {
        "ricochet": ricocheted,
        "reduction_roll": reduction_roll,
        "net": net,
        "damage": net if ricocheted else 0,
        "attack_roll": attack_roll,
        "attack_hit": attack_hit,
        "bulkhead_inflicted": inflicted,
        "bulkhead_excess": bulkhead_excess,
        "next_steps": steps,
    }
    if reduction_roll is None:
        line = f"{inp.excess} points go on without reduction"
    else:
        line = f"Excess {inp.excess} - reduction {reduction_roll} = {net}"
    if not ricocheted:
        return Resolution(result, line + ": no ricochet, the shot is spent.", effects)
    line += f": {net} damage at a randomly chosen character; attack {attack_roll} vs TN {tables.RICOCHET_TN}"
    if attack_hit:
        return Resolution(result, line + f": hit for {net} damage.", effects)
    line += "; " + _surface_line(f"misses and hits the {row.label.lower()}", net, hit, row.threshold, before)
    return Resolution(result, f"{line}. Next: {_next_steps_text(steps)}.", effects)


# --------------------------------------------------------------------------- 3.4


@procedure(
    """
procedure: shipboard.bulkhead_critical
inputs:
  excess: int                                # ≥ 1, per-shot excess from shipboard.bulkhead_hit [A25]
  bulkhead: str enum {minor|major}
dice:
  - check: 2D6
  - effect[i]: 1D6  [one per critical hit]
result:
  crits: int                                 # headline; check_total ≤ 7 → 0, 8-10 → 1, ≥ 11 → 2
  check_total: int                           # 2D6 + excess
  results: list[str enum {power_line|comm_panel|emergency_equipment|lights|cable_mechanism|no_effect|hydraulics_line|fuel_line|communications_lines}]
  power_points_delta: int                    # −1 per power line in a major bulkhead
  control_roll_mod_delta: int                # +1 per hydraulics line
  visibility_mod_delta: int                  # +1 per hydraulics or fuel line
  fuel_line_crits_delta: int
effects:
  - {"target": "ship", "field": "power_points", "op": "add", "value": "<power_points_delta>"}   [≠ 0]
  - {"target": "ship", "field": "control_roll_mod", "op": "add", "value": "<control_roll_mod_delta>"}   [≠ 0]
  - {"target": "compartment", "field": "visibility_mod", "op": "add", "value": "<visibility_mod_delta>"}   [≠ 0]
  - {"target": "compartment", "field": "fuel_line_crits", "op": "add", "value": "<fuel_line_crits_delta>"}   [≠ 0]
  - {"target": "compartment", "field": "lights_damaged", "op": "set", "value": true}   [lights]
  - {"target": "compartment", "field": "<system>_disabled", "op": "set", "value": true}   [power_line, comm_panel, emergency_equipment, cable_mechanism, communications_lines]
errors:
  - InputError(excess): < 1
""",
    title="Shipboard: critical hit behind a pierced internal bulkhead",
    reference=f"{SEED_B}, Critical Hits",
    bounds={"excess": (1, None)},
    example={"excess": 2, "bulkhead": "major"},
)
def bulkhead_critical(inp, dice) -> Resolution:
    check = dice.total("check", 2) + inp.excess
    crits = lookup_band(tables.CRITICAL_BANDS, check)
    column = tables.CRITICAL_TABLE[inp.bulkhead]
    results = [column[dice.total(f"effect[{i}]", 1) - 1] for i in range(crits)]
    power = -results.count("power_line") if inp.bulkhead == "major" else 0
    control = results.count("hydraulics_line")
    fuel = results.count("fuel_line")
    visibility = control + fuel
    effects = []
    if power:
        effects.append(add_effect("ship", "power_points", power))
    if control:
        effects.append(add_effect("ship", "control_roll_mod", control))
    if visibility:
        effects.append(add_effect("compartment", "visibility_mod", visibility))
    if fuel:
        effects.append(add_effect("compartment", "fuel_line_crits", fuel))
    if "lights" in results:
        effects.append(set_effect("compartment", "lights_damaged", True))
    for system in dict.fromkeys(results):
        if system in tables.DISABLING_CRITICALS:
            effects.append(set_effect("compartment", f"{system}_disabled", True))
    result = {
        "crits": crits,
        "check_total": check,
        "results": results,
        "power_points_delta": power,
        "control_roll_mod_delta": control,
        "visibility_mod_delta": visibility,
        "fuel_line_crits_delta": fuel,
    }
    line = f"Critical check {check - inp.excess}+{inp.excess} = {check}: "
    if not crits:
        return Resolution(result, line + "no critical hit.", effects)
    line += f"{crits} critical hit{'s' if crits > 1 else ''} ({inp.bulkhead} bulkhead): "
    line += "; ".join(tables.CRITICAL_TEXT[r] for r in results)
    if power:
        line += f"; ship Power Points {power:+d}"
    return Resolution(result, line + ".", effects)


# --------------------------------------------------------------------------- 3.5


@procedure(
    """
procedure: shipboard.decompression
inputs:
  penetrating_points: int                    # ≥ 1, the excess of a pierced pressure boundary
  pressure_pa: int = 100000
  rounds: int = 1                            # rounds elapsed before the breach is sealed
dice: none
result:
  explosive: bool                            # headline; loss_per_round > 50000 [A31]
  loss_per_round: int                        # 10000 × penetrating_points
  pressure_pa: int                           # after `rounds` rounds, floor 0
  bulkheads_closed: bool                     # pressure ≤ 50000 at the start or after any of the rounds
  closed_after_round: int|null               # first such round (0 = already at the start)
effects:
  - {"target": "compartment", "field": "pressure_pa", "op": "set", "value": "<pressure_pa>"}
  - {"target": "compartment", "field": "bulkheads_closed", "op": "set", "value": true}   [bulkheads_closed]
  - {"target": "character", "field": "build_save_required", "op": "set", "value": true}   [explosive; every character in the area, failure = death]
errors:
  - InputError(penetrating_points): < 1
""",
    title="Shipboard: decompression through a pierced pressure boundary",
    reference=f"{SEED_B}, Critical Hits",
    bounds={"penetrating_points": (1, None), "pressure_pa": (0, None), "rounds": (0, None)},
    units={"pressure_pa": "Pa", "rounds": "rounds"},
    example={"penetrating_points": 3, "rounds": 2},
)
def decompression(inp, dice) -> Resolution:
    loss = tables.PA_LOST_PER_POINT * inp.penetrating_points
    explosive = loss > tables.EXPLOSIVE_ABOVE_PA  # strictly more [A31]
    after = max(0, inp.pressure_pa - loss * inp.rounds)
    if inp.pressure_pa <= tables.AUTO_CLOSE_AT_PA:
        closed_after = 0
    else:
        first = -(-(inp.pressure_pa - tables.AUTO_CLOSE_AT_PA) // loss)  # ceil
        closed_after = first if first <= inp.rounds else None
    closed = closed_after is not None
    effects = [set_effect("compartment", "pressure_pa", after)]
    if closed:
        effects.append(set_effect("compartment", "bulkheads_closed", True))
    if explosive:
        effects.append(set_effect("character", "build_save_required", True))
    result = {
        "explosive": explosive,
        "loss_per_round": loss,
        "pressure_pa": after,
        "bulkheads_closed": closed,
        "closed_after_round": closed_after,
    }
    line = (
        f"Decompression: -{loss:,} Pa per round; pressure {inp.pressure_pa:,} -> {after:,} Pa "
        f"after {inp.rounds} round{'s' if inp.rounds != 1 else ''}"
    )
    if closed:
        line += (
            "; the compartment bulkheads were already closed"
            if closed_after == 0
            else f"; the compartment bulkheads close automatically in round {closed_after}"
        )
    if explosive:
        line += "; EXPLOSIVE: everyone in the area makes a Build Saving Roll, failure is death"
    return Resolution(result, line + ".", effects)


# --------------------------------------------------------------------------- 3.6


def _blast_damage_odds(inp):
    """A blast is the sum of 1D6 per leaked point, when the fuel ignites: the kD6 sum
    counted by convolution, weighted by the ignition roll (no blast is 0)."""
    leaked = inp.leaked_points + inp.fuel_line_crits * inp.turns_leaking
    if leaked == 0 or inp.weapon_kind in ("none", "primitive"):
        return {0: 1}, 1
    blast, blast_den = distributions.dice_sum(leaked)
    if inp.weapon_kind in tables.FUEL_ALWAYS_IGNITES:
        return blast, blast_den
    ways = distributions.dice_sum_ways(2, 6)
    ignites = sum(ways[t] for t in range(2, 13) if success(t, tables.FUEL_IGNITES_ON))
    dist = {total: n * ignites for total, n in blast.items()}
    dist[0] = dist.get(0, 0) + (36 - ignites) * blast_den
    return dist, 36 * blast_den


@procedure(
    """
procedure: shipboard.fuel_leak
inputs:
  fuel_line_crits: int
  turns_leaking: int = 1                     # turns since leaked_points was recorded
  leaked_points: int = 0                     # already leaked before those turns
  weapon_kind: str enum {none|flamer|gyrojet|primitive|other} = "none"   # weapon fired in the area this turn
dice:
  - ignite: 2D6  [weapon_kind == "other" and leaked_total > 0] → ignites on ≥ 8
  - blast: kD6  [ignited; k = leaked_total]
result:
  ignited: bool                              # headline; flamer/gyrojet always (if any fuel), primitive never
  leaked_total: int                          # leaked_points + fuel_line_crits × turns_leaking
  ignition_roll: int|null
  blast_damage: int
  leaked_after: int                          # 0 after a blast [A56]
effects:
  - {"target": "compartment", "field": "fuel_leak_points", "op": "set", "value": "<leaked_after>"}
  - {"target": "character", "field": "damage", "op": "add", "value": "<blast_damage>"}   [ignited; everyone in the area]
errors: none
""",
    title="Shipboard: leaking fuel ignites?",
    reference=f"{SEED_B}, Critical Hits, Notes: Fuel Line",
    bounds={"fuel_line_crits": (0, None), "turns_leaking": (0, None), "leaked_points": (0, None)},
    units={"turns_leaking": "turns"},
    example={"fuel_line_crits": 1, "turns_leaking": 3, "weapon_kind": "other"},
    exact_odds={"blast_damage": _blast_damage_odds},
)
def fuel_leak(inp, dice) -> Resolution:
    leaked = inp.leaked_points + inp.fuel_line_crits * inp.turns_leaking
    if leaked > tables.MAX_FUEL_BLAST_DICE:
        field = "leaked_points" if inp.leaked_points > tables.MAX_FUEL_BLAST_DICE else "turns_leaking"
        raise InputError(
            field,
            f"that makes {leaked:,} points of leaked fuel; a blast rolls at most "
            f"{tables.MAX_FUEL_BLAST_DICE}D6 (1D6 per point)",
        )
    ignition_roll = None
    if leaked == 0 or inp.weapon_kind in ("none", "primitive"):
        ignited = False
    elif inp.weapon_kind in tables.FUEL_ALWAYS_IGNITES:
        ignited = True
    else:

        def ignites(total: int) -> bool:  # all the keys but the roll itself read of it
            return success(total, tables.FUEL_IGNITES_ON)

        ignition_roll = dice.total(
            "ignite",
            2,
            feeds=("ignited", "ignition_roll", "blast_damage", "leaked_after"),
            reads=dict.fromkeys(("ignited", "blast_damage", "leaked_after"), ignites),
        )
        ignited = success(ignition_roll, tables.FUEL_IGNITES_ON)
    blast = dice.total("blast", leaked, feeds=("blast_damage",)) if ignited else 0
    after = 0 if ignited else leaked  # the fuel is burnt [A56]
    effects = [set_effect("compartment", "fuel_leak_points", after)]
    if ignited:
        effects.append(add_effect("character", "damage", blast))
    result = {
        "ignited": ignited,
        "leaked_total": leaked,
        "ignition_roll": ignition_roll,
        "blast_damage": blast,
        "leaked_after": after,
    }
    line = f"Leaked fuel {inp.leaked_points} -> {leaked} point{'s' if leaked != 1 else ''}"
    if ignited:
        how = (
            f"ignition roll {ignition_roll} vs {tables.FUEL_IGNITES_ON}"
            if ignition_roll is not None
            else f"a {inp.weapon_kind} always ignites it"
        )
        line += f"; {how}: EXPLOSION, {blast} damage ({leaked}D6) to everyone in the area; leak {leaked} -> 0"
    elif ignition_roll is not None:
        line += f"; ignition roll {ignition_roll} vs {tables.FUEL_IGNITES_ON}: no ignition"
    elif leaked and inp.weapon_kind == "primitive":
        line += "; a primitive weapon makes no spark: no ignition"
    return Resolution(result, line + ".", effects)


# --------------------------------------------------------------------------- 3.7


@procedure(
    """
procedure: shipboard.over_penetration
inputs:
  damage_to_part: int|null = null
  damage_dice: int = 0                       # D6 rolled when damage_to_part is null
  damage_bonus: int = 0
  part_threshold: int                        # from the character sheet (W7: arm = BLD × 3)
  armor_on_part: int = 0
  weapon_kind: str enum {slug|needler|energy|contact_explosive} = "slug"
  ammo: str enum {standard|aet|frangible} = "standard"
  reduction: bool = false                    # [A28] toggle: pass the over-penetration through the 3.3 reduction
dice:
  - damage: kD6  [damage_to_part == null; k = damage_dice]
result:
  over: int                                  # headline; max(0, damage − threshold − armour); 0 for needler, contact_explosive, aet, frangible
  damage: int                                # full damage applied to the Condition Monitor
  next_step: str|null                        # "ricochet" when over > 0 → shipboard.ricochet(excess = over, reduction = <reduction>)
effects:
  - {"target": "character", "field": "damage", "op": "add", "value": "<damage>"}
errors:
  - InputError(damage_to_part): both or neither of damage_to_part and damage_dice > 0
""",
    title="Shipboard: over-penetration through a character",
    reference=f"{SEED_B}, Over-Penetration",
    bounds={
        "damage_to_part": (0, None),
        "damage_dice": (0, tables.MAX_WEAPON_DAMAGE_DICE),
        "part_threshold": (0, None),
        "armor_on_part": (0, None),
    },
    example={"damage_dice": 2, "damage_bonus": 3, "part_threshold": 9},
)
def over_penetration(inp, dice) -> Resolution:
    _check_step1_inputs(inp.damage_to_part, "damage_to_part", inp.damage_dice, inp.damage_bonus)
    _check_ammo(inp.ammo, inp.weapon_kind)
    damage = _step1_damage(inp.damage_to_part, inp.damage_dice, inp.damage_bonus, dice)
    stops = (
        inp.weapon_kind in tables.NO_OVER_PENETRATION_WEAPONS or inp.ammo in tables.NO_OVER_PENETRATION_AMMO
    )
    over = 0 if stops else max(0, damage - inp.part_threshold - inp.armor_on_part)
    result = {"over": over, "damage": damage, "next_step": "ricochet" if over else None}
    effects = [add_effect("character", "damage", damage)]
    line = f"{damage} damage to the Condition Monitor"
    if stops:
        what = inp.ammo if inp.ammo in tables.NO_OVER_PENETRATION_AMMO else inp.weapon_kind.replace("_", " ")
        line += f"; {what} rounds never over-penetrate"
    else:
        line += f" vs threshold {inp.part_threshold} + armour {inp.armor_on_part}: over-penetration {over}"
        if over:
            line += " -> TN 8 attack on a random nearby character (shipboard.ricochet, reduction "
            line += "on)" if inp.reduction else "off)"
    return Resolution(result, line + ".", effects)
