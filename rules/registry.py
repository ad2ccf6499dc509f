"""The procedure registry and the public entry point ``resolve``.

A procedure is a plain function ``(inputs, dice) -> Resolution`` registered with
:func:`procedure`, which takes the catalogue's ``contract`` block as its schema.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .dice import Dice, Roll, as_dice
from .errors import DiceError, InputError
from .schema import Contract, parse_contract

SEED_A = "000_07cf8a2f0c4164e5.txt"
SEED_B = "004_a36b5ea8439b26e7.txt"

# The catalogue's procedure index (C.10), in its order.
CATALOGUE_ORDER = [
    "booby_trap.speed_by_year",
    "booby_trap.scenario_speed_adjust",
    "booby_trap.weapon_spaces",
    "booby_trap.fill_weapons",
    "booby_trap.generate",
    "booby_trap.pursuit_target",
    "booby_trap.terrain_pursuit",
    "booby_trap.turn_upkeep",
    "terrain.hex_modifiers",
    "terrain.clearing",
    "terrain.magma",
    "terrain.geyser",
    "terrain.bog_down",
    "terrain.careful_movement",
    "weather.earthquake",
    "weather.missile_hits_modifier",
    "heat.expanded",
    "fire.intentional",
    "shipboard.missed_shot",
    "shipboard.bulkhead_hit",
    "shipboard.ricochet",
    "shipboard.bulkhead_critical",
    "shipboard.decompression",
    "shipboard.fuel_leak",
    "shipboard.over_penetration",
    "cargo.food",
    "cargo.stores",
    "lowtech.ice_engine",
    "lowtech.ice_explosion",
    "lowtech.utility_critical",
    "vehicle.amphibious",
    "vehicle.dune_buggy",
    "ram.accidental",
    "ram.collision_damage",
    "ram.deliberate",
    "sensor.ir_signature",
    "sensor.emergence_wave",
    "sensor.active_radar",
    "sensor.passive_intercept",
    "sensor.drive_plume",
    "sensor.hpg_detection",
    "sensor.neutrino",
    "groundspace.convert",
    "groundspace.thrust",
    "boarding.landing",
    "boarding.landed_attack",
    "boarding.bs_to_bt_damage",
    "jump.malfunction",
    "fighter.overburn",
    "jump.nonstandard_plot",
    "jump.nonstandard_arrival",
    "jump.double_jump_interval",
    "jump.field_interference",
    "drive.charge",
    "gforce.threshold",
    "gforce.tactical",
    "telemissile.maneuver",
    "telemissile.attack",
    "screen.detonate",
    "screen.end_phase",
    "yard.capacity_and_damage",
    "hpg.transmit",
    "jump.basic_constants",
]


def set_effect(target: str, field: str, value: Any) -> dict:
    return {"target": target, "field": field, "op": "set", "value": value}


def add_effect(target: str, field: str, value: Any) -> dict:
    return {"target": target, "field": field, "op": "add", "value": value}


@dataclasses.dataclass(frozen=True, slots=True)
class Resolution:
    """What a procedure function returns: the result keys in contract order, effects, summary."""

    result: dict
    summary: str
    effects: Sequence[dict] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """The resolved procedure: everything needed to show, log and apply it."""

    procedure: str
    title: str
    reference: str
    inputs: Mapping[str, Any]
    rolls: tuple[Roll, ...]
    result: Mapping[str, Any]
    effects: tuple[Mapping[str, Any], ...]
    summary: str

    @property
    def headline(self) -> Any:
        return next(iter(self.result.values()))

    def to_dict(self) -> dict:
        """The contract's JSON shape (C.1): survives ``json.dumps`` as it is."""
        return {
            "procedure": self.procedure,
            "inputs": copy.deepcopy(dict(self.inputs)),
            "rolls": [r.to_dict() for r in self.rolls],
            "result": copy.deepcopy(dict(self.result)),
            "effects": copy.deepcopy([dict(e) for e in self.effects]),
            "summary": self.summary,
        }


def _not_finite(value: Any) -> bool:
    """A float that is inf or nan anywhere in a result value."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return any(_not_finite(v) for v in value)
    if isinstance(value, Mapping):
        return any(_not_finite(v) for v in value.values())
    return False


class ContractViolation(AssertionError):
    """A procedure returned something its contract does not allow (a bug, not bad input)."""


@dataclasses.dataclass(frozen=True)
class Procedure:
    id: str
    title: str
    reference: str
    contract: Contract
    func: Callable[[Any, Dice], Resolution]
    input_cls: type
    example: Mapping[str, Any]
    # Result keys that count a roll-again loop's rolls, discarded ones included (C.6):
    # key -> the input capping the loop's rolls, or None when the key lists the rolls.
    loop_counts: Mapping[str, str | None] = dataclasses.field(default_factory=dict)
    # Result keys whose exact odds are counted rather than walked: key -> a function of the
    # frozen inputs giving ``(ways, den)`` (see ``rules.distributions``) with values as odds
    # keys (``rules.odds.hashable``), or None to walk the dice.
    exact_odds: Mapping[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)

    @property
    def family(self) -> str:
        return self.id.split(".")[0]

    @property
    def headline(self) -> str:
        return self.contract.result[0].name

    @property
    def result_keys(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.contract.result)

    def normalise(self, inputs: Mapping[str, Any] | None) -> tuple[dict, Any]:
        """Validate ``inputs`` (C.2): returns the JSON-normalised dict and the frozen inputs."""
        if inputs is None:
            inputs = {}
        if not isinstance(inputs, Mapping):
            raise InputError("inputs", "must be a set of named inputs")
        known = {i.name for i in self.contract.inputs}
        for name in inputs:
            if name not in known:
                raise InputError(str(name), "is not an input of this procedure")
        normalised = {}
        for spec in self.contract.inputs:
            if spec.name in inputs:
                normalised[spec.name] = spec.validate(inputs[spec.name])
            elif spec.required:
                raise InputError(spec.name, "is required")
            else:
                normalised[spec.name] = json.loads(json.dumps(spec.default))
        frozen = self.input_cls(**{s.name: s.type.freeze(normalised[s.name]) for s in self.contract.inputs})
        return normalised, frozen

    def run(self, frozen: Any, dice: Dice) -> Resolution:
        try:
            resolution = self.func(frozen, dice)
        except OverflowError:  # float arithmetic past 1.8e308 on inputs within the caps
            raise InputError("inputs", "these numbers are too large to compute with") from None
        dice.finish()
        return resolution

    def check_result(self, result: Mapping[str, Any]) -> dict:
        """The result in its JSON form; a key or type the contract does not allow is a bug."""
        if tuple(result) != self.result_keys:
            raise ContractViolation(
                f"{self.id} returned keys {tuple(result)}, contract says {self.result_keys}"
            )
        checked = {}
        for key in self.contract.result:
            if _not_finite(result[key.name]):
                raise InputError(
                    "inputs", f"these numbers are too large: the {key.name.replace('_', ' ')} is not finite"
                )
            try:
                checked[key.name] = key.type.validate(result[key.name], key.name)
            except InputError as e:
                raise ContractViolation(f"{self.id}: result {e}") from None
        return checked

    def describe(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "reference": self.reference,
            "inputs": [i.describe() for i in self.contract.inputs],
            "result": [{"name": k.name, "help": k.help} for k in self.contract.result],
            "dice": self.contract.dice,
        }


REGISTRY: dict[str, Procedure] = {}


def procedure(
    contract: str,
    *,
    title: str,
    reference: str,
    bounds: dict[str, tuple[float | None, float | None]] | None = None,
    units: dict[str, str] | None = None,
    example: Mapping[str, Any] | None = None,
    loop_counts: Mapping[str, str | None] | None = None,
    exact_odds: Mapping[str, Callable[[Any], Any]] | None = None,
) -> Callable:
    """Register a procedure. ``contract`` is the catalogue's contract block, verbatim;
    ``reference`` names the seed file and section; ``bounds`` adds the catalogue's
    stated ranges to inputs; ``units`` their units; ``example`` is a typical set of
    inputs (benchmarks, and the calculator's starting point); ``loop_counts`` names the
    result keys that count a re-roll loop's rolls (see ``rules.odds``); ``exact_odds``
    counts a key's exact distribution from the inputs, where walking its dice would be slow."""

    parsed = parse_contract(contract, bounds=bounds, units=units)
    loop_counts = dict(loop_counts or {})
    for key, cap in loop_counts.items():
        if key not in {k.name for k in parsed.result} or (
            cap is not None and cap not in {i.name for i in parsed.inputs}
        ):
            raise SyntaxError(f"{parsed.procedure}: loop count {key!r} (cap {cap!r}) is not in the contract")
    exact_odds = dict(exact_odds or {})
    for key in exact_odds:
        if key not in {k.name for k in parsed.result}:
            raise SyntaxError(f"{parsed.procedure}: exact odds of {key!r}, which is not in the contract")

    def register(func: Callable[[Any, Dice], Resolution]) -> Callable:
        if parsed.procedure in REGISTRY:
            raise ValueError(f"procedure {parsed.procedure} registered twice")
        input_cls = dataclasses.make_dataclass(
            "Inputs_" + parsed.procedure.replace(".", "_"),
            [i.name for i in parsed.inputs],
            frozen=True,
            slots=True,
        )
        REGISTRY[parsed.procedure] = Procedure(
            parsed.procedure,
            title,
            reference,
            parsed,
            func,
            input_cls,
            dict(example or {}),
            loop_counts,
            exact_odds,
        )
        return func

    return register


def get(procedure_id: str) -> Procedure:
    try:
        return REGISTRY[procedure_id]
    except (KeyError, TypeError):
        raise InputError("procedure_id", "is not a procedure of the rules catalogue") from None


def all_procedures() -> list[Procedure]:
    order = {pid: n for n, pid in enumerate(CATALOGUE_ORDER)}
    return sorted(REGISTRY.values(), key=lambda p: (order.get(p.id, len(order)), p.id))


def resolve(
    procedure_id: str,
    inputs: Mapping[str, Any] | None = None,
    dice: Dice | Sequence[int] | None = None,
) -> Outcome:
    """Resolve one procedure. ``dice``: ``None`` rolls the server's dice; a list is
    consumed in the contract's dice order; a :class:`Dice` source is used as it is."""
    proc = get(procedure_id)
    normalised, frozen = proc.normalise(inputs)
    if dice is not None and not isinstance(dice, (Dice, list, tuple)):
        raise DiceError("dice must be a list of whole numbers")
    source = as_dice(dice)
    resolution = proc.run(frozen, source)
    result = proc.check_result(resolution.result)
    return Outcome(
        procedure=proc.id,
        title=proc.title,
        reference=proc.reference,
        inputs=normalised,
        rolls=tuple(source.rolls),
        result=result,
        effects=tuple(dict(e) for e in resolution.effects),
        summary=resolution.summary,
    )
