"""Boarding actions (Seed B, section 9 of the catalogue): landing on a vessel's hull, attacks
by landed units, and BattleSpace damage converted to BattleTech."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import boarding as tables

from ._common import lookup_band, rhu, success, table_entry


@procedure(
    """
procedure: boarding.landing
inputs:
  unit_kind: str enum {mech|battle_armor}
  piloting: int|null = null                  # 'Mech
  damage_psr_mods: int = 0
  leg_actuator_mods: int = 0                 # doubled when leg_mounted_jets
  leg_mounted_jets: bool = false
  target_kind: str enum {dropship|warship|jumpship} = "dropship"
  started_in_hex: bool = true
  entry_hexside: str|null = null             # landing location [A52]
dice:
  - control: 2D6
result:
  landed: bool                               # headline
  tn: int                                    # 'Mech piloting + 2 + mods; battle armour 6 + mods
  roll: int
  mof: int|null
  outcome: str enum {clean|hard_landing|very_hard_landing|glancing_collision|collision|hard_collision|off_target}
  damage: int                                # 0/1/2/1/2/3/0
  location: str|null                         # entry_hexside when landed
  movement_ended: bool                       # off target: no more movement this turn
effects:
  - {"target": "unit", "field": "landed_on", "op": "set", "value": {"ship": "<target>", "location": "<location>"}}   [landed]
  - {"target": "unit", "field": "damage", "op": "add", "value": "<damage>"}   [damage > 0]
errors:
  - InputError(started_in_hex): false
  - InputError(piloting): 'Mech without piloting
""",
    title="Boarding: land on a vessel's hull (Control Roll, Boarding Failure Table)",
    reference=f"{SEED_B}, Boarding Actions; Boarding Failure Table",
    bounds={"piloting": (0, None)},
    example={
        "unit_kind": "mech",
        "piloting": 5,
        "damage_psr_mods": 1,
        "leg_actuator_mods": 1,
        "leg_mounted_jets": True,
        "entry_hexside": "nose",
    },
)
def landing(inp, dice) -> Resolution:
    if not inp.started_in_hex:
        raise InputError(
            "started_in_hex", "a unit may try to land only if it started the turn in the target's hex"
        )
    mech = inp.unit_kind == "mech"
    if mech and inp.piloting is None:
        raise InputError("piloting", "is needed for the 'Mech's Control Roll")
    if inp.entry_hexside is not None and not inp.entry_hexside.strip():
        raise InputError(
            "entry_hexside", "is empty: give the hexside the unit entered through, or leave it out"
        )
    tn = _landing_tn(inp)
    roll = dice.total("control", 2)
    if success(roll, tn):
        mof, outcome, damage, landed = None, "clean", 0, True
    else:
        mof = tn - roll
        outcome, damage, landed = lookup_band(tables.FAILURE_BANDS, mof)
    result = {
        "landed": landed,
        "tn": tn,
        "roll": roll,
        "mof": mof,
        "outcome": outcome,
        "damage": damage,
        "location": inp.entry_hexside if landed else None,
        "movement_ended": outcome == tables.OFF_TARGET,
    }
    effects = []
    if landed:
        # No input names the vessel itself; its kind stands in for it.
        value = {"ship": inp.target_kind, "location": result["location"]}
        effects.append(set_effect("unit", "landed_on", value))
    if damage > 0:
        effects.append(add_effect("unit", "damage", damage))
    return Resolution(result, _landing_summary(result, inp), effects)


def _landing_tn(inp) -> int:
    if inp.unit_kind == "mech":
        # Damaged leg actuators count double for a 'Mech whose jump jets are in its legs.
        legs = inp.leg_actuator_mods * (tables.LEG_MOUNTED_JETS_MULTIPLIER if inp.leg_mounted_jets else 1)
        return inp.piloting + tables.CONTROL_PSR_MOD + inp.damage_psr_mods + legs
    return tables.BA_CONTROL_TN + inp.damage_psr_mods + inp.leg_actuator_mods


def _landing_tn_text(inp) -> str:
    """How the TN was built, e.g. "Piloting 5 + 2 + 1 damage + 2 leg actuators (doubled: ...)"."""
    text = f"Piloting {inp.piloting} + 2" if inp.unit_kind == "mech" else "battle armour 6"
    if inp.damage_psr_mods:
        text += f" {_signed(inp.damage_psr_mods)} damage"
    if inp.leg_actuator_mods:
        doubled = inp.unit_kind == "mech" and inp.leg_mounted_jets
        legs = inp.leg_actuator_mods * (tables.LEG_MOUNTED_JETS_MULTIPLIER if doubled else 1)
        text += f" {_signed(legs)} leg actuators" + (" (doubled: leg-mounted jump jets)" if doubled else "")
    return text


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"- {-n}"


def _landing_summary(r: dict, inp) -> str:
    ship = tables.TARGET_TEXT[inp.target_kind]
    head = f"Landing on the {ship}: Control Roll {r['roll']} vs TN {r['tn']} ({_landing_tn_text(inp)})"
    if r["outcome"] == "clean":
        verdict = "success, the unit lands cleanly"
    else:
        verdict = f"failed by {r['mof']}: {tables.OUTCOME_TEXT[r['outcome']]}"
    line = f"{head}: {verdict}"
    if r["landed"]:
        if r["location"] is None:
            line += "; the GM picks the location it lands on (it did not enter through a hexside)"
        else:
            line += f"; it is now on the {ship}'s {tables.LOCATION_TEXT.get(r['location'], r['location'])}"
        line += "; the defender's own 'Mechs and battle armour may enter on any location from next turn"
    elif r["outcome"] != tables.OFF_TARGET:
        line += "; it may try again next turn if it is still in the hex"
    return line + "."


@procedure(
    """
procedure: boarding.landed_attack
inputs:
  attack: str enum {hull|weapon_bay|bay_door|door|thruster|transit_drive}
  location: str enum {nose|fore_left|fore_right|aft_left|aft_right|aft}
  attacking_units: int = 1
  bay: int|null = null                       # bay_door: 1 fore_left, 2 fore_right, 3 aft_left/aft_right
  nose_s: int = 0                            # landed unit's short-range damage per arc (hull attacks) [A32]
  lw_s: int = 0
  rw_s: int = 0
  melee_damage: list[int] = []               # BattleTech damage of each melee weapon
dice: none
result:
  boxes: int                                 # headline
  box_type: str enum {armor|critical}
  melee_boxes: int                           # Σ rhu(melee/10)
effects:
  - {"target": "ship", "field": "armor.<location>", "op": "add", "value": "-<boxes>"}   [hull]
  - {"target": "ship", "field": "crit_boxes.<attack>", "op": "add", "value": "<boxes>"}   [otherwise]
errors:
  - InputError(bay): bay_door without a bay matching the location
  - InputError(location): thruster from nose/aft; transit_drive not from aft
  - InputError(attacking_units): hull with attacking_units != 1 (one call per landed unit)
notes:
  - Non-hull attacks succeed automatically: boxes = attacking_units critical boxes. Hull: boxes = nose_s + lw_s + rw_s + melee_boxes armour boxes.
  - Defender options (boarding.hold_on: Control Rolls, point defence, fighters, own troops) are play rules, not computed.
""",
    title="Boarding: attack by a landed 'Mech or battle armour",
    reference=f"{SEED_B}, Boarding Actions (landed units)",
    bounds={
        "attacking_units": (1, None),
        "bay": (1, 3),
        "nose_s": (0, None),
        "lw_s": (0, None),
        "rw_s": (0, None),
        "melee_damage": (0, None),
    },
    example={
        "attack": "hull",
        "location": "fore_left",
        "nose_s": 3,
        "lw_s": 1,
        "rw_s": 2,
        "melee_damage": [15],
    },
)
def landed_attack(inp, dice) -> Resolution:
    attack, location = inp.attack, inp.location
    where = tables.LOCATION_TEXT[location]
    if attack == "thruster" and location not in tables.THRUSTER_LOCATIONS:
        raise InputError(
            "location", f"maneuvering thrusters can be attacked only from a side location, not the {where}"
        )
    if attack == "transit_drive" and location not in tables.TRANSIT_DRIVE_LOCATIONS:
        raise InputError("location", f"the transit drive can be attacked only from the aft, not the {where}")
    if attack == "bay_door":
        if inp.bay is None:
            raise InputError(
                "bay", "a bay-door attack needs the bay number (1 fore-left, 2 fore-right, 3 aft sides)"
            )
        if location not in tables.BAY_DOOR_LOCATIONS[inp.bay]:
            sides = " or ".join(
                tables.LOCATION_TEXT[loc] for loc in sorted(tables.BAY_DOOR_LOCATIONS[inp.bay])
            )
            raise InputError("bay", f"Bay {inp.bay} doors are on the {sides}, not the {where}")
    if attack == "hull" and inp.attacking_units != 1:
        raise InputError(
            "attacking_units", "a hull attack is worked out per landed unit: make one call for each unit"
        )
    if attack == "hull":
        melee = sum(rhu(Fraction(m, tables.MELEE_DIVISOR)) for m in inp.melee_damage)
        boxes = inp.nose_s + inp.lw_s + inp.rw_s + melee
        box_type = "armor"
        effects = [add_effect("ship", f"armor.{location}", -boxes)]
    else:
        melee = 0
        boxes = inp.attacking_units
        box_type = "critical"
        effects = [add_effect("ship", f"crit_boxes.{attack}", boxes)]
    result = {"boxes": boxes, "box_type": box_type, "melee_boxes": melee}
    return Resolution(result, _attack_summary(result, inp), effects)


def _attack_summary(r: dict, inp) -> str:
    where = tables.LOCATION_TEXT[inp.location]
    if inp.attack == "hull":
        parts = f"Nose {inp.nose_s} + LW {inp.lw_s} + RW {inp.rw_s} short-range damage"
        if inp.melee_damage:
            melee = " + ".join(str(m) for m in inp.melee_damage)
            parts += f" + melee {r['melee_boxes']} ({melee} BattleTech damage / 10)"
        box = "box" if r["boxes"] == 1 else "boxes"
        return (
            f"Hull attack on the {where} (automatic hit): cross off {r['boxes']} armour {box} "
            f"in the {where} ({parts})."
        )
    target = tables.ATTACK_TEXT[inp.attack]
    if inp.attack == "bay_door":
        target = f"Bay {inp.bay} door"
    units = "1 landed unit" if inp.attacking_units == 1 else f"{inp.attacking_units} landed units"
    box = "box" if r["boxes"] == 1 else "boxes"
    return (
        f"Attack on the {target} from the {where} by {units} (automatic hit, weapon damage does not "
        f"matter): cross off {r['boxes']} critical {box} for the {target}."
    )


# What the location dice can change (troopers removed from battle armour is not rolled).
LOCATION_KEYS = ("locations", "damage", "location_rolls", "crit_checks")


# Values a box key's counted odds may list: beyond them the key's odds are a labelled
# estimate sampled from the same per-box odds (distributions.sample), as listing them all
# would take longer than the odds panel waits: 46 boxes over seven locations make 7**46
# lists of locations and some twenty million splits of their damage.
MAX_COUNTED_VALUES = 5_000


def _box_weights(inp) -> dict[int, int] | None:
    """Each 2D6 total a box can end on, with its ways out of 36 (the re-rolled totals left
    out: the accepted roll is drawn from the rest, C.6). None for battle armour (no dice)
    or a GM table with a gap (the walk says which roll it is missing)."""
    if inp.unit_kind != "mech":
        return None
    table = tables.FRONT_HIT_LOCATION if inp.hit_table is None else inp.hit_table
    ways = distributions.dice_sum_ways(2, 6)
    if any(total not in table for total in range(2, 13)):
        return None
    reroll = set(inp.reroll_locations)
    return {total: ways[total] for total in range(2, 13) if table[total] not in reroll}


def _by_location(inp, weights: dict[int, int]) -> dict[str, int]:
    table = tables.FRONT_HIT_LOCATION if inp.hit_table is None else inp.hit_table
    merged: dict[str, int] = {}
    for total, w in weights.items():
        merged[table[total]] = merged.get(table[total], 0) + w
    return merged


def _crit_checks_odds(inp):
    """Each box is a critical check with the same odds, alone: a binomial over the boxes."""
    weights = _box_weights(inp)
    if weights is None or not weights:
        return None
    return distributions.binomial(inp.boxes, weights.get(tables.CRIT_CHECK_ROLL, 0), sum(weights.values()))


def _damage_value(locations) -> tuple:
    """The damage key's value (as odds keys are) of boxes landing on these locations."""
    counts: dict[str, int] = {}
    for loc in locations:
        counts[loc] = counts.get(loc, 0) + 1
    return tuple(sorted((loc, c * tables.DAMAGE_PER_BOX) for loc, c in counts.items()))


def _damage_odds(inp):
    """The damage is 10 a box per location: how the boxes split over the locations."""
    weights = _box_weights(inp)
    if weights is None or not weights:
        return None
    by_location = _by_location(inp, weights)
    splits = distributions.multinomial(inp.boxes, by_location, MAX_COUNTED_VALUES)
    if splits is None:
        pick = distributions.Picker((by_location, 0))
        return distributions.sample(lambda rng: _damage_value(pick(rng, inp.boxes)), inp.boxes, "damage")
    ways = {}
    for counts, n in splits:
        value = tuple(sorted((loc, c * tables.DAMAGE_PER_BOX) for loc, c in counts.items()))
        ways[value] = ways.get(value, 0) + n
    return ways, sum(weights.values()) ** inp.boxes


def _locations_odds(inp):
    """The location of each box in order: every sequence of independent locations."""
    weights = _box_weights(inp)
    if weights is None or not weights:
        return None
    by_location = _by_location(inp, weights)
    exact = distributions.sequences(inp.boxes, by_location, MAX_COUNTED_VALUES)
    if exact is not None:
        return exact
    pick = distributions.Picker((by_location, 0))
    return distributions.sample(lambda rng: tuple(pick(rng, inp.boxes)), inp.boxes, "locations")


def _location_rolls_odds(inp):
    """Every roll of every box, re-rolled ones included. Without re-rolls the totals are
    independent: exact while they can be listed. With re-rolls a box's list has no bound
    but the C.6 cap (1,000 rolls a box), each length a value of its own (a thousand-long
    list of 12s has odds 36**-1000), so its odds are always a labelled estimate."""
    weights = _box_weights(inp)
    if weights is None or not weights:
        return None
    ways = distributions.dice_sum_ways(2, 6)
    every = {total: ways[total] for total in range(2, 13)}
    if not inp.reroll_locations:
        exact = distributions.sequences(inp.boxes, every, MAX_COUNTED_VALUES)
        if exact is not None:
            return exact
    if inp.boxes == 0:
        return {(): 1}, 1
    discarded = {total: n for total, n in every.items() if total not in weights}
    discard, accepted = distributions.Picker((discarded, 0)), distributions.Picker((weights, 0))
    # A box's discarded rolls are a geometric count, its tail lumped into the cap (C.6).
    p_discard = sum(discarded.values()) / 36
    per_box = 1 / (1 - p_discard)  # rolls a box takes, on average
    how_many = distributions.Picker(
        distributions.geometric_odds(p_discard, tables.LOCATION_ROLLS_ODDS_CAP - 1)
    )

    def draw(rng) -> tuple:
        counts = how_many(rng, inp.boxes)
        thrown = iter(discard(rng, sum(counts)))
        rolls: list[int] = []
        for count, landed in zip(counts, accepted(rng, inp.boxes), strict=True):
            rolls.extend(itertools.islice(thrown, count))
            rolls.append(landed)
        return tuple(rolls)

    return distributions.sample(draw, inp.boxes * (1 + per_box), "location rolls")


@procedure(
    """
procedure: boarding.bs_to_bt_damage
inputs:
  boxes: int
  unit_kind: str enum {mech|battle_armor}
  troopers: int|null = null                  # battle armour: troopers left (caps removals)
  reroll_locations: list[str] = []           # locations whose 10-point hit would destroy a 'Mech still working in BattleSpace (GM judgement)
  hit_table: table2d6[str]|null = null       # null → standard Front column
dice:
  - location[i]: 2D6  [mech; one per box; re-rolled while the location is in reroll_locations]
result:
  locations: list[str]                       # headline; final location per box ([] for battle armour)
  damage: object{<LOC>: int}                 # 10 per box
  location_rolls: list[int]                  # every roll in order, re-rolled ones included
  crit_checks: int                           # boxes that landed on a 2 (CT, through-armour critical check)
  troopers_removed: int                      # battle armour: min(boxes, troopers)
effects:
  - {"target": "unit", "field": "locations.<LOC>.damage", "op": "add", "value": "<damage[LOC]>"}
  - {"target": "unit", "field": "troopers", "op": "add", "value": "-<troopers_removed>"}   [battle armour]
errors:
  - InputError(reroll_locations): every table location re-rolled
notes:
  - Standard Front column: 2 CT (crit check), 3 RA, 4 RA, 5 RL, 6 RT, 7 CT, 8 LT, 9 LL, 10 LA, 11 LA, 12 HD.
""",
    title="Boarding: convert BattleSpace damage boxes to BattleTech damage",
    reference=f"{SEED_B}, Converting BattleSpace Damage to BattleTech",
    bounds={"boxes": (0, tables.MAX_BOXES), "troopers": (0, None)},
    example={"boxes": 1, "unit_kind": "mech", "reroll_locations": ["HD"]},
    loop_counts={"location_rolls": None},
    exact_odds={
        "crit_checks": _crit_checks_odds,
        "damage": _damage_odds,
        "locations": _locations_odds,
        "location_rolls": _location_rolls_odds,
    },
)
def bs_to_bt_damage(inp, dice) -> Resolution:
    mech = inp.unit_kind == "mech"
    table = tables.FRONT_HIT_LOCATION if inp.hit_table is None else inp.hit_table
    reroll = frozenset(inp.reroll_locations)
    if mech:
        on_table = set(table.values())
        unknown = [loc for loc in inp.reroll_locations if loc not in on_table]
        if unknown:
            raise InputError(
                "reroll_locations",
                f"{', '.join(unknown)} is not on the hit table (its locations: {', '.join(sorted(on_table))})",
            )
        if on_table <= reroll:
            raise InputError(
                "reroll_locations", "every location on the hit table is re-rolled: no hit could land"
            )
    locations: list[str] = []
    rolls: list[int] = []
    damage: dict[str, int] = {}
    crit_checks = 0
    removed = 0
    if mech:

        def accept(total: int) -> bool:
            return _location(table, total, inp.hit_table is not None) not in reroll

        def hit(total: int) -> str | None:  # what the locations and damage read of a roll
            return table.get(total)

        def crit(total: int) -> tuple[bool, bool]:  # what the count of critical checks reads
            return table.get(total) in reroll, total == tables.CRIT_CHECK_ROLL

        # Only the roll list reads the roll itself.
        reads = {"locations": hit, "damage": hit, "crit_checks": crit}

        for i in range(inp.boxes):
            label = f"location[{i}]"
            first = len(dice.rolls)
            # Without re-rolls a plain 2D6 (same dice, cheaper exact odds). With them, rolled
            # again until a location that is not re-rolled, however long that takes (C.9).
            if reroll:
                total = dice.total_until(
                    label,
                    2,
                    6,
                    accept,
                    odds_cap=tables.LOCATION_ROLLS_ODDS_CAP,
                    feeds=LOCATION_KEYS,
                    reads=reads,
                )
            else:
                total = dice.total(label, 2, feeds=LOCATION_KEYS, reads=reads)
            rolls.extend(r.total for r in dice.rolls[first:])
            loc = _location(table, total, inp.hit_table is not None)
            locations.append(loc)
            damage[loc] = damage.get(loc, 0) + tables.DAMAGE_PER_BOX
            crit_checks += total == tables.CRIT_CHECK_ROLL
    else:
        removed = inp.boxes if inp.troopers is None else min(inp.boxes, inp.troopers)
    result = {
        "locations": locations,
        "damage": damage,
        "location_rolls": rolls,
        "crit_checks": crit_checks,
        "troopers_removed": removed,
    }
    effects = [add_effect("unit", f"locations.{loc}.damage", pts) for loc, pts in damage.items()]
    if not mech:
        effects.append(add_effect("unit", "troopers", -removed))
    return Resolution(result, _damage_summary(result, inp, reroll), effects)


def _location(table, total: int, gm_table: bool) -> str:
    return table_entry(table, total, "hit_table") if gm_table else table[total]


def _damage_summary(r: dict, inp, reroll: frozenset) -> str:
    n = inp.boxes
    boxes = f"{n} BattleSpace box{'es' if n != 1 else ''}"
    if inp.unit_kind == "battle_armor":
        removed = r["troopers_removed"]
        line = f"{boxes} on battle armour: {removed} trooper{'s' if removed != 1 else ''} eliminated"
        if inp.troopers is not None:
            line += f" (troopers {inp.troopers} -> {inp.troopers - removed})"
        return line + "."
    if n == 0:
        return "No BattleSpace boxes: no BattleTech damage."
    # Walk the rolls: a re-rolled location is shown, then the roll that counted.
    hits = []
    rolls = iter(r["location_rolls"])
    table = tables.FRONT_HIT_LOCATION if inp.hit_table is None else inp.hit_table
    for n_box, loc in enumerate(r["locations"], start=1):
        shown = []
        for roll in rolls:
            got = table[roll]
            if got in reroll:
                shown.append(f"roll {roll} {got}, re-rolled")
                continue
            crit = ", through-armour critical check" if roll == tables.CRIT_CHECK_ROLL else ""
            shown.append(f"roll {roll} {loc} +10{crit}")
            break
        hits.append(f"box {n_box}: " + " -> ".join(shown))
    totals = ", ".join(f"{loc} {pts}" for loc, pts in r["damage"].items())
    return f"{boxes} = {n * tables.DAMAGE_PER_BOX} BattleTech damage, Front column: {'; '.join(hits)}. Totals: {totals}."
