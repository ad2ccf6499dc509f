"""Terrain (Seed B: Advanced Terrain and Weather Rules, section 2 of the catalogue)."""

from __future__ import annotations

import math
from fractions import Fraction

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, add_effect, procedure, set_effect
from rules.schema import words
from rules.tables import terrain as tables

from ._common import success


def _unique(names) -> list:
    """A list input read as a set (``conditions[] ⊂ {...}``), keeping the input order."""
    return list(dict.fromkeys(names))


def _categories(names, field: str) -> tuple[str, ...]:
    """GM-entered prohibited units: unit categories, or "ground" (wheeled, tracked, hover)."""
    out = []
    for name in names:
        if name == "ground":
            out.extend(tables.GROUND)
        elif name in tables.UNIT_CATEGORIES:
            out.append(name)
        else:
            raise InputError(
                field,
                f"prohibited units must be among {', '.join(words(c) for c in tables.UNIT_CATEGORIES)} or ground",
            )
    return tuple(out)


def _flags(names, field: str) -> tuple[str, ...]:
    """GM-entered flags: the flag names, or the table key's letters A, B, F, G, K."""
    out = []
    for name in names:
        flag = tables.FLAG_LETTERS.get(name, name)
        if flag not in tables.FLAG_NAMES:
            raise InputError(
                field,
                f"flags must be among {', '.join(words(f) for f in tables.FLAG_NAMES)} "
                "(or the key's letters A, B, F, G, K)",
            )
        out.append(flag)
    return tuple(out)


def _nice(name: str) -> str:
    return name.replace("_", " ")


@procedure(
    """
procedure: terrain.hex_modifiers
inputs:
  base_terrain: str enum {clear|building_light|building_medium|building_heavy|building_hardened|heavy_woods|ultra_heavy_woods|sand|custom} = "clear"
  base_custom: object{mp_cost: int|null, to_hit: int, psr: int, prohibited: list[str], flags: list[str] = []}|null = null   # required when base_terrain == "custom" (GM-data: Jungle, Magma, Tundra, other BTC:RoW terrain) [A9]
  conditions: list[str enum {deep_snow|geyser|ice|mud|rapids}] = []   # geyser = erupting
  custom_conditions: list[object{name: str, mp_cost: int, to_hit: int, psr: int, prohibited: list[str] = [], flags: list[str] = []}] = []   # GM-data (road/bridge, rubble, swamp, ...)
  weather: list[str enum {blizzard|blowing_sand|dusk_dawn|fire|fog|heavy_snowfall|rain_light|rain_heavy|wind_moderate|wind_high}] = []
  earthquake: int = 0                        # tremor strength 0..5 (0 = none)
  unit_type: str enum {battlemech_biped|battlemech_quad|infantry_foot|infantry_jump|wheeled|tracked|hover|vtol|naval} = "battlemech_biped"
  dune_buggy: bool = false                   # wheeled only
  weapon_class: str enum {ballistic|energy} = "ballistic"
  weapon_miscalibrated: bool = false
  careful: bool = false                      # the unit declared careful movement: it skips J costs (non-infantry only)
dice: none
result:
  mp_cost: int|null                          # headline; MP to enter the hex; null when the base cost is GM-data (e.g. ultra_heavy_woods)
  to_hit_mod: int
  psr_mod: int
  prohibited: list[str]                      # sorted union of unit categories {battlemech|infantry|wheeled|tracked|hover|vtol|naval}
  prohibited_for_unit: bool                  # the unit's category is in `prohibited`
  flags: object{bog_down_possible: bool, skid: bool, psr_on_entry_fall: bool, psr_on_entry_damage: bool, poor_visibility: bool}
  skippable_mp: int                          # J cost the unit may skip with careful movement (0 for infantry or when careful)
effects: none
errors:
  - InputError(base_custom): base_terrain == "custom" without base_custom, or base_custom given otherwise
  - InputError(dune_buggy): dune_buggy with a unit_type other than wheeled
  - InputError(earthquake): outside 0..5
notes:
  - Built-in base rows (mp, to-hit, psr, prohibited, flags): clear 1/0/0/[naval]; building_light|medium|heavy|hardened 2|3|4|5 /0/0/[naval]/[psr_on_entry_damage] (infantry pay 1); heavy_woods 3/+2/0/[hover, naval, tracked, wheeled] (the seed's own example, W1); ultra_heavy_woods null/+3/0/[battlemech, hover, naval, tracked, wheeled]; sand 1 (2 for wheeled without dune_buggy and for infantry_foot; infantry_jump 1)/0/+1/[naval] [A8].
  - Conditions (mp, to-hit, psr, prohibited, flags, cost letters): deep_snow +1/0/+1/[wheeled]/[bog_down_possible]/I; geyser +1/+2/+1/[wheeled, infantry]/[]; ice +1/0/+4/[]/[skid]/I,J; mud +1/0/+1/[]/[bog_down_possible]/I; rapids +1/0/+2/[]/[].
  - Weather (mp, to-hit ballistic/energy, psr, flags): blizzard 0, +2/+1, +1, [poor_visibility]; blowing_sand 0, +1/+2, 0; dusk_dawn 0, +1/+1, 0; fire 0, 0, 0; fog +2 (J), 0/+1, 0, [poor_visibility]; heavy_snowfall 0, +1/+1, +1; rain_light 0, +1/+1, 0; rain_heavy 0, +1/+1, +1; wind_moderate 0, +1/0, 0; wind_high 0, +2/0, +2.
  - Earthquake s: to-hit +s; psr +s, or +ceil(s/2) for battlemech_quad (the quad's standard −2 is a unit modifier, not part of psr_mod; weather.earthquake reports the combined value).
  - MP: hover skips I costs; infantry skip J costs; careful skips J costs; when both fog and ice costs are paid they total +2, not +3 (W23).
  - skid = ice present, or hover unit in wind_high or blizzard.
  - to_hit_mod = base + conditions + weather(for weapon_class) + earthquake + (2 if weapon_miscalibrated and weapon_class == "ballistic").
""",
    title="Terrain: movement cost and modifiers of a hex",
    reference=f"{SEED_B}, Expanded Movement Cost and Terrain Table and Key; Base Terrain; "
    "Terrain Conditions; Weather Conditions; Weapon Calibration",
    bounds={"earthquake": (0, 5)},
    example={
        "base_terrain": "heavy_woods",
        "conditions": ["mud"],
        "weather": ["fog"],
        "unit_type": "battlemech_biped",
        "weapon_class": "energy",
    },
)
def hex_modifiers(inp, dice) -> Resolution:
    unit = inp.unit_type
    category = tables.UNIT_CATEGORY[unit]
    infantry = category == "infantry"
    if inp.base_terrain == "custom":
        custom = inp.base_custom
        if custom is None:
            raise InputError(
                "base_custom",
                "is required when the base terrain is custom: enter the GM's MP cost, to-hit, "
                "PSR modifier and prohibited units for it",
            )
        if custom.mp_cost is not None and custom.mp_cost < 0:
            raise InputError("base_custom", "an MP cost cannot be negative")
        base = (
            custom.mp_cost,
            custom.to_hit,
            custom.psr,
            _categories(custom.prohibited, "base_custom"),
            _flags(custom.flags, "base_custom"),
        )
    else:
        if inp.base_custom is not None:
            raise InputError("base_custom", "is only used when the base terrain is custom")
        base = tables.BASE_ROWS[inp.base_terrain]
    if inp.dune_buggy and unit != "wheeled":
        raise InputError("dune_buggy", "only a wheeled vehicle can be a dune buggy")
    weather = _unique(inp.weather)
    for a, b in tables.EXCLUSIVE_WEATHER:
        if a in weather and b in weather:
            raise InputError("weather", f"choose {_nice(a)} or {_nice(b)}, not both")
    conditions = _unique(inp.conditions)
    customs = [
        (
            c.name,
            c.mp_cost,
            c.to_hit,
            c.psr,
            _categories(c.prohibited, "custom_conditions"),
            _flags(c.flags, "custom_conditions"),
        )
        for c in inp.custom_conditions
    ]

    base_mp, to_hit, psr, prohibited, flags = base
    prohibited, flags = set(prohibited), set(flags)
    mp_cost = base_mp
    if mp_cost is not None:
        if inp.base_terrain in tables.BUILDINGS and infantry:
            mp_cost = tables.INFANTRY_BUILDING_MP
        elif inp.base_terrain == "sand" and unit in tables.SAND_SLOW_UNITS and not inp.dune_buggy:
            mp_cost = tables.SAND_SLOW_MP
    extra_mp = 0
    j_costs = {}  # J costs this unit would pay (infantry never do)

    def add_cost(name: str, cost: int, letters: str) -> None:
        nonlocal extra_mp
        if "I" in letters and unit == "hover":
            return
        if "J" in letters:
            if not infantry:
                j_costs[name] = cost
            return
        extra_mp += cost

    for name in conditions:
        cost, hit, mod, barred, marks, letters = tables.CONDITION_ROWS[name]
        add_cost(name, cost, letters)
        to_hit += hit
        psr += mod
        prohibited.update(barred)
        flags.update(marks)
    for _name, cost, hit, mod, barred, marks in customs:
        extra_mp += cost
        to_hit += hit
        psr += mod
        prohibited.update(barred)
        flags.update(marks)
    for name in weather:
        cost, hit_ballistic, hit_energy, mod, marks, letters = tables.WEATHER_ROWS[name]
        add_cost(name, cost, letters)
        to_hit += hit_ballistic if inp.weapon_class == "ballistic" else hit_energy
        psr += mod
        flags.update(marks)
    if unit == "hover" and tables.HOVER_SKID_WEATHER.intersection(weather):
        flags.add("skid")

    j_total = sum(j_costs.values())
    if "fog" in j_costs and "ice" in j_costs:
        j_total = tables.FOG_AND_ICE_MP
    skippable_mp = 0 if inp.careful else j_total
    if mp_cost is not None:
        mp_cost += extra_mp + skippable_mp

    quake = inp.earthquake
    to_hit += quake
    psr += math.ceil(quake / 2) if unit == "battlemech_quad" else quake
    if inp.weapon_miscalibrated and inp.weapon_class == "ballistic":
        to_hit += tables.MISCALIBRATED_TO_HIT

    prohibited_list = sorted(prohibited)
    result = {
        "mp_cost": mp_cost,
        "to_hit_mod": to_hit,
        "psr_mod": psr,
        "prohibited": prohibited_list,
        "prohibited_for_unit": category in prohibited,
        "flags": {name: name in flags for name in tables.FLAG_NAMES},
        "skippable_mp": skippable_mp,
    }
    return Resolution(result, _hex_summary(result, inp, conditions, weather, customs), ())


def _hex_summary(r: dict, inp, conditions, weather, customs) -> str:
    parts = [_nice(inp.base_terrain if inp.base_terrain != "custom" else "custom terrain")]
    parts += [_nice(c) for c in conditions] + [c[0] for c in customs] + [_nice(w) for w in weather]
    if inp.earthquake:
        parts.append(f"earthquake {inp.earthquake}")
    where = " + ".join(parts).capitalize()
    mp = "MP cost not printed: the GM sets it" if r["mp_cost"] is None else f"{r['mp_cost']} MP"
    line = f"{where} for {_nice(inp.unit_type)}: {mp}, to-hit {r['to_hit_mod']:+d}, PSR {r['psr_mod']:+d}"
    if r["prohibited_for_unit"]:
        line += "; this unit may not enter"
    if r["skippable_mp"]:
        line += f"; it may skip {r['skippable_mp']} MP by moving carefully"
    on = [_nice(name) for name, value in r["flags"].items() if value]
    if on:
        line += f"; {', '.join(on)}"
    return line + "."


@procedure(
    """
procedure: terrain.clearing
inputs:
  terrain: str enum {ultra_heavy_jungle|heavy_jungle|light_jungle|ultra_heavy_woods}
  successful_attacks: int = 1                # successful BTC:RoW clearing attacks
dice: none
result:
  new_terrain: str enum {heavy_jungle|light_jungle|rough|heavy_woods}   # headline
  los_height: int|null                       # 2 for heavy_woods made from ultra-heavy woods; null otherwise (not stated)
effects:
  - {"target": "hex", "field": "terrain", "op": "set", "value": "<new_terrain>"}
errors:
  - InputError(successful_attacks): < 1, or more steps than the chain defines (ultra_heavy_jungle → heavy_jungle → light_jungle → rough; ultra_heavy_woods → heavy_woods, further clearing is BTC:RoW)
""",
    title="Terrain: clearing jungle or ultra-heavy woods",
    reference=f"{SEED_B}, Jungle; Ultra-heavy Woods",
    bounds={"successful_attacks": (1, None)},
    example={"terrain": "ultra_heavy_jungle", "successful_attacks": 2},
)
def clearing(inp, dice) -> Resolution:
    chain = tables.CLEARING_CHAINS[inp.terrain]
    if inp.successful_attacks > len(chain):
        steps = " -> ".join(tables.TERRAIN_NAMES[t] for t in (inp.terrain, *chain))
        raise InputError(
            "successful_attacks",
            f"{tables.TERRAIN_NAMES[inp.terrain]} clears in at most {len(chain)} "
            f"step{'s' if len(chain) > 1 else ''} ({steps}); further clearing follows BTC:RoW",
        )
    new_terrain = chain[inp.successful_attacks - 1]
    los_height = tables.CLEARED_WOODS_LOS_HEIGHT if inp.terrain == "ultra_heavy_woods" else None
    result = {"new_terrain": new_terrain, "los_height": los_height}
    summary = (
        f"Clearing: {tables.TERRAIN_NAMES[inp.terrain]} -> {tables.TERRAIN_NAMES[new_terrain]}"
        f" after {inp.successful_attacks} successful attack{'s' if inp.successful_attacks > 1 else ''}"
    )
    if los_height is not None:
        summary += f"; the treetops now rise {los_height} levels"
    return Resolution(result, summary + ".", [set_effect("hex", "terrain", new_terrain)])


# Lists of magma damage counted exactly, at most: each 2D6 a location takes adds ten
# values to its total, so a crash into liquid (eight locations, 2D6 each) has 11**8. Past
# this the odds are a labelled estimate sampled from the same dice.
MAGMA_COUNTED_VALUES = 5_000
MAGMA_RESULT_KEYS = ("destroyed", "fell_through", "damage", "heat", "end_hex")


def magma_crossings(inp) -> list[tuple[Fraction, tuple, dict]]:
    """Every way the crossing can go: ``[(probability, taken, outcome), ...]``, with the D6
    each location takes on it (``((loc, dice), ...)``, locations sorted; 'Mechs only) and
    what else it settles (``destroyed``, ``fell_through``, ``heat``, ``end_hex``).

    Counted hex by hex, not walked: until the crust breaks, every hex adds the same dice,
    so the crossing can go one way per crust hex (it breaks there) and one way more (it
    holds all along). ``tests/rules`` checks this against the walk of the procedure."""
    unit, path = inp.unit_type, inp.movement_path
    mech = unit == "battlemech"
    immune = unit in tables.MAGMA_IMMUNE
    exposed = tables.LEGS if inp.exposed_locations is None else tuple(inp.exposed_locations)
    psr_needed = mech and inp.entry != "walk_run" and path[0] == "crust"
    dice: dict[str, int] = {}
    declared_end = path[-1] if path else inp.start_hex
    if mech and inp.start_hex == "liquid":
        for loc in exposed:
            dice[loc] = dice.get(loc, 0) + (4 if declared_end == "liquid" else 2)
    entering = tables.FALL_ORDER if inp.entry == "crash" else exposed
    breaks = Fraction(1, 6)  # the 1D6 crust roll breaks on one face (CRUST_BREAKS_ON)
    ways = distributions.dice_sum_ways(2, 6)
    psr_fails = (
        Fraction(sum(ways[t] for t in range(2, 13) if not success(t, inp.psr_tn)), 36) if psr_needed else 0
    )

    def outcome(destroyed: bool, fell: bool, position: str, moved_out: list) -> dict:
        heat = magma_heat(position, moved_out) if mech else 0
        return {"destroyed": destroyed, "fell_through": fell, "heat": heat, "end_hex": position}

    crossings = []
    reach = Fraction(1)  # the odds that the crust has held so far
    position = inp.start_hex
    moved_out = []
    for hex_kind in path:
        moved_out.append(position)
        position = hex_kind
        if immune:
            continue
        if hex_kind == "crust":
            falls = psr_fails + (1 - psr_fails) * breaks
            fallen = dict(dice)
            if mech:
                for loc in tables.FALL_ORDER:
                    fallen[loc] = fallen.get(loc, 0) + 2
            crossings.append(
                (
                    reach * falls,
                    tuple(sorted(fallen.items())),
                    outcome(not mech, True, "liquid", list(moved_out)),
                )
            )
            reach *= 1 - falls
        elif hex_kind == "liquid":
            if not mech:
                crossings.append((reach, (), outcome(True, False, position, moved_out)))
                return crossings
            for loc in entering:
                dice[loc] = dice.get(loc, 0) + 2
    crossings.append((reach, tuple(sorted(dice.items())), outcome(False, False, position, moved_out)))
    return crossings


def magma_heat(position: str, moved_out) -> int:
    """A 'Mech's magma heat: by the hex it ends in and every hex it moved out of."""
    return tables.MAGMA_END_HEAT[position] + sum(tables.MAGMA_EXIT_HEAT[h] for h in moved_out)


def _magma_key_odds(key: str):
    """A key the crossing settles, counted over the ways it can go."""

    def count(inp):
        out: dict = {}
        for weight, _taken, outcome in magma_crossings(inp):
            out[outcome[key]] = out.get(outcome[key], 0) + weight
        common = math.lcm(*(w.denominator for w in out.values()))
        return {value: int(w * common) for value, w in out.items() if w}, common

    return count


def _magma_damage_odds(inp):
    """The damage per location: every way the crossing can go (``magma_crossings``) with
    its odds and the 2D6 each location takes on it; each location's total is then the sum
    of its dice."""
    if inp.unit_type != "battlemech":
        return {(): 1}, 1  # only 'Mechs take magma damage
    ways: dict[tuple, Fraction] = {}
    for weight, taken, _outcome in magma_crossings(inp):
        if weight:
            ways[taken] = ways.get(taken, 0) + weight
    common = math.lcm(*(w.denominator for w in ways.values()))
    branches = [(int(w * common), common, taken) for taken, w in ways.items()]

    def values(taken) -> int:
        return math.prod(5 * n + 1 for _, n in taken)

    def listed(chosen) -> distributions.Distribution:
        out = []
        for w, den, taken in chosen:
            totals, totals_den = distributions.independent([distributions.dice_sum(n) for _, n in taken])
            locs = [loc for loc, _ in taken]
            out.append(
                (w, den, ({tuple(zip(locs, t, strict=True)): m for t, m in totals.items()}, totals_den))
            )
        return distributions.mix(out)

    if sum(values(taken) for _, _, taken in branches) <= MAGMA_COUNTED_VALUES:
        return listed(branches)
    # A fall through the crust burns all eight locations: 11**8 totals. The ways of crossing
    # with few values keep their exact odds; the others are sampled.
    small = [b for b in branches if values(b[2]) <= MAGMA_COUNTED_VALUES // len(branches)]
    large = [b for b in branches if b not in small]
    known: dict = {}
    if small:
        small_ways, small_den = listed(small)
        known = {value: Fraction(n, small_den) for value, n in small_ways.items()}
    share = Fraction(sum(w for w, _, _ in large), common)
    crossing = distributions.Picker(({i: w for i, (w, _, _) in enumerate(large)}, common))
    sums = {n: distributions.Picker(distributions.dice_sum(n)) for _, _, taken in large for _, n in taken}

    def draw(rng) -> tuple:
        taken = large[crossing.pick(rng)][2]
        return tuple([(loc, sums[n].pick(rng)) for loc, n in taken])

    most = max(len(taken) for _, _, taken in large)
    return distributions.sample(draw, 2 + 2 * most, "magma damage", known, float(share))


@procedure(
    """
procedure: terrain.magma
inputs:
  unit_type: str enum {battlemech|infantry|wheeled|tracked|hover|vtol}
  start_hex: str enum {other|crust|liquid} = "other"   # hex where the unit starts the Movement Phase
  movement_path: list[str enum {other|crust|liquid}] = []   # hexes entered this Movement Phase, in order; the last is the end hex (empty = stays put)
  entry: str enum {walk_run|jump|crash} = "walk_run"   # jump/crash: movement_path holds exactly the landing hex
  psr_tn: int|null = null                    # BattleMech PSR target number; required when a BattleMech jumps/crashes into crust
  exposed_locations: list[str]|null = null   # null → ["LL","RL"] (legs); a fall exposes ["LL","RL","LA","RA","LT","RT","CT","HD"]
dice:
  - start_<LOC>: 2D6, then extra_<LOC>: 2D6  [battlemech and start_hex == "liquid"; location by location in exposed order; the extra roll only when the declared end hex is also liquid] [A45]
  - then for each movement_path hex in order:
    - psr: 2D6  [crust; battlemech; entry jump/crash] → falls through if psr < psr_tn
    - crust: 1D6  [crust; unit not hover/vtol; not already fallen through] → 6 breaks the crust
    - fall_<LOC>: 2D6  [battlemech fell through; all 8 locations in the fall order; movement ends in that (now liquid) hex]
    - enter_<LOC>: 2D6  [battlemech enters liquid; per exposed location (all 8 when entry == "crash")]
result:
  destroyed: bool                            # headline; a non-'Mech (not hover/vtol) that falls through or enters liquid magma
  fell_through: bool
  damage: object{<LOC>: int}                 # total magma damage per location that took any, e.g. {"LL": 5, "RL": 8}; {} if none
  heat: int                                  # magma heat for the Heat Phase ('Mechs only, else 0)
  end_hex: str enum {other|crust|liquid}     # where movement ended (a broken crust counts as liquid)
effects:
  - {"target": "unit", "field": "destroyed", "op": "set", "value": true}   [destroyed]
  - {"target": "unit", "field": "locations.<LOC>.damage", "op": "add", "value": "<damage[LOC]>"}
  - {"target": "unit", "field": "heat", "op": "add", "value": "<heat>"}   [heat > 0]
errors:
  - InputError(movement_path|start_hex): infantry or wheeled entering or starting in crust; a non-'Mech (other than hover/vtol) starting in liquid
  - InputError(movement_path): entry jump/crash with len(movement_path) != 1
  - InputError(psr_tn): missing when required
notes:
  - heat = (5 if end_hex crust, 10 if liquid) + 2 per crust hex and 5 per liquid hex moved out of (start_hex when movement_path is non-empty, and every path hex before the end hex).
  - The extra 2D6 applies when start_hex == liquid and the declared end hex (last of movement_path, or start_hex if it is empty) is liquid; it is rolled with the start damage, location by location: LL base, LL extra, RL base, RL extra.
""",
    title="Terrain: crossing magma",
    reference=f"{SEED_B}, Magma",
    example={"unit_type": "tracked", "movement_path": ["other", "crust", "crust"]},
    exact_odds={
        "damage": _magma_damage_odds,
        **{key: _magma_key_odds(key) for key in ("destroyed", "fell_through", "heat", "end_hex")},
    },
)
def magma(inp, dice) -> Resolution:
    unit = inp.unit_type
    path = inp.movement_path
    mech = unit == "battlemech"
    immune = unit in tables.MAGMA_IMMUNE
    if unit in tables.CRUST_BARRED:
        if inp.start_hex == "crust":
            raise InputError("start_hex", f"{unit} units may not be in a Magma Crust hex")
        if "crust" in path:
            raise InputError("movement_path", f"{unit} units may not enter Magma Crust")
    if inp.start_hex == "liquid" and not mech and not immune:
        raise InputError(
            "start_hex", f"a {unit} unit cannot start in Liquid Magma: it is destroyed on entering it"
        )
    if inp.entry != "walk_run" and len(path) != 1:
        raise InputError(
            "movement_path", f"a {inp.entry} lands in one hex: give exactly the landing hex, not {len(path)}"
        )
    psr_needed = mech and inp.entry != "walk_run" and path[0] == "crust"
    if psr_needed and inp.psr_tn is None:
        raise InputError("psr_tn", f"a BattleMech making a {inp.entry} onto Magma Crust needs its PSR target")
    exposed = tables.LEGS
    if inp.exposed_locations is not None:
        bad = [loc for loc in inp.exposed_locations if loc not in tables.FALL_ORDER]
        if bad:
            raise InputError(
                "exposed_locations",
                f"locations must be among {', '.join(tables.FALL_ORDER)}",
            )
        if len(set(inp.exposed_locations)) != len(inp.exposed_locations):
            raise InputError("exposed_locations", "lists a location twice")
        exposed = inp.exposed_locations

    damage: dict[str, int] = {}
    events: list[str] = []

    # What every result reads of the PSR and the crust roll: whether it holds (C.6).
    def holds(total: int) -> bool:
        return success(total, inp.psr_tn)

    def breaks(total: int) -> bool:
        return total == tables.CRUST_BREAKS_ON

    def burn(prefix: str, locations) -> None:
        rolled = []
        for loc in locations:
            points = dice.total(f"{prefix}_{loc}", 2, feeds=DAMAGE_ONLY)
            damage[loc] = damage.get(loc, 0) + points
            rolled.append(f"{loc} {points}")
        if rolled:
            events.append(f"{_MAGMA_CAUSE[prefix]}: {', '.join(rolled)}")

    declared_end = path[-1] if path else inp.start_hex
    if mech and inp.start_hex == "liquid":
        rolled = []
        for loc in exposed:
            if declared_end == "liquid":
                # Only their sum counts: exact odds enumerate it as one 4D6.
                points, extra = dice.totals([(f"start_{loc}", 2), (f"extra_{loc}", 2)], feeds=DAMAGE_ONLY)
                text = f"{loc} {points}+{extra}"
                points += extra
            else:
                points = dice.total(f"start_{loc}", 2, feeds=DAMAGE_ONLY)
                text = f"{loc} {points}"
            damage[loc] = damage.get(loc, 0) + points
            rolled.append(text)
        if rolled:
            events.append(f"starts in liquid magma: {', '.join(rolled)}")

    position = inp.start_hex
    moved_out = []
    fell = destroyed = False
    for n, hex_kind in enumerate(path, 1):
        moved_out.append(position)
        position = hex_kind
        if immune:
            continue
        if hex_kind == "crust":
            if psr_needed:
                psr = dice.total("psr", 2, reads=dict.fromkeys(MAGMA_RESULT_KEYS, holds))
                fell = not success(psr, inp.psr_tn)
                events.append(f"PSR {psr} vs {inp.psr_tn}: {'fails' if fell else 'holds'}")
            if not fell:
                crust = dice.total("crust", 1, reads=dict.fromkeys(MAGMA_RESULT_KEYS, breaks))
                fell = crust == tables.CRUST_BREAKS_ON
                events.append(f"crust roll {crust} in hex {n}: {'breaks' if fell else 'holds'}")
            if fell:
                position = "liquid"
                if mech:
                    burn("fall", tables.FALL_ORDER)
                else:
                    destroyed = True
                break
        elif hex_kind == "liquid":
            if not mech:
                destroyed = True
                break
            burn("enter", tables.FALL_ORDER if inp.entry == "crash" else exposed)

    heat = 0
    if mech:
        heat = magma_heat(position, moved_out)
    result = {
        "destroyed": destroyed,
        "fell_through": fell,
        "damage": damage,
        "heat": heat,
        "end_hex": position,
    }
    effects = []
    if destroyed:
        effects.append(set_effect("unit", "destroyed", True))
    for loc, points in damage.items():
        effects.append(add_effect("unit", f"locations.{loc}.damage", points))
    if heat > 0:
        effects.append(add_effect("unit", "heat", heat))
    return Resolution(result, _magma_summary(result, unit, immune, events), effects)


# Magma damage dice change only the damage result, never what happens next. Each is a 2D6
# labelled by its cause and location ("start_LL"), whatever the cause.
DAMAGE_ONLY = ("damage",)
MAGMA_DAMAGE_ROLLS = ("start", "extra", "fall", "enter")
_MAGMA_CAUSE = {"fall": "falls through into the magma", "enter": "enters liquid magma"}


def _magma_summary(r: dict, unit: str, immune: bool, events: list[str]) -> str:
    if immune:
        return f"Magma: a {unit} unit is not harmed by magma; it ends in {_HEX_NAME[r['end_hex']]}."
    line = "Magma: " + ("; ".join(events) if events else "no magma effects")
    if r["destroyed"]:
        line += f"; the {unit} unit is destroyed"
    elif r["damage"]:
        line += f"; total damage {sum(r['damage'].values())}"
    if r["fell_through"] and not r["destroyed"]:
        line += "; movement ends in the broken crust (GM: is the hex liquid for good?)"
    if r["heat"]:
        line += f"; heat +{r['heat']} in the Heat Phase"
    return line + "."


_HEX_NAME = {"other": "a non-magma hex", "crust": "Magma Crust", "liquid": "Liquid Magma"}


@procedure(
    """
procedure: terrain.geyser
inputs:
  erupting_turns_left: int = 0               # 0 = dormant; otherwise the value this procedure returned last End Phase
  volcanic: bool = false
  eruption_turn_counts: bool = true          # [A59]
dice:
  - erupt: 1D6  [dormant (erupting_turns_left == 0)] → erupts on 1
  - duration: 1D6  [erupt == 1]
result:
  erupted: bool                              # headline; erupted this End Phase
  duration: int|null                         # the 1D6 duration when it erupted
  erupting_turns_left: int                   # later turns still erupting: duration − 1 (counts) or duration; or previous − 1 when already erupting
  became_liquid_magma: bool                  # volcanic and the eruption is over after this End Phase
effects:
  - {"target": "hex", "field": "geyser.erupting_turns_left", "op": "set", "value": "<erupting_turns_left>"}
  - {"target": "hex", "field": "terrain", "op": "set", "value": "liquid_magma"}   [became_liquid_magma]
errors:
  - InputError(erupting_turns_left): negative
""",
    title="Terrain: geyser in the End Phase",
    reference=f"{SEED_B}, Geyser",
    bounds={"erupting_turns_left": (0, None)},
    example={"erupting_turns_left": 0, "volcanic": True},
)
def geyser(inp, dice) -> Resolution:
    before = inp.erupting_turns_left
    erupted = False
    duration = None
    if before == 0:
        erupt = dice.total("erupt", 1)
        erupted = erupt == tables.GEYSER_ERUPTS_ON
        if erupted:
            duration = dice.total("duration", 1)
            left = duration - 1 if inp.eruption_turn_counts else duration
        else:
            left = 0
        head = f"Geyser roll {erupt}: " + (f"it erupts for {duration} turns" if erupted else "no eruption")
    else:
        left = before - 1
        head = f"Geyser erupting: turns left {before} -> {left}"
    became_liquid = inp.volcanic and (erupted or before > 0) and left == 0
    result = {
        "erupted": erupted,
        "duration": duration,
        "erupting_turns_left": left,
        "became_liquid_magma": became_liquid,
    }
    effects = [set_effect("hex", "geyser.erupting_turns_left", left)]
    if became_liquid:
        effects.append(set_effect("hex", "terrain", "liquid_magma"))
    summary = head
    if erupted:
        summary += f" (keep it secret); {left} more turn{'s' if left != 1 else ''} after this one"
    if became_liquid:
        summary += "; the eruption is over and the hex is Liquid Magma for the rest of the game"
    elif (erupted or before > 0) and left == 0:
        summary += "; the eruption is over"
    return Resolution(result, summary + ".", effects)


@procedure(
    """
procedure: terrain.bog_down
inputs:
  piloting: int
  psr_mods: int = 0                          # damage and other PSR modifiers (not terrain)
  terrain: str enum {swamp|liquid_magma|tundra|magma_crust|deep_snow|mud}   # tundra also covers moor, bog, quicksand
  attempt: str enum {enter|free} = "enter"
  entered_by: str enum {walk|run|jump} = "walk"
  jump_capable: bool = false
  jump_out: bool = false                     # attempt == free: leave by jumping, no roll
  swamp_mod: int = 0                         # GM-data: BTC:RoW swamp modifier (swamp, liquid_magma)
dice:
  - psr: 2D6  [not jump_out]
result:
  stuck: bool                                # headline; stuck after this attempt
  tn: int|null                               # null when jump_out
  roll: int|null
effects:
  - {"target": "unit", "field": "stuck", "op": "set", "value": "<stuck>"}
errors:
  - InputError(jump_out): jump_out without attempt == free, jump_capable, entered_by walk/run and terrain in the −1 group
notes:
  - tn = piloting + psr_mods − 1 for tundra, magma_crust, deep_snow, mud (replaces the +1 terrain PSR modifier); piloting + psr_mods + swamp_mod for swamp and liquid_magma. stuck = roll < tn.
""",
    title="Terrain: bog down (getting stuck)",
    reference=f"{SEED_B}, Bog Down",
    example={"piloting": 5, "terrain": "mud"},
)
def bog_down(inp, dice) -> Resolution:
    minus_one = inp.terrain in tables.BOG_MINUS_ONE
    if inp.jump_out:
        if inp.attempt != "free":
            raise InputError("jump_out", "jumping out is a way to get free: set attempt to free")
        if not inp.jump_capable:
            raise InputError("jump_out", "only a jump-capable unit can jump out")
        if inp.entered_by == "jump":
            raise InputError("jump_out", "only a unit that walked or ran in can jump out without a roll")
        if not minus_one:
            raise InputError(
                "jump_out", "jumping out without a roll works only in tundra, magma crust, deep snow or mud"
            )
        result = {"stuck": False, "tn": None, "roll": None}
        return Resolution(
            result,
            f"Jumps out of the {_nice(inp.terrain)} with no roll; no longer stuck.",
            [set_effect("unit", "stuck", False)],
        )
    if minus_one:
        tn = inp.piloting + inp.psr_mods + tables.BOG_MINUS_ONE_MOD
    else:
        tn = inp.piloting + inp.psr_mods + inp.swamp_mod
    roll = dice.total("psr", 2)
    stuck = not success(roll, tn)
    result = {"stuck": stuck, "tn": tn, "roll": roll}
    what = "to avoid getting stuck" if inp.attempt == "enter" else "to get free"
    if inp.attempt == "enter":
        outcome = "stuck" if stuck else "not stuck"
    else:
        outcome = "still stuck" if stuck else "free"
    summary = f"Bog down in {_nice(inp.terrain)}: PSR {roll} vs {tn} {what}: {outcome}."
    return Resolution(result, summary, [set_effect("unit", "stuck", stuck)])


CAREFUL_PSR_KEYS = ("failed", "psr_count", "failed_at", "consequence")


@procedure(
    """
procedure: terrain.careful_movement
inputs:
  unit_kind: str enum {battlemech|vehicle}
  fog: bool = false
  ice: bool = false
  psr_tn: int
  hexes: list[object{clear: bool = true, elevation_change: bool = false}] = []   # hexes moved after declaring careful movement, in order
dice:
  - psr[i]: 2D6  [hex 1, and every later hex with clear == false or elevation_change; stops after the first failure]
result:
  failed: bool                               # headline
  psr_count: int
  failed_at: int|null                        # 1-based index into hexes
  consequence: str enum {none|fall|skid|extra_mp|crash}
  mp_saved_per_hex: int                      # J cost not paid: fog 2, ice 1, both 2
effects:
  - {"target": "unit", "field": "prone", "op": "set", "value": true}   [consequence == "fall"]
  - {"target": "unit", "field": "movement_ended", "op": "set", "value": true}   [consequence == "crash"]
errors:
  - InputError(fog): neither fog nor ice
notes:
  - BattleMech failure → fall. Vehicle failure: fog present → extra_mp (+1 MP) in a clear hex, crash (Front damage as a charge) otherwise; ice only → skid.
""",
    title="Terrain: careful movement through fog or ice",
    reference=f"{SEED_B}, Careful Movement",
    example={
        "unit_kind": "vehicle",
        "fog": True,
        "psr_tn": 6,
        "hexes": [{"clear": True}, {"clear": False}],
    },
)
def careful_movement(inp, dice) -> Resolution:
    if not (inp.fog or inp.ice):
        raise InputError("fog", "careful movement is for fog or ice: set fog or ice")
    psr_count = 0
    failed_at = None
    rolls = []

    def made(total: int) -> bool:
        return success(total, inp.psr_tn)

    for n, hex_ in enumerate(inp.hexes, 1):
        if n > 1 and hex_.clear and not hex_.elevation_change:
            continue
        # Every key reads only whether the PSR is made (the loop stops at a failure).
        roll = dice.total(f"psr[{n}]", 2, feeds=CAREFUL_PSR_KEYS, reads=dict.fromkeys(CAREFUL_PSR_KEYS, made))
        psr_count += 1
        rolls.append(f"hex {n}: {roll}")
        if not success(roll, inp.psr_tn):
            failed_at = n
            break
    failed = failed_at is not None
    consequence = "none"
    if failed:
        if inp.unit_kind == "battlemech":
            consequence = "fall"
        elif inp.fog:
            # C.9: fog and ice together follow the fog rule.
            consequence = "extra_mp" if inp.hexes[failed_at - 1].clear else "crash"
        else:
            consequence = "skid"
    result = {
        "failed": failed,
        "psr_count": psr_count,
        "failed_at": failed_at,
        "consequence": consequence,
        "mp_saved_per_hex": tables.CAREFUL_MP_SAVED[(inp.fog, inp.ice)],
    }
    effects = []
    if consequence == "fall":
        effects.append(set_effect("unit", "prone", True))
    if consequence == "crash":
        effects.append(set_effect("unit", "movement_ended", True))
    return Resolution(result, _careful_summary(result, inp, rolls), effects)


_CONSEQUENCE_TEXT = {
    "fall": "the 'Mech falls and must stand up before moving on",
    "skid": "the vehicle skids",
    "extra_mp": "the vehicle hits a minor obstruction: +1 MP",
    "crash": "the vehicle crashes: movement ends, Front damage as if it had charged",
}


def _careful_summary(r: dict, inp, rolls: list[str]) -> str:
    saved = f"saves {r['mp_saved_per_hex']} MP per hex"
    if not r["psr_count"]:
        return f"Careful movement declared ({saved}); no PSR rolled yet."
    line = f"Careful movement ({saved}), PSR target {inp.psr_tn}: {', '.join(rolls)}"
    if not r["failed"]:
        return line + "; every roll made."
    return line + f"; fails in hex {r['failed_at']}: {_CONSEQUENCE_TEXT[r['consequence']]}."
