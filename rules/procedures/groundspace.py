"""Ground units in BattleSpace (Seed B, section 9 of the catalogue): converting 'Mechs and
battle armour to BattleSpace, and their thrust."""

from __future__ import annotations

from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import groundspace as tables

from ._common import rhu, success


@procedure(
    """
procedure: groundspace.convert
inputs:
  unit_kind: str enum {mech|battle_armor}
  armor_factor: int = 0                      # 'Mech total armour factor
  armor_factor_per_trooper: int = 0          # battle armour
  troopers: int = 1                          # battle armour 1..10
  jump_mp: int = 0
  heat_sinks: int = 0                        # 'Mech only
  weapons: list[object{type: str, location: str enum {HD|CT|LT|RT|LA|RA|LL|RL} = "CT", rear: bool = false, bs_fire_factor: float|null = null, heat: int|null = null, range_value: int = 1, mounts: int = 1, melee: bool = false}] = []
dice: none
result:
  armor_value: int                           # headline; rhu(AF/40) 'Mech, rhu(AF per trooper/10) battle armour
  safe_thrust: int                           # rhu(jump_mp/3)
  fuel_points: int                           # jump_mp × 2
  heat_sinks: int|null                       # 'Mech: copied; battle armour: null (N/A)
  armor_rows: int                            # 1 for a 'Mech, troopers for battle armour
  can_thrust: bool                           # jump_mp > 0
  weapons: list[object{arc: str, type: str, fire_factor: float|null, heat: int|null, range_value: int, mounts: int}]   # input order, melee dropped; arc enum {nose|lw|rw|aft}
effects: none
errors:
  - InputError(troopers): outside 1..10
notes:
  - 'Mech arcs: rear → aft; LA → lw; RA → rw; everything else → nose. Battle armour: all nose, and an SRM (type starting "SRM") bs_fire_factor becomes fire_factor rhu(ff × 0.75); otherwise fire_factor = bs_fire_factor. rhu = round half up [A41]. No Max Thrust. Same-hex targets only, short range.
""",
    title="Ground units: convert a 'Mech or battle armour to BattleSpace",
    reference=f"{SEED_B}, Converting BattleTech Units; Mech / Battle Armor Conversion Tables",
    bounds={
        "armor_factor": (0, None),
        "armor_factor_per_trooper": (0, None),
        "troopers": tables.TROOPERS,
        "jump_mp": (0, None),
        "heat_sinks": (0, None),
    },
    example={
        "unit_kind": "mech",
        "armor_factor": 200,
        "jump_mp": 4,
        "heat_sinks": 15,
        "weapons": [
            {"type": "SRM 6", "location": "LT", "bs_fire_factor": 2, "heat": 3, "range_value": 1},
            {"type": "Medium Pulse Laser", "location": "LA", "heat": 8, "mounts": 2},
            {"type": "AC/20", "location": "RA", "heat": 1, "range_value": 2},
            {"type": "Hatchet", "location": "RA", "melee": True},
        ],
    },
)
def convert(inp, dice) -> Resolution:
    mech = inp.unit_kind == "mech"
    for w in inp.weapons:
        _check_weapon(w)
    af = inp.armor_factor if mech else inp.armor_factor_per_trooper
    weapons = [_convert_weapon(w, mech) for w in inp.weapons if not w.melee]
    result = {
        "armor_value": rhu(Fraction(af, tables.ARMOR_DIVISOR[inp.unit_kind])),
        "safe_thrust": rhu(Fraction(inp.jump_mp, tables.THRUST_DIVISOR)),
        "fuel_points": inp.jump_mp * tables.FUEL_PER_JUMP_MP,
        "heat_sinks": inp.heat_sinks if mech else None,
        "armor_rows": 1 if mech else inp.troopers,
        "can_thrust": inp.jump_mp > 0,
        "weapons": weapons,
    }
    return Resolution(result, _convert_summary(result, inp))


def _check_weapon(w) -> None:
    name = w.type or "a weapon"
    if w.mounts < 1:
        raise InputError("weapons", f"{name}: mounts must be at least 1")
    if w.range_value < 0:
        raise InputError("weapons", f"{name}: the range value cannot be negative")
    if w.heat is not None and w.heat < 0:
        raise InputError("weapons", f"{name}: heat cannot be negative")
    if w.bs_fire_factor is not None and w.bs_fire_factor < 0:
        raise InputError("weapons", f"{name}: the BattleSpace fire factor cannot be negative")


def _convert_weapon(w, mech: bool) -> dict:
    ff = w.bs_fire_factor
    if mech:
        arc = tables.REAR_ARC if w.rear else tables.MECH_ARM_ARCS.get(w.location, tables.MECH_DEFAULT_ARC)
    else:
        arc = tables.BATTLE_ARMOR_ARC
        if ff is not None and _is_srm(w.type):
            # Limited ammunition: 75% of the Fire Factor, rhu [A41]; str() keeps the decimal typed.
            ff = rhu(Fraction(str(ff)) * tables.BA_SRM_FACTOR)
    return {
        "arc": arc,
        "type": w.type,
        "fire_factor": ff,
        "heat": w.heat,
        "range_value": w.range_value,
        "mounts": w.mounts,
    }


def _is_srm(weapon_type: str) -> bool:
    return weapon_type.strip().upper().startswith(tables.BA_SRM_PREFIX)


def _ff_text(w: dict, source, mech: bool) -> str:
    if w["fire_factor"] is None:
        return ""
    if not mech and _is_srm(source.type):
        return f" FF {w['fire_factor']:g} (75% of {source.bs_fire_factor:g}, limited ammunition)"
    return f" FF {w['fire_factor']:g}"


def _convert_summary(r: dict, inp) -> str:
    mech = inp.unit_kind == "mech"
    if mech:
        head = f"'Mech: Armor Value {r['armor_value']} (AF {inp.armor_factor} / 40)"
        sinks = f"Heat Sinks {r['heat_sinks']}"
        rows = "fighter sheet with 1 armour row"
    else:
        head = (
            f"Battle armour ({inp.troopers} trooper{'s' if inp.troopers != 1 else ''}): "
            f"Armor Value {r['armor_value']} per trooper (AF {inp.armor_factor_per_trooper} / 10)"
        )
        sinks = "Heat Sinks N/A"
        rows = f"fighter sheet with {r['armor_rows']} armour row{'s' if r['armor_rows'] != 1 else ''}"
    thrust = (
        f"Safe Thrust {r['safe_thrust']} (Jump MP {inp.jump_mp} / 3), Fuel {r['fuel_points']}"
        if r["can_thrust"]
        else "no jump jets: Safe Thrust 0, Fuel 0, cannot spend thrust"
    )
    parts = [head, thrust, sinks, rows, "no Max Thrust"]
    if r["weapons"]:
        listed = ", ".join(
            f"{tables.ARC_TEXT[w['arc']]} {w['type']}"
            + (f" x{w['mounts']}" if w["mounts"] != 1 else "")
            + _ff_text(w, inp_w, mech)
            for w, inp_w in zip(r["weapons"], [x for x in inp.weapons if not x.melee], strict=True)
        )
        parts.append(f"weapons: {listed}")
        missing = [w["type"] for w in r["weapons"] if w["fire_factor"] is None]
        if missing:
            parts.append(
                "GM: take the Fire Factors of " + ", ".join(missing) + " from the Master Weapons Tables"
            )
    melee = [w.type for w in inp.weapons if w.melee]
    if melee:
        parts.append("melee weapons left off: " + ", ".join(melee))
    return "; ".join(parts) + "; it attacks only in its own hex, at short range."


@procedure(
    """
procedure: groundspace.thrust
inputs:
  unit_kind: str enum {mech|battle_armor}
  fuel: int = 0
  tp: int = 0                                # Thrust Points spent this turn
  piloting: int|null = null                  # 'Mech; required when tp > 0
  damage_mods: int = 0
  has_jump_jets: bool = true
  heading: str|null = null
  velocity: int|null = null
  launch_from: object{heading: str, velocity: int}|null = null   # mother vessel's vector at launch
  enters_interface_hex: bool = false
  reentry_protection: bool = false           # ablative pod or PRU
dice:
  - control: 2D6  [tp > 0]
result:
  control_ok: bool|null                      # headline; null when no thrust was spent
  control_tn: int|null                       # 'Mech piloting + 2 + damage_mods; battle armour 6 + damage_mods
  control_roll: int|null
  fuel_after: int                            # fuel − tp
  heading: str|null                          # launch_from.heading when launching
  velocity: int|null
  destroyed: bool                            # interface hex without protection
  to_hit_mod: int                            # always 4
effects:
  - {"target": "unit", "field": "fuel", "op": "set", "value": "<fuel_after>"}
  - {"target": "unit", "field": "out_of_control", "op": "set", "value": true}   [control_ok == false; BattleSpace Out-of-Control rules]
  - {"target": "unit", "field": "destroyed", "op": "set", "value": true}   [destroyed]
errors:
  - InputError(tp): tp > fuel, or tp > 0 for a 'Mech without jump jets
  - InputError(piloting): 'Mech with tp > 0 and no piloting
""",
    title="Ground units: thrust in BattleSpace ('Mech / battle armour)",
    reference=f"{SEED_B}, Movement; Combat Restrictions",
    bounds={"fuel": (0, None), "tp": (0, None), "piloting": (0, None), "velocity": (0, None)},
    example={"unit_kind": "mech", "fuel": 8, "tp": 1, "piloting": 5, "damage_mods": 1},
)
def thrust(inp, dice) -> Resolution:
    mech = inp.unit_kind == "mech"
    if inp.tp > inp.fuel:
        raise InputError("tp", f"spends {inp.tp} Thrust Points but only {inp.fuel} Fuel Points are left")
    if mech and inp.tp > 0 and not inp.has_jump_jets:
        raise InputError(
            "tp", "a 'Mech without jump jets cannot spend thrust (no heading or velocity change)"
        )
    if mech and inp.tp > 0 and inp.piloting is None:
        raise InputError("piloting", "is needed for the 'Mech's Control Roll when it spends thrust")
    if inp.launch_from is not None and inp.launch_from.velocity < 0:
        raise InputError("launch_from", "velocity cannot be negative")
    if mech:
        tn = None if inp.piloting is None else inp.piloting + tables.CONTROL_PSR_MOD + inp.damage_mods
    else:
        tn = tables.BA_CONTROL_TN + inp.damage_mods
    roll = ok = None
    if inp.tp > 0:
        roll = dice.total("control", 2)
        ok = success(roll, tn)
    launch = inp.launch_from
    result = {
        "control_ok": ok,
        "control_tn": tn,
        "control_roll": roll,
        "fuel_after": inp.fuel - inp.tp * tables.FUEL_PER_TP,
        "heading": launch.heading if launch is not None else inp.heading,
        "velocity": launch.velocity if launch is not None else inp.velocity,
        "destroyed": inp.enters_interface_hex and not inp.reentry_protection,
        "to_hit_mod": tables.TO_HIT_MOD,
    }
    effects = [set_effect("unit", "fuel", result["fuel_after"])]
    if ok is False:
        effects.append(set_effect("unit", "out_of_control", True))
    if result["destroyed"]:
        effects.append(set_effect("unit", "destroyed", True))
    return Resolution(result, _thrust_summary(result, inp), effects)


def _thrust_summary(r: dict, inp) -> str:
    who = "'Mech" if inp.unit_kind == "mech" else "Battle armour"
    parts = []
    if inp.launch_from is not None:
        parts.append(
            f"{who} launches with the mother vessel's vector: heading {r['heading']}, velocity {r['velocity']}"
        )
    if parts:
        who = "it"
    if inp.tp == 0:
        parts.append(f"{who} spends no thrust: no Control Roll; fuel stays {r['fuel_after']}")
    else:
        verdict = (
            "holds control" if r["control_ok"] else "fails: out of control (BattleSpace Out-of-Control rules)"
        )
        parts.append(
            f"{who} spends {inp.tp} TP: Control Roll {r['control_roll']} vs TN {r['control_tn']}, {verdict}; "
            f"fuel {inp.fuel} -> {r['fuel_after']}"
        )
    if r["destroyed"]:
        parts.append(
            "it enters a space/atmosphere interface hex without an ablative pod or PRU and is destroyed"
        )
    parts.append("its attacks are at +4 to hit, same hex only; naval weapons cannot target it")
    return "; ".join(parts) + "."
