"""Showing logged values the way a GM reads them (the words live in ``referee.play.wording``)."""

from django import template

from referee.play import markdown, wording

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
