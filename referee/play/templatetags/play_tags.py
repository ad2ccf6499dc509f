"""Showing logged values the way a GM reads them (the words live in ``referee.play.wording``)."""

from django import template

from referee.play import markdown, models, sharing, wording
from referee.play.models import WAITING_WORDS, Numbering
from referee.play.selectors import named_codes, records_seen

register = template.Library()


def _namer(context) -> wording.Namer:
    """One namer per rendering: each record code is looked up once."""
    cache = context.render_context
    if "namer" not in cache:
        cache["namer"] = wording.Namer(context.get("campaign"), context.get("role") or "player")
    return cache["namer"]


@register.filter
def show(value) -> str:
    """yes/no, times as the campaign clock shows them, lists as prose, nothing as an em dash."""
    return wording.words(value)


@register.simple_tag(takes_context=True)
def words(context, value) -> str:
    """Like ``show``, with record codes read as the records' names."""
    return wording.words(value, _namer(context))


@register.simple_tag(takes_context=True)
def pending_words(context, effect) -> str:
    return wording.pending(effect, _namer(context))


@register.filter
def label(key) -> str:
    return wording.label(str(key))


@register.filter
def phrase(key) -> str:
    return wording.phrase(str(key))


@register.filter
def plain(text) -> str:
    return wording.plain_text(text)


@register.filter
def book(reference) -> str:
    return wording.book_reference(reference)


@register.filter
def dice_order(text) -> list[str]:
    return wording.dice_order(text)


@register.filter
def note(text) -> str:
    """A note's text as safe Markdown (``referee.play.markdown``)."""
    return markdown.render(str(text or ""))


@register.filter
def record_codes(entry) -> str:
    """The codes of the records an entry is about (its roles and what it changed), for a
    reader who follows one record."""
    codes = []
    for value in (entry.inputs or {}).values():
        if isinstance(value, dict) and isinstance(value.get("code"), str):
            codes.append(value["code"])
    for change in entry.effects or ():
        if isinstance(change, dict) and isinstance(change.get("code"), str):
            codes.append(change["code"])
    return " ".join(dict.fromkeys(codes))


def _seen(context, entry) -> dict | None:
    """Which records the reader may know by name (``selectors.records_seen``); None: all."""
    if (context.get("role") or "player") == "gm":
        return None
    seen = getattr(entry, "seen", None)
    if seen is None:  # an entry shown on its own: read for its records alone
        codes = {c["code"] for c in named_codes(entry)}
        seen = entry.seen = records_seen(entry.campaign, context.get("role") or "player", codes)
    return seen


def _known(seen: dict | None, code: str, name: str) -> str:
    if seen is None or seen.get(str(code)) == 1:
        return name
    return sharing.kept_words(seen.get(str(code)))


@register.simple_tag(takes_context=True)
def subjects(context, entry) -> str:
    """The records an entry is about, by name as the reader may know them, as prose."""
    words = entry.words if isinstance(entry.words, dict) else {}
    seen = _seen(context, entry)
    names = []
    for subject in words.get("subjects") or []:
        name = _known(seen, subject.get("code", ""), subject.get("name", ""))
        if name not in names:
            names.append(name)
    return wording.prose(names) if names else ""


@register.simple_tag(takes_context=True)
def record_name(context, entry, change) -> str:
    """The record a change touched, by name as the reader may know it."""
    return _known(_seen(context, entry), change.get("code", ""), str(change.get("name", "")))


@register.simple_tag(takes_context=True)
def entry_text(context, entry, key: str) -> str:
    """An entry's title or summary in words, as the reader may read it (a player's roll
    that waited for the GM says who ruled on it, once someone has)."""
    words = entry.words if isinstance(entry.words, dict) else {}
    if (context.get("role") or "player") != "gm" and words.get(f"player_{key}"):
        text = words[f"player_{key}"]
    else:
        text = words.get(key) or wording.plain_text(getattr(entry, key, ""))
    if key == "summary" and WAITING_WORDS in text and (ruled := ruled_by(context, entry)):
        text = text.replace(WAITING_WORDS, f"{ruled}.")
    return text


def _reader(context) -> tuple[str, object]:
    """Who reads the page: their role and, for a player, who they are."""
    user = getattr(context.get("request"), "user", None) or context.get("reader")
    return (context.get("role") or "player"), (user if getattr(user, "pk", None) else None)


@register.simple_tag(takes_context=True)
def awaiting(context, entry) -> bool:
    """Whether a player's roll still waits for the GM as the reader may know: while they
    may read no ruling of it (a GM-only ruling of a blind roll leaves it waiting for players)."""
    return bool(getattr(entry, "pk", None)) and entry.awaiting_gm_for(*_reader(context))


@register.simple_tag(takes_context=True)
def ruled_by(context, entry) -> str:
    """ "accepted by #33" or "rejected by #34" as the reader reads it (``models.ruled_by``)."""
    if not getattr(entry, "pk", None):
        return ""
    role, user = _reader(context)
    numbering = None
    if entry.ruling_for(role, user) is None:
        return ""  # nothing to number
    if role != "gm":
        numbering = context.render_context.get("player_numbering")
        if numbering is None:
            campaign = context.get("campaign") or entry.campaign
            numbering = Numbering.for_campaign(campaign, user)
            context.render_context["player_numbering"] = numbering
    return models.ruled_by(entry, role, user, numbering)


@register.simple_tag(takes_context=True)
def undone_by(context, entry):
    """The number of the entry that undid ``entry``, if the reader may see that one."""
    undo = getattr(entry, "reversed_by", None) if entry.pk else None
    if undo is None:
        return None
    if (context.get("role") or "player") == "gm" or not undo.secret:
        return undo.number
    return None
