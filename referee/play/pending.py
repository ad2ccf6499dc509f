"""Changes a result leaves for the GM to apply ("pending" effects), and the GM's ruling on each.

An effect stays pending when no effect rule lands it on a record (``effects.apply_effects``).
The GM then *applies* it (a logged, undoable entry naming the record and its change before
→ after) or *dismisses* it (a logged ruling that it does not happen). Each pending effect
is ruled on once: the ruling's entry carries a request key made from the entry's hash and
the effect's number, and the log's unique key per form (``log_one_entry_per_form``) holds
that in the database, whoever else submits at the same moment. An applied effect whose
entry is later undone stays ruled on; a new change is then a hand edit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.core.exceptions import FieldDoesNotExist
from django.db import IntegrityError, models, transaction

import rules

from . import families, sharing, wording
from .bindings import Context
from .effects import ChangeRecorder, NotApplied, flag, moment, numeric
from .models import LogEntry, Visibility
from .pending_words import role_for
from .resolution import PlayError, campaign_lock, changes_save
from .services import log_append

APPLY, DISMISS = "effect.apply", "effect.dismiss"
_KEYS = uuid.UUID("6f1f3f8e-8d0b-4f57-9c55-2f8f0c6a7a10")
_NOT_APPLIED = {"id", "campaign", "code", "updated_at", "created_at", "name", "shared", "owner"}


def ruling_key(entry: LogEntry, number: int) -> uuid.UUID:
    """The request key of the one ruling on effect ``number`` (from 1) of ``entry``."""
    return uuid.uuid5(_KEYS, f"{entry.campaign_id}:{entry.hash}:{number}")


@dataclass
class PendingEffect:
    """One pending effect of an entry as the GM sees it: its words, whether the campaign
    keeps what it changes, the record it lands on (or the records to choose from when none
    was chosen at the roll) and its state."""

    number: int
    words: str
    ruling: LogEntry | None
    appliable: bool = False
    record: str = ""
    choices: list = field(default_factory=list)

    @property
    def state(self) -> str:
        if self.ruling is None:
            return "pending"
        return "applied" if self.ruling.procedure == APPLY else "dismissed"


def _can_land(binding, role, effect: dict) -> bool:
    """Whether some rule, or a field of the role's records, takes this effect."""
    target, name = str(effect.get("target", "")), str(effect.get("field", ""))
    if families.effect_rule(target, name, binding.procedure_id):
        return True
    return role is not None and _direct_rule(role.model, name) is not None


def attach(entries, campaign) -> None:
    """Give each entry with pending effects its ``pending_effects``: one query for the
    rulings, one per kind of record offered where none was chosen at the roll."""
    entries = [e for e in entries if e.pending]
    if not entries:
        return
    keys = {ruling_key(e, n): (e, n) for e in entries for n in range(1, len(e.pending) + 1)}
    rulings = {
        r.request_key: r
        for r in LogEntry.objects.filter(campaign_id=entries[0].campaign_id, request_key__in=list(keys))
        .select_related("reversed_by")
        .only("seq", "procedure", "request_key", "reversed_by__seq", "campaign_id")
    }
    namer = wording.Namer(campaign, "gm")
    offered: dict = {}
    for entry in entries:
        try:
            binding = families.binding(entry.procedure)
        except rules.InputError:
            binding = None
        entry.pending_effects = []
        for n, effect in enumerate(entry.pending, start=1):
            item = PendingEffect(
                number=n, words=wording.pending(effect, namer), ruling=rulings.get(ruling_key(entry, n))
            )
            entry.pending_effects.append(item)
            if binding is None or item.ruling is not None:
                continue
            if effect.get("target") == "campaign":
                item.appliable, item.record = _can_land(binding, None, effect), campaign.name
                continue
            role = role_for(binding, effect)
            if role is None or not _can_land(binding, role, effect):
                continue
            item.appliable = True
            chosen = entry.inputs.get(f"@{role.name}")
            if isinstance(chosen, dict) and chosen.get("code"):
                item.record = str(chosen.get("name", ""))
            else:
                if role not in offered:
                    offered[role] = [
                        (str(o.code), str(o)) for o in role.choices(campaign).order_by("name")[:200]
                    ]
                item.choices = offered[role]
                item.appliable = bool(item.choices)


class EffectError(ValueError):
    """A ruling the log cannot take; the message is for the GM."""


def _effect(entry: LogEntry, number: int) -> dict:
    if not 1 <= number <= len(entry.pending):
        raise LookupError(f"Entry #{entry.seq} has no change number {number} left to the GM.")
    return entry.pending[number - 1]


def _refuse_if_ruled(entry: LogEntry, number: int) -> None:
    earlier = LogEntry.objects.filter(
        campaign_id=entry.campaign_id, request_key=ruling_key(entry, number)
    ).first()
    if earlier is not None:
        done = "applied" if earlier.procedure == APPLY else "dismissed"
        raise EffectError(f"This change was already {done} by #{earlier.seq}.")


def _record(entry: LogEntry, effect: dict, campaign, chosen: str = "") -> tuple[models.Model | None, Context]:
    """The record the effect lands on: the one that filled its role when the entry was
    rolled, else the one the GM chooses now among the records that role takes."""
    if effect.get("target") == "campaign":
        return campaign, Context(campaign=campaign, objects={})
    try:
        binding = families.binding(entry.procedure)
    except rules.InputError:  # not a procedure (a turn event): no roles
        return None, Context(campaign=campaign, objects={})
    objects = {}
    for role in binding.roles:
        found = entry.inputs.get(f"@{role.name}")
        if isinstance(found, dict) and found.get("code"):
            obj = role.choices(campaign).select_for_update().filter(code=found["code"]).first()
            if obj is not None:
                objects[role.name] = obj
    role = role_for(binding, effect)
    if role is None:
        return None, Context(campaign=campaign, objects=objects)
    if role.name not in objects and chosen:
        try:
            code = uuid.UUID(chosen)
        except ValueError:
            code = None
        obj = role.choices(campaign).select_for_update().filter(code=code).first() if code else None
        if obj is not None:
            objects[role.name] = obj
    return objects.get(role.name), Context(campaign=campaign, objects=objects)


def _has_role(entry: LogEntry, effect: dict) -> bool:
    try:
        return role_for(families.binding(entry.procedure), effect) is not None
    except rules.InputError:
        return False


def _direct_rule(obj, field_name: str):
    """A rule for an effect naming one of the record's own fields: numbers, flags, times, words."""
    attr = field_name.replace(".", "_")
    try:
        field = obj._meta.get_field(attr)
    except FieldDoesNotExist:
        return None
    if (
        not field.concrete
        or field.primary_key
        or field.is_relation
        or attr in _NOT_APPLIED
        or not field.editable
    ):
        return None
    if isinstance(field, (models.IntegerField, models.FloatField, models.DecimalField)):
        positive = isinstance(field, (models.PositiveIntegerField, models.PositiveSmallIntegerField))
        return numeric(attr, low=0 if positive else None)
    if isinstance(field, models.BooleanField):
        return flag(attr)
    if isinstance(field, models.DateTimeField):
        return moment(attr)
    if isinstance(field, (models.CharField, models.TextField)):
        return lambda o, e, c: (
            [(attr, e["value"])] if isinstance(e["value"], str) and e["op"] == "set" else []
        )
    return None


def _visibility(entry: LogEntry, records) -> str:
    private = entry.secret or sharing.unshared(records)
    return Visibility.GM if private else Visibility.EVERYONE


def _source(entry: LogEntry, number: int) -> dict:
    return {"title": entry.title, "turn": entry.turn, "change": number}


@transaction.atomic
def pending_effect_apply(*, entry: LogEntry, number: int, actor, record: str = "") -> LogEntry:
    """Apply pending effect ``number`` of ``entry`` to the record it names, logged and undoable."""
    campaign = campaign_lock(entry.campaign)
    entry = LogEntry.objects.get(pk=entry.pk)
    effect = _effect(entry, number)
    _refuse_if_ruled(entry, number)
    what = wording.pending(effect, wording.Namer(campaign, "gm"))
    obj, ctx = _record(entry, effect, campaign, record)
    if obj is None and not _has_role(entry, effect):
        raise EffectError(
            f"The campaign keeps no record this can change ({what}). Change it by hand, or dismiss this."
        )
    if obj is None:
        raise EffectError(
            f"Choose the {wording.humanise(str(effect.get('target', '')), capital=False)} to apply this to; "
            "if the campaign keeps no such record, change it by hand or dismiss this."
        )
    rule = families.effect_rule(effect["target"], effect["field"], entry.procedure) or _direct_rule(
        obj, str(effect.get("field", ""))
    )
    recorder = ChangeRecorder()
    # Rules that read the result (a neutrino check's tracks) read it from the entry.
    ctx.outcome = SimpleNamespace(
        procedure=entry.procedure, inputs=entry.inputs, result=entry.result, effects=entry.pending
    )
    try:
        updates = rule(obj, effect, ctx) if rule else []
    except NotApplied as why:
        raise EffectError(f"This cannot land on {obj}: {why}. Change it by hand, or dismiss this.") from None
    except (AttributeError, KeyError, TypeError, ValueError):  # a value the rule cannot take
        updates = []
    if not updates:
        raise EffectError(
            f"The campaign keeps nothing this can change on {obj} ({what}). "
            "Change the record by hand, or dismiss this."
        )
    for update in updates:
        record, attr, value = update if len(update) == 3 else (obj, *update)
        recorder.set(record, attr, value)
    try:
        changes = changes_save(recorder)
    except PlayError as error:
        raise EffectError(str(error)) from None
    if not changes:
        raise EffectError(f"{obj} already holds this ({what}); dismiss it instead.")
    done = "; ".join(
        f"{c['name']} {c['label']} {wording.words(c['before'])} -> {wording.words(c['after'])}"
        for c in changes
    )
    records = [obj, *(o for o, _ in recorder.dirty.values())]
    try:
        with transaction.atomic():
            return log_append(
                campaign=campaign,
                procedure=APPLY,
                title=f"The GM applied a change left by {entry.title}",
                summary=f"Applied what {entry.title} (turn {entry.turn}) left to the GM: {done}.",
                actor=actor,
                inputs={
                    "@effect": _source(entry, number),
                    "@target": {"code": str(obj.code), "name": str(obj)},
                },
                effects=changes,
                visibility=_visibility(entry, records),
                request_key=ruling_key(entry, number),
            )
    except IntegrityError:  # another ruling on it won the race
        raise EffectError("This change was ruled on a moment ago.") from None
    except PlayError as error:
        raise EffectError(str(error)) from None


@transaction.atomic
def pending_effect_dismiss(*, entry: LogEntry, number: int, actor) -> LogEntry:
    """Rule pending effect ``number`` of ``entry`` out: logged, and it can no longer be applied."""
    campaign = campaign_lock(entry.campaign)
    entry = LogEntry.objects.get(pk=entry.pk)
    effect = _effect(entry, number)
    _refuse_if_ruled(entry, number)
    obj, _ = _record(entry, effect, campaign)
    visibility = _visibility(entry, [obj] if obj is not None else [])
    # Words for whoever reads the entry: a public ruling names no unshared record.
    what = wording.pending(effect, wording.Namer(campaign, "gm" if visibility == Visibility.GM else "player"))
    if obj is not None and obj is not campaign:
        what = f"{what} ({obj})"
    try:
        with transaction.atomic():
            return log_append(
                campaign=campaign,
                procedure=DISMISS,
                title=f"The GM ruled out a change left by {entry.title}",
                summary=f"Ruled out what {entry.title} (turn {entry.turn}) left to the GM: {what}.",
                actor=actor,
                inputs={"@effect": _source(entry, number)},
                visibility=visibility,
                request_key=ruling_key(entry, number),
            )
    except IntegrityError:
        raise EffectError("This change was ruled on a moment ago.") from None
