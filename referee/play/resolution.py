"""The one resolution core: a roll's outcome applied to the campaign's records.

The GM's roll (``services.procedure_resolve``), a player's roll (``players.player_roll``),
the GM's accept of a waiting roll (``players.player_roll_decide``) and a pending change's
apply (``pending.pending_effect_apply``) lock the campaign with ``campaign_lock``, read the
roll's records with ``load_context``, and apply what it changes with ``outcome_apply`` (the
rolls) or ``changes_save`` (a change the GM applies by hand): one place decides how an
outcome becomes changes, and refuses a change a record's rules would break."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from referee.campaigns.models import Campaign

from . import families
from .bindings import Binding, Context
from .effects import ChangeRecorder, apply_effects


class PlayError(ValueError):
    """A request the rules or the log cannot honour; the message is for the GM."""


def campaign_lock(campaign: Campaign) -> Campaign:
    """The campaign's row, locked until the transaction ends: writes to one campaign queue."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def changes_save(recorder: ChangeRecorder) -> list[dict]:
    """Save the recorded changes; a record rule they would break is told to the GM."""
    try:
        return recorder.save()
    except ValidationError as e:
        raise PlayError("; ".join(e.messages)) from None


def row_start(obj: models.Model, recorder: ChangeRecorder, attr: str, value) -> models.Model:
    """Save the new record ``obj`` in its void state, then bring its ``attr`` to ``value``
    through ``recorder``: the entry that saves the recorder's changes is the entry that
    undoes the record (a timed event put under way, a route plan kept). A record rule it
    breaks is told to the GM."""
    try:
        obj.full_clean(exclude=["code"])
    except ValidationError as e:
        raise PlayError("; ".join(e.messages)) from None
    obj.save(force_insert=True)
    recorder.set(obj, attr, value)
    return obj


def load_context(campaign: Campaign, binding: Binding, subjects: dict, extras: dict) -> Context:
    objects = {}
    for role in binding.roles:
        code = subjects.get(role.name)
        if not code:
            if role.required:
                raise PlayError(f"Choose the {role.label.lower()}.")
            continue
        obj = role.choices(campaign).select_for_update().filter(code=code).first()
        if obj is None:
            raise PlayError(f"No such {role.label.lower()} in this campaign.")
        objects[role.name] = obj
    return Context(campaign=campaign, objects=objects, extras=extras)


def outcome_apply(binding: Binding, ctx: Context, outcome) -> tuple[list[dict], list, list]:
    """Apply ``outcome``'s effects to the records of ``ctx``: (changes, the effects left
    pending for the GM, every record involved). The caller holds the campaign lock."""
    ctx.outcome = outcome
    recorder = ChangeRecorder()
    # A procedure whose result takes time defers the effects that apply only when its time is up.
    effects, ctx.takes_time = families.start_timer(ctx, list(outcome.effects), recorder, binding.procedure_id)
    pending = apply_effects(effects, ctx.targets(binding), ctx, recorder, binding.procedure_id)
    if binding.after:
        binding.after(ctx, outcome, recorder)
    involved = [*ctx.objects.values(), *ctx.extras.values(), *(obj for obj, _ in recorder.dirty.values())]
    return changes_save(recorder), pending, involved


def refusal(unmet: list, way_round: str = "Tick “GM ruling” to go ahead anyway.") -> str:
    """Why the rules refuse, in the reader's words (each unmet condition as the rules state
    it, with its rule), and ``way_round`` it: the GM's, a player's or an accepting GM's."""
    reasons = "; ".join(f"{_sentence_case(p.text.rstrip('.'))} ({p.rule})" for p in unmet)
    return f"The rules do not allow this now. Not met: {reasons}. {way_round}"


def _sentence_case(text: str) -> str:
    """``text`` to follow a colon: its first word in lower case, unless it is an abbreviation."""
    first = text.split(" ", 1)[0]
    return text if first.isupper() or any(ch.isupper() for ch in first[1:]) else text[:1].lower() + text[1:]


def subject_record(ctx: Context) -> dict:
    """Which campaign objects the resolution was about, kept with its inputs."""
    record = {f"@{name}": {"code": str(obj.code), "name": str(obj)} for name, obj in ctx.objects.items()}
    for name, value in ctx.extras.items():
        if isinstance(value, models.Model):
            record[f"@{name}"] = {"code": str(value.code), "name": str(value)}
    return record
