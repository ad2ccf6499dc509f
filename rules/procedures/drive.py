"""Drive charging (Seed B, section 10 of the catalogue: Drive Charging)."""

from __future__ import annotations

from fractions import Fraction

from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import drive as tables


@procedure(
    """
procedure: drive.charge
inputs:
  system: str enum {kf_drive|lf_battery} = "kf_drive"
  method: str enum {sail|reactor}
  target_hours: float|null = null            # reactor: required; sail: informational (GM-data by star class)
  mode: str enum {linear|step} = "linear"    # [A36]; step = chance of the next faster anchor
  simultaneous: bool = false                 # core and battery from one source (GM-data slow-down)
dice:
  - failure: d100  [0 < failure_chance_pct < 100] → fails on ≤ failure_chance_pct
result:
  failed: bool                               # headline
  failure_chance_pct: float                  # anchors (150,0) (100,16) (75,27) (24,50) (16,100), linear between; ≥ 150 h → 0; sail → 0
  roll: int|null
  automatic_damage: bool                     # target_hours < 16: certain severe damage
  charged: bool                              # not failed
  charged_from_reactor: bool
effects:
  - {"target": "ship", "field": "drive_charged|lf_battery_charged", "op": "set", "value": true}   [charged]
  - {"target": "ship", "field": "charged_from_reactor", "op": "set", "value": "<charged_from_reactor>"}   [charged]
errors:
  - InputError(target_hours): reactor without target_hours, or ≤ 0
notes:
  - Failure damage is GM-data (suggested: jump.malfunction effect table).
""",
    title="Drive: charge the K-F drive or lithium-fusion battery",
    reference=f"{SEED_B}, Drive Charging",
    units={"target_hours": "h"},
    example={"method": "reactor", "target_hours": 100},
)
def charge(inp, dice) -> Resolution:
    hours = inp.target_hours
    if hours is not None and hours <= 0:
        raise InputError("target_hours", "must be more than 0 hours")
    reactor = inp.method == "reactor"
    if reactor and hours is None:
        raise InputError("target_hours", "is required when charging from the reactor")
    automatic = reactor and hours < tables.AUTOMATIC_DAMAGE_BELOW_HOURS
    chance = failure_chance(hours, inp.mode) if reactor else Fraction(0)
    roll = None
    if chance >= 100:
        failed = True
    elif chance <= 0:
        failed = False
    else:
        roll = dice.total("failure", 1, 100)
        failed = roll <= chance
    charged = not failed
    from_reactor = charged and reactor
    effects = []
    if charged:
        effects.append(set_effect("ship", tables.SYSTEM_FIELD[inp.system], True))
        effects.append(set_effect("ship", "charged_from_reactor", from_reactor))
    result = {
        "failed": failed,
        "failure_chance_pct": float(chance),
        "roll": roll,
        "automatic_damage": automatic,
        "charged": charged,
        "charged_from_reactor": from_reactor,
    }
    return Resolution(result, _summary(inp, result), effects)


def failure_chance(hours: float, mode: str) -> Fraction:
    """Reactor fast-charge failure chance in percent [A36]: 0 at 150 h or more, 100 below 16 h;
    between the printed anchors linear, or (step) the chance of the next faster anchor."""
    h = Fraction(hours)
    if h < tables.AUTOMATIC_DAMAGE_BELOW_HOURS:
        return Fraction(100)
    for (h0, p0), (h1, p1) in zip(tables.ANCHORS, tables.ANCHORS[1:], strict=False):
        if h0 <= h < h1:
            if h == h0 or mode == "step":
                return Fraction(p0)
            return p0 + (h - h0) * Fraction(p1 - p0, h1 - h0)
    return Fraction(0)


def _summary(inp, r: dict) -> str:
    what = tables.SYSTEM_TEXT[inp.system]
    extra = (
        " Charging core and battery from one source slows it drastically: the GM sets the time."
        if inp.simultaneous
        else ""
    )
    if inp.method == "sail":
        hours = "" if inp.target_hours is None else f" ({inp.target_hours:g} h)"
        return (
            f"Jump-sail charge of the {what}{hours}: no risk of failure; charged. It takes "
            f"{tables.SAIL_HOURS_MIN} to over {tables.SAIL_HOURS_TYPICAL_MAX} h by star class (GM-data), "
            f"after up to {tables.SAIL_DEPLOY_MINUTES} min to deploy the sail.{extra}"
        )
    head = f"Reactor charge of the {what} in {inp.target_hours:g} h ({inp.mode}): failure chance {r['failure_chance_pct']:g}%"
    if r["automatic_damage"]:
        return (
            f"{head}. Under {tables.AUTOMATIC_DAMAGE_BELOW_HOURS} h the charge inevitably FAILS with severe "
            f"damage; the GM decides the damage (suggested: the Drive-System Malfunctions Table).{extra}"
        )
    if r["roll"] is None:
        outcome = "FAILS with damage" if r["failed"] else "charged"
        return f"{head}: {outcome}.{' ' + _damage_note() if r['failed'] else _reactor_note()}{extra}"
    if r["failed"]:
        return f"{head}; d100 {r['roll']}: FAILED with damage. {_damage_note()}{extra}"
    return f"{head}; d100 {r['roll']}: charged.{_reactor_note()}{extra}"


def _damage_note() -> str:
    return "The GM decides the damage (suggested: the Drive-System Malfunctions Table)."


def _reactor_note() -> str:
    return " Reactor-charged: +2 on the next jump's malfunction roll."
