"""Tele-operated missiles at the table: a missile's thrust and its attack, pre-filled from
the missile record. The fuel a thrust leaves lands on the missile; the damage an attack
does to its target ship stays pending for the GM (the campaign keeps no ship damage)."""

from __future__ import annotations

from referee.fleet.models import Ship
from referee.play.bindings import Binding, BindingList, Context, Role
from referee.play.families import EffectRule

from .models import Telemissile

BINDINGS = BindingList()

# The engine's missile effects name a "unit": here the missile record stands for it.
MISSILE = Role("missile", Telemissile, "Missile", targets=("unit",))


def _secret(ctx: Context) -> bool:
    """The other side's missiles are the GM's business until shared."""
    missile = ctx.objects.get("missile")
    return missile is not None and not missile.shared


def _missile_values(missile: Telemissile) -> dict:
    return {"missile_type": missile.missile_type, "fire_factor": missile.fire_factor}


def _maneuver_prefill(ctx: Context) -> dict:
    missile = ctx.objects.get("missile")
    return {**_missile_values(missile), "fuel": missile.fuel} if missile else {}


BINDINGS.add(
    Binding(
        "telemissile.maneuver",
        gm_inputs=("fuel", "fire_factor"),
        roles=(MISSILE,),
        label="Thrust",
        prefill=_maneuver_prefill,
        secret=_secret,
    )
)


def _attack_prefill(ctx: Context) -> dict:
    missile = ctx.objects.get("missile")
    if missile is None:
        return {}
    values = {**_missile_values(missile), "armor_boxes_lost": missile.armor_boxes_lost}
    if missile.fuel_left is not None:
        values["fuel_left"] = missile.fuel_left
    return values


BINDINGS.add(
    Binding(
        "telemissile.attack",
        roles=(MISSILE, Role("target", Ship, "Target ship", required=False)),
        label="Attack",
        prefill=_attack_prefill,
        secret=_secret,
    )
)


def _fuel_left(obj, effect, ctx):
    """The fuel a thrust leaves (the engine's ``unit.fuel`` is the missile's here)."""
    value = effect["value"]
    if not isinstance(obj, Telemissile) or type(value) is not int or value < 0:
        return []
    return [("fuel", value)]


RULES = (EffectRule("unit", "fuel", _fuel_left, procedure="telemissile.maneuver"),)
