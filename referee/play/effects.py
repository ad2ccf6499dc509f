"""Applying an outcome's effects to campaign state, recording each field's before and after.

The engine names effects abstractly (``{"target": "ship", "field": "armor.nose",
"op": "add", "value": -2}``). ``FIELD_RULES`` maps the ones the campaign stores onto
model fields; any other effect is *pending*: shown to the GM and logged, never guessed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.dateparse import parse_datetime

from referee.fleet.models import FACINGS

# A rule turns (object, effect, clock) into [(model attribute, new value)].
Rule = Callable[[models.Model, dict, datetime], list[tuple[str, Any]]]


def _numeric(attr: str, *, low: int | None = 0, high: str | None = None) -> Rule:
    """``set``/``add`` on a number, kept within ``low`` and the ``high`` attribute."""

    def rule(obj, effect, clock):
        value = effect["value"]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return []
        current = getattr(obj, attr) or 0
        new = current + value if effect["op"] == "add" else value
        if low is not None:
            new = max(low, new)
        if high is not None:
            new = min(getattr(obj, high), new)
        return [(attr, int(new) if float(new).is_integer() else new)]

    return rule


def _flag(attr: str) -> Rule:
    def rule(obj, effect, clock):
        return [(attr, bool(effect["value"]))] if isinstance(effect["value"], bool) else []

    return rule


def _moment(attr: str) -> Rule:
    """``"now"`` is the campaign clock; a number of seconds/minutes is counted from it."""

    def rule(obj, effect, clock):
        value = effect["value"]
        if value == "now":
            return [(attr, clock)]
        if isinstance(value, str) and (parsed := parse_datetime(value)):
            return [(attr, parsed)]
        return []

    return rule


def _helium(obj, effect, clock):
    if effect["value"] == "all_crossed":
        return [("helium_tank_boxes", 0)]
    return _numeric("helium_tank_boxes", high="helium_tank_boxes_max")(obj, effect, clock)


def _armor(obj, effect, clock, facing: str):
    if facing not in FACINGS:
        return []
    return _numeric(f"armor_{facing}", high=f"armor_{facing}_max")(obj, effect, clock)


def _fighters_lost(obj, effect, clock):
    value = effect["value"]
    if effect["op"] == "add" and isinstance(value, int):
        return [("fighters", max(0, obj.fighters + value))]
    return []


def _unconscious(obj, effect, clock):
    value = effect["value"]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [("unconscious_until", clock + timedelta(minutes=value))]
    return _moment("unconscious_until")(obj, effect, clock)


FIELD_RULES: dict[tuple[str, str], Rule] = {
    ("ship", "kf_integrity"): _numeric("kf_integrity", high="kf_integrity_max"),
    ("ship", "drive_charged"): _flag("drive_charged"),
    ("ship", "charged_from_reactor"): _flag("charged_from_reactor"),
    ("ship", "lf_battery_charged"): _flag("lf_battery_charged"),
    ("ship", "last_jump_at"): _moment("last_jump_at"),
    ("ship", "helium_tank_boxes"): _helium,
    ("ship", "radar_crit_boxes"): _numeric("radar_crit_boxes"),
    ("fighter", "overburn"): _numeric("overburn", high=None),
    ("fighter", "shutdown"): _flag("shutdown"),
    ("fighter", "armor_rows"): _fighters_lost,
    ("unit", "heat"): _numeric("heat"),
    ("unit", "fuel"): _numeric("fuel_points"),
    ("unit", "engine_hits"): _numeric("engine_hits"),
    ("character", "unconscious_until"): _unconscious,
}
PATTERN_RULES: list[tuple[str, re.Pattern, Callable]] = [
    ("ship", re.compile(r"armor\.(?P<facing>[a-z_]+)"), _armor),
]


def register_rule(target: str, field: str, rule: Rule) -> None:
    """Another app maps an engine effect onto the fields its models store."""
    FIELD_RULES[target, field] = rule


def register_pattern(target: str, pattern: str, func: Callable) -> None:
    """Like ``register_rule`` for fields with a placeholder: the named groups of
    ``pattern`` are passed to ``func(obj, effect, clock, **groups)``."""
    PATTERN_RULES.append((target, re.compile(pattern), func))


def find_rule(target: str, field: str) -> Rule | None:
    if (target, field) in FIELD_RULES:
        return FIELD_RULES[target, field]
    for t, pattern, func in PATTERN_RULES:
        if t == target and (m := pattern.fullmatch(field)):
            return lambda obj, effect, clock, m=m, func=func: func(obj, effect, clock, **m.groupdict())
    return None


def to_json(obj: models.Model, attr: str) -> Any:
    """A model field's value as it is recorded in the log."""
    field = obj._meta.get_field(attr)
    if isinstance(field, models.ForeignKey):
        related = getattr(obj, attr)
        return None if related is None else str(related.code)
    value = getattr(obj, attr)
    if isinstance(value, datetime):
        return value.isoformat()
    # A copy: a rule that edits a list or dict in place must not rewrite the before-value.
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


def from_json(obj: models.Model, attr: str, value: Any) -> Any:
    field = obj._meta.get_field(attr)
    if value is None:
        return None
    if isinstance(field, models.ForeignKey):
        return field.related_model.objects.get(code=value)
    if isinstance(field, models.DateTimeField):
        return parse_datetime(value)
    return value


def kind_of(obj: models.Model) -> str:
    return obj._meta.model_name


@dataclass
class Applied:
    changes: list[dict]
    pending: list[dict]


class ChangeRecorder:
    """Sets fields on campaign objects, remembering each field's first before-value."""

    def __init__(self) -> None:
        self.changes: dict[tuple[str, str, str], dict] = {}
        self.dirty: dict[tuple[str, int], tuple[models.Model, set[str]]] = {}

    def set(self, obj: models.Model, attr: str, value: Any) -> None:
        key = (kind_of(obj), str(obj.code), attr)
        before = to_json(obj, attr)
        setattr(obj, attr, value)
        after = to_json(obj, attr)
        if key not in self.changes:
            label = obj._meta.get_field(attr).verbose_name
            self.changes[key] = {
                "target": kind_of(obj),
                "code": str(obj.code),
                "name": str(obj),
                "field": attr,
                "label": str(label),
                "before": before,
            }
        self.changes[key]["after"] = after
        self.dirty.setdefault((kind_of(obj), obj.pk), (obj, set()))[1].add(attr)

    def save(self) -> list[dict]:
        """Validate and save every changed record; a rule broken is a ValidationError.

        ``full_clean`` skips constraints that name an unchanged field, so the database
        has the last word: its refusal comes back as a ValidationError too, never a 500."""
        for obj, attrs in self.dirty.values():
            obj.full_clean(exclude=[f.name for f in obj._meta.fields if f.name not in attrs])
            try:
                with transaction.atomic():
                    obj.save(update_fields=[*attrs, *(["updated_at"] if hasattr(obj, "updated_at") else [])])
            except IntegrityError as error:
                raise ValidationError(
                    f"{obj} cannot take that change: {str(error).splitlines()[0]}"
                ) from error
        return [c for c in self.changes.values() if c["before"] != c["after"]]


def apply_effects(
    effects: list[dict], targets: dict[str, models.Model], clock: datetime, recorder: ChangeRecorder
) -> list[dict]:
    """Apply what the campaign stores; return the pending effects (for the GM by hand)."""
    pending = []
    for effect in effects:
        obj = targets.get(effect["target"])
        rule = find_rule(effect["target"], effect["field"]) if obj is not None else None
        updates = rule(obj, effect, clock) if rule else []
        if not updates:
            pending.append(effect)
            continue
        for attr, value in updates:
            recorder.set(obj, attr, value)
    return pending
