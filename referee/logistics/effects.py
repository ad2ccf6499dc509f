"""The effect rules of logistics that land on the fleet's own Unit; those that land on the
ship's stores and the unit's refit are beside their bindings."""

from __future__ import annotations

from referee.fleet.models import EngineType, Unit
from referee.play.families import EffectRule

ENGINE_TYPES = {"ice": EngineType.ICE.value, "fusion": EngineType.FUSION.value}


def _engine_type(obj, effect, ctx):
    value = effect["value"]
    if not isinstance(obj, Unit) or effect["op"] != "set" or not isinstance(value, str):
        return []
    engine = ENGINE_TYPES.get(value.lower())
    return [("engine_type", engine)] if engine else []


def _jump_mp(obj, effect, ctx):
    value = effect["value"]
    if not isinstance(obj, Unit) or effect["op"] != "set":
        return []
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return []
    return [("jump_mp", value)]


RULES = (
    EffectRule("unit", "engine_type", _engine_type),
    EffectRule("unit", "jump_mp", _jump_mp),
)
