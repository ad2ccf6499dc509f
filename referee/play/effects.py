"""Applying an outcome's effects to campaign state, recording each field's before and after.

The engine names effects abstractly (``{"target": "ship", "field": "armor.nose",
"op": "add", "value": -2}``). The families' effect rules (``referee.play.families``) map
the ones the campaign stores onto model fields; any other effect is *pending*: shown to
the GM and logged, never guessed. The rule builders below serve every family.
"""

from __future__ import annotations

import copy
import functools
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, router, transaction
from django.utils.dateparse import parse_datetime

from . import families
from .bindings import Context
from .families import Apply


def numeric(attr: str, *, low: int | None = 0, high: str | None = None) -> Apply:
    """``set``/``add`` on a number, kept within ``low`` and the ``high`` attribute."""

    def rule(obj, effect, ctx):
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


def flag(attr: str) -> Apply:
    def rule(obj, effect, ctx):
        return [(attr, bool(effect["value"]))] if isinstance(effect["value"], bool) else []

    return rule


def moment(attr: str) -> Apply:
    """``"now"`` is the campaign clock; an ISO date and time is taken as it is."""

    def rule(obj, effect, ctx):
        value = effect["value"]
        if value == "now":
            return [(attr, ctx.clock)]
        if isinstance(value, str) and (parsed := parse_datetime(value)):
            return [(attr, parsed)]
        return []

    return rule


class NotApplied(Exception):
    """Raised by an effect rule that takes an effect but cannot apply it to this record;
    its message says why in the GM's words, and the effect stays pending with it."""


def to_json(obj: models.Model, attr: str) -> Any:
    """A model field's value as it is recorded in the log."""
    field = obj._meta.get_field(attr)
    if isinstance(field, models.ForeignKey):
        related = getattr(obj, attr)
        if related is None:
            return None
        return str(related.code) if hasattr(related, "code") else related.pk  # a user: its id
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
        model = field.related_model
        return model.objects.get(**{"code" if hasattr(model, "code") else "pk": value})
    if isinstance(field, models.DateTimeField):
        return parse_datetime(value)
    return value


def kind_of(obj: models.Model) -> str:
    return obj._meta.model_name


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
            excluded = [f.name for f in obj._meta.fields if f.name not in attrs]
            obj.full_clean(exclude=excluded, validate_constraints=False)
            _validate_constraints(obj, frozenset(attrs), excluded)
            try:
                with transaction.atomic():
                    obj.save(update_fields=[*attrs, *(["updated_at"] if hasattr(obj, "updated_at") else [])])
            except IntegrityError as error:
                raise ValidationError(
                    f"{obj} cannot take that change: {str(error).splitlines()[0]}"
                ) from error
        return [c for c in self.changes.values() if c["before"] != c["after"]]


@functools.cache
def _constraints_on(model: type[models.Model], attrs: frozenset[str]) -> tuple:
    """The constraints ``full_clean(exclude=<all but attrs>)`` would check: Django skips a
    check constraint naming an excluded field, but only after building a query for it (a
    ship's thirteen cost milliseconds per change), so they are sorted out once per process."""
    found = []
    owners = [model, *model._meta.get_parent_list()]  # as Model.get_constraints() lists them
    for model_class, constraints in ((m, m._meta.constraints) for m in owners):
        for constraint in constraints:
            if isinstance(constraint, models.CheckConstraint):
                named = constraint.condition.referenced_base_fields - {"pk"}
                if not named <= attrs:
                    continue
            found.append((model_class, constraint))
    return tuple(found)


def _validate_constraints(obj: models.Model, attrs: frozenset[str], excluded: list[str]) -> None:
    """``Model.validate_constraints`` for the constraints a change of ``attrs`` may break."""
    errors: dict = {}
    using = router.db_for_write(type(obj), instance=obj)
    for model_class, constraint in _constraints_on(type(obj), attrs):
        try:
            constraint.validate(model_class, obj, exclude=excluded, using=using)
        except ValidationError as error:
            if getattr(error, "code", None) == "unique" and len(getattr(constraint, "fields", ())) == 1:
                errors.setdefault(constraint.fields[0], []).append(error)
            else:
                errors = error.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)


def apply_effects(
    effects: list[dict],
    targets: dict[str, models.Model],
    ctx: Context,
    recorder: ChangeRecorder,
    procedure: str = "",
) -> list[dict]:
    """Apply what the campaign stores; return the pending effects (for the GM by hand)."""
    pending = []
    for effect in effects:
        obj = targets.get(effect["target"])
        rule = families.effect_rule(effect["target"], effect["field"], procedure) if obj is not None else None
        try:
            updates = rule(obj, effect, ctx) if rule else []
        except NotApplied as why:
            pending.append({**effect, "why": str(why)})
            continue
        if not updates:
            pending.append(effect)
            continue
        for update in updates:
            record, attr, value = update if len(update) == 3 else (obj, *update)
            recorder.set(record, attr, value)
    return pending
