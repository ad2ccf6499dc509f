"""The rule families as the house reads them: found at start-up, each claim made once."""

from __future__ import annotations

import pytest

import rules
from referee.play import families
from referee.play.bindings import Binding
from referee.play.families import EffectRule, Family


def test_the_families_are_found_at_start_up():
    names = [f.name for f in families.FAMILIES]
    assert {"fleet", "jump", "sensor", "boobytraps", "terrain", "shipboard", "logistics"} <= set(names)
    # Core families first, then the apps in INSTALLED_APPS order: the End Phase runs in this order.
    assert names.index("equipment") < names.index("boobytraps") < names.index("terrain")
    assert names.index("terrain") < names.index("shipboard") < names.index("logistics")


def test_every_procedure_family_has_a_heading_from_a_family():
    untitled = {p.family for p in rules.all_procedures()} - set(families._TITLES)
    assert untitled == set()
    assert families.procedure_title("jump") == "Jump drives"
    assert families.procedure_title("booby_trap") == "Booby traps"


def test_every_bound_procedure_is_bound_by_exactly_one_family():
    seen = [b.procedure_id for f in families.FAMILIES for b in f.bindings]
    assert len(seen) == len(set(seen))
    assert families.binding("jump.malfunction").label == "Jump"


def test_an_unbound_procedure_is_a_calculator_and_an_unknown_one_an_input_error():
    assert families.binding("jump.double_jump_interval").roles == ()
    with pytest.raises(rules.InputError):
        families.binding("no.such_procedure")


def test_a_second_claim_is_refused():
    with pytest.raises(ValueError, match="bound twice"):
        families.register(Family(name="copy", title="Copy", bindings=(Binding("jump.malfunction"),)))
    with pytest.raises(ValueError, match="two titles"):
        families.register(Family(name="copy", title="Copy", procedure_titles={"jump": "Again"}))
    assert "copy" not in [f.name for f in families.FAMILIES]


def test_a_rule_of_the_procedure_comes_before_a_rule_for_every_procedure():
    assert families.effect_rule("unit", "prone") is None  # left to the GM
    general = families.effect_rule("unit", "destroyed")  # marked on the record sheet
    scoped = families.effect_rule("unit", "destroyed", "lowtech.ice_explosion")  # the refit keeps it
    assert general is not None and scoped is not None and scoped is not general
    assert families.effect_rule("ship", "armor.nose") is not None  # a pattern
    assert families.effect_rule("ship", "neutrino.tracking.abc") is None
    assert families.effect_rule("ship", "neutrino.tracking.abc", "sensor.neutrino") is not None


def test_an_effect_rule_pattern_passes_its_named_parts():
    rule = EffectRule(
        "ship", r"armor\.(?P<facing>[a-z_]+)", lambda obj, effect, ctx, facing: [], pattern=True
    )
    assert rule.match("ship", "armor.nose", "") == {"facing": "nose"}
    assert rule.match("unit", "armor.nose", "") is None
    scoped = EffectRule("unit", "fuel", lambda obj, effect, ctx: [], procedure="telemissile.maneuver")
    assert scoped.match("unit", "fuel", "groundspace.thrust") is None
    assert scoped.match("unit", "fuel", "telemissile.maneuver") == {}


def test_the_end_phase_steps_keep_the_families_order():
    steps = [s.binding.procedure_id for s in families.end_phase_steps()]
    assert steps == [
        "screen.end_phase",
        "sensor.neutrino",
        "fighter.overburn",
        "booby_trap.turn_upkeep",
        "terrain.geyser",
        "shipboard.decompression",
        "shipboard.fuel_leak",
        "cargo.food",
        "lowtech.ice_explosion",
    ]
