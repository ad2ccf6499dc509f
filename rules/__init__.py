"""The rules engine: pure, exact, explainable rule resolution.

Public interface (rules catalogue, section C)::

    rules.resolve(procedure_id, inputs, dice=None) -> rules.Outcome
    rules.odds(procedure_id, inputs, key=None) -> rules.Odds, a {value: probability} dict of one key:
        exact Fractions, or (``.exact`` false) an estimate from simulated rolls with its ``.margin``
    rules.InputError, rules.DiceError, rules.PROCEDURE_IDS

It imports nothing from ``referee`` and touches no database.
"""

from . import procedures as _procedures  # noqa: F401  (registers every procedure)
from .dice import Dice, FixedDice, RandomDice, Roll, SeededDice
from .errors import DiceError, InputError, OddsError
from .odds import Odds, odds
from .registry import CATALOGUE_ORDER, Outcome, Procedure, all_procedures, get, resolve

PROCEDURE_IDS = tuple(p.id for p in all_procedures())

__all__ = [
    "CATALOGUE_ORDER",
    "PROCEDURE_IDS",
    "Dice",
    "DiceError",
    "FixedDice",
    "InputError",
    "Odds",
    "OddsError",
    "Outcome",
    "Procedure",
    "RandomDice",
    "Roll",
    "SeededDice",
    "all_procedures",
    "get",
    "odds",
    "resolve",
]
