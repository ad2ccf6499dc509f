"""Players at the table: the procedures they start for the records they own, the GM's
Accept or Reject of those rolls, and the notes everyone writes into the log.

A player may start a procedure when the record in its first role (its *subject*) is one
they own (``owned_by`` on the record's model) and can see; every other record the form
names must be shared with them. The values the records give are fixed by the server, not
typed by the player. Per campaign (``Campaign.player_rolls_wait``) a player's roll applies
at once, or waits: it is logged with its dice and result but changes nothing until the GM
accepts it, which re-runs the same procedure with the same dice against the campaign as it
stands then and applies the effects (an entry of its own, undoable like any other)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.db import models, transaction
from django.urls import reverse

import rules
from referee.campaigns.models import Campaign, Role

from . import families, sharing
from .bindings import Binding
from .bindings import Role as BindingRole
from .models import RULINGS, WAITING_WORDS, LogEntry, Visibility
from .resolution import PlayError, campaign_lock, load_context, outcome_apply, refusal, subject_record
from .services import earlier_entry, log_append

AWAITING = "@awaiting_gm"  # in a waiting roll's inputs (the hash covers it)
ABOUT = "@about"  # the entry a reply is about, by hash and title
ACCEPT, REJECT = "roll.accept", "roll.reject"
DECISIONS = RULINGS
NOTE, CORRECTION, ANNOTATION = "note.post", "note.correct", "note.annotate"
NOTES = (NOTE, CORRECTION, ANNOTATION)
MAX_NOTE = 4000  # characters of one note: a paragraph or three, not a document


# -- What a player may start ------------------------------------------------------------


def _ownable(role: BindingRole) -> bool:
    return hasattr(role.model, "owned_by") and hasattr(role.model, "player_visible")


def player_bindings() -> list[Binding]:
    """The procedures a player can start: those whose subject (first role) is a kind of
    record players own. The End Phase steps run by themselves, so no player starts them."""
    automatic = {step.binding.procedure_id for step in families.end_phase_steps()}
    return [
        b
        for b in families.all_bindings()
        if b.roles and b.label and _ownable(b.roles[0]) and b.procedure_id not in automatic
    ]


# The kinds of input that are the GM's data whatever the procedure: a table or chart of the
# campaign's.
GM_KINDS = ("table2d6", "chart")


def gm_inputs(binding: Binding) -> list[str]:
    """The inputs of a procedure that are the GM's data or house-rule options, never the
    roller's: its tables and charts, and those its binding declares the GM's. On a player's
    form they are the campaign's, fixed by the server."""
    return [
        spec.name
        for spec in binding.procedure.contract.inputs
        if spec.type.kind in GM_KINDS or spec.name in binding.gm_inputs
    ]


def player_binding(procedure_id: str) -> Binding | None:
    return next((b for b in player_bindings() if b.procedure_id == procedure_id), None)


def role_choices(role: BindingRole, campaign: Campaign, user, *, subject: bool) -> models.QuerySet:
    """The records a player may name in a role: shared ones; for the subject, their own."""
    qs = role.choices(campaign)
    visible = getattr(role.model, "player_visible", None)
    if visible is None:
        return qs.none()
    qs = qs.filter(visible())
    if subject:
        qs = qs.filter(role.model.owned_by(user))
    return qs


def extra_choices(extra, campaign: Campaign) -> models.QuerySet:
    return extra.model.objects.in_campaign(campaign).visible_to("player")


def owned_actions(campaign: Campaign, user, objects) -> list:
    """Each of the player's records with the procedures they can start from it."""
    startable = player_bindings()
    # Each procedure's URL reversed once, not once per record (hundreds of records).
    urls = {
        b.procedure_id: reverse("play:player-roll", args=[campaign.code, b.procedure_id]) for b in startable
    }
    objects = list(objects)
    families.prepare_menus(objects)  # what the menus need, read for all the records at once
    for obj in objects:
        obj.player_actions = [
            (b.label, f"{urls[b.procedure_id]}?{b.roles[0].name}={obj.code}")
            for b in startable
            if b.roles[0].accepts(obj)
        ]
    return objects


# -- Rolls -------------------------------------------------------------------------------


@transaction.atomic
def player_roll(
    *,
    campaign: Campaign,
    binding: Binding,
    inputs: dict,
    dice: Sequence[int] | None,
    actor,
    subjects: dict[str, Any],
    extras: dict[str, Any],
    blind: bool,
    request_key: uuid.UUID | None = None,
) -> LogEntry:
    """A player's roll for a record they own: resolved and logged; applied at once or
    waiting for the GM, as the campaign says. Blind (only the GM reads the result) when
    the player asks, or when the rules keep the result from the roller (``binding.secret``),
    or when the result would tell of a record players cannot see."""
    campaign = campaign_lock(campaign)
    if earlier := earlier_entry(campaign=campaign, request_key=request_key, actor=actor):
        return earlier
    ctx = load_context(campaign, binding, subjects, extras)
    unmet = binding.unmet(ctx, inputs)
    if unmet:
        raise PlayError(refusal(unmet, "Ask your GM."))
    outcome = rules.resolve(binding.procedure_id, inputs, None if dice is None else list(dice))
    ctx.outcome = outcome  # what decides whether the roll is secret may read the result
    record = subject_record(ctx)
    data = outcome.to_dict()
    who = getattr(actor, "username", "") or "a player"
    named = [*ctx.objects.values(), *ctx.extras.values()]
    secret = blind or binding.secret(ctx) or bool(sharing.unshared(named))
    # A blind roll always waits: applied at once, its changes would tell the result.
    if campaign.player_rolls_wait or secret:
        changes, pending = [], []
        record[AWAITING] = {"by": who}
        summary = f"{outcome.summary} Rolled by {who}; {WAITING_WORDS}"
    else:
        changes, pending, involved = outcome_apply(binding, ctx, outcome)
        secret = bool(sharing.unshared(involved))
        summary = f"{outcome.summary} Rolled by {who}."
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
        visibility=Visibility.BLIND if secret else Visibility.EVERYONE,
        audience=[actor.pk] if secret else (),
        request_key=request_key,
    )


def awaiting(entry: LogEntry) -> bool:
    """A player's roll still waiting for the GM's Accept or Reject."""
    if AWAITING not in (entry.inputs or {}):
        return False
    return not entry.replies.filter(procedure__in=DECISIONS).exists()


def _about(entry: LogEntry) -> dict:
    return {ABOUT: {"hash": entry.hash, "title": entry.title}}


@transaction.atomic
def player_roll_decide(*, entry: LogEntry, actor, accept: bool) -> LogEntry:
    """The GM's Accept (the roll's effects apply now) or Reject (nothing changes) of a
    player's waiting roll, logged as an entry about it."""
    campaign = campaign_lock(entry.campaign)
    entry = LogEntry.objects.select_related("campaign").get(pk=entry.pk)
    if AWAITING not in entry.inputs:
        raise PlayError(f"Entry #{entry.seq} is not a player's roll waiting for the GM.")
    decided = entry.replies.filter(procedure__in=DECISIONS).first()
    if decided is not None:
        word = "accepted" if decided.procedure == ACCEPT else "rejected"
        raise PlayError(f"Entry #{entry.seq} was already {word} (#{decided.seq}).")
    by = entry.inputs[AWAITING].get("by", "the player")
    common = {
        "campaign": campaign,
        "actor": actor,
        "refers_to": entry,
        # The answer to a blind roll is the GM's alone, like its result.
        "visibility": (Visibility.GM if entry.blind else entry.visibility)
        if entry.secret
        else Visibility.EVERYONE,
        "audience": entry.audience if entry.secret and not entry.blind else (),
        "reference": entry.reference,
    }
    if not accept:
        return log_append(
            procedure=REJECT,
            title=f"GM rejected: {entry.title}",
            summary=f"The GM rejected {by}'s roll ({entry.title}); it changes nothing.",
            inputs=_about(entry),
            **common,
        )
    binding = families.binding(entry.procedure)
    subjects = {r.name: found["code"] for r in binding.roles if (found := entry.inputs.get(f"@{r.name}"))}
    extras = {}
    for extra in binding.extras:
        if found := entry.inputs.get(f"@{extra.name}"):
            extras[extra.name] = extra.model.objects.in_campaign(campaign).filter(code=found["code"]).first()
    ctx = load_context(campaign, binding, subjects, extras)
    inputs = {k: v for k, v in entry.inputs.items() if not k.startswith("@")}
    dice = [value for roll in entry.rolls for value in roll.get("values", [])]
    outcome = rules.resolve(entry.procedure, inputs, dice)
    ctx.outcome = outcome  # the conditions below may read the result
    if outcome.to_dict()["result"] != entry.result:  # the same dice must tell the same story
        raise PlayError(f"Entry #{entry.seq} no longer resolves as it did; reject it and roll again.")
    unmet = binding.unmet(ctx, inputs)
    if unmet:
        raise PlayError(refusal(unmet, "Reject the roll instead."))
    changes, pending, _involved = outcome_apply(binding, ctx, outcome)
    what = "; ".join(f"{c['name']} {c['label']} {c['before']} -> {c['after']}" for c in changes)
    return log_append(
        procedure=ACCEPT,
        title=f"GM accepted: {entry.title}",
        summary=f"The GM accepted {by}'s roll ({entry.title})" + (f": {what}." if what else "."),
        inputs={
            **_about(entry),
            **{k: v for k, v in entry.inputs.items() if k.startswith("@") and k != AWAITING},
        },
        effects=changes,
        pending=pending,
        **common,
    )


# -- Notes -------------------------------------------------------------------------------


def clean_note(text: str) -> str:
    text = (text or "").replace("\r\n", "\n").strip()
    if not text:
        raise PlayError("Write something first.")
    if "\x00" in text:
        raise PlayError("The note holds a NUL character, which cannot be recorded.")
    if len(text) > MAX_NOTE:
        raise PlayError(f"A note holds at most {MAX_NOTE:,} characters (this one has {len(text):,}).")
    return text


@transaction.atomic
def note_post(
    *,
    campaign: Campaign,
    actor,
    role: str,
    text: str,
    kind: str = "note",
    to_gm_only: bool = False,
    audience: Sequence[int] = (),
    about: LogEntry | None = None,
) -> LogEntry:
    """A narrative note or a short message into the log; with ``about``, a correction of
    the author's own note, or (the GM) an annotation of any entry. Nothing is ever edited:
    a correction is one more entry.

    Who reads it: everyone; for a player's ``to_gm_only`` the GM and the author; for the
    GM's ``audience`` (user ids of players) a whisper to them; a reply to a secret entry
    is as secret as it."""
    text = clean_note(text)
    campaign = campaign_lock(campaign)
    who = getattr(actor, "username", "") or "someone"
    procedure, title = NOTE, (f"Message from {who}" if kind == "message" else f"Note by {who}")
    inputs: dict = {"text": text, "kind": "message" if kind == "message" else "note"}
    visibility, readers = Visibility.EVERYONE, list(audience)
    if about is not None:
        about = LogEntry.objects.get(pk=about.pk)
        if role != "gm":
            if about.procedure not in (NOTE, CORRECTION) or about.actor_id != actor.pk:
                raise PlayError("You can correct only your own notes.")
            procedure, title = CORRECTION, f"Correction by {who}"
        else:
            mine = about.procedure in (NOTE, CORRECTION) and about.actor_id == actor.pk
            procedure = CORRECTION if mine else ANNOTATION
            title = f"Correction by {who}" if mine else f"GM's note on: {about.title}"
        inputs.update(_about(about))
        if about.secret:
            visibility, readers = about.visibility, about.audience
            if about.visibility == Visibility.BLIND:  # a blind roll's result stays the GM's
                visibility, readers = Visibility.GM, []
    elif role == "gm" and readers:
        players = set(
            campaign.memberships.filter(role=Role.PLAYER, user_id__in=readers).values_list(
                "user_id", flat=True
            )
        )
        if players != set(readers):
            raise PlayError("Whisper only to players of this campaign.")
        visibility = Visibility.WHISPER
    elif role == "gm" and to_gm_only:
        visibility = Visibility.GM
    elif role != "gm" and to_gm_only:
        visibility, readers = Visibility.WHISPER, [actor.pk]
    if role != "gm" and visibility == Visibility.EVERYONE:
        readers = []
    return log_append(
        campaign=campaign,
        procedure=procedure,
        title=title,
        summary=text,  # the exports read the summary: the whole note goes with the rolls
        actor=actor,
        inputs=inputs,
        visibility=visibility,
        audience=readers,
        refers_to=about,
    )
