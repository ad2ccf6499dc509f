"""Writes of the play loop. Each is one transaction that locks the campaign row, so
parallel resolutions on one campaign queue up: no lost update, no forked log chain."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import IntegrityError, models, router, transaction
from django.db.models import Exists, OuterRef
from django.db.models.deletion import Collector
from django.utils import timezone

import rules
from referee.campaigns.models import Campaign, Phase

from . import families, sharing, wording
from .bindings import Context
from .effects import ChangeRecorder, from_json, kind_of, to_json
from .models import (
    GENESIS_HASH,
    HASH_SCHEME,
    LogEntry,
    LogSeal,
    UnrecordableValue,
    Visibility,
    canonical,
    chain_hash,
    new_nonce,
    pending_digest,
    public_root,
)
from .pending_words import words as pending_words
from .resolution import (
    PlayError,
    campaign_lock,
    changes_save,
    load_context,
    outcome_apply,
    refusal,
    subject_record,
)
from .wording import Namer, words_of

PHASE_ORDER = [Phase.INITIATIVE, Phase.MOVEMENT, Phase.COMBAT, Phase.END]


# The most one turn-log entry may hold (its inputs, dice, result, changes and text as JSON).
# Entries are permanent and every export carries them; no honest resolution within the
# input limits comes near it.
MAX_LOG_ENTRY_BYTES = 64 * 1024


def _check_entry_size(*parts) -> None:
    size = len(json.dumps(parts, ensure_ascii=False).encode())
    if size > MAX_LOG_ENTRY_BYTES:
        raise PlayError(
            f"This would write {size / 1024:,.0f} KB to the turn log; an entry holds at most "
            f"{MAX_LOG_ENTRY_BYTES // 1024} KB. Resolve it in smaller steps (fewer ships, units or dice)."
        )


APPENDED = "log_appended_in_this_transaction"
# What a logged change names that players never read (who plays, the invite links).
NEVER_SHOWN_TO_PLAYERS = {"membership", "invite"}


def unseen_by_players(effects: list[dict]) -> bool:
    """Whether no change in ``effects`` touches what players can see: each changed record
    (still there) is one players cannot read, none became or stopped being shared, and
    nothing of the campaign itself (its clock, its turn) changed. The records are read
    together, one query per kind of record changed, however many changes there are."""
    codes: dict[type, list] = defaultdict(list)
    for change in effects:
        if not isinstance(change, dict):
            return False
        target = change.get("target")
        if target in NEVER_SHOWN_TO_PLAYERS:
            continue
        if target == "campaign" or change.get("field") == "shared":
            return False
        try:
            codes[_model_for(str(target))].append(change.get("code"))
        except PlayError:
            return False
    for model, named in codes.items():
        try:
            if model.objects.filter(code__in=named).visible_to("player").exists():
                return False
        except (ValidationError, ValueError, TypeError):
            return False  # what cannot be told apart is counted as seen: the version moves
    return True


def _count_unseen(campaign: Campaign) -> None:
    """Count this transaction's moves of ``state_version`` so far (the locked ``campaign``
    holds it as it was) as unseen by players: a GM-only change of what players cannot see
    moves the GM's version, never the players' (the entry's own move is a hidden entry's)."""
    moved = Campaign.objects.filter(pk=campaign.pk).values_list("state_version", flat=True).get()
    if moved > campaign.state_version:
        Campaign.objects.filter(pk=campaign.pk).update(
            unseen_version=models.F("unseen_version") + (moved - campaign.state_version)
        )


def log_append(
    *,
    campaign: Campaign,
    procedure: str,
    title: str,
    summary: str,
    actor=None,
    inputs: dict | None = None,
    rolls: list | None = None,
    result: dict | None = None,
    effects: list | None = None,
    pending: list | None = None,
    reference: str = "",
    visibility: str = Visibility.EVERYONE,
    reversal_of: LogEntry | None = None,
    request_key: uuid.UUID | None = None,
    audience: Sequence[int] = (),
    refers_to: LogEntry | None = None,
) -> LogEntry:
    """Append one entry to a campaign's chain. The caller holds the campaign row lock.

    Every value is first put in the form the database will give back (``canonical``), so
    the hash made here is the hash a later check recomputes from the stored row; a value
    that cannot be stored exactly (a non-finite number, a NUL character) is refused."""
    try:
        inputs, rolls, result, effects, pending, summary, title = (
            canonical(value, where=where)
            for value, where in (
                (inputs or {}, "the inputs"),
                (rolls or [], "the rolls"),
                (result or {}, "the result"),
                (effects or [], "the changes"),
                (pending or [], "the changes left to the GM"),
                (summary, "the summary"),
                (title, "the title"),
            )
        )
    except UnrecordableValue as error:
        raise PlayError(f"This cannot be recorded in the turn log: {error}.") from None
    _check_entry_size(inputs, rolls, result, effects, pending, summary, title)
    nonce = new_nonce()
    words = canonical(pending_words(procedure, inputs, pending, campaign)) if pending else []
    # The seal says where the log ends (one row by its key, no index scan of the log).
    seal = LogSeal.objects.filter(campaign=campaign).first()
    if seal is None:
        raise PlayError(_UNSEALED)
    entry = LogEntry(
        campaign=campaign,
        seq=seal.length + 1,
        turn=campaign.turn,
        phase=campaign.phase,
        game_time=campaign.clock,
        procedure=procedure,
        title=title,
        inputs=inputs,
        rolls=rolls,
        result=result,
        effects=effects,
        pending=pending,
        pending_words=words,
        pending_digest=pending_digest(nonce, pending),
        summary=summary,
        reference=reference,
        actor=actor,
        actor_name=getattr(actor, "username", "") or "system",
        visibility=visibility,
        audience=sorted(set(audience)),
        refers_to=refers_to,
        reversal_of=reversal_of,
        request_key=request_key,
        created_at=timezone.now(),
        hash_scheme=HASH_SCHEME,
        nonce=nonce,
        prev_hash=seal.head,
    )
    entry.hash = chain_hash(entry.prev_hash, entry.hash_payload())
    entry.words = words_of(entry, Namer(campaign, "gm").name, Namer(campaign, "player").name)
    if visibility == Visibility.GM and not getattr(campaign, APPENDED, False) and unseen_by_players(effects):
        _count_unseen(campaign)
    try:
        entry.save(force_insert=True)
    except IntegrityError as error:
        constraint = getattr(getattr(error.__cause__, "diag", None), "constraint_name", None)
        if constraint in ("log_seq_unique_per_campaign", "log_chain_never_forks"):
            raise PlayError(_UNSEALED) from None  # an entry the seal does not know holds its place
        raise
    # A second entry in this transaction cannot tell its own moves from this one's: its moves
    # are counted as seen (the players' version moves; it never stands still on a change).
    setattr(campaign, APPENDED, True)
    _seal_advance(seal, entry, str(campaign.code))
    # Nothing has undone an entry made this moment: its card need not ask the database.
    LogEntry._meta.get_field("reversed_by").set_cached_value(entry, None)
    return entry


def earlier_entry(*, campaign: Campaign, request_key: uuid.UUID | None, actor) -> LogEntry | None:
    """The entry a form with this request key already made, when ``actor`` made it: a
    second submit of one's own form returns it. A key another actor's entry holds is
    refused in words that name nothing of it (a player's form cannot even carry one:
    ``player_views.PlayerRollForm`` signs its keys for the player)."""
    if request_key is None:
        return None
    earlier = LogEntry.objects.filter(campaign=campaign, request_key=request_key).first()
    if earlier is not None and earlier.actor_id != getattr(actor, "pk", None):
        raise PlayError("This form was not made for you, or it was changed: reload the page to try again.")
    return earlier


def log_seal_open(*, campaign: Campaign) -> LogSeal:
    """The seal of a new campaign's empty log (made when the campaign is)."""
    seal = LogSeal(campaign=campaign, public_at=campaign.created_at or timezone.now())
    seal.sign(str(campaign.code), public=True)
    seal.save(force_insert=True)
    return seal


# A log changed outside the app (entries added past its seal, or the seal removed) takes no
# new entry; one cut short takes the next after where the seal says it ends, so the cut shows.
_UNSEALED = (
    "The turn log does not end where the server last signed it: it was changed outside the "
    "app. Nothing was recorded; check the log (Verify the log) before going on."
)


def _seal_advance(seal: LogSeal, entry: LogEntry, code: str) -> None:
    seal.length, seal.head = entry.seq, entry.hash
    public = entry.visibility == Visibility.EVERYONE
    values = {"length": seal.length, "head": seal.head}
    if public:
        seal.public_length += 1
        seal.public_root = public_root(seal.public_root, entry.hash)
        seal.public_at = entry.created_at
    seal.sign(code, public=public)
    values["signature"] = seal.signature
    if public:
        values.update(
            public_length=seal.public_length,
            public_root=seal.public_root,
            public_at=seal.public_at,
            public_signature=seal.public_signature,
        )
    LogSeal.objects.filter(pk=seal.pk).update(**values)


@transaction.atomic
def procedure_resolve(
    *,
    campaign: Campaign,
    procedure_id: str,
    inputs: dict,
    dice: Sequence[int] | None,
    actor,
    subjects: dict[str, Any] | None = None,
    extras: dict[str, Any] | None = None,
    visibility: str | None = None,
    request_key: uuid.UUID | None = None,
    gm_ruling: bool = False,
    audience: Sequence[int] = (),
) -> LogEntry:
    """Resolve a procedure against campaign state, apply its effects and log it.

    A procedure the rules say cannot happen in this state (an unmet precondition of its
    binding) is refused, unless the GM overrides it with ``gm_ruling``: the entry then
    records who waived which condition.

    ``request_key`` names the form the GM submitted: submitted again (a double click, a
    resent request) it returns the entry it made the first time instead of rolling again.
    Raises rules.InputError / rules.DiceError / PlayError; nothing is written then."""
    campaign = campaign_lock(campaign)  # a second submit of one form waits here for the first
    if earlier := earlier_entry(campaign=campaign, request_key=request_key, actor=actor):
        return earlier
    binding = families.binding(procedure_id)
    ctx = load_context(campaign, binding, subjects or {}, extras or {})
    unmet = binding.unmet(ctx, inputs)
    if unmet and not gm_ruling:
        raise PlayError(refusal(unmet))
    measured = binding.measurements(ctx, inputs)  # read before the outcome moves anything
    outcome = rules.resolve(procedure_id, inputs, None if dice is None else list(dice))
    changes, pending, involved = outcome_apply(binding, ctx, outcome)
    if visibility is None:  # as shared: GM-only when players cannot see every record involved
        private = binding.secret(ctx) or sharing.unshared(involved)
        visibility = Visibility.GM if private else Visibility.EVERYONE
    data = outcome.to_dict()
    summary, record = outcome.summary, subject_record(ctx)
    if measured:
        record["@measured"] = measured
        summary += " " + "; ".join(f"{wording.label(k)}: {how}" for k, how in measured.items()) + "."
    record["@dice"] = "server" if dice is None else "table"
    if ctx.takes_time:
        summary += f" {ctx.takes_time}"
    if unmet:
        who = getattr(actor, "username", "") or "the GM"
        waived = "; ".join(p.text for p in unmet)
        record["@gm_ruling"] = {"by": who, "waived": [f"{p.text} ({p.rule})" for p in unmet]}
        summary += f" GM ruling by {who}, waiving: {waived}."
    return log_append(
        campaign=campaign,
        procedure=outcome.procedure,
        title=outcome.title,
        summary=summary,
        actor=actor,
        inputs={**data["inputs"], **record},
        rolls=data["rolls"],
        result=data["result"],
        effects=changes,
        pending=pending,
        reference=outcome.reference,
        visibility=visibility,
        audience=audience if visibility == Visibility.WHISPER else (),
        request_key=request_key,
    )


def _changed_later(entry: LogEntry, touched: dict) -> LogEntry | None:
    """The first later entry, neither an undo nor undone, whose effects include ``touched``
    (a record, or one field of it). "Not undone" is asked per row (NOT EXISTS) rather than
    by joining every later entry to its undo: the scan walks the log from ``entry`` in seq
    order and stops at the first match, and where nothing matches the effects index
    (``log_effects_contain``) finds the few entries that touched the record at all."""
    undone = LogEntry.objects.filter(reversal_of=OuterRef("pk"))
    later = (
        LogEntry.objects.filter(campaign_id=entry.campaign_id, seq__gt=entry.seq, reversal_of__isnull=True)
        .filter(~Exists(undone), effects__contains=[touched])
        .order_by("seq")
    )
    return later.first()


def _field_changed_later(entry: LogEntry, change: dict) -> LogEntry | None:
    return _changed_later(
        entry, {"target": change["target"], "code": change["code"], "field": change["field"]}
    )


# Entries whose undo is not "restore each field's before-value": procedure -> how to undo
# it (called with the campaign locked). Modules that log such entries register here when
# the app starts (``PlayConfig.ready``), so this module imports none of them.
REVERSERS: dict[str, Any] = {}


def reverser(*procedures: str):
    """Register ``undo(*, campaign, entry, actor) -> LogEntry`` for entries of ``procedures``."""

    def register(undo):
        for procedure in procedures:
            REVERSERS[procedure] = undo
        return undo

    return register


@transaction.atomic
def log_entry_reverse(*, entry: LogEntry, actor) -> LogEntry:
    """Undo: append a reversal restoring the recorded before-values."""
    campaign = campaign_lock(entry.campaign)
    entry = LogEntry.objects.select_related("campaign").get(pk=entry.pk)
    if entry.is_reversal:
        raise PlayError(f"Entry #{entry.seq} is itself an undo; resolve the procedure again instead.")
    if hasattr(entry, "reversed_by"):
        raise PlayError(f"Entry #{entry.seq} was already undone by #{entry.reversed_by.seq}.")
    if not entry.effects:
        raise PlayError(f"Entry #{entry.seq} changed nothing in the campaign, so there is nothing to undo.")
    if entry.procedure in (RECORD_CREATE, RECORD_DELETE):
        return _record_reverse(campaign, entry, actor)
    if entry.procedure in REVERSERS:  # e.g. who plays (``members``): undone their own way
        return REVERSERS[entry.procedure](campaign=campaign, entry=entry, actor=actor)
    if entry.procedure == RECORDS_IMPORT:
        return _import_reverse(campaign, entry, actor)
    recorder = ChangeRecorder()
    objects: dict[tuple[str, str], Any] = {}  # one instance per record, however many fields changed
    for change in entry.effects:
        key = (change["target"], change["code"])
        if key not in objects:
            model = _model_for(change["target"])
            objects[key] = model.objects.select_for_update().filter(code=change["code"]).first()
        obj = objects[key]
        if obj is None:
            raise PlayError(f"{change['name']} no longer exists, so #{entry.seq} cannot be undone.")
        later = _field_changed_later(entry, change)
        if later is not None:
            raise PlayError(
                f"Cannot undo #{entry.seq}: {change['name']}'s {change['label']} was changed again "
                f"by #{later.seq} ({later.title}). Undo #{later.seq} first."
            )
        if to_json(obj, change["field"]) != change["after"]:
            raise PlayError(
                f"Cannot undo #{entry.seq}: {change['name']}'s {change['label']} has been edited since "
                f"(now {to_json(obj, change['field'])}, the entry left {change['after']})."
            )
        recorder.set(obj, change["field"], from_json(obj, change["field"], change["before"]))
    if any(c["target"] == "campaign" for c in entry.effects):
        campaign.refresh_from_db()
    changes = changes_save(recorder)
    restored = ", ".join(
        f"{c['name']} {c['label']} {_plain(c['before'])} -> {_plain(c['after'])}" for c in changes
    )
    return log_append(
        campaign=campaign_lock(campaign),
        procedure="log.undo",
        title=f"Undo: {entry.title}",
        summary=f"Undid {entry.title} ({entry.summary}); restored {restored}.",
        actor=actor,
        effects=changes,
        visibility=entry.visibility if entry.secret else Visibility.EVERYONE,
        audience=entry.audience if entry.secret else (),
        reversal_of=entry,
    )


# -- Hand edits: every record the GM creates, edits or deletes is on the record -----------

RECORD_CREATE, RECORD_EDIT, RECORD_DELETE = "record.create", "record.edit", "record.delete"
# Many records created in one go (unit files imported): the entry lists their codes by record
# type in ``inputs["@created"]`` (a full snapshot of a thousand sheets would not fit one entry),
# and its one change says how many were created; undo deletes them.
RECORDS_IMPORT = "records.import"
_NOT_RECORDED = {"id", "campaign", "code", "updated_at", "created_at"}


def _snapshot(obj) -> dict[str, Any]:
    return {
        f.name: to_json(obj, f.name)
        for f in obj._meta.concrete_fields
        if f.name not in _NOT_RECORDED and not f.primary_key
    }


def _field_changes(obj, before: dict, after: dict) -> list[dict]:
    return [
        {
            "target": obj._meta.model_name,
            "code": str(obj.code),
            "name": str(obj),
            "field": name,
            "label": str(obj._meta.get_field(name).verbose_name),
            "before": before.get(name),
            "after": after.get(name),
        }
        for name in after.keys() | before.keys()
        if before.get(name) != after.get(name)
    ]


def _record_entry(
    campaign, obj, actor, procedure: str, title: str, changes: list[dict], visible: bool, fields, cascade=None
):
    # A record added or deleted is one line; each field's value stays in its changes (the
    # entry's page, the JSON export). An edit says what it changed, a player by name.
    people = _people(obj, changes)
    what = "; ".join(
        f"{c['label']} {_named(people, c, 'before')} -> {_named(people, c, 'after')}" for c in changes
    )
    one_line = procedure in (RECORD_CREATE, RECORD_DELETE)
    return log_append(
        campaign=campaign,
        procedure=procedure,
        title=title,
        summary=f"{title}: {what}." if what and not one_line else f"{title}.",
        actor=actor,
        inputs={
            "@record": {
                "target": obj._meta.model_name,
                "code": str(obj.code),
                "name": str(obj),
                "fields": fields,
                **({"cascade": cascade} if cascade and any(cascade.values()) else {}),
            }
        },
        effects=sorted(changes, key=lambda c: c["field"]),
        visibility=Visibility.EVERYONE if visible else Visibility.GM,
    )


def _people(obj, changes: list[dict]) -> dict[tuple[str, Any], str]:
    """The users a change names (a ship's owner), by name: (field, id) -> username."""
    user_model = get_user_model()
    ids = {}
    for change in changes:
        field = obj._meta.get_field(change["field"])
        if isinstance(field, models.ForeignKey) and field.related_model is user_model:
            ids.update(
                {(change["field"], v): v for v in (change["before"], change["after"]) if v is not None}
            )
    names = dict(user_model.objects.filter(pk__in=set(ids.values())).values_list("pk", "username"))
    return {key: names[pk] for key, pk in ids.items() if pk in names}


def _named(people: dict, change: dict, side: str) -> str:
    value = change[side]
    if isinstance(value, int) and (change["field"], value) in people:
        return people[change["field"], value]
    return _plain(value)


def _plain(value) -> str:
    if isinstance(value, (dict, list)):  # a record sheet, a list: the entry keeps it whole
        return "—" if not value else "as recorded"
    return "—" if value in (None, "") else str(value)


@transaction.atomic
def record_save(*, campaign: Campaign, form, actor) -> LogEntry | None:
    """Create or edit a record through its form, logged with each field's before and after,
    GM-only when players cannot see the record; undoable like a resolution."""
    campaign = campaign_lock(campaign)
    model = form._meta.model
    creating = form.instance.pk is None
    before = {} if creating else _snapshot(model.objects.select_for_update().get(pk=form.instance.pk))
    try:
        obj = form.save()
    except ValidationError as error:
        raise PlayError("; ".join(error.messages)) from None
    after = _snapshot(obj)
    changes = _field_changes(obj, before, after)
    if not changes:
        return None
    singular = model._meta.verbose_name
    title = f"The GM added the {singular} {obj}" if creating else f"The GM edited the {singular} {obj}"
    visible = sharing.seen_by_players(obj)
    return _record_entry(
        campaign, obj, actor, RECORD_CREATE if creating else RECORD_EDIT, title, changes, visible, after
    )


def record_created(*, campaign: Campaign, obj, actor, how: str = "added") -> LogEntry:
    """Log a record a service made itself (a copy, a table row in one click) as a hand
    creation: each field's value, GM-only when players cannot see it, undoable. The caller's
    transaction made the record; the entry joins it."""
    campaign = campaign_lock(campaign)
    after = _snapshot(obj)
    title = f"The GM {how} the {obj._meta.verbose_name} {obj}"
    changes = _field_changes(obj, {}, after)
    return _record_entry(
        campaign, obj, actor, RECORD_CREATE, title, changes, sharing.seen_by_players(obj), after
    )


def _cascade(obj) -> tuple[list[dict], list[dict], list]:
    """What deleting ``obj`` takes with it, as the database would do it: the records deleted
    along with it (parents before children, for their return) and the records whose link to
    one of them is cleared, each named by its code so that undo brings all of it back."""
    collector = Collector(using=router.db_for_write(type(obj)))
    collector.collect([obj])
    collector.sort()
    others = [
        o
        for model in reversed(list(collector.data))
        for o in sorted(collector.data[model], key=lambda o: o.pk)
        if o.pk != obj.pk or type(o) is not type(obj)
    ]
    # Rows the database deletes in one statement (no further cascade): children, so last.
    others += [o for qs in collector.fast_deletes for o in qs.order_by("pk") if hasattr(o, "code")]
    gone = {(type(o), o.pk) for o in [obj, *others]}
    deleted = [
        {"target": kind_of(o), "code": str(o.code), "name": str(o), "fields": _snapshot(o)} for o in others
    ]
    detached = []
    for (field, _value), batches in collector.field_updates.items():
        for batch in batches:
            for other in batch:
                if (type(other), other.pk) in gone or not hasattr(other, "code"):  # gone with it
                    continue
                linked = getattr(other, field.attname)
                target = field.related_model._default_manager.filter(pk=linked).first()
                if target is not None and hasattr(target, "code"):
                    detached.append(
                        {
                            "target": kind_of(other),
                            "code": str(other.code),
                            "name": str(other),
                            "field": field.name,
                            "to": str(target.code),
                        }
                    )
    return deleted, detached, others


def _count_words(deleted: list[dict]) -> str:
    counts: dict[str, int] = {}
    for item in deleted:
        counts[item["target"]] = counts.get(item["target"], 0) + 1
    parts = []
    for target, n in counts.items():
        meta = _model_for(target)._meta
        parts.append(f"{n} {meta.verbose_name if n == 1 else meta.verbose_name_plural}")
    return ", ".join(parts)


@transaction.atomic
def record_delete(*, campaign: Campaign, obj, actor) -> LogEntry:
    """Delete a record, logged with what it held, and what went with it, so that undo
    brings it all back, codes and all."""
    campaign = campaign_lock(campaign)
    obj = type(obj).objects.select_for_update().get(pk=obj.pk)
    before = _snapshot(obj)
    deleted, detached, others = _cascade(obj)
    visible = not sharing.unshared([obj, *others])  # the entry names what went with it
    title = f"The GM deleted the {obj._meta.verbose_name} {obj}"
    if deleted:
        title += f" (and with it {_count_words(deleted)})"
    entry = _record_entry(
        campaign,
        obj,
        actor,
        RECORD_DELETE,
        title,
        _field_changes(obj, before, {}),
        visible,
        before,
        cascade={"deleted": deleted, "detached": detached},
    )
    try:
        with transaction.atomic():
            obj.delete()
    except (models.ProtectedError, models.RestrictedError) as error:
        raise PlayError(
            f"{obj} cannot be deleted while other records point at it ({error.args[0]})."
        ) from None
    return entry


def _restore(campaign: Campaign, entry: LogEntry, item: dict, model=None):
    """A deleted record back as it was, with its code."""
    model = model or _model_for(item["target"])
    if model.objects.filter(code=item["code"]).exists():
        raise PlayError(f"{item['name']} exists again, so #{entry.seq} cannot be undone.")
    obj = model(campaign=campaign, code=item["code"])
    try:
        for name, value in item["fields"].items():
            setattr(obj, name, from_json(obj, name, value))
    except ObjectDoesNotExist:
        raise PlayError(f"Cannot undo #{entry.seq}: a record {item['name']} pointed at is gone.") from None
    try:
        obj.full_clean(exclude=["code"])
        with transaction.atomic():
            obj.save(force_insert=True)
    except ValidationError as error:
        raise PlayError(
            f"Cannot undo #{entry.seq}: {item['name']} cannot come back ({'; '.join(error.messages)})."
        ) from None
    except IntegrityError:
        raise PlayError(
            f"Cannot undo #{entry.seq}: {item['name']} cannot come back beside the records there are now."
        ) from None
    return obj


def _reattach(entry: LogEntry, detached: list[dict]) -> None:
    """Links the delete cleared point at the restored records again, where nothing has
    pointed them elsewhere since."""
    for link in detached:
        model = _model_for(link["target"])
        other = model.objects.select_for_update().filter(code=link["code"]).first()
        if other is None or getattr(other, model._meta.get_field(link["field"]).attname) is not None:
            continue
        setattr(other, link["field"], from_json(other, link["field"], link["to"]))
        other.save(update_fields=[link["field"], *(["updated_at"] if hasattr(other, "updated_at") else [])])


def _record_reverse(campaign: Campaign, entry: LogEntry, actor) -> LogEntry:
    """Undo an added record (it goes) or a deleted one (it comes back with its code)."""
    record = entry.inputs["@record"]
    model = _model_for(record["target"])
    obj = model.objects.select_for_update().filter(code=record["code"]).first()
    if entry.procedure == RECORD_CREATE:
        if obj is None:
            raise PlayError(f"{record['name']} no longer exists, so #{entry.seq} cannot be undone.")
        later = _changed_later(entry, {"target": record["target"], "code": record["code"]})
        if later is not None:
            raise PlayError(
                f"Cannot undo #{entry.seq}: #{later.seq} ({later.title}) changed {record['name']} since. Undo #{later.seq} first."
            )
        before, visible = _snapshot(obj), sharing.seen_by_players(obj)
        try:
            with transaction.atomic():
                obj.delete()
        except (models.ProtectedError, models.RestrictedError):
            raise PlayError(
                f"Cannot undo #{entry.seq}: other records now point at {record['name']}."
            ) from None
        changes, summary = (
            _field_changes(obj, before, {}),
            f"Undone: {record['name']} is gone again.",
        )
    else:
        if obj is not None:
            raise PlayError(f"{record['name']} exists again, so #{entry.seq} cannot be undone.")
        obj = _restore(campaign, entry, record, model)
        cascade = record.get("cascade") or {}
        others = [_restore(campaign, entry, item) for item in cascade.get("deleted", [])]
        _reattach(entry, cascade.get("detached", []))
        changes = _field_changes(obj, {}, _snapshot(obj))
        back = f" with {_count_words(cascade['deleted'])}" if cascade.get("deleted") else ""
        summary, visible = f"Undone: {record['name']} is back{back}.", not sharing.unshared([obj, *others])
    return log_append(
        campaign=campaign,
        procedure="log.undo",
        title=f"Undo: {entry.title}",
        summary=summary,
        actor=actor,
        effects=sorted(changes, key=lambda c: c["field"]),
        visibility=Visibility.EVERYONE if visible and not entry.secret else Visibility.GM,
        reversal_of=entry,
    )


def _import_reverse(campaign: Campaign, entry: LogEntry, actor) -> LogEntry:
    """Undo an import: every record it created goes, unless one was changed or deleted since."""
    created: dict[str, list[str]] = entry.inputs.get("@created", {})
    codes = {code for group in created.values() for code in group}
    # One pass over the later entries, in the database: the first that changed (or deleted) one
    # of the imported records and still stands.
    touching = (
        "EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(play_logentry.effects) = 'array' "
        "THEN play_logentry.effects ELSE '[]'::jsonb END) AS change WHERE change->>'code' = ANY(%s)) "
        "OR play_logentry.inputs->'@record'->>'code' = ANY(%s)"
    )
    other = (
        LogEntry.objects.filter(
            campaign=campaign, seq__gt=entry.seq, reversal_of__isnull=True, reversed_by__isnull=True
        )
        .extra(where=[touching], params=[sorted(codes), sorted(codes)])
        .order_by("seq")
        .only("seq", "title")
        .first()
    )
    if other is not None:
        raise PlayError(
            f"Cannot undo #{entry.seq}: #{other.seq} ({other.title}) changed what it imported since. "
            f"Undo #{other.seq} first."
        )
    doomed = []
    for target, group in created.items():
        model = _model_for(target)
        found = list(model.objects.select_for_update().filter(campaign=campaign, code__in=group))
        if len(found) != len(group):
            raise PlayError(f"Cannot undo #{entry.seq}: some of the records it imported no longer exist.")
        doomed.append((model, found))
    try:
        with transaction.atomic():
            for model, found in doomed:
                model.objects.filter(pk__in=[obj.pk for obj in found]).delete()
    except (models.ProtectedError, models.RestrictedError):
        raise PlayError(f"Cannot undo #{entry.seq}: other records now point at what it imported.") from None
    count = len(codes)
    return log_append(
        campaign=campaign,
        procedure="log.undo",
        title=f"Undo: {entry.title}",
        summary=f"Undone: the {count} record{'s' if count != 1 else ''} it imported {'are' if count != 1 else 'is'} gone again.",
        actor=actor,
        effects=[
            {**change, "before": change["after"], "after": change["before"]} for change in entry.effects
        ],
        visibility=entry.visibility,
        reversal_of=entry,
    )


def _model_for(target: str):
    """The model a logged change names (its ``model_name``): any record a campaign keeps."""
    if target == "campaign":
        return Campaign
    for model in apps.get_models():
        if model._meta.model_name == target and hasattr(model, "campaign") and hasattr(model, "code"):
            return model
    raise PlayError(f"Unknown record type {target!r} in the log.")


@transaction.atomic
def log_entry_reveal(*, entry: LogEntry, actor) -> LogEntry:
    """Show a GM-only entry, a whisper or a blind roll to every player (the one change
    the log allows)."""
    campaign_lock(entry.campaign)
    entry = LogEntry.objects.get(pk=entry.pk)
    if entry.visibility == Visibility.EVERYONE:
        raise PlayError(f"Entry #{entry.seq} is not secret.")
    if entry.revealed_at is None:
        LogEntry.objects.filter(pk=entry.pk).update(revealed_at=timezone.now())
        entry.refresh_from_db()
    return entry


def _campaign_change(campaign: Campaign, recorder: ChangeRecorder, **values) -> None:
    for attr, value in values.items():
        recorder.set(campaign, attr, value)


@transaction.atomic
def campaign_phase_advance(*, campaign: Campaign, actor) -> list[LogEntry]:
    """Next phase; after the End Phase a new turn starts and the clock moves one turn.

    Entering the End Phase runs the End Phase procedures for the state the campaign holds."""
    campaign = campaign_lock(campaign)
    index = PHASE_ORDER.index(Phase(campaign.phase))
    recorder = ChangeRecorder()
    if index + 1 < len(PHASE_ORDER):
        new_phase = PHASE_ORDER[index + 1]
        _campaign_change(campaign, recorder, phase=new_phase.value)
        summary = f"Turn {campaign.turn}: {Phase(campaign.phase).label} begins."
    else:
        _campaign_change(
            campaign,
            recorder,
            phase=PHASE_ORDER[0].value,
            turn=campaign.turn + 1,
            clock=campaign.clock + campaign.turn_length,
        )
        summary = f"Turn {campaign.turn} begins at {campaign.clock:%Y-%m-%d %H:%M:%S}."
    changes = changes_save(recorder)
    result = {}
    if index + 1 == len(PHASE_ORDER):
        # Each turn's end publishes the log's fingerprint (the hash of its last entry): a
        # player who keeps it can later check any copy of the log against it
        # (verify_log --file EXPORT --head FINGERPRINT), so no rewrite of the turns
        # before it goes unseen, even by someone holding the server's keys.
        last = LogEntry.objects.filter(campaign=campaign).order_by("-seq").only("hash").first()
        fingerprint = last.hash if last else GENESIS_HASH
        result = {"log_fingerprint": fingerprint}
        summary += (
            f" The log's fingerprint at the end of turn {campaign.turn - 1} is {fingerprint}: "
            "keep it to check later copies of the log against it."
        )
    entries = [
        log_append(
            campaign=campaign,
            procedure="turn.advance",
            title="Next phase",
            summary=summary,
            actor=actor,
            effects=changes,
            result=result,
        )
    ]
    if campaign.phase == Phase.END:
        entries += end_phase_run(campaign=campaign, actor=actor)
    elif index + 1 == len(PHASE_ORDER):
        entries += clock_moved(campaign=campaign, actor=actor)
    return entries


def clock_moved(*, campaign: Campaign, actor) -> list[LogEntry]:
    """What the families do when the clock has moved (what came due, what was eaten), each
    its own entry after the one that moved the clock. The caller holds the campaign lock."""
    entries = []
    for hook in families.clock_hooks():
        entries += hook(campaign=campaign, actor=actor)
    return entries + _steps_run(campaign, actor, families.clock_steps())


def end_phase_run(*, campaign: Campaign, actor) -> list[LogEntry]:
    """End Phase automation: each family's End Phase steps, in the order the families are
    found, resolve their procedure for each record the step finds. Every roll goes through
    the same service as a GM's click, so every die is on the record and every change undoable."""
    return _steps_run(campaign, actor, families.end_phase_steps())


def _steps_run(campaign: Campaign, actor, steps) -> list[LogEntry]:
    entries = []
    for step in steps:
        role = step.binding.roles[0].name
        for record in step.records(campaign):
            ctx = Context(campaign=campaign, objects={role: record})
            inputs = step.binding.initial(ctx)
            if step.inputs:
                inputs.update(step.inputs(record, campaign))
            entries.append(
                procedure_resolve(
                    campaign=campaign,
                    procedure_id=step.binding.procedure_id,
                    inputs=inputs,
                    dice=None,
                    actor=actor,
                    subjects={role: record.code},
                    visibility=step.visibility,
                )
            )
    return entries


@transaction.atomic
def campaign_settings_update(*, campaign: Campaign, values: dict[str, Any], actor) -> LogEntry | None:
    """The GM's settings (name, year, turn length, clock set by hand): logged, undoable."""
    campaign = campaign_lock(campaign)
    recorder = ChangeRecorder()
    _campaign_change(campaign, recorder, **values)
    changes = changes_save(recorder)
    if not changes:
        return None
    what = "; ".join(f"{c['label']} {c['before']} -> {c['after']}" for c in changes)
    return log_append(
        campaign=campaign,
        procedure="campaign.settings",
        title="Campaign settings changed",
        summary=f"The GM changed {what}.",
        actor=actor,
        effects=changes,
    )


@transaction.atomic
def campaign_clock_advance(*, campaign: Campaign, seconds: int, reason: str, actor) -> LogEntry:
    """Move the in-game clock on (travel, recharging) without changing turn or phase."""
    if seconds <= 0:
        raise PlayError("Advance the clock by a positive amount of time.")
    if seconds > 10 * 365 * 24 * 3600:
        raise PlayError("Advance the clock by at most ten years at a time.")
    campaign = campaign_lock(campaign)
    recorder = ChangeRecorder()
    _campaign_change(campaign, recorder, clock=campaign.clock + timedelta(seconds=seconds))
    changes = changes_save(recorder)
    text = _duration(seconds)
    entry = log_append(
        campaign=campaign,
        procedure="clock.advance",
        title="Clock advanced",
        summary=f"Clock advanced {text}{f' ({reason})' if reason else ''}: now {campaign.clock:%Y-%m-%d %H:%M:%S}.",
        actor=actor,
        effects=changes,
    )
    clock_moved(campaign=campaign, actor=actor)
    return entry


def _duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{n} {unit}{'s' if n != 1 else ''}"
        for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"), (secs, "second"))
        if n
    ]
    return " ".join(parts) or "0 seconds"
