"""The help a GM reads under each input of a procedure form, and the names of its choices.

The contract's comments are written for the engine (``null = never jumped``, ``[A21] toggle
for 14-15``, ``GM-data (BattleSpace p. 46)``); the contract stays the source of truth for what
an input accepts. Here each input says, in a sentence or two, what to enter and what it does
at the table. Book references read as book and page or section.
"""

from __future__ import annotations

from . import wording

# Help by procedure, then input. An input a procedure leaves without a line here shows the
# contract's comment made readable (``wording.help_text``); a test keeps every input whose
# contract says anything in this table.
HELP: dict[str, dict[str, str]] = {
    "booby_trap.speed_by_year": {
        "year": "The campaign year on the rulebook's own year scale; any year before 70 gives speed 1.",
    },
    "booby_trap.scenario_speed_adjust": {
        "speed": "The trap's speed by year, from 1 to 32.",
    },
    "booby_trap.weapon_spaces": {
        "speed": "The trap's speed, from 1 to 32, after any scenario adjustment.",
    },
    "booby_trap.fill_weapons": {
        "spaces": "How many weapon spaces are left to fill.",
        "chart": "The chart to roll on. Leave empty for the printed torpedo-hit chart (Booby Traps, "
        "IR107.332); the rulebook prints no drone or phaser chart, so enter your own for those.",
        "max_rolls": "The most rolls to make. A weapon too big for the spaces left is rolled again, "
        "so this stops a chart that can never fill them.",
    },
    "booby_trap.generate": {
        "mode": "Scenario: the trap's speed may also be adjusted up or down by a roll.",
        "torp_chart": "Leave empty for the printed torpedo-hit chart.",
        "drone_chart": "Your drone-hit chart (the rulebook prints none). Leave empty and the drone "
        "spaces stay for you to fill.",
        "phaser_chart": "Your phaser-hit chart (the rulebook prints none). Leave empty and the phaser "
        "spaces stay for you to fill.",
        "fill_weapons": "Also roll the weapons into the spaces. Untick to stop once the spaces are rolled.",
    },
    "booby_trap.pursuit_target": {
        "units": "Only the units the trap has detected.",
    },
    "booby_trap.terrain_pursuit": {
        "terrain": "The inter-sector terrain the trap has detected.",
        "current_turn": "This turn's number.",
        "terrain_cooldown_until": "After passing through inter-sector terrain a trap ignores it for "
        "500 turns: the last of those turns. Leave empty if it is not ignoring any.",
        "unit_target": "The trap is already pursuing a detected unit.",
        "priority": "What the trap pursues when it detects both a unit and inter-sector terrain "
        "(the rules set no order).",
        "passes_through": "The trap passes through inter-sector terrain this turn.",
    },
    "booby_trap.turn_upkeep": {
        "drone_racks": "The trap's drone racks, each with its capacity and the spaces loaded now. "
        "Each rack reloads 1 space a turn.",
        "turns": "How many End Phases have passed.",
    },
    "terrain.hex_modifiers": {
        "base_custom": "For Custom: the terrain's movement cost and modifiers. Use it for jungle, "
        "magma, tundra and other terrain whose figures this book leaves to the BattleTech "
        "Compendium: The Rules of Warfare.",
        "conditions": "Conditions in the hex. A geyser counts only while it erupts.",
        "custom_conditions": "Further conditions with their own costs and modifiers, such as a "
        "road or bridge, rubble or swamp.",
        "earthquake": "Strength of a tremor this turn, from 1 to 5; 0 when there is none.",
        "dune_buggy": "The unit is a dune buggy (wheeled vehicles only).",
        "careful": "The unit declared careful movement, so it does not pay the costs the table "
        "marks J (not infantry).",
    },
    "terrain.clearing": {
        "successful_attacks": "How many clearing attacks have succeeded under the BattleTech "
        "Compendium: The Rules of Warfare.",
    },
    "terrain.magma": {
        "start_hex": "The hex where the unit starts the Movement Phase.",
        "movement_path": "Each hex the unit enters this Movement Phase, in order; the last is "
        "where it ends. Leave empty if it stays put.",
        "entry": "For a jump or a crash, enter only the landing hex as the movement.",
        "psr_tn": "The BattleMech's piloting roll target number; needed when it jumps or crashes "
        "onto magma crust.",
        "exposed_locations": "Locations that touch the magma. Leave empty for the legs; a fall "
        "exposes every location.",
    },
    "terrain.geyser": {
        "erupting_turns_left": "Turns of eruption left, as the last End Phase's result gave them; "
        "0 while the geyser is dormant.",
        "eruption_turn_counts": "The turn of the eruption counts as the first of its turns "
        "(the rules leave it open).",
    },
    "terrain.bog_down": {
        "psr_mods": "Damage and other piloting roll modifiers, terrain aside.",
        "terrain": "Tundra also covers moor, bog and quicksand.",
        "jump_out": "When freeing the unit: it leaves by jumping, with no roll.",
        "swamp_mod": "The swamp modifier of the BattleTech Compendium: The Rules of Warfare "
        "(swamp and liquid magma).",
    },
    "terrain.careful_movement": {
        "hexes": "The hexes moved after declaring careful movement, in order.",
    },
    "weather.earthquake": {
        "strength": "The tremor's strength, from 1 to 5.",
        "psr_tn": "The 'Mech's piloting roll target number before the quake. Given, the Movement "
        "Phase piloting roll is rolled too.",
    },
    "weather.missile_hits_modifier": {
        "roll": "The Missile Hits Table roll, from 2 to 12. Leave empty to roll it.",
    },
    "heat.expanded": {
        "jump_hexes": "Hexes jumped, when the unit jumped.",
        "fusion_engine_hits": "Hits on a fusion engine, up to 2.",
        "ice_engine_hits": "Hits on an internal combustion engine, up to 3; they never add heat.",
        "temperature_mode": "How the heat for each 10 °C beyond the limit is counted: whole steps "
        "only, or part of a step as a whole one (the rules leave it open).",
        "other_heat": "Heat from rows the table leaves out, such as snow and rain (negative to reduce heat).",
    },
    "shipboard.missed_shot": {
        "roll": "The first to-hit roll, from 2 to 12. Leave empty to roll it.",
        "weapon_class": "Carried on to the bulkhead step; an energy shot never ricochets.",
        "candidates": "Characters near the intended target. Leave out the firer and anyone directly "
        "behind the firer, unless the shot comes off a bounce.",
    },
    "shipboard.bulkhead_hit": {
        "capacity": "The surface's full capacity. Leave empty for the table's; needed for Custom.",
        "threshold": "Leave empty for the table's; needed for Custom.",
        "surface_kind": "For Custom only: a bulkhead is pierced (no ricochet); an object can ricochet.",
        "capacity_left": "Capacity left before this hit; leave empty if undamaged. Damage adds up "
        "from shot to shot.",
        "raw_damage": "The shot's damage, when already known (the first step).",
        "damage_dice": "Six-sided dice rolled for the shot's damage when it is not given.",
        "damage_bonus": "Added to the damage dice, e.g. 3 for a pistol's 2D6+3.",
        "armor_rating": "The surface's armour rating as a multiplier; ½ unless the surface says otherwise.",
        "pressure_boundary": "An external bulkhead, or a wall between different pressures.",
        "frangible_capacity_damage": "Frangible rounds wear down the surface's capacity (by default "
        "they do not; the rules leave it open).",
    },
    "shipboard.ricochet": {
        "excess": "Points above the surface's threshold, at least 1.",
        "reduction": "Roll the ricochet's reduction dice. Untick for a shot through a destroyed "
        "surface or an over-penetration: no reduction, whatever the weapon.",
        "miss_surface": "What the ricochet hits when its attack misses.",
    },
    "shipboard.bulkhead_critical": {
        "excess": "This shot's points above the bulkhead's threshold (from Damage to a bulkhead), "
        "at least 1.",
    },
    "shipboard.decompression": {
        "penetrating_points": "Points above the threshold of the pierced pressure boundary, at least 1.",
        "rounds": "Rounds that pass before the breach is sealed.",
    },
    "shipboard.fuel_leak": {
        "turns_leaking": "Turns since the leaked fuel below was noted.",
        "leaked_points": "Fuel points that had leaked before those turns.",
        "weapon_kind": "A weapon fired in the area this turn.",
    },
    "shipboard.over_penetration": {
        "damage_dice": "Six-sided dice rolled for the damage when the damage to the part is not given.",
        "part_threshold": "From the character sheet, e.g. an arm's is BLD × 3.",
        "reduction": "Reduce the over-penetrating points as a ricochet is reduced (by default they "
        "go on unreduced; the rules leave it open).",
    },
    "cargo.food": {
        "mode": "As the book's examples (the daily need to the nearest quarter ton), or exact "
        "(1 ton feeds 200 people a day).",
    },
    "cargo.stores": {
        "tankage_t": "Cargo space lined as fuel cells.",
        "burn_day_fuel_t": "Fuel for one ordinary burn-day.",
    },
    "lowtech.ice_engine": {
        "fusion_engine_weight_t": "Weight of a fusion engine of the same rating (BattleTech "
        "Compendium: The Rules of Warfare).",
    },
    "lowtech.ice_explosion": {
        "engine_hit_number": "Which engine hit this is, from 1 to 3, taken this phase.",
    },
    "vehicle.amphibious": {
        "motive_damage": "The vehicle has any track, axle or wheel damage.",
    },
    "ram.accidental": {
        "mover": "The Out-of-Control craft entering the hex.",
        "velocity": "The fighter unit's velocity, when the mover is one.",
        "fighter_hits": "Hits you decide on for the fighters; given, no Fighter Hits roll is made.",
        "fighter_hits_table": "The Fighter Hits Table column for this unit's size (BattleSpace, p. 19), "
        "which the rulebook does not print. Leave empty and give the hits instead.",
    },
    "ram.deliberate": {
        "target_type": "Fighters cannot be rammed.",
        "leadership_mode": "MechWarrior rules: a Leadership roll instead of 11 or more on 2D6.",
        "gm_mods": "Further modifiers to the Leadership roll's target number.",
        "gm_waive": "Allow the attack without a roll.",
        "velocity": "The fighter unit's velocity, when it is the attacker.",
    },
    "sensor.ir_signature": {
        "ly": "Light-years jumped, more than 0 and up to 30.",
        "dropship_factor": "The JumpShip's DropShip capacity by default (or the DropShips it "
        "carries, if you rule so); 0 counts as 1.",
        "ship_kind": "The arriving vessel.",
        "observers": "Other vessels in the system and their distance from the arrival.",
    },
    "sensor.emergence_wave": {
        "distance_au": "Distance from the arrival, 0 or more.",
        "kf_integrity_max": "The arriving ship's undamaged K-F integrity; detection always uses it.",
        "dropship_factor": "The arriving JumpShip's DropShip capacity by default; 0 stays 0 here.",
        "kf_integrity": "The arriving ship's current integrity: kept for the record, never used "
        "(detection uses the undamaged value).",
        "already_rolled": "This detector has already rolled against this arrival (one roll each).",
    },
    "sensor.active_radar": {
        "minutes_since_last_roll": "Minutes since this detector last rolled against this target "
        "(one roll an hour). Leave empty if it never has.",
        "already_detected": "Detected earlier and still in range: it stays detected, no roll.",
    },
    "sensor.drive_plume": {
        "distance_km": "Distance to the target, which is accelerating.",
    },
    "sensor.hpg_detection": {
        "distance_au": "The real distance; the rules double it for the roll.",
    },
    "sensor.neutrino": {
        "start_hour": "When calibrating: the hour the detector starts.",
        "vessels": "Each hour: the other vessels, their distance and how many hours each has "
        "been tracked without a break (0 at the first detection; empty if not tracked).",
    },
    "groundspace.convert": {
        "armor_factor": "The 'Mech's total armour factor.",
        "armor_factor_per_trooper": "For battle armour: each trooper's armour factor.",
        "troopers": "For battle armour: troopers in the unit, from 1 to 10.",
        "heat_sinks": "For a 'Mech only.",
    },
    "groundspace.thrust": {
        "tp": "Thrust Points spent this turn.",
        "piloting": "The 'Mech's piloting skill; needed when it spends thrust.",
        "launch_from": "The mother vessel's heading and velocity at launch.",
        "reentry_protection": "An ablative pod or a personal re-entry unit.",
    },
    "boarding.landing": {
        "piloting": "The 'Mech's piloting skill.",
        "leg_actuator_mods": "Doubled when the jump jets are mounted in the legs.",
        "entry_hexside": "The hexside the unit entered the hex through: it lands on the "
        "location facing it. Leave empty if it launched inside the hex, and choose.",
    },
    "boarding.landed_attack": {
        "bay": "For a bay door: 1 fore left, 2 fore right, 3 aft left or aft right.",
        "nose_s": "The landed unit's short-range damage in its nose arc (hull attacks add the "
        "nose and both wings).",
        "lw_s": "The landed unit's short-range damage in its left wing arc.",
        "rw_s": "The landed unit's short-range damage in its right wing arc.",
        "melee_damage": "The BattleTech damage of each melee weapon.",
    },
    "boarding.bs_to_bt_damage": {
        "troopers": "For battle armour: troopers left (no more can be removed).",
        "reroll_locations": "Locations whose 10-point hit would destroy a 'Mech still fighting in "
        "BattleSpace: they are rolled again (your judgement).",
        "hit_table": "Leave empty for the standard Front column of the hit location table.",
    },
    "jump.malfunction": {
        "hours_since_last_jump": "Hours since the ship last jumped. Leave empty if it never has.",
        "charged_from_reactor": "The drive was charged from the ship's reactor (adds 2 to the roll).",
        "kf_integrity": "The drive's K-F integrity now. Leave empty if you do not track it; the "
        "result then leaves it alone.",
        "kf_integrity_max": "The drive's undamaged K-F integrity, for the record: this roll does "
        "not use it (ships detecting the arrival do).",
        "failed_jump_table": "The Failed Jump Table (BattleSpace, p. 46), which the rulebook does "
        "not print. Leave empty and you decide the outcome of a failed jump.",
        "static_discharge_keeps_charge": "On a drive failure (a result of 14 or 15) the drive "
        "keeps its charge. The table leaves it open; by default the charge is lost.",
    },
    "fighter.overburn": {
        "prev_overburn": "Overburn carried from the last turn, up to 15.",
        "shutdown": "The fighters were shut down before this End Phase.",
        "strict": "Refuse heat that would take overburn past 15, instead of discarding the excess.",
        "fighters": "Fighters left in the unit.",
    },
    "jump.nonstandard_plot": {
        "navigation_tn": "The navigator's Navigation target number (MechWarrior Companion).",
        "location": "Choose none when the ship is not leaving a gravity well.",
        "distance_reading": "How to read the book's distance: 3D6 times 3 million km (deep space) or "
        "300,000 km (planet with a moon), or 3D6 less 3, in millions or hundreds of thousands of km.",
    },
    "jump.nonstandard_arrival": {
        "plot_mos": "The plot's margin of success; it lowers the arrival's target number.",
        "ships": "The JumpShip first, then each DropShip it carries, with their armour facings.",
    },
    "jump.double_jump_interval": {
        "field_collapse_s": "How long the field takes to collapse, if you rule it; leave empty for "
        "light-years times DropShips, halved (at least 30 s).",
    },
    "jump.field_interference": {
        "jumpship_distances_m": "Distances of the other JumpShips near the jumping ship.",
    },
    "drive.charge": {
        "target_hours": "Hours to charge. Needed from the reactor; with a sail, the star's hours "
        "(by its class: the star system's sail charging time, else the least any star takes, 151 h).",
        "mode": "The failure chance between the book's figures (150, 100, 75 and 24 hours): "
        "in a straight line, or the chance of the next faster figure.",
        "simultaneous": "Core and battery charge from one source at once (a drastic slow-down, "
        "yours to rule).",
    },
    "gforce.threshold": {
        "consecutive_turns_over_secondary": "Turns in a row over the secondary threshold, before this one.",
        "extended_exposure": "The G-suit's extended-periods option: primary threshold 6 G.",
    },
    "gforce.tactical": {
        "ref_failed": "MechWarrior: the character failed the REF roll.",
        "boarding_roll": "Boarding: the boarding action's dice result.",
    },
    "telemissile.maneuver": {
        "fuel": "Fuel left. Leave empty for the table's (Killer Whale-T 30, White Shark-T 40); "
        "enter it for the other types, which the book leaves out.",
        "tp_requested": "Thrust Points this turn, turning or accelerating.",
        "fire_factor": "Replaces the table's Fire Factor (Killer Whale-T 4, White Shark-T 3, "
        "Barracuda-T 2); enter it for the Kraken-T.",
    },
    "telemissile.attack": {
        "fuel_left": "Fuel left after this turn's thrust (none left makes the attack harder).",
        "damage_mode": "A hit deals the full Fire Factor, or only the armour the missile has left "
        "(the rules leave it open).",
    },
    "screen.detonate": {
        "range_hexes": "Hexes from the launcher, in its arc, up to 6.",
        "large_ships": "DropShips and larger in the hex (never damaged).",
    },
    "screen.end_phase": {
        "roll_on_laying_turn": "Roll to remove the screen in the End Phase of the turn it was "
        "laid too (the rules leave it open).",
    },
    "yard.capacity_and_damage": {
        "vessel_capacity_t": "The largest vessel the yard takes.",
        "bay_boxes_total": "Boxes of Cargo Bays 1 and 2.",
    },
    "hpg.transmit": {
        "craft": "Other craft near the transmitter and their distance.",
    },
}

# Choices by value, where the value made readable would still read as a code.
CHOICES: dict[str, str] = {
    "aet": "AET",
    "battle_armor": "Battle armour",
    "battlemech": "BattleMech",
    "battlemech_biped": "BattleMech (two legs)",
    "battlemech_quad": "BattleMech (four legs)",
    "barracuda_t": "Barracuda-T",
    "building_hardened": "Building (hardened)",
    "building_heavy": "Building (heavy)",
    "building_light": "Building (light)",
    "building_medium": "Building (medium)",
    "clan": "Clan",
    "contact_explosive": "Contact explosive",
    "dropship": "DropShip",
    "fighter_unit": "Fighter unit",
    "infantry_foot": "Foot infantry",
    "infantry_jump": "Jump infantry",
    "inner_sphere": "Inner Sphere",
    "jumpship": "JumpShip",
    "kf_drive": "K-F drive",
    "killer_whale_t": "Killer Whale-T",
    "kraken_t": "Kraken-T",
    "lf_battery": "Lithium-fusion battery",
    "mech": "'Mech",
    "mechwarrior": "MechWarrior",
    "torp": "Torpedo",
    "vtol": "VTOL",
    "walk_run": "Walk or run",
    "warship": "WarShip",
    "white_shark_t": "White Shark-T",
}

# Choices whose meaning depends on the input.
INPUT_CHOICES: dict[tuple[str, str], dict[str, str]] = {
    ("booby_trap.terrain_pursuit", "priority"): {"units": "Units first", "terrain": "Terrain first"},
    ("heat.expanded", "temperature_mode"): {"floor": "Whole steps only", "fraction": "Part of a step counts"},
    ("cargo.food", "mode"): {"sourcebook": "As the book's examples", "exact": "Exact"},
    ("jump.nonstandard_plot", "distance_reading"): {
        "multiply": "3D6 times the distance",
        "subtract": "3D6 less 3",
    },
    ("drive.charge", "mode"): {"linear": "In a straight line", "step": "Next faster figure"},
    ("telemissile.attack", "damage_mode"): {
        "fire_factor": "Full Fire Factor",
        "remaining_armor": "Armour left",
    },
    ("booby_trap.generate", "mode"): {"campaign": "Campaign", "scenario": "Scenario"},
}


def help_for(procedure_id: str, spec) -> str:
    """The help under one input: this table's words, else the contract's comment made readable."""
    words = HELP.get(procedure_id, {}).get(spec.name)
    return words if words is not None else wording.help_text(spec.help)


def choice_for(procedure_id: str, input_name: str, value: str) -> str:
    """A choice as the option reads."""
    named = INPUT_CHOICES.get((procedure_id, input_name), {})
    return named.get(value) or CHOICES.get(value) or wording.choice(value)
