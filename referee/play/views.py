"""The GM's table: procedure forms with live odds, result cards, the turn log, turn controls."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections import defaultdict
from functools import partial

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify
from django_htmx.http import trigger_client_event

import rules
from referee import htmx
from referee.campaigns.forms import CampaignSettingsForm
from referee.campaigns.models import Campaign
from referee.play.door import gm_view, member_view

from . import (
    bindings,
    exports,
    families,
    pending,
    players,
    services,
    sharing,
    widgets,
)
from .forms import AS_SHARED, ProcedureForm
from .fragments import REQUEST_KEY_PLACEHOLDER
from .kept import kept
from .models import LogEntry, Numbering
from .odds_panel import ODDS_TIME_LIMIT
from .odds_panel import odds_for as _odds_for
from .selectors import (
    FilteredPage,
    Lazy,
    LogFilters,
    log_filter_choices,
    log_filtered,
    log_page,
)

PAGE = "play/procedure.html"


def _binding(procedure_id: str) -> bindings.Binding:
    try:
        return families.binding(procedure_id)
    except rules.InputError:
        raise Http404("No such procedure") from None


@gm_view("GET")
def procedure_index(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    sections = defaultdict(list)
    query = " ".join(request.GET.get("q", "").replace("\x00", "").split())[:80]
    for proc in rules.all_procedures():
        heading = families.procedure_title(proc.family)
        named = f"{heading} {proc.title}".lower().replace("-", " ")
        if all(word in named for word in query.lower().replace("-", " ").split()):
            sections[heading].append(proc)
    return render(
        request, "play/index.html", {"campaign": campaign, "families": dict(sections), "query": query}
    )


def _code(source, name: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(source.get(name, ""))
    except ValueError:
        return None


def _context_from(binding, campaign, source) -> bindings.Context:
    """The campaign objects named in ``source`` (query string or form data), unlocked;
    a code that names nothing in this campaign is ignored."""
    objects = {}
    for role in binding.roles:
        if code := _code(source, role.name):
            objects[role.name] = role.choices(campaign).filter(code=code).first()
    extras = {}
    for extra in binding.extras:
        if code := _code(source, extra.name):
            extras[extra.name] = extra.model.objects.in_campaign(campaign).filter(code=code).first()
    ctx = bindings.Context(
        campaign=campaign,
        objects={k: v for k, v in objects.items() if v is not None},
        extras={k: v for k, v in extras.items() if v is not None},
    )
    if binding.fill_roles:  # roles the state answers (the ship a unit landed on)
        accepted = {r.name: r for r in binding.roles}
        for name, obj in binding.fill_roles(ctx).items():
            if name not in ctx.objects and obj is not None and accepted[name].accepts(obj):
                ctx.objects[name] = obj
    return ctx


def _initial(binding, ctx) -> dict:
    values = dict(binding.initial(ctx))
    for name, obj in ctx.objects.items():
        values[name] = obj.code
    for name, obj in ctx.extras.items():
        values[name] = obj.code
    values["visibility"] = "gm" if ctx.objects and binding.secret(ctx) else AS_SHARED
    return values


def _kept(binding, ctx, source) -> dict:
    """The form's values that the records in their roles do not pre-fill."""
    prefilled = set(binding.prefilled(ctx))
    typed = {}
    for spec in binding.procedure.contract.inputs:
        kind = spec.type.kind
        if spec.name in prefilled:
            continue
        if kind == "bool" and not spec.type.nullable:
            typed[spec.name] = source.get(spec.name) == "on"
        elif kind not in ("int", "float", "bool", "enum", "str", "rational"):
            # Rows and checkboxes: the widget reads what was typed and shows it again.
            value = widgets.kept_value(binding.procedure.id, spec, source)
            if value is not None:
                typed[spec.name] = value
        elif spec.name in source:
            typed[spec.name] = source[spec.name]
    if source.get("visibility"):
        typed["visibility"] = source["visibility"]
    return typed


def _form_inputs(form) -> dict:
    if form.is_bound:
        return form.engine_inputs() if form.is_valid() else {}
    return {k: v for k, v in form.initial.items() if k in form.input_names}


class LazyForm(Lazy):
    """A form built when first used: by the template, or read from Python (``.initial``)."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self(), name)


def _page(
    request: htmx.HtmxHttpRequest,
    campaign,
    binding,
    form,
    *,
    ctx=None,
    refresh: bool = False,
    status: int = htmx.INVALID,
) -> HttpResponse:
    """The procedure's page (only its form for a ``refresh``); a submitted form comes
    back 422 with its errors and what was typed, replacing itself.

    A form shown afresh (GET) is kept whole in the fragment cache for the campaign's
    version, the GM and the query string: the form, its records' choices and its odds are
    built only when the page is not kept (``Lazy``). Each response carries its own CSRF
    token and its own request key."""
    bound = request.method == "POST"
    shown = form if isinstance(form, Lazy) else lambda: form
    if ctx is None:
        ctx = Lazy(_context_from, binding, campaign, request.POST if bound else request.GET)
    context = {
        # Named before the roll: what players would read of if the GM chose Everyone.
        "unshared": Lazy(
            lambda: sharing.names(sharing.unshared([*ctx().objects.values(), *ctx().extras.values()]))
        ),
        # Said before the roll: what the rules require that the records do not meet.
        "unmet": Lazy(lambda: binding.unmet(ctx(), _form_inputs(shown()))),
        # Asked before the roll: what the rules leave to the GM that the campaign lacks.
        "rulings": Lazy(lambda: binding.rulings_needed(ctx())),
        "campaign": campaign,
        "binding": binding,
        "procedure": binding.procedure,
        "form": form,
        "odds": Lazy(lambda: _odds_for(binding, shown(), time_limit=ODDS_TIME_LIMIT)),
        "role": "gm",
        "page": Lazy(log_page, campaign, "gm", 1),
    }
    if bound:
        response = htmx.form_card(
            request, PAGE, context, partial="procedure-form", target="#procedure-form", status=status
        )
        if request.htmx:  # the refusal is told beside the buttons, scrolled into view
            response["HX-Reswap"] = "outerHTML show:#roll-actions:bottom"
        return response
    # Rendered with placeholders for the form's request key (and, kept, the CSRF token),
    # which ``kept`` fills in for each visitor.
    return TemplateResponse(request, PAGE + ("#procedure-form" if refresh else ""), context)


def _fragment_name(procedure_id: str, params) -> str:
    """The kept page's name: the procedure and what its query string asks (as a digest,
    however long the query string)."""
    asked = sorted((name, value) for name, values in params.lists() for value in values)
    digest = hashlib.sha256(json.dumps(asked).encode()).hexdigest()[:32]
    return f"procedure-page:{procedure_id}:{digest}"


def _kept_page_name(request: htmx.HtmxHttpRequest, campaign: Campaign, procedure_id: str) -> str | None:
    """The kept procedure page a GET names: the procedure and its query string."""
    return _fragment_name(procedure_id, request.GET)


@gm_view("GET", "POST")
@kept(key=_kept_page_name)
def procedure_form(request: htmx.HtmxHttpRequest, campaign: Campaign, procedure_id: str) -> HttpResponse:
    binding = _binding(procedure_id)
    if request.method == "GET":
        refresh = bool(request.htmx and request.GET.get("refresh"))
        ctx = Lazy(_context_from, binding, campaign, request.GET)

        def unbound_form() -> ProcedureForm:
            initial = _initial(binding, ctx())
            if refresh:  # re-read the records; what the GM typed that they do not give stays
                initial.update(_kept(binding, ctx(), request.GET))
            form = ProcedureForm(initial=initial, binding=binding, campaign=campaign, kept_choices=True)
            form.show_sources(binding.sources(ctx()))
            form.fields["request_key"].initial = REQUEST_KEY_PLACEHOLDER
            return form

        return _page(request, campaign, binding, LazyForm(unbound_form), ctx=ctx, refresh=refresh)

    # The resolution reads (and locks) the records in their roles; the form only checks codes.
    form = ProcedureForm(request.POST, binding=binding, campaign=campaign, records_read_later=True)
    if form.adds_a_row():  # "Add a row": the form again, as typed, with one more blank row
        return _page(request, campaign, binding, form, status=200)
    if not form.is_valid():
        return _page(request, campaign, binding, form)
    physical = request.POST.get("action") == "enter"
    try:
        dice = form.entered_dice() if physical else None
        if physical and not dice and binding.procedure.contract.dice.strip() != "none":
            form.add_error("dice", "Enter the dice the table rolled, or press Roll to use the server's dice.")
            return _page(request, campaign, binding, form)
        entry = services.procedure_resolve(
            campaign=campaign,
            procedure_id=binding.procedure_id,
            inputs=form.engine_inputs(),
            dice=dice,
            actor=request.user,
            subjects=form.subjects(),
            extras=form.extras(),
            visibility=form.chosen_visibility(),
            audience=form.chosen_audience(),
            request_key=form.cleaned_data["request_key"],
            gm_ruling=form.cleaned_data["gm_ruling"],
        )
    except (rules.InputError, rules.DiceError, services.PlayError) as error:
        form.add_engine_error(error)
        return _page(request, campaign, binding, form)
    except ValidationError as error:
        form.add_error("dice", error)
        return _page(request, campaign, binding, form)
    pending.attach([entry], campaign)
    response = htmx.panel(
        request,
        "play/procedure.html#result-card",
        # The form stays on the page: a fresh key makes its next Roll a new resolution.
        {
            "campaign": campaign,
            "entry": entry,
            "role": "gm",
            "next_request_key": uuid.uuid4(),
            "next_step": _next_step(binding, entry, campaign),
        },
        back_to=reverse("play:entry", args=[campaign.code, entry.seq]),
    )
    # The form re-reads the records, so it shows the state the result left.
    return trigger_client_event(response, "procedure-resolved") if request.htmx else response


def _next_step(binding, entry, campaign) -> dict | None:
    """The step the result leads to, as a link to its form with the roles filled."""
    step = binding.next_step(entry, campaign) if binding.next_step else None
    if step is None or not all(step.roles.values()):
        return None
    query = "&".join(f"{name}={code}" for name, code in step.roles.items())
    return {
        "label": step.label,
        "url": reverse("play:procedure", args=[campaign.code, step.procedure_id]) + "?" + query,
    }


@gm_view("POST")
def procedure_odds(request: htmx.HtmxHttpRequest, campaign: Campaign, procedure_id: str) -> HttpResponse:
    binding = _binding(procedure_id)
    form = ProcedureForm(request.POST, binding=binding, campaign=campaign, odds_only=True)
    odds = _odds_for(binding, form, key=request.POST.get("odds_key"))
    return render(
        request,
        "play/procedure.html#odds-panel",
        {"odds": odds, "procedure": binding.procedure, "campaign": campaign},
    )


@member_view("GET")
def entry_detail(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, seq: int) -> HttpResponse:
    # Players address entries by their own numbering (``Numbering``), in which hidden
    # entries leave no gap; the GM by seq.
    numbering = Numbering.for_campaign(campaign, request.user) if role != "gm" else None
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .visible_to(role, request.user)
        .select_related("reversal_of", "reversed_by")
    )
    entry = get_object_or_404(entries, seq=numbering.seq(seq) if numbering else seq)
    entry.campaign = campaign  # the card reads it; not again from the database
    if numbering:
        [entry] = numbering.apply([entry])
    else:
        pending.attach([entry], campaign)
    context = {"campaign": campaign, "entry": entry, "role": role, "on_entry_page": not request.htmx}
    if request.htmx:  # a live result card refreshing itself (e.g. after an undo)
        context["card_prefix"] = "result-" if request.GET.get("prefix") == "result-" else ""
    # The card, kept while the campaign is unchanged (one per entry, reader and place).
    context["entry_fragment"] = (
        f"entry-{seq}-{context.get('card_prefix', '')}-{'card' if request.htmx else 'page'}"
    )
    return htmx.page(request, "play/entry.html", context, partial="entry-card")


@member_view("GET")
def log_list(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """The log as the campaign's diary: newest first, a heading for each turn and phase;
    filtered by turn, record, procedure or words when asked (a bad value: 400, with the
    page and the reason)."""
    # The panel refreshing itself on another page (the dashboard, a procedure) stays as it is there.
    embedded = request.GET.get("embedded") == "1"
    context = {"campaign": campaign, "role": role, "reader": request.user, "on_log_page": not embedded}
    context["choices"] = Lazy(log_filter_choices, campaign, role)
    try:
        filters = _log_filters(request.GET)
    except ValueError as error:
        context |= {"page": FilteredPage([], False, LogFilters()), "log_error": str(error)}
        return htmx.page(request, "play/log.html", context, partial="log-panel", status=400)
    if filters.active and not embedded:
        context["page"] = log_filtered(campaign, role, request.user, filters)
    else:
        number = _page_number(request.GET.get("page"))
        context["page"] = Lazy(log_page, campaign, role, number, request.user)
        # The newest pages, kept while the campaign is unchanged (filtered searches and
        # far pages are rendered each time: the cache holds a bounded number of keys).
        if (number or 1) <= CACHED_LOG_PAGES:
            context["log_fragment"] = f"log-page-{number or 1}-{'embedded' if embedded else 'full'}"
    context["filters"] = filters
    return htmx.page(request, "play/log.html", context, partial="log-panel")


MAX_SEARCH = 100
CACHED_LOG_PAGES = 20
PROCEDURE_ID = re.compile(r"^[a-z0-9_]{1,32}(\.[a-z0-9_]{1,32}){0,3}$")


def _page_number(value) -> int | None:
    return (
        int(value)
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10
        else None
    )


def _whole(params, name: str, what: str) -> int | None:
    value = params.get(name, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"{what} must be a whole number, 0 or more.")
    return int(value) if len(value) <= 18 else 2**62  # beyond any the log holds: none found


def _log_filters(params) -> LogFilters:
    """The log page's filters from its query string, each bounded; ValueError says why not."""
    if any("\x00" in value for values in params.lists() for value in values[1]):
        raise ValueError("The filters cannot hold a NUL character.")
    record = params.get("record", "").strip() or None
    if record is not None:
        try:
            record = str(uuid.UUID(record))
        except ValueError:
            raise ValueError("Choose the record from the list.") from None
    procedure = params.get("procedure", "").strip() or None
    if procedure is not None and not PROCEDURE_ID.match(procedure):
        raise ValueError("Choose the procedure from the list.")
    text = " ".join(params.get("q", "").split())
    if len(text) > MAX_SEARCH:
        raise ValueError(f"Search for at most {MAX_SEARCH} characters.")
    return LogFilters(
        turn=_whole(params, "turn", "The turn"),
        record=record,
        procedure=procedure,
        text=text,
        before=_whole(params, "before", "The entry to start before"),
    )


def _log_action(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int, action) -> HttpResponse:
    """Undo or reveal, answered where the button was pressed: the entry's card comes back
    in place (on the log, the entry page or a result card), with a refusal beside the
    button; the page's other panels follow through ``campaign-changed``."""
    entry = get_object_or_404(LogEntry.objects.in_campaign(campaign), seq=seq)
    error = ""
    try:
        action(entry=entry, actor=request.user)
    except (services.PlayError, pending.EffectError) as refusal:
        error = str(refusal)
    except LookupError as missing:  # a pending change the entry does not have
        raise Http404(str(missing)) from None
    prefix = "result-" if request.POST.get("prefix") == "result-" else ""

    def context() -> dict:
        fresh = LogEntry.objects.select_related("reversal_of", "reversed_by").get(pk=entry.pk)
        pending.attach([fresh], campaign)
        return {
            "campaign": campaign,
            "entry": fresh,
            "role": "gm",
            "card_prefix": prefix,
            "card_error": error,
        }

    back_to = reverse("play:log", args=[campaign.code])
    if request.POST.get("from") == "entry":  # the entry's own page
        back_to = reverse("play:entry", args=[campaign.code, entry.seq])
    return htmx.panel(
        request,
        "play/entry.html#entry-card",
        context,
        back_to=back_to,
        status=409 if error else 200,
        message=error,
    )


@gm_view("POST")
def log_undo(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int) -> HttpResponse:
    return _log_action(request, campaign, seq, services.log_entry_reverse)


@gm_view("POST")
def log_reveal(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int) -> HttpResponse:
    return _log_action(request, campaign, seq, services.log_entry_reveal)


@gm_view("POST")
def roll_accept(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int) -> HttpResponse:
    """A player's waiting roll: its effects apply now (``players.player_roll_decide``)."""
    return _log_action(request, campaign, seq, partial(players.player_roll_decide, accept=True))


@gm_view("POST")
def roll_reject(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int) -> HttpResponse:
    return _log_action(request, campaign, seq, partial(players.player_roll_decide, accept=False))


@gm_view("POST")
def effect_apply(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int, number: int) -> HttpResponse:
    return _log_action(
        request,
        campaign,
        seq,
        lambda **kw: pending.pending_effect_apply(
            number=number, record=request.POST.get("record", "")[:40], **kw
        ),
    )


@gm_view("POST")
def effect_dismiss(request: htmx.HtmxHttpRequest, campaign: Campaign, seq: int, number: int) -> HttpResponse:
    return _log_action(
        request, campaign, seq, lambda **kw: pending.pending_effect_dismiss(number=number, **kw)
    )


@gm_view("POST")
def phase_advance(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    services.campaign_phase_advance(campaign=campaign, actor=request.user)
    return _turn_panel(request, campaign)


UNITS = {"minutes": 60, "hours": 3600, "days": 86400}
WHOLE_AMOUNT = "Enter a whole number of minutes, hours or days."
# The digits 0 to 9 only (a minus sign is let through, for the service to refuse in its own
# words): int() alone would also read other scripts' digits ("٣", "３"), "1_000" and "+3".
CLOCK_AMOUNT = re.compile(r"-?[0-9]+")


def _clock_amount(text: str) -> int:
    """The amount the GM typed, or ValueError saying what to type instead."""
    if CLOCK_AMOUNT.fullmatch(text):
        # More digits than any amount within ten years: too far, in the service's words.
        return int(text) if len(text) <= 12 else 10**12
    if any(c.isdigit() and not c.isascii() for c in text):
        raise ValueError(f"{WHOLE_AMOUNT} Type it in the digits 0 to 9.")
    raise ValueError(WHOLE_AMOUNT)


@gm_view("POST")
def clock_advance(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        amount = _clock_amount(request.POST.get("amount", "").strip())
        unit = UNITS[request.POST.get("unit", "hours")]
    except ValueError as error:  # what to type instead
        return _turn_panel(request, campaign, error=str(error), status=htmx.INVALID)
    except KeyError:  # no such unit
        return _turn_panel(request, campaign, error=WHOLE_AMOUNT, status=htmx.INVALID)
    try:
        services.campaign_clock_advance(
            campaign=campaign,
            seconds=amount * unit,
            reason=request.POST.get("reason", "")[:120],
            actor=request.user,
        )
    except services.PlayError as error:  # a ValueError too, so it must come first
        return _turn_panel(request, campaign, error=str(error), status=htmx.INVALID)
    except ValueError:
        return _turn_panel(request, campaign, error=WHOLE_AMOUNT, status=htmx.INVALID)
    return _turn_panel(request, campaign)


def _turn_panel(request: htmx.HtmxHttpRequest, campaign: Campaign, *, error: str = "", status: int = 200):
    def context() -> dict:
        campaign.refresh_from_db()
        return {"campaign": campaign, "clock_error": error}

    return htmx.panel(
        request,
        "campaigns/dashboard.html#clock-panel",
        context,
        back_to=reverse("campaigns:detail", args=[campaign.code]),
        status=status,
        message=error,
    )


EXPORTS = {
    "csv": ("text/csv; charset=utf-8", "csv"),
    "json": ("application/json", "json"),
    "md": ("text/markdown; charset=utf-8", "md"),
}


def _turn_param(request: HttpRequest, name: str) -> int | None:
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"{name} must be a turn number")
    return int(value)


@member_view("GET")
def log_export(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str, fmt: str) -> HttpResponse:
    """The turn log as CSV, JSON or Markdown, streamed; players never get unrevealed secrets."""
    if fmt not in EXPORTS:
        raise Http404("No such export format")
    try:
        first, last = _turn_param(request, "from_turn"), _turn_param(request, "to_turn")
    except ValueError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    entries = exports.entries_for_export(
        campaign, role, first, last, numbered=fmt != "json", user=request.user
    )
    if fmt == "csv":
        chunks = exports.csv_chunks(entries)
    elif fmt == "json":
        partial = role != "gm" or first is not None or last is not None
        chunks = exports.json_chunks(campaign, entries, partial=partial)
    else:
        chunks = exports.markdown_chunks(campaign, entries)
    content_type, ext = EXPORTS[fmt]
    response = StreamingHttpResponse(chunks, content_type=content_type)
    span = f"-turns-{first or 1}-{last or 'end'}" if first or last else ""
    response["Content-Disposition"] = f'attachment; filename="{slugify(campaign.name)}-log{span}.{ext}"'
    return response


@gm_view("GET", "POST")
def campaign_settings(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Name, year, turn length and the clock set by hand; a change is logged and undoable."""
    form = CampaignSettingsForm(
        request.POST if request.method == "POST" else None, instance=Campaign.objects.get(pk=campaign.pk)
    )
    if request.method == "POST" and form.is_valid():
        services.campaign_settings_update(
            campaign=campaign, values={f: form.cleaned_data[f] for f in form.changed_data}, actor=request.user
        )
        return redirect("campaigns:detail", code=campaign.code)
    context = {"campaign": campaign, "form": form}
    return render(request, "campaigns/settings.html", context, status=htmx.form_status(form))
