"""Showing logged values the way a GM reads them (the words live in ``referee.play.wording``)."""

from django import template

from referee.play import markdown, wording
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
    return "a record not shared with players" if str(code) in seen else "a record no longer kept"


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
    """An entry's title or summary in words, as the reader may read it."""
    words = entry.words if isinstance(entry.words, dict) else {}
    if (context.get("role") or "player") != "gm" and words.get(f"player_{key}"):
        return words[f"player_{key}"]
    return words.get(key) or wording.plain_text(getattr(entry, key, ""))


@register.simple_tag(takes_context=True)
def undone_by(context, entry):
    """The number of the entry that undid ``entry``, if the reader may see that one."""
    undo = getattr(entry, "reversed_by", None) if entry.pk else None
    if undo is None:
        return None
    if (context.get("role") or "player") == "gm" or not undo.secret:
        return undo.number
    return None
