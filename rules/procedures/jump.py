"""Jump drives (Seed B, section 10 of the catalogue, and 12.7 Basic Jump Procedure)."""

from __future__ import annotations

import collections
import random

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import jump as tables

from ._common import lookup_band, success

# What the dice after the Malfunction Roll can change: the mishap itself, its modifier and
# total are settled by the first 2D6 (exact odds of those need only it, C.9).
FAILED_JUMP_KEYS = ("failed_jump_roll", "failed_jump_result")
EFFECT_KEYS = (
    "effect_total",
    "effect",
    "jump_proceeds",
    "charge_lost",
    "kf_integrity_after",
    "helium_tanks_destroyed",
    *FAILED_JUMP_KEYS,
)


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
  malfunction_total: int                     # 2D6 + modifier, the value compared with 12
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
notes:
  - micro_fractures that bring kf_integrity to 0 abort this jump and keep the charge [A21]; helium_seal aborts and loses the charge; drive_failure aborts and loses the charge unless toggled; catastrophic = misjump, the jump proceeds.
""",
    title="Jump: drive-system malfunction roll",
    reference=f"{SEED_B}, Drive-System Malfunctions; Malfunction Roll Modifiers Table; "
    "Drive-System Malfunctions Table",
    bounds={"hours_since_last_jump": (0, None), "kf_integrity": (0, None), "kf_integrity_max": (1, None)},
    units={"hours_since_last_jump": "h"},
    example={
        "hours_since_last_jump": 5,
        "charged_from_reactor": True,
        "kf_integrity": 4,
        "kf_integrity_max": 4,
    },
)
def malfunction(inp, dice) -> Resolution:
    kf = inp.kf_integrity
    if kf == 0:
        # Table footnote: "A vessel may not jump if its Drive Integrity falls to 0."
        raise InputError("kf_integrity", "is 0: a ship whose K-F drive integrity is 0 may not jump")
    if kf is not None and inp.kf_integrity_max is not None and kf > inp.kf_integrity_max:
        raise InputError(
            "kf_integrity",
            f"({kf}) cannot be above the undamaged K-F integrity ({inp.kf_integrity_max})",
        )
    hours = inp.hours_since_last_jump
    band = 0 if hours is None else lookup_band(tables.TIME_BANDS, hours)
    modifier = band + (tables.REACTOR_CHARGE_MODIFIER if inp.charged_from_reactor else 0)
    malfunction_dice = dice.total("malfunction", 2)
    # C.9: a *_total is the dice plus every modifier, the number compared with 12.
    malfunction_total = malfunction_dice + modifier
    mishap = malfunction_total >= tables.MISHAP_AT
    effect = "none"
    effect_dice = effect_d6 = effect_total = failed_roll = failed_result = None
    jump_proceeds: bool | None = True
    charge_lost = helium = False
    kf_after = kf
    if mishap:
        effect_dice = dice.total("effect", 2, feeds=EFFECT_KEYS)
        # [A20] only a natural 12 on the Effect Roll becomes 11 + 1D6.
        effect_d6 = dice.total("effect_d6", 1, feeds=EFFECT_KEYS) if effect_dice == 12 else None
        effect_total = (effect_dice if effect_d6 is None else 11 + effect_d6) + modifier
        effect = lookup_band(tables.EFFECT_BANDS, effect_total)
        if effect == "micro_fractures":
            kf_after = None if kf is None else kf - 1
            # [A21] integrity reaching 0 aborts this jump; the charge is kept.
            jump_proceeds = kf_after != 0
        elif effect == "helium_seal":
            jump_proceeds, charge_lost, helium = False, True, True
        elif effect == "drive_failure":
            jump_proceeds, charge_lost = False, not inp.static_discharge_keeps_charge
        elif effect == "failed_jump_table":
            jump_proceeds = None
            if inp.failed_jump_table is not None:
                failed_roll = dice.total("failed_jump", 2, feeds=FAILED_JUMP_KEYS)
                failed_result = dice.lookup(
                    inp.failed_jump_table, failed_roll, "failed_jump_table", feeds=FAILED_JUMP_KEYS
                )
    effects = []
    if effect == "micro_fractures":
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
    return Resolution(result, _malfunction_summary(result, inp, band, effect_dice, effect_d6), effects)


def _malfunction_summary(r: dict, inp, band: int, effect_dice, effect_d6) -> str:
    """E.g. "Malfunction roll 9 +5 (last jump 5 h ago, within 1-6 h +3; reactor-charged +2)
    = 14, 12+ is a mishap. Effect roll 8 +5 = 13 (row 12-13): ... Jump ABORTED; ..."."""
    parts = []
    if band:
        parts.append(f"last jump {inp.hours_since_last_jump:g} h ago, {tables.TIME_BAND_TEXT[band]} +{band}")
    if inp.charged_from_reactor:
        parts.append(f"reactor-charged +{tables.REACTOR_CHARGE_MODIFIER}")
    why = f" ({'; '.join(parts)})" if parts else ""
    total = r["malfunction_total"]
    roll = f"Malfunction roll {total - r['modifier']} {r['modifier']:+d}{why} = {total}"
    if not r["mishap"]:
        return f"{roll}: under 12, no mishap. The jump goes ahead; the drive is discharged."
    if effect_d6 is None:
        dice_text = f"{effect_dice}"
    else:
        dice_text = f"natural 12 -> 11 + {effect_d6} = {11 + effect_d6}"
    effect = r["effect"]
    line = (
        f"{roll}: 12+, MISHAP. Effect roll {dice_text} {r['modifier']:+d} = {r['effect_total']} "
        f"(row {tables.EFFECT_ROW[effect]}): {tables.EFFECT_TEXT[effect]}."
    )
    kf = inp.kf_integrity
    if effect == "micro_fractures":
        if kf is None:
            return line + (
                " Reduce K-F integrity by 1; the jump goes ahead unless that brings it to 0, "
                "in which case the jump is aborted and the charge kept."
            )
        if r["kf_integrity_after"] == 0:
            return line + (
                f" K-F integrity {kf} -> 0: the ship may not jump, so this jump is ABORTED; "
                "the drive keeps its charge."
            )
        return line + f" K-F integrity {kf} -> {r['kf_integrity_after']}; the jump goes ahead."
    if effect == "failed_jump_table":
        if r["failed_jump_result"] is None:
            return line + (
                " The GM decides the outcome on the Failed Jump Table (BattleSpace p. 46), "
                "which is not entered."
            )
        return line + f" Failed Jump Table roll {r['failed_jump_roll']}: {r['failed_jump_result']}."
    if r["jump_proceeds"]:
        return line + ("" if effect == "catastrophic" else " The jump goes ahead.")
    if r["charge_lost"]:
        return line + " The jump is ABORTED and the drive charge is lost."
    return line + " The jump is ABORTED; the drive keeps its charge (GM option)."


@procedure(
    """
procedure: jump.nonstandard_plot
inputs:
  navigation_tn: int                         # MechWarrior Companion Navigation target number
  location: str enum {none|deep_space|planet_with_moon} = "none"   # none = not leaving a gravity well
  distance_reading: str enum {multiply|subtract} = "multiply"   # [A7]
dice:
  - navigation: 2D6 vs navigation_tn + 4
  - plot_time: 2D6 (× 30 min, spent on success or failure)
  - distance: 3D6  [location != "none"]
result:
  success: bool                              # headline
  tn: int                                    # navigation_tn + 4
  roll: int
  mos: int|null                              # roll − tn on success
  plot_minutes: int
  distance_km: int|null                      # multiply: 3D6 × 3000000 (deep) / × 300000 (moon); subtract: (3D6 − 3) × 1000000 / × 100000
effects:
  - {"target": "ship", "field": "plot", "op": "set", "value": {"mos": "<mos>", "valid_for_time": "fixed beforehand"}}   [success]
errors: none
""",
    title="Jump: plot a non-standard jump point",
    reference=f"{SEED_B}, Non-Standard Jump Points, Step 1: Plotting the Point",
    # The same Navigation TN limit as the arrival (C.9): the two steps are one plot.
    bounds={"navigation_tn": (None, tables.MAX_NAVIGATION_TN)},
    example={"navigation_tn": 5},
)
def nonstandard_plot(inp, dice) -> Resolution:
    tn = inp.navigation_tn + tables.PLOT_TN_MODIFIER
    roll = dice.total("navigation", 2, feeds=("success", "roll", "mos"))
    plot_pips = dice.total("plot_time", 2, feeds=("plot_minutes",))
    plot_minutes = plot_pips * tables.PLOT_MINUTES_PER_PIP
    distance_km = distance_pips = None
    if inp.location != "none":
        # C.9: the distance is rolled whether or not the plot succeeded.
        distance_pips = dice.total("distance", 3, feeds=("distance_km",))
        offset, km = tables.PLOT_DISTANCE[inp.location, inp.distance_reading]
        distance_km = (distance_pips - offset) * km
    ok = success(roll, tn)
    mos = roll - tn if ok else None
    effects = []
    if ok:
        effects.append(set_effect("ship", "plot", {"mos": mos, "valid_for_time": "fixed beforehand"}))
    result = {
        "success": ok,
        "tn": tn,
        "roll": roll,
        "mos": mos,
        "plot_minutes": plot_minutes,
        "distance_km": distance_km,
    }
    nav = f"Navigation roll {roll} vs TN {tn} ({inp.navigation_tn} + {tables.PLOT_TN_MODIFIER})"
    if ok:
        text = (
            f"{nav}: plotted, margin of success {mos} (helps on arrival); the point is valid only for "
            "the jump time fixed beforehand."
        )
    else:
        text = f"{nav}: failed, no usable point{' (TN above 12: impossible)' if tn > 12 else ''}."
    text += f" Plotting took {plot_pips} x 30 = {plot_minutes} min."
    if distance_km is not None:
        offset, km = tables.PLOT_DISTANCE[inp.location, inp.distance_reading]
        formula = f"{distance_pips} x {km:,}" if not offset else f"({distance_pips} - {offset}) x {km:,}"
        text += (
            f" Leaving the gravity well {tables.PLOT_LOCATION_TEXT[inp.location]}: the point is "
            f"{formula} = {distance_km:,} km away (transit time: BattleSpace System Transit)."
        )
    return Resolution(result, text, effects)


# The arrival 2D6 settles every key but the damage list (the facing dice feed only it).
# Lists of facing damage counted exactly, at most: a failure by m gives each facing mD6,
# so six facings failed by 1 already make 6**6 lists, and by 18 some 91**6. Past this the
# odds are a labelled estimate sampled from the same dice (C.6).
FACING_COUNTED_VALUES = 12_000  # some 15 ms to list


def _facing_row(ship: str, facing: str, boxes: int) -> dict:
    return {"ship": ship, "facing": facing, "boxes": boxes}


assert sorted(_facing_row("", "", 0)) == ["boxes", "facing", "ship"]  # the order of the odds' rows below


def _facing_damage_odds(inp):
    """The damage list: none on a success; on a failure by m, an independent mD6 per facing
    of every ship, counted per failure margin of the one 2D6."""
    tn = inp.navigation_tn - inp.plot_mos
    facings = [(ship.id, facing) for ship in inp.ships for facing in ship.facings]
    ways = distributions.dice_sum_ways(2, 6)
    margins: dict[int, int] = {tn - roll: ways[roll] for roll in range(2, 13) if not success(roll, tn)}
    clean = 36 - sum(margins.values())

    # As odds keys are: each row's items sorted by name, "boxes" first.
    rest = [(("facing", facing), ("ship", ship)) for ship, facing in facings]

    def value(boxes) -> tuple:
        return tuple((("boxes", n), *others) for others, n in zip(rest, boxes, strict=True))

    if sum((5 * mof + 1) ** len(facings) for mof in margins) <= FACING_COUNTED_VALUES:
        branches = [(clean, 36, ({(): 1}, 1))]
        for mof, n in margins.items():
            lists, den = distributions.independent([distributions.dice_sum(mof)] * len(facings))
            branches.append((n, 36, ({value(boxes): m for boxes, m in lists.items()}, den)))
        return distributions.mix(branches)
    # A failure's damage is sampled; the clean jump's empty list keeps its exact odds. Each
    # run draws its margin, then every facing's boxes independently from that margin's mD6.
    # The runs are made margin by margin (their order changes no count), so the draws of one
    # margin keep its table in the processor's cache; each row is built from parts made once.
    margin = distributions.Picker((margins, 36))
    boxes = {}
    for mof in margins:
        ways, den = distributions.dice_sum(mof)
        boxes[mof] = distributions.Picker(({("boxes", n): m for n, m in ways.items()}, den))
    facing_items, ship_items = zip(*rest, strict=True)
    rng = random.Random("facing damage")
    runs = distributions.sample_runs(2 * len(facings))
    drawn = collections.Counter(margin.picks(rng, runs))
    counts = collections.Counter(
        tuple(zip(boxes[mof].picks(rng, len(facings)), facing_items, ship_items, strict=True))
        for mof in sorted(drawn)
        for _ in range(drawn[mof])
    )
    failed = sum(margins.values()) / 36
    return distributions.Sampled(dict(counts), runs, {(): clean / 36}, failed)


ARRIVAL_ROLL_KEYS = ("success", "roll", "mof", "kf_integrity_after", "destroyed", "facing_damage")


def _arrival_outcome(inp, roll: int) -> dict:
    """What the arrival 2D6 settles: every result key but the damage list."""
    tn = inp.navigation_tn - inp.plot_mos
    ok = success(roll, tn)
    mof = None if ok else tn - roll
    kf_after = inp.kf_integrity - (mof or 0)
    return {
        "success": ok,
        "tn": tn,
        "roll": roll,
        "mof": mof,
        "kf_integrity_after": kf_after,
        "destroyed": kf_after <= 0,
    }


def _arrival_roll_odds(key: str):
    """A key the one 2D6 settles, counted over its eleven totals (C.9: exact, and no walk
    of the procedure, which with a hundred ships lists six hundred facings on each path)."""

    def count(inp):
        ways = distributions.dice_sum_ways(2, 6)
        out: dict = {}
        for roll in range(2, 13):
            value = _arrival_outcome(inp, roll)[key]
            out[value] = out.get(value, 0) + ways[roll]
        return out, 36

    return count


@procedure(
    """
procedure: jump.nonstandard_arrival
inputs:
  navigation_tn: int
  plot_mos: int = 0                          # helps: tn = navigation_tn − plot_mos [A35]
  kf_integrity: int
  ships: list[object{id: str, facings: list[str]}] = [{"id": "jumpship", "facings": ["nose", "fore_left", "fore_right", "aft_left", "aft_right", "aft"]}]   # the JumpShip then each carried DropShip
dice:
  - navigation: 2D6
  - facing[i]: kD6  [failure; k = mof; each facing of each ship, in input order] [A35]
result:
  success: bool                              # headline
  tn: int
  roll: int
  mof: int|null
  kf_integrity_after: int                    # kf_integrity − mof
  destroyed: bool                            # kf_integrity_after ≤ 0
  facing_damage: list[object{ship: str, facing: str, boxes: int}]
effects:
  - {"target": "ship", "field": "kf_integrity", "op": "add", "value": "-<mof>"}   [failure]
  - {"target": "ship", "field": "armor.<facing>", "op": "add", "value": "-<boxes>"}   [failure, per facing]
  - {"target": "ship", "field": "destroyed", "op": "set", "value": true}   [destroyed]
errors: none
""",
    title="Jump: arrival at a non-standard jump point",
    reference=f"{SEED_B}, Non-Standard Jump Points, Step 3: Arrival",
    bounds={
        "navigation_tn": (None, tables.MAX_NAVIGATION_TN),
        "plot_mos": (0, None),
        "kf_integrity": (1, None),
    },
    # A scout's two facings keep the exact odds quick; the default six facings
    # make a failure branch enumerate tens of thousands of dice paths.
    example={
        "navigation_tn": 6,
        "plot_mos": 2,
        "kf_integrity": 2,
        "ships": [{"id": "jumpship", "facings": ["nose", "aft"]}],
    },
    exact_odds={
        "facing_damage": _facing_damage_odds,
        **{key: _arrival_roll_odds(key) for key in ARRIVAL_ROLL_KEYS if key != "facing_damage"},
        "tn": _arrival_roll_odds("tn"),
    },
)
def nonstandard_arrival(inp, dice) -> Resolution:
    _check_ships(inp.ships)
    roll = dice.total("navigation", 2, feeds=ARRIVAL_ROLL_KEYS)
    outcome = _arrival_outcome(inp, roll)
    tn, ok, mof = outcome["tn"], outcome["success"], outcome["mof"]
    damage = []
    if not ok:
        for ship in inp.ships:
            for facing in ship.facings:
                # Only the damage list reads these: the other keys depend on the one 2D6 (C.9).
                boxes = dice.total(f"facing[{len(damage)}]", mof, feeds=("facing_damage",))
                damage.append(_facing_row(ship.id, facing, boxes))
    kf_after, destroyed = outcome["kf_integrity_after"], outcome["destroyed"]
    effects = []
    if not ok:
        effects.append(add_effect("ship", "kf_integrity", -mof))
        # C.9: an effect names only a field the contract lists. The arriving JumpShip (the
        # first of ``ships``) is the effects' "ship"; a carried DropShip's armour is no field
        # of it, so that damage is a note for the GM below, naming the craft by its ``id``.
        jumpship = inp.ships[0].id
        for d in damage:
            if d["ship"] == jumpship:
                effects.append(add_effect("ship", f"armor.{d['facing']}", -d["boxes"]))
    if destroyed:
        effects.append(set_effect("ship", "destroyed", True))
    result = {**outcome, "facing_damage": damage}
    nav = f"Arrival navigation roll {roll} vs TN {tn} ({inp.navigation_tn} - plot MoS {inp.plot_mos})"
    if ok:
        return Resolution(result, f"{nav}: clean jump, no damage.", effects)
    per_ship = "; ".join(
        f"{ship.id} " + ", ".join(f"{d['facing']} {d['boxes']}" for d in damage if d["ship"] == ship.id)
        for ship in inp.ships
    )
    text = (
        f"{nav}: failed by {mof}. K-F integrity {inp.kf_integrity} -> {kf_after}"
        + (": the K-F drive and the ship are DESTROYED." if destroyed else ".")
        + f" Damage boxes ({mof}D6 per facing): {per_ship}."
    )
    carried = [ship.id for ship in inp.ships[1:]]
    if carried:
        text += (
            f" To mark by hand on the carried DropShip{'s' if len(carried) > 1 else ''} "
            f"({', '.join(carried)}): the armour damage listed for {'them' if len(carried) > 1 else 'it'}."
        )
    return Resolution(result, text, effects)


def _check_ships(ships) -> None:
    if not ships:
        raise InputError("ships", "must list at least the JumpShip")
    seen = set()
    for ship in ships:
        if ship.id in seen:
            raise InputError("ships", f"ship id “{ship.id}” appears twice")
        seen.add(ship.id)
        if not ship.facings:
            raise InputError("ships", f"ship “{ship.id}” has no armour facings")
        if len(ship.facings) > tables.MAX_FACINGS:
            raise InputError("ships", f"ship “{ship.id}” lists more than {tables.MAX_FACINGS} armour facings")
        if len(set(ship.facings)) != len(ship.facings):
            raise InputError("ships", f"ship “{ship.id}” lists a facing twice")


@procedure(
    """
procedure: jump.double_jump_interval
inputs:
  ly_first_jump: float
  dropship_factor: int
  field_collapse_s: float|null = null        # GM override [A37]
  lf_battery_charged: bool = true
dice: none
result:
  min_interval_s: float                      # headline; max(30, field_collapse_s)
  field_collapse_s: float                    # default ly × max(1, dropship_factor) / 2
  malfunction_modifier: int                  # 4 (second jump within the hour)
effects:
  - {"target": "ship", "field": "lf_battery_charged", "op": "set", "value": false}
errors:
  - InputError(lf_battery_charged): false
""",
    title="Jump: double jump (lithium-fusion battery) interval",
    reference=f"{SEED_B}, Double Jumping",
    bounds={
        "ly_first_jump": (0, tables.MAX_JUMP_LY),
        "dropship_factor": (0, None),
        "field_collapse_s": (0, None),
    },
    units={"ly_first_jump": "LY", "field_collapse_s": "s"},
    example={"ly_first_jump": 30, "dropship_factor": 25},
)
def double_jump_interval(inp, dice) -> Resolution:
    if not inp.lf_battery_charged:
        raise InputError(
            "lf_battery_charged", "is false: a second jump needs a charged lithium-fusion battery"
        )
    if inp.field_collapse_s is None:
        # [A37] the IR jump-duration formula: ly x max(1, DropShips) / 2 seconds.
        collapse = inp.ly_first_jump * max(1, inp.dropship_factor) / 2
        why = f"{inp.ly_first_jump:g} LY x {max(1, inp.dropship_factor)} DropShips / 2"
    else:
        collapse, why = inp.field_collapse_s, "GM value"
    interval = max(tables.DOUBLE_JUMP_MIN_S, collapse)
    result = {
        "min_interval_s": interval,
        "field_collapse_s": collapse,
        "malfunction_modifier": tables.DOUBLE_JUMP_MALFUNCTION_MODIFIER,
    }
    text = (
        f"Second jump no sooner than {_duration(interval)} after the first "
        f"(K-F field collapse {_duration(collapse)} [{why}]; navigation sensors need "
        f"{tables.DOUBLE_JUMP_MIN_S} s). The lithium-fusion battery is used up, and the second jump's "
        f"malfunction roll gets +{tables.DOUBLE_JUMP_MALFUNCTION_MODIFIER}."
    )
    return Resolution(result, text, [set_effect("ship", "lf_battery_charged", False)])


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:g} s"
    minutes, rest = divmod(seconds, 60)
    return f"{seconds:g} s ({int(minutes)} min {rest:g} s)" if rest else f"{seconds:g} s ({int(minutes)} min)"


@procedure(
    """
procedure: jump.field_interference
inputs:
  jumpship_distances_m: list[float] = []     # other JumpShips near the jumping ship
  controller_ok: bool = true
  override: bool = false
dice: none
result:
  outcome: str enum {jump|abort|misjump}     # headline
  charge_lost: bool                          # abort loses the charge
  interfering: int                           # JumpShips within 1000 m
effects:
  - {"target": "ship", "field": "drive_charged", "op": "set", "value": false}   [abort]
errors: none
notes:
  - misjump = heavy damage, most ships lost; resolved by the GM / Failed Jump Table [A17]. JumpShips can't carry disabled jump-capable vessels.
""",
    title="Jump: other JumpShips inside the K-F field",
    reference=f"{SEED_B}, Objects Within a K-F Field",
    bounds={"jumpship_distances_m": (0, None)},
    units={"jumpship_distances_m": "m"},
    example={"jumpship_distances_m": [800, 4000], "controller_ok": True},
)
def field_interference(inp, dice) -> Resolution:
    interfering = sum(1 for d in inp.jumpship_distances_m if d <= tables.KF_FIELD_RADIUS_M)
    if not interfering:
        outcome = "jump"
    elif inp.controller_ok and not inp.override:
        outcome = "abort"
    else:
        outcome = "misjump"
    charge_lost = outcome == "abort"
    effects = [set_effect("ship", "drive_charged", False)] if charge_lost else []
    result = {"outcome": outcome, "charge_lost": charge_lost, "interfering": interfering}
    within = (
        f"{interfering} other JumpShip{'s' if interfering != 1 else ''} within {tables.KF_FIELD_RADIUS_M:,} m"
    )
    if outcome == "jump":
        text = f"No other JumpShip within {tables.KF_FIELD_RADIUS_M:,} m: the K-F field is clear, the jump goes ahead."
    elif outcome == "abort":
        text = f"{within}: the drive controller aborts the jump automatically; the drive charge is lost, both ships are safe."
    else:
        why = "the crew overrides the controller" if inp.override else "the drive controller is not working"
        text = (
            f"{within} and {why}: the ship MISJUMPS with extensive damage (most such ships are lost); "
            "the GM resolves it (Failed Jump Table, BattleSpace p. 46)."
        )
    return Resolution(result, text, effects)


@procedure(
    """
procedure: jump.basic_constants
inputs: none
dice: none
result:
  max_jump_ly: int                           # headline; 30
  field_expands_after_ready_s: int           # 10
  sensor_blind_s: int                        # 30
  arrival_accuracy_m: int                    # 5000
  military_arrival_accuracy_m: int           # 500
  kf_field_radius_m: int                     # 1000
effects: none
errors: none
""",
    title="Jump: basic jump procedure constants",
    reference=f"{SEED_B}, Basic Jump Procedure",
    example={},
)
def basic_constants(inp, dice) -> Resolution:
    result = {
        "max_jump_ly": tables.MAX_JUMP_LY,
        "field_expands_after_ready_s": tables.FIELD_EXPANDS_AFTER_READY_S,
        "sensor_blind_s": tables.SENSOR_BLIND_S,
        "arrival_accuracy_m": tables.ARRIVAL_ACCURACY_M,
        "military_arrival_accuracy_m": tables.MILITARY_ARRIVAL_ACCURACY_M,
        "kf_field_radius_m": tables.KF_FIELD_RADIUS_M,
    }
    text = (
        f"Jumps reach up to {tables.MAX_JUMP_LY} LY; the K-F field expands "
        f"{tables.FIELD_EXPANDS_AFTER_READY_S} s after ready status and reaches {tables.KF_FIELD_RADIUS_M:,} m; "
        f"sensors are blind for about {tables.SENSOR_BLIND_S} s after arrival; ships arrive within "
        f"{tables.ARRIVAL_ACCURACY_M:,} m ({tables.MILITARY_ARRIVAL_ACCURACY_M} m for modern military ships)."
    )
    return Resolution(result, text)
