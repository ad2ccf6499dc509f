"""C.9: the refusals the prose implies, each an InputError on the named input with a
message a GM can act on; and lists the prose writes as sets count an entry once."""

import copy
import re

import pytest

import rules
from rules.schema import FloatType, IntType, NullableType, RationalType

MALF = "jump.malfunction"
HEX = "terrain.hex_modifiers"


def refusal(pid, inputs, dice=None):
    proc = rules.get(pid)
    with pytest.raises(rules.InputError) as e:
        rules.resolve(
            pid, {**copy.deepcopy(proc.example), **inputs}, rules.SeededDice(0) if dice is None else dice
        )
    return e.value


def assert_plain_words(message: str):
    """Read by a GM: no snake_case input names, procedure ids or Python reprs."""
    assert message.strip()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", message), message
    assert not re.search(r"\b[a-z]+\.[a-z_]+\b", message), message
    assert "None" not in message and "{" not in message, message


def test_a_ship_whose_kf_integrity_is_zero_may_not_jump():
    e = refusal(MALF, {"kf_integrity": 0})
    assert e.field == "kf_integrity"
    assert "may not jump" in e.message
    assert_plain_words(e.message)
    rules.resolve(MALF, {"kf_integrity": 1}, [1, 1])  # 1 is still a working drive


def test_kf_integrity_above_its_undamaged_value_is_refused():
    e = refusal(MALF, {"kf_integrity": 5, "kf_integrity_max": 4})
    assert e.field == "kf_integrity"
    assert "4" in e.message
    assert_plain_words(e.message)
    rules.resolve(MALF, {"kf_integrity": 4, "kf_integrity_max": 4}, [1, 1])


def test_light_and_heavy_rain_together_are_refused():
    e = refusal(HEX, {"weather": ["rain_light", "rain_heavy"]})
    assert e.field == "weather"
    assert "not both" in e.message
    assert_plain_words(e.message)


def test_moderate_and_high_wind_together_are_refused():
    e = refusal(HEX, {"weather": ["wind_high", "fog", "wind_moderate"]})
    assert e.field == "weather"
    assert "not both" in e.message
    assert_plain_words(e.message)


@pytest.mark.parametrize("capacity_left", [0, -3])
def test_a_destroyed_surface_is_not_struck_again(capacity_left):
    e = refusal("shipboard.bulkhead_hit", {"capacity_left": capacity_left})
    assert e.field == "capacity_left"
    assert "destroyed" in e.message
    assert "ricochet" in e.message  # where the shot goes instead [A25]
    assert_plain_words(e.message)


def test_frangible_rounds_do_not_pass_through_without_reduction():
    e = refusal("shipboard.ricochet", {"ammo": "frangible", "reduction": False})
    assert e.field == "ammo"
    assert "frangible" in e.message
    assert_plain_words(e.message)


@pytest.mark.parametrize(("fire_factor", "lost"), [(4, 4), (4, 6), (None, 4)])
def test_a_telemissile_with_every_armour_box_lost_cannot_attack(fire_factor, lost):
    # The Killer Whale-T's fire factor (and armour) is 4.
    e = refusal("telemissile.attack", {"fire_factor": fire_factor, "armor_boxes_lost": lost})
    assert e.field == "armor_boxes_lost"
    assert_plain_words(e.message)
    rules.resolve(
        "telemissile.attack", {**rules.get("telemissile.attack").example, "armor_boxes_lost": 3}, [1, 1]
    )


# Numbers that may be negative: modifiers, target numbers, skills, rolls, the seed's year
# scale and temperatures. Every other number is a count, distance, mass, time or capacity.
SIGNED = {
    "year",
    "psr_tn",
    "piloting",
    "psr_mods",
    "swamp_mod",
    "ambient_c",
    "other_heat",
    "tn",
    "damage_bonus",
    "leadership_skill_tn",
    "gm_mods",
    "damage_mods",
    "damage_psr_mods",
    "leg_actuator_mods",
    "navigation_tn",
    "boarding_roll",
}
UNSIGNED = [
    (p, i.name)
    for p in rules.all_procedures()
    for i in p.contract.inputs
    if isinstance(
        i.type.inner if isinstance(i.type, NullableType) else i.type, (IntType, FloatType, RationalType)
    )
    and i.name not in SIGNED
]


@pytest.mark.parametrize(("proc", "name"), UNSIGNED, ids=[f"{p.id}-{n}" for p, n in UNSIGNED])
def test_a_negative_count_distance_mass_or_time_is_refused(proc, name):
    e = refusal(proc.id, {name: -1})
    assert e.field == name
    assert_plain_words(e.message.replace(name, "the value"))


NESTED = [
    ("booby_trap.pursuit_target", "units", "range_hexes"),
    ("booby_trap.pursuit_target", "units", "speed"),
    ("booby_trap.terrain_pursuit", "terrain", "range_hexes"),
    ("booby_trap.turn_upkeep", "drone_racks", "loaded"),
    ("booby_trap.turn_upkeep", "drone_racks", "capacity"),
    ("shipboard.missed_shot", "candidates", "distance_m"),
    ("sensor.ir_signature", "observers", "distance_km"),
    ("sensor.neutrino", "vessels", "distance_au"),
    ("sensor.neutrino", "vessels", "tracked_hours"),
    ("groundspace.convert", "weapons", "mounts"),
    ("groundspace.convert", "weapons", "heat"),
    ("groundspace.convert", "weapons", "range_value"),
    ("screen.detonate", "fighter_units", "fighters"),
    ("hpg.transmit", "craft", "distance_m"),
]


@pytest.mark.parametrize(("pid", "listed", "field"), NESTED, ids=[f"{p}-{a}.{b}" for p, a, b in NESTED])
def test_a_negative_count_or_distance_inside_a_list_is_refused_on_the_list(pid, listed, field):
    proc = rules.get(pid)
    inputs = copy.deepcopy(proc.example)
    assert inputs[listed], "the example lists at least one entry"
    inputs[listed][0][field] = -1
    with pytest.raises(rules.InputError) as e:
        rules.resolve(pid, inputs, rules.SeededDice(0))
    assert e.value.field == listed


def test_a_negative_fighter_hits_entry_is_refused():
    table = {str(k): 1 for k in range(2, 13)} | {"7": -1}
    e = refusal("ram.accidental", {"fighter_hits_table": table})
    assert e.field == "fighter_hits_table"


@pytest.mark.parametrize(
    ("pid", "name", "once", "twice"),
    [
        (HEX, "conditions", ["mud"], ["mud", "mud"]),
        (HEX, "conditions", ["ice", "mud"], ["ice", "mud", "ice"]),
        (HEX, "weather", ["fog"], ["fog", "fog"]),
        (HEX, "weather", ["rain_light", "wind_high"], ["rain_light", "wind_high", "rain_light"]),
        ("fire.intentional", "weather", ["rain"], ["rain", "rain"]),
        ("fire.intentional", "weather", ["rain", "high_winds"], ["high_winds", "rain", "high_winds"]),
    ],
)
def test_a_list_read_as_a_set_counts_an_entry_once(pid, name, once, twice):
    proc = rules.get(pid)
    single = rules.resolve(pid, {**proc.example, name: once}, []).result
    double = rules.resolve(pid, {**proc.example, name: twice}, []).result
    assert double == single
