"""BattleSpace ramming (Seed B, section 7 of the catalogue): accidental collisions,
collision damage and deliberate ramming attacks."""

from __future__ import annotations

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.tables import ram as tables

from ._common import success

# ---------------------------------------------------------------------------
# Shared steps


MOVER = ("mover_damage",)
TARGET = ("target_damage",)


def _collision_damage(dice) -> dict:
    """1D6: 1-5 both craft destroyed; 6 glancing, 1D6 x 1D6 for the mover, then for the target [A18]."""
    roll = dice.total("damage", 1)
    if roll != tables.GLANCING_ON:
        return {"damage_roll": roll, "both_destroyed": True, "glancing": False, "mover": None, "target": None}
    # Each pair is multiplied into one craft's damage and changes nothing else.
    mover = (dice.total("mover_a", 1, feeds=MOVER), dice.total("mover_b", 1, feeds=MOVER))
    target = (dice.total("target_a", 1, feeds=TARGET), dice.total("target_b", 1, feeds=TARGET))
    return {"damage_roll": roll, "both_destroyed": False, "glancing": True, "mover": mover, "target": target}


def _apply_damage(result: dict, damage: dict) -> None:
    result["damage_roll"] = damage["damage_roll"]
    result["both_destroyed"] = damage["both_destroyed"]
    result["glancing"] = damage["glancing"]
    if damage["glancing"]:
        (ma, mb), (ta, tb) = damage["mover"], damage["target"]
        result["mover_damage"] = ma * mb
        result["target_damage"] = ta * tb


def _check_fighter_table(table) -> None:
    if table is not None:
        for roll, hits in table.items():
            if hits < 0:
                raise InputError("fighter_hits_table", f"entry {roll}: hits cannot be negative")


# What the fighters that hit can change: odds of any other key need neither the GM's
# count nor the Fighter Hits Table (C.9, odds per key).
FIGHTER_HIT_KEYS = ("fighter_hits_roll", "fighters_destroyed", "target_damage")


def _fighter_hits(inp, dice) -> tuple[int | None, int]:
    """The Fighter Hits Table roll (GM-data [A16]), or the hits the GM entered."""
    if inp.fighter_hits is not None:
        return None, inp.fighter_hits
    if inp.fighter_hits_table is None:
        if dice.idle(FIGHTER_HIT_KEYS):
            return None, 0
        raise InputError(
            "fighter_hits_table",
            "the fighter unit collides: enter the number of fighters that hit (fighter hits) "
            "or the Fighter Hits Table column for this unit (BattleSpace p. 19)",
        )
    roll = dice.total("fighter_hits", 2, feeds=FIGHTER_HIT_KEYS)
    hits = dice.lookup(inp.fighter_hits_table, roll, "fighter_hits_table", feeds=FIGHTER_HIT_KEYS, missing=0)
    return roll, hits


def _target_facing(entry_hexside: str | None) -> str:
    return f"armor.{entry_hexside}" if entry_hexside else "armor.toward_entry_hexside"


def _facing_text(entry_hexside: str | None) -> str:
    if entry_hexside:
        return f"the facing toward hexside {entry_hexside}"
    return "the facing toward the hexside the mover entered through (GM: pick it)"


def _effects(r: dict, entry_hexside: str | None, fighter_collision: bool) -> list[dict]:
    effects = []
    if r["both_destroyed"]:
        # Mover and occupant.
        effects += [set_effect("ship", "destroyed", True), set_effect("ship", "destroyed", True)]
    if r["glancing"]:
        effects.append(add_effect("ship", "armor.nose", -r["mover_damage"]))
        effects.append(add_effect("ship", _target_facing(entry_hexside), -r["target_damage"]))
    if fighter_collision:
        effects.append(add_effect("ship", _target_facing(entry_hexside), -r["target_damage"]))
        effects.append(add_effect("fighter", "armor_rows", -r["fighters_destroyed"]))
    return effects


def _damage_text(damage: dict, mover: str, target: str, entry_hexside: str | None) -> str:
    if damage["both_destroyed"]:
        return f"damage roll {damage['damage_roll']}: both craft are destroyed"
    (ma, mb), (ta, tb) = damage["mover"], damage["target"]
    return (
        f"damage roll 6: glancing collision; the {mover} takes {ma}×{mb} = {ma * mb} on its nose "
        f"(its forward facing), the {target} {ta}×{tb} = {ta * tb} on {_facing_text(entry_hexside)}"
    )


def _fighter_text(roll, hits, destroyed, inp, target: str, entry_hexside: str | None) -> str:
    source = "GM-entered hits" if roll is None else f"Fighter Hits roll {roll}"
    capped = f" (capped at the {inp.fighters_in_unit} in the unit)" if hits > destroyed else ""
    return (
        f"{source}: {hits} hit{'s' if hits != 1 else ''}{capped}; fighter armour rows "
        f"{inp.fighters_in_unit} -> {inp.fighters_in_unit - destroyed}; the {target} takes "
        f"{destroyed} × velocity {inp.velocity} = {destroyed * inp.velocity} on {_facing_text(entry_hexside)}"
    )


def _glancing_damage_odds() -> distributions.Distribution:
    """One craft's damage from the damage roll: 0 on 1-5 (both destroyed), 1D6 x 1D6 on a 6."""
    ways = {0: (tables.GLANCING_ON - 1) * 36}
    for product, n in distributions.dice_product_ways(2, 6):
        ways[product] = ways.get(product, 0) + n
    return ways, 6 * 36


def _fighter_damage_odds(inp) -> distributions.Distribution | None:
    """The target's damage from a fighter unit that hits: the fighters destroyed (the GM's
    count, or the Fighter Hits Table on 2D6) times the velocity. None for a table with a
    gap, or none at all: the walk refuses it, naming what is missing."""
    if inp.fighter_hits is not None:
        return {min(inp.fighter_hits, inp.fighters_in_unit) * inp.velocity: 1}, 1
    table = inp.fighter_hits_table
    if table is None or any(total not in table for total in range(2, 13)):
        return None
    ways = distributions.dice_sum_ways(2, 6)
    damage: dict[int, int] = {}
    for total in range(2, 13):
        value = min(table[total], inp.fighters_in_unit) * inp.velocity
        damage[value] = damage.get(value, 0) + ways[total]
    return damage, 36


def _rams_with_fighters(inp) -> bool:
    """The craft that rams (accidental: ``mover``; deliberate: ``attacker``) is a fighter unit."""
    return getattr(inp, "mover", None) == "fighter_unit" or getattr(inp, "attacker", None) == "fighter_unit"


def _crash_damage_odds(key: str, inp, hit: int, den: int):
    """A key's damage when the collision happens ``hit`` ways in ``den`` (0 otherwise)."""
    if _rams_with_fighters(inp):
        damage = ({0: 1}, 1) if key == "mover_damage" else _fighter_damage_odds(inp)
        if damage is None:
            return None
    else:
        damage = _glancing_damage_odds()
    return distributions.mix([(hit, den, damage), (den - hit, den, ({0: 1}, 1))])


def _accidental_damage_odds(key: str):
    """``mover_damage`` / ``target_damage`` of an accidental collision, counted: the 2D6
    collision chance, then the damage (see ``_deliberate_damage_odds``)."""

    def count(inp):
        mover_class = "fighter_unit" if inp.mover == "fighter_unit" else "large"
        if inp.occupant not in tables.COLLISION_CHECK[mover_class]:
            return {0: 1}, 1
        return _crash_damage_odds(key, inp, distributions.at_least(2, 6, tables.COLLISION_AT), 36)

    return count


# ---------------------------------------------------------------------------
# 7.1 Accidental collisions


@procedure(
    """
procedure: ram.accidental
inputs:
  mover: str enum {dropship|jumpship|warship|fighter_unit}   # Out-of-Control craft entering the hex
  occupant: str enum {dropship|jumpship|warship|station|fighter_unit}
  velocity: int = 0                          # fighter mover
  fighters_in_unit: int = 1
  fighter_hits: int|null = null              # GM-entered hits (skips the Fighter Hits roll) [A16]
  fighter_hits_table: table2d6[int]|null = null   # GM-data column of the Fighter Hits Table for this unit size [A16]
  entry_hexside: str|null = null
dice:
  - collision: 2D6  [large → large/station, or fighter → large ship; no roll otherwise] → collision on ≥ 10
  - damage: 1D6  [collision, large mover]
  - mover_a, mover_b, target_a, target_b: 1D6 each  [damage == 6] [A18]
  - fighter_hits: 2D6  [collision, fighter mover, fighter_hits == null]
result:
  collision: bool                            # headline
  collision_roll: int|null
  damage_roll: int|null
  both_destroyed: bool                       # damage roll 1-5
  glancing: bool                             # damage roll 6
  mover_damage: int                          # glancing: mover_a × mover_b on the nose (forward facing)
  target_damage: int                         # glancing: target_a × target_b; fighter: hits × velocity; facing toward entry_hexside
  fighter_hits_roll: int|null
  fighters_destroyed: int                    # min(hits, fighters_in_unit)
effects:
  - {"target": "ship", "field": "destroyed", "op": "set", "value": true}   [both_destroyed; mover and occupant]
  - {"target": "ship", "field": "armor.<facing>", "op": "add", "value": "-<damage>"}   [glancing / fighter collision]
  - {"target": "fighter", "field": "armor_rows", "op": "add", "value": "-<fighters_destroyed>"}   [fighter collision]
errors:
  - InputError(fighter_hits_table): fighter collision with neither fighter_hits nor a table entry for the roll
""",
    title="Ramming: accidental collision of an Out-of-Control craft",
    reference=f"{SEED_B}, Accidental Collisions",
    bounds={"velocity": (0, None), "fighters_in_unit": (1, None), "fighter_hits": (0, None)},
    example={
        "mover": "fighter_unit",
        "occupant": "dropship",
        "velocity": 4,
        "fighters_in_unit": 6,
        "fighter_hits_table": {
            "2": 1,
            "3": 1,
            "4": 1,
            "5": 2,
            "6": 2,
            "7": 3,
            "8": 3,
            "9": 4,
            "10": 4,
            "11": 5,
            "12": 6,
        },
        "entry_hexside": "fore_right",
    },
    exact_odds={key: _accidental_damage_odds(key) for key in ("mover_damage", "target_damage")},
)
def accidental(inp, dice) -> Resolution:
    _check_fighter_table(inp.fighter_hits_table)
    mover_class = "fighter_unit" if inp.mover == "fighter_unit" else "large"
    rolls = inp.occupant in tables.COLLISION_CHECK[mover_class]
    result = {
        "collision": False,
        "collision_roll": None,
        "damage_roll": None,
        "both_destroyed": False,
        "glancing": False,
        "mover_damage": 0,
        "target_damage": 0,
        "fighter_hits_roll": None,
        "fighters_destroyed": 0,
    }
    mover, target = tables.NAMES[inp.mover], tables.NAMES[inp.occupant]
    if not rolls:
        reason = (
            "fighter units are too small to collide with each other"
            if mover_class == "fighter_unit" and inp.occupant == "fighter_unit"
            else f"the collision rules give no check for a {mover} entering a {target}'s hex"
        )
        return Resolution(result, f"No collision roll: {reason}.", [])
    result["collision_roll"] = dice.total("collision", 2)
    result["collision"] = success(result["collision_roll"], tables.COLLISION_AT)
    line = f"Collision roll {result['collision_roll']} (needs {tables.COLLISION_AT}+)"
    if not result["collision"]:
        return Resolution(result, f"{line}: the {mover} misses the {target}.", [])
    fighter_collision = mover_class == "fighter_unit"
    if fighter_collision:
        roll, hits = _fighter_hits(inp, dice)
        destroyed = min(hits, inp.fighters_in_unit)
        result["fighter_hits_roll"] = roll
        result["fighters_destroyed"] = destroyed
        result["target_damage"] = destroyed * inp.velocity
        detail = _fighter_text(roll, hits, destroyed, inp, target, inp.entry_hexside)
    else:
        damage = _collision_damage(dice)
        _apply_damage(result, damage)
        detail = _damage_text(damage, mover, target, inp.entry_hexside)
    summary = f"{line}: the {mover} collides with the {target}; {detail}."
    return Resolution(result, summary, _effects(result, inp.entry_hexside, fighter_collision))


# ---------------------------------------------------------------------------
# 7.2 Collision damage (shared by accidental and deliberate rams)


@procedure(
    """
procedure: ram.collision_damage
inputs:
  entry_hexside: str|null = null
dice:
  - damage: 1D6
  - mover_a, mover_b, target_a, target_b: 1D6 each  [damage == 6]
result:
  both_destroyed: bool                       # headline; 1-5
  damage_roll: int
  glancing: bool
  mover_damage: int
  target_damage: int
effects:
  - {"target": "ship", "field": "destroyed", "op": "set", "value": true}   [both_destroyed]
  - {"target": "ship", "field": "armor.<facing>", "op": "add", "value": "-<damage>"}   [glancing]
errors: none
""",
    title="Ramming: collision damage",
    reference=f"{SEED_B}, Accidental Collisions (collision damage)",
    example={"entry_hexside": "fore_right"},
    exact_odds=dict.fromkeys(("mover_damage", "target_damage"), lambda inp: _glancing_damage_odds()),
)
def collision_damage(inp, dice) -> Resolution:
    damage = _collision_damage(dice)
    result = {
        "both_destroyed": False,
        "damage_roll": 0,
        "glancing": False,
        "mover_damage": 0,
        "target_damage": 0,
    }
    _apply_damage(result, damage)
    effects = _effects(result, inp.entry_hexside, fighter_collision=False)
    summary = _damage_text(damage, "mover", "target", inp.entry_hexside)
    return Resolution(result, summary[0].upper() + summary[1:] + ".", effects)


# ---------------------------------------------------------------------------
# 7.3 Deliberate ramming attacks


def _ram_tn(inp) -> int:
    """The ramming roll's TN: by target type, −2 for one that cannot accelerate [A55]."""
    base, footnoted = tables.RAMMING_TN[inp.target_type]
    return base + (tables.CANNOT_ACCELERATE_MODIFIER if footnoted and not inp.target_can_accelerate else 0)


def _convince_tn(inp) -> int:
    """The crew's 2D6 ≥ 11, or the Leadership roll's TN in MechWarrior mode."""
    if inp.leadership_mode:
        return inp.leadership_skill_tn + tables.LEADERSHIP_MODIFIER + inp.gm_mods
    return tables.CONVINCE_AT


def _hit_ways(inp) -> tuple[int, int]:
    """The ways in which a deliberate ram is allowed and then hits: (ways, den)."""
    if inp.gm_waive:
        allowed, allowed_den = 1, 1
    else:
        allowed, allowed_den = distributions.at_least(2, 6, _convince_tn(inp)), 36
    return allowed * distributions.at_least(2, 6, _ram_tn(inp)), allowed_den * 36


def _deliberate_damage_odds(key: str):
    """The odds of ``mover_damage`` or ``target_damage`` of a deliberate ram, counted: the
    chance it is allowed and hits (two 2D6 totals), then the damage of the hit, instead of
    walking the convince, ram and four damage dice path by path."""

    def count(inp):
        return _crash_damage_odds(key, inp, *_hit_ways(inp))

    return count


@procedure(
    """
procedure: ram.deliberate
inputs:
  target_type: str enum {warship|jumpship|station|dropship}   # fighters can't be rammed [A18]
  target_can_accelerate: bool = true
  attacker: str enum {large|fighter_unit} = "large"
  leadership_mode: bool = false              # MechWarrior rules: Leadership roll instead of 2D6 ≥ 11
  leadership_skill_tn: int|null = null
  gm_mods: int = 0                           # extra target modifiers on the Leadership roll
  gm_waive: bool = false                     # attack allowed without a roll
  velocity: int = 0                          # fighter attacker
  fighters_in_unit: int = 1
  fighter_hits: int|null = null
  fighter_hits_table: table2d6[int]|null = null
dice:
  - convince: 2D6  [not gm_waive] → allowed on ≥ 11, or ≥ leadership_skill_tn + 4 + gm_mods in leadership_mode
  - ram: 2D6  [allowed]
  - damage, mover_a, mover_b, target_a, target_b  [hit, large attacker; as ram.collision_damage]
  - fighter_hits: 2D6  [hit, fighter attacker, fighter_hits == null]
result:
  hit: bool                                  # headline
  allowed: bool
  convince_roll: int|null
  convince_tn: int|null
  tn: int                                    # warship 7, jumpship 6, station 5, dropship 8; −2 for warship/dropship that can't accelerate [A55]
  ram_roll: int|null
  damage_roll: int|null
  both_destroyed: bool
  glancing: bool
  mover_damage: int
  target_damage: int
  fighters_destroyed: int
effects:
  - as ram.accidental
errors:
  - InputError(leadership_skill_tn): leadership_mode without it
  - InputError(fighter_hits_table): as ram.accidental
""",
    title="Ramming: deliberate ramming attack",
    reference=f"{SEED_B}, Deliberate Attacks; Ramming Attacks Table",
    bounds={"velocity": (0, None), "fighters_in_unit": (1, None), "fighter_hits": (0, None)},
    example={
        "target_type": "dropship",
        "target_can_accelerate": False,
        "attacker": "fighter_unit",
        "velocity": 5,
        "fighters_in_unit": 6,
        "fighter_hits": 3,
    },
    exact_odds={key: _deliberate_damage_odds(key) for key in ("mover_damage", "target_damage")},
)
def deliberate(inp, dice) -> Resolution:
    if inp.leadership_mode and inp.leadership_skill_tn is None:
        raise InputError(
            "leadership_skill_tn", "the Leadership roll needs the commander's Leadership skill target number"
        )
    _check_fighter_table(inp.fighter_hits_table)
    tn = _ram_tn(inp)
    result = {
        "hit": False,
        "allowed": True,
        "convince_roll": None,
        "convince_tn": None,
        "tn": tn,
        "ram_roll": None,
        "damage_roll": None,
        "both_destroyed": False,
        "glancing": False,
        "mover_damage": 0,
        "target_damage": 0,
        "fighters_destroyed": 0,
    }
    attacker, target = tables.NAMES[inp.attacker], tables.NAMES[inp.target_type]
    parts = []
    if inp.gm_waive:
        parts.append("the GM lets the crew ram without a roll")
    else:
        convince_tn = _convince_tn(inp)
        what = "Leadership roll" if inp.leadership_mode else "crew roll"
        result["convince_tn"] = convince_tn
        result["convince_roll"] = dice.total("convince", 2)
        result["allowed"] = success(result["convince_roll"], convince_tn)
        verdict = "the crew agrees" if result["allowed"] else "the crew refuses; no ram"
        parts.append(f"{what} {result['convince_roll']} (needs {convince_tn}+): {verdict}")
    if result["allowed"]:
        result["ram_roll"] = dice.total("ram", 2)
        result["hit"] = success(result["ram_roll"], tn)
        parts.append(
            f"ramming roll {result['ram_roll']} against the {target} (needs {tn}+): "
            + ("hit" if result["hit"] else "miss")
        )
    fighter_collision = result["hit"] and inp.attacker == "fighter_unit"
    if result["hit"]:
        if fighter_collision:
            roll, hits = _fighter_hits(inp, dice)
            destroyed = min(hits, inp.fighters_in_unit)
            result["fighters_destroyed"] = destroyed
            result["target_damage"] = destroyed * inp.velocity
            parts.append(_fighter_text(roll, hits, destroyed, inp, target, None))
        else:
            damage = _collision_damage(dice)
            _apply_damage(result, damage)
            parts.append(_damage_text(damage, attacker, target, None))
    summary = "; ".join(parts)
    return Resolution(
        result, summary[0].upper() + summary[1:] + ".", _effects(result, None, fighter_collision)
    )
