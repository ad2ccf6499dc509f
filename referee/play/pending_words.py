"""The changes a result leaves for the GM, in plain words naming their records: as the
entry card and the GM's JSON export show them (players never read them)."""

from __future__ import annotations

import rules

from . import families, wording


def role_for(binding, effect: dict):
    """The role of the procedure's binding whose records the effect lands on."""
    target = effect.get("target")
    return next((r for r in binding.roles if target in (*r.targets, r.name)), None)


def described(procedure: str, inputs: dict, effect: dict, namer: wording.Namer) -> str:
    """A change left to the GM in plain words, naming the record it concerns where one
    filled its role: ``Cerberus (booby trap): set speed to 32``."""
    text = wording.pending(effect, namer)
    try:
        role = role_for(families.binding(procedure), effect)
    except rules.InputError:
        role = None
    chosen = inputs.get(f"@{role.name}") if role is not None else None
    if isinstance(chosen, dict) and chosen.get("name"):
        head, _, rest = text.partition(": ")
        return f"{chosen['name']} ({head.lower()}): {rest}" if rest else f"{chosen['name']}: {text}"
    return text


def words(procedure: str, inputs: dict, pending: list, campaign) -> list[str]:
    """Every change left to the GM in plain words, as the GM reads them (players never do)."""
    namer = wording.Namer(campaign, "gm")
    return [described(procedure, inputs, effect, namer) for effect in pending]
