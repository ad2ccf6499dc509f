"""Players at the table: their own rolls, the GM's Accept/Reject, notes in the log."""

from __future__ import annotations

import uuid

from django import forms
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

import rules
from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import member_view

from . import players, services
from .bindings import Context
from .forms import ProcedureForm
from .models import LogEntry, Numbering
from .odds_panel import ODDS_TIME_LIMIT, odds_for

PAGE = "play/player_roll.html"
SERVER, TABLE = "roll", "enter"
# A player's request keys live in a space of their own (``PlayerRollForm.clean_request_key``).
PLAYER_KEYS = uuid.UUID("3f0c5a4e-9d1b-4c47-8f6e-2b8a7d1e6c90")
FOREIGN_KEY = "This form was not made for you, or it was changed: reload the page to roll."


class PlayerRollForm(ProcedureForm):
    """The procedure form as a player sees it: only their own records as its subject, only
    shared records elsewhere, the values the records give fixed by the server, and no GM
    ruling. The GM's data and house-rule options (``players.gm_inputs``: a custom table, a
    rule toggle) are the campaign's, fixed by the server too. Who reads the result:
    everyone, or only the GM (a blind roll).

    Its request key is signed for the player who was given the form, and kept in a space
    of the player's own: a key another reader's form carried (or one a player made up from
    an export) is refused as it is, saying nothing of any entry."""

    def __init__(self, *args, binding, campaign, user, prefilled=(), **kwargs):
        super().__init__(*args, binding=binding, campaign=campaign, **kwargs)
        self.user = user
        self.fields["request_key"] = forms.CharField(
            required=False, widget=forms.HiddenInput, initial=self._signer().sign(str(uuid.uuid4()))
        )
        for name in players.gm_inputs(binding):
            self.fields[name].disabled = True
            self.fields[name].help_text = "Set by the GM for this campaign."
        for index, role in enumerate(binding.roles):
            self.fields[role.name].queryset = players.role_choices(role, campaign, user, subject=index == 0)
        for extra in binding.extras:
            self.fields[extra.name].queryset = players.extra_choices(extra, campaign)
        for name in prefilled:  # what the records say is not the player's to change
            if name in self.fields:
                self.fields[name].disabled = True
        for name in ("gm_ruling", "audience"):
            del self.fields[name]
        self.fields["visibility"] = forms.ChoiceField(
            label="Who reads the result",
            choices=[("everyone", "Everyone"), ("blind", "Only the GM (you see that you rolled)")],
            initial="everyone",
            required=False,
        )

    def blind(self) -> bool:
        return self.cleaned_data.get("visibility") == "blind"

    def _signer(self) -> signing.Signer:
        return signing.Signer(salt=f"referee.play.player-roll:{self.user.pk}")

    def clean_request_key(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("request_key")
        if not value:
            return None
        try:
            key = uuid.UUID(self._signer().unsign(value))
        except (signing.BadSignature, ValueError):
            raise ValidationError(FOREIGN_KEY) from None
        return uuid.uuid5(PLAYER_KEYS, f"{self.user.pk}:{key}")

    def clean(self):
        cleaned = super().clean()
        if "request_key" in self.errors:  # a hidden field: said where the reader sees it
            self.add_error(None, self.errors.pop("request_key"))
        return cleaned


def _startable(campaign: Campaign, role: str, procedure_id: str, source, user):
    """The binding and the player's subject, or 404/403: a procedure a player cannot start,
    a record they cannot see (404), a record they see but do not own (403)."""
    if role != "player":
        raise Http404("Players start their rolls here; the GM uses the procedure page.")
    binding = players.player_binding(procedure_id)
    if binding is None:
        raise Http404("No such procedure for players")
    subject = binding.roles[0]
    try:
        code = uuid.UUID(source.get(subject.name, ""))
    except ValueError:
        raise Http404(f"Choose the {subject.label.lower()}.") from None
    seen = players.role_choices(subject, campaign, user, subject=False)
    if not seen.filter(code=code).exists():
        raise Http404(f"No such {subject.label.lower()}")
    if not seen.filter(subject.model.owned_by(user)).filter(code=code).exists():
        raise PermissionDenied(f"Only its owner rolls for this {subject.label.lower()}.")
    return binding


def _context(binding, campaign: Campaign, source, user) -> Context:
    """The records the player named (only those they may name), and the roles the state
    fills, where the player can see them."""
    objects = {}
    for index, role in enumerate(binding.roles):
        try:
            code = uuid.UUID(source.get(role.name, ""))
        except ValueError:
            continue
        found = players.role_choices(role, campaign, user, subject=index == 0).filter(code=code).first()
        if found is not None:
            objects[role.name] = found
    extras = {}
    for extra in binding.extras:
        try:
            code = uuid.UUID(source.get(extra.name, ""))
        except ValueError:
            continue
        if found := players.extra_choices(extra, campaign).filter(code=code).first():
            extras[extra.name] = found
    ctx = Context(campaign=campaign, objects=objects, extras=extras)
    if binding.fill_roles:
        for index, role in enumerate(binding.roles):
            obj = binding.fill_roles(ctx).get(role.name)
            if role.name in ctx.objects or obj is None:
                continue
            if players.role_choices(role, campaign, user, subject=index == 0).filter(pk=obj.pk).exists():
                ctx.objects[role.name] = obj
    return ctx


def _initial(binding, ctx: Context) -> dict:
    """The form's values: the binding's pre-fill from the records, and the records themselves."""
    values = dict(binding.initial(ctx))
    for name, obj in [*ctx.objects.items(), *ctx.extras.items()]:
        values[name] = obj.code
    return values


def _form(request, binding, campaign: Campaign, ctx: Context) -> PlayerRollForm:
    initial = _initial(binding, ctx)
    initial["visibility"] = "blind" if binding.secret(ctx) else "everyone"
    prefilled = list(binding.prefilled(ctx))
    data = request.POST if request.method == "POST" else None
    form = PlayerRollForm(
        data, initial=initial, binding=binding, campaign=campaign, user=request.user, prefilled=prefilled
    )
    form.show_sources(binding.sources(ctx))
    return form


def _render(request, campaign, binding, form, ctx, *, status=200, entry=None) -> HttpResponse:
    secret = bool(ctx.objects) and binding.secret(ctx)
    context = {
        "campaign": campaign,
        "binding": binding,
        "procedure": binding.procedure,
        "form": form,
        "role": "player",
        "reader": request.user,
        # Odds read only the values on the form, which the player sees; a roll whose
        # result the rules keep from the roller shows none.
        "odds": {"error": "Only the GM sees the odds of this roll."}
        if secret
        else odds_for(binding, form, time_limit=ODDS_TIME_LIMIT),
        "entry": entry,
        "waits": campaign.player_rolls_wait,
    }
    if entry is not None:
        [entry] = Numbering.for_campaign(campaign, request.user).apply([entry])
        return htmx.page(request, PAGE, context, partial="player-result", status=status)
    if form.is_bound:
        return htmx.form_card(
            request, PAGE, context, partial="player-form", target="#player-form", status=status
        )
    return render(request, PAGE, context, status=status)


@member_view("GET", "POST")
def player_roll(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, procedure_id: str):
    if role == "gm":  # the GM's own form does everything this one does, and more
        return redirect(reverse("play:procedure", args=[campaign.code, procedure_id]))
    source = request.POST if request.method == "POST" else request.GET
    binding = _startable(campaign, role, procedure_id, source, request.user)
    ctx = _context(binding, campaign, source, request.user)
    form = _form(request, binding, campaign, ctx)
    if request.method == "GET":
        return _render(request, campaign, binding, form, ctx)
    if form.adds_a_row():  # "Add a row": the form again, as typed, with one more blank row
        return _render(request, campaign, binding, form, ctx)
    if not form.is_valid():
        return _render(request, campaign, binding, form, ctx, status=htmx.INVALID)
    physical = request.POST.get("action") == TABLE
    try:
        dice = form.entered_dice() if physical else None
        if physical and not dice and binding.procedure.contract.dice.strip() != "none":
            form.add_error("dice", "Enter the dice you rolled, or press Roll to use the server's dice.")
            return _render(request, campaign, binding, form, ctx, status=htmx.INVALID)
        entry = players.player_roll(
            campaign=campaign,
            binding=binding,
            inputs=form.engine_inputs(),
            dice=dice,
            actor=request.user,
            subjects=form.subjects(),
            extras=form.extras(),
            blind=form.blind(),
            request_key=form.cleaned_data["request_key"],
        )
    except (rules.InputError, rules.DiceError, services.PlayError) as error:
        form.add_engine_error(error)
        return _render(request, campaign, binding, form, ctx, status=htmx.INVALID)
    except ValidationError as error:
        form.add_error("dice", error)
        return _render(request, campaign, binding, form, ctx, status=htmx.INVALID)
    entry = LogEntry.objects.select_related("reversal_of").get(pk=entry.pk)
    response = _render(request, campaign, binding, form, ctx, entry=entry)
    return htmx.campaign_changed(response) if request.htmx else response


@member_view("POST")
def player_odds(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, procedure_id: str):
    binding = _startable(campaign, role, procedure_id, request.POST, request.user)
    ctx = _context(binding, campaign, request.POST, request.user)
    if binding.secret(ctx):
        odds = {"error": "Only the GM sees the odds of this roll."}
    else:
        odds = odds_for(binding, _form(request, binding, campaign, ctx), key=request.POST.get("odds_key"))
    context = {"odds": odds, "procedure": binding.procedure, "campaign": campaign, "binding": binding}
    return render(request, PAGE + "#player-odds", context)


# -- Notes -------------------------------------------------------------------------------


@member_view("POST")
def note_create(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """A note or message into the log (``about``: a correction or the GM's annotation of
    the entry with that number, as the poster numbers entries)."""
    about = None
    if number := request.POST.get("about", "").strip():
        if not (number.isascii() and number.isdigit()) or len(number) > 12:
            return _note_answer(request, campaign, role, "Name the entry by its number.")
        numbering = Numbering.for_campaign(campaign, request.user) if role != "gm" else None
        seq = numbering.seq(int(number)) if numbering else int(number)
        about = LogEntry.objects.in_campaign(campaign).visible_to(role, request.user).filter(seq=seq).first()
        if about is None or (role != "gm" and about.blind):
            raise Http404("No such entry")
    audience = []
    if role == "gm":
        chosen = [v.strip() for v in request.POST.getlist("audience") if v.strip()][:100]
        if not all(v.isascii() and v.isdigit() and len(v) <= 18 for v in chosen):
            return _note_answer(request, campaign, role, "Choose players from the list.")
        audience = [int(v) for v in chosen]
    try:
        players.note_post(
            campaign=campaign,
            actor=request.user,
            role=role,
            text=request.POST.get("text", ""),
            kind=request.POST.get("kind", "note"),
            to_gm_only=request.POST.get("to") == "gm",
            audience=audience,
            about=about,
        )
    except services.PlayError as error:
        return _note_answer(request, campaign, role, str(error))
    return _note_answer(request, campaign, role, "")


def _note_answer(request, campaign: Campaign, role: str, error: str) -> HttpResponse:
    context = {
        "campaign": campaign,
        "role": role,
        "note_error": error,
        "note_text": request.POST.get("text", "")[: players.MAX_NOTE] if error else "",
        "members": campaign.memberships.select_related("user") if role == "gm" else (),
    }
    return htmx.panel(
        request,
        "play/notes.html#note-form",
        context,
        back_to=reverse("campaigns:detail", args=[campaign.code]),
        status=htmx.INVALID if error else 200,
        message=error or "Posted to the log.",
    )
