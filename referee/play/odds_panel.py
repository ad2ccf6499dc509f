"""The odds panel of a procedure form: the exact odds of each outcome of what the form
holds now (or an estimate with its margin), worded for the page. The GM's form and a
player's form both show it."""

from __future__ import annotations

import functools
import json
from fractions import Fraction

import rules

from . import wording

ODDS_TIME_LIMIT = 2.0  # seconds a page waits for odds: exact if they fit, else an estimate


def odds_for(binding, form, key: str | None = None, time_limit: float | None = ODDS_TIME_LIMIT) -> dict:
    """The odds of the headline (or ``key``) for what the form holds now: exact, or an
    estimate with its margin when there are too many dice paths to count in time."""
    procedure = binding.procedure
    if form.is_bound:
        if not form.is_valid():
            return {"error": "Complete the form to see the odds."}
        inputs = form.engine_inputs()
    else:
        inputs = {k: v for k, v in form.initial.items() if k in form.input_names}
        inputs = {k: v for k, v in inputs.items() if not (v is None and not _nullable(procedure, k))}
    key = key if key in procedure.result_keys else procedure.headline
    try:
        dist = _odds(procedure.id, inputs, key, time_limit)
    except rules.InputError as error:
        return {"error": _odds_refusal(form, error), "key": key}
    except (rules.OddsError, rules.DiceError) as error:
        return {"error": wording.plain_text(str(error)), "key": key}
    likely = sorted(dist.items(), key=lambda kv: (-kv[1], str(kv[0])))
    bars = sorted(likely[:16], key=_outcome_order(dist)) + likely[16:]
    exact = getattr(dist, "exact", True)
    return {
        "key": key,
        "keys": procedure.result_keys,
        "bars": [
            {
                "value": _show(value),
                "percent": float(p * 100),
                "fraction": _fraction(p) if exact else f"about {float(p * 100):.1f}%",
            }
            for value, p in bars[:16]
        ],
        "rest": float(sum((p for _, p in bars[16:]), Fraction(0)) * 100),
        # Too many dice paths to count: figures from simulated rolls, each within ± margin.
        "estimate": None if exact else {"runs": dist.runs, "margin": dist.margin * 100},
    }


def _odds(procedure_id: str, inputs: dict, key: str, time_limit: float | None):
    """``rules.odds``, computed once per process for the same inputs: the odds are a function
    of the procedure and its inputs alone, and a form asks for them again on every change
    of any box (or back to a value it held a moment ago)."""
    try:
        asked = json.dumps(inputs, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):  # not plain JSON: computed as it is
        return rules.odds(procedure_id, inputs, key=key, time_limit=time_limit)
    if json.loads(asked) != inputs:  # JSON would change it (a tuple, a number as a key)
        return rules.odds(procedure_id, inputs, key=key, time_limit=time_limit)
    return _kept_odds(procedure_id, asked, key, time_limit)


@functools.lru_cache(maxsize=256)
def _kept_odds(procedure_id: str, asked: str, key: str, time_limit: float | None):
    return rules.odds(procedure_id, json.loads(asked), key=key, time_limit=time_limit)


def _odds_refusal(form, error) -> str:
    """Odds wait calmly for what is missing: "Fill in Distance (AU) to see the odds."."""
    field = form.fields.get(error.field)
    name = field.label if field is not None and field.label else wording.label(error.field)
    given = form.cleaned_data.get(error.field) if form.is_bound else form.initial.get(error.field)
    if "required" in error.message and given in (None, "", [], {}):
        return f"Fill in {name} to see the odds."
    return f"{name}: {wording.plain_text(error.message)}"


def _outcome_order(dist):
    """The likeliest outcomes shown, numbers in value order (a reader scans a range);
    words and flags most likely first."""
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in dist):
        return lambda kv: kv[0]
    return lambda kv: (-kv[1], str(kv[0]))


def _fraction(p) -> str:
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else "1"


def _nullable(procedure, name) -> bool:
    return next(i.type.nullable for i in procedure.contract.inputs if i.name == name)


def _show(value) -> str:
    return wording.words(list(value) if isinstance(value, tuple) else value)
