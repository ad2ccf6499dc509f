"""The words people read, kept beside the engine's contract (which stays the source of truth).

The contract names things for the engine: ``kf_integrity_after``, ``null = never jumped``,
``[A21] toggle``, a rulebook's file name. Here each of those becomes what a GM reads at the
table: a label from the wording table (or the key made readable), help without catalogue
tags or notation, values as yes/no and prose, records by name, times as the campaign's clock
shows them, and a rule reference as the book and section a GM looks up.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from functools import cache
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.utils.dateparse import parse_datetime

import rules

from . import sharing

ACRONYMS = {
    "kf": "K-F",
    "tn": "TN",
    "mp": "MP",
    "psr": "PSR",
    "au": "AU",
    "km": "km",
    "gm": "GM",
    "hpg": "HPG",
    "ir": "IR",
    "lf": "L-F",
    "ly": "LY",
    "af": "AF",
    "tp": "TP",
    "bld": "BLD",
    "ref": "REF",
    "mos": "MoS",
    "mof": "MoF",
    "bt": "BT",
    "bs": "BS",
    "ice": "ICE",
    "emp": "EMP",
    "esm": "ESM",
    "ssd": "SSD",
    "ai": "AI",
    "s": "s",
    "pa": "Pa",
    "t": "t",
    "m": "m",
    "h": "h",
    "min": "min",
}

# Words for keys whose made-readable form would still puzzle a GM (any procedure).
LABELS = {
    "tn": "Target number",
    "mos": "Margin of success",
    "mof": "Margin of failure",
    "kf_integrity_after": "K-F integrity afterwards",
    "malfunction_total": "Malfunction roll total",
    "hours_since_jump": "Hours since the last jump",
    "psr_tn": "Piloting roll target number",
    "start_mod": "Starting modifier",
    "nose_s": "Nose short-range damage",
    "lw_s": "Left wing short-range damage",
    "rw_s": "Right wing short-range damage",
    "min_interval_s": "Shortest interval (s)",
    "g": "G-force",
    "primary_g": "Primary threshold (G)",
    "secondary_g": "Secondary threshold (G)",
    "field_expands_after_ready_s": "Field expands after the drive is ready (s)",
    "candidate_ids": "Candidates",
    "reroll_locations": "Locations rolled again",
    "is_quad": "Four-legged 'Mech",
    "is_utility": "Utility 'Mech",
    "controller_ok": "Field controller works",
    "gm_waive": "Allow without a roll",
    "gm_mods": "Your further modifiers",
    "g_suit": "G-suit",
}

# Words of a key a GM would not write (``to_hit_mod``, ``radar_crit_boxes``): in labels,
# the word written out.
KEY_WORDS = {
    "mod": "modifier",
    "mods": "modifiers",
    "crit": "critical-hit",
    "crits": "critical hits",
    "torp": "torpedo",
    "prev": "previous",
    "los": "line of sight",
    "ok": "OK",
    "xl": "XL engine",
    "reroll": "rolled again",
    "dropship": "DropShip",
    "jumpship": "JumpShip",
    "ly": "light-years",
}

# A key's last word naming its unit (``ship_mass_t``): shown in brackets after the words.
UNIT_SUFFIXES = {
    "t": "t",
    "s": "s",
    "m": "m",
    "km": "km",
    "au": "AU",
    "ly": "LY",
    "h": "h",
    "min": "min",
    "pct": "%",
    "c": "°C",
    "pa": "Pa",
    "cbills": "C-bills",
}

# Rulebooks by the seed file the contract cites, as a GM names them.
BOOKS = {
    "000_": "Booby Traps",
    "004_": "Explorer Corps",
}

_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_TAG = re.compile(r"\s*\[[A-Z]\d+\](?:\[[A-Z]\d+\])*:?")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_SEED = re.compile(r"\b(\d{3}_)[0-9a-f]+\.txt\b")


def humanise(key: str, *, capital: bool = True) -> str:
    """``kf_integrity_max`` -> ``K-F integrity max`` (a key never shown raw)."""
    key = str(key).replace(".", "_").replace("-", "_")
    words = [ACRONYMS.get(w, w) for w in key.split("_") if w]
    if not words:
        return ""
    if capital and words[0] not in ACRONYMS.values():
        words[0] = words[0].capitalize()
    return " ".join(words)


def label(key: str) -> str:
    """A result or input key as a heading: the wording table's words, else the key made readable."""
    if key in LABELS:
        return LABELS[key]
    parts = [p for p in str(key).replace(".", "_").replace("-", "_").split("_") if p]
    if len(parts) > 1 and parts[0] == "is":  # ``is_quad``: a yes/no, read as what it asks
        parts = parts[1:]
    if len(parts) > 1 and parts[-1] in ("id", "ids"):  # ``target_id``: the record itself
        parts = parts[:-1]
    unit = parts.pop() if len(parts) > 1 and parts[-1] in UNIT_SUFFIXES else None
    words = [KEY_WORDS.get(p) or ACRONYMS.get(p, p) for p in parts]
    if words and words[0][:1].islower() and words[0] not in ACRONYMS.values():
        words[0] = words[0][:1].upper() + words[0][1:]
    text = " ".join(words)
    return f"{text} ({UNIT_SUFFIXES[unit]})" if unit else text


def phrase(key: str) -> str:
    """A key inside a sentence ("Odds of mishap"): the label, lower case unless it opens with an acronym."""
    text = label(key)
    first = text.split(" ", 1)[0]
    return text if first in ACRONYMS.values() or first.isupper() else text[:1].lower() + text[1:]


def choice(value: str) -> str:
    """An enum choice as an option reads: ``fore_left`` -> ``Fore left``; ``none`` stays lower case."""
    return "none" if value == "none" else humanise(value)


def plain_text(text: str) -> str:
    """Contract prose made readable: catalogue tags dropped, ``null`` as blank, snake_case
    keys as words, Python-style lists as prose, true/false as yes/no."""
    if not text:
        return ""
    text = _TAG.sub("", str(text))
    text = re.sub(
        r"\[((?:\s*\"[^\"]*\"\s*,?)+)\]", lambda m: prose(re.findall(r'"([^"]*)"', m.group(1))), text
    )
    text = re.sub(r"\s*!=\s*null\b", " is given", text)
    text = re.sub(r"\s*==\s*null\b|\s+is\s+null\b", " is blank", text)
    text = re.sub(r"\bnull\s*(=|→|->)\s*", "blank: ", text)
    text = re.sub(r"\bnull\b", "blank", text, flags=re.I)
    text = re.sub(r"\bNone\b", "none", text)
    text = text.replace("!=", "is not").replace("==", "is")
    text = re.sub(r"\b(True|true)\b", "yes", text)
    text = re.sub(r"\b(False|false)\b", "no", text)
    text = _SEED.sub(lambda m: book_of(m.group(1)), text)
    text = _SNAKE.sub(lambda m: humanise(m.group(0), capital=False), text)
    return re.sub(r"\s{2,}", " ", text).strip(" ;:,")


def help_text(text: str) -> str:
    return plain_text(text)


def book_of(prefix: str) -> str:
    return BOOKS.get(prefix[:4], "the rulebook")


def book_reference(reference: str) -> str:
    """``004_….txt, Drive-System Malfunctions; …`` -> ``Explorer Corps: Drive-System Malfunctions; …``."""
    if not reference:
        return ""
    match = _SEED.match(reference.strip())
    if not match:
        return plain_text(reference)
    rest = reference.strip()[match.end() :].lstrip(" ,")
    book = book_of(match.group(1))
    return f"{book}: {rest}" if rest else book


def prose(items) -> str:
    """``["a", "b", "c"]`` -> ``a, b and c``."""
    items = [str(i) for i in items]
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def when(moment: datetime | str | None) -> str:
    """A time as the campaign's clock shows it."""
    if isinstance(moment, str):
        moment = parse_datetime(moment)
    return "—" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


class Namer:
    """Record codes to names, for one campaign and reader; a record the reader may not see
    reads as such, never as its code."""

    def __init__(self, campaign=None, role: str | None = "gm"):
        self.campaign, self.role, self.names = campaign, role, {}

    def name(self, code: str) -> str:
        if code not in self.names:
            self.names[code] = self._lookup(code)
        return self.names[code]

    def _lookup(self, code: str) -> str:
        if self.campaign is not None:
            for model in apps.get_models():
                if not hasattr(model.objects, "visible_to") or not hasattr(model, "code"):
                    continue
                records = model.objects.in_campaign(self.campaign)
                found = records.filter(code=code).first()
                if found is not None:
                    if self.role != "gm" and not records.visible_to(self.role).filter(pk=found.pk).exists():
                        return sharing.kept_words(sharing.kept_mark(model))
                    return str(found)
        return sharing.GONE_RECORD


def words(value: Any, namer: Namer | None = None) -> str:
    """Any logged value as a person reads it."""
    if value is None or value == "":
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return prose(words(v, namer) for v in value) if value else "none"
    if isinstance(value, dict):
        if not value:
            return "none"
        if "unit_type" in value and "format" in value:  # a record sheet: named, never spelt out
            name = " ".join(str(value.get(k) or "") for k in ("chassis", "model")).strip()
            return f"the record sheet of {name}" if name else "a record sheet"
        return "; ".join(f"{humanise(k)}: {words(v, namer)}" for k, v in value.items())
    if isinstance(value, datetime):
        return when(value)
    if isinstance(value, uuid.UUID):
        value = str(value)
    if isinstance(value, str):
        if _UUID.match(value):
            return (namer or Namer()).name(value)
        if len(value) >= 19 and value[4] == "-" and "T" in value and parse_datetime(value):
            return when(value)
        return plain_text(value) if ("_" in value or "null" in value or "[" in value) else value
    return str(value)


def pending(effect: dict, namer: Namer | None = None) -> str:
    """An effect the GM applies by hand: ``unit · damage add 2`` -> ``Unit: add 2 to damage``."""
    target, what = humanise(effect.get("target", "")), humanise(effect.get("field", ""), capital=False)
    value, op = words(effect.get("value"), namer), effect.get("op")
    if op == "add":
        text = f"{target}: add {value} to {what}"
    elif op == "set":
        text = f"{target}: set {what} to {value}"
    else:
        text = f"{target}: {what} {humanise(str(op), capital=False)} {value}"
    why = effect.get("why")
    return f"{text} ({why})" if why else text


def dice_order(text: str) -> list[str]:
    """The contract's dice order, one readable line a roll."""
    lines = []
    for line in text.splitlines():
        line = line.strip().lstrip("- ").strip()
        if not line:
            continue
        line = re.sub(r"\[([^\]]+)\]", lambda m: f"(when {m.group(1)})", line)
        name, _, rest = line.partition(":")
        lines.append(f"{label(name.strip())}: {plain_text(rest)}" if rest else plain_text(line))
    return lines


# --- a log entry in words -----------------------------------------------------------------

# Log events that are not procedures of the rulebooks, as the log names them.
EVENTS = {
    "turn.advance": "Turn and phase",
    "clock.advance": "Clock",
    "clock.due": "Done on the clock",
    "clock.transit": "Transit",
    "clock.station_keeping": "Station-keeping fuel",
    "map.plan": "Route planned",
    "map.plan_drop": "Route dropped",
    "record.share": "Shared with players",
    "campaign.settings": "Campaign settings",
    "log.undo": "Undo",
    "record.create": "Record added",
    "record.edit": "Record edited",
    "record.delete": "Record deleted",
}
DICE_SOURCES = {"server": "the server's dice", "table": "the table's dice"}
_UUID_IN_TEXT = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_ISO_IN_TEXT = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?")


class _Codes:
    """A namer that also remembers which record codes a value named (for players, a value
    naming a record they may not see is told as such, not by its name)."""

    def __init__(self, name_of):
        self.name_of, self.seen = name_of, []

    def name(self, code: str) -> str:
        if code not in self.seen:
            self.seen.append(code)
        return (self.name_of(code) if self.name_of else None) or "a record no longer kept"


def sentence(text: str, name_of=None) -> str:
    """A logged sentence (summary or title) as a person reads it: contract notation made
    plain, record codes as names, times as the campaign clock shows them, arrows as arrows."""
    text = _UUID_IN_TEXT.sub(lambda m: _Codes(name_of).name(m.group(0)), str(text or ""))
    text = _ISO_IN_TEXT.sub(lambda m: when(m.group(0)), text)
    return plain_text(text.replace(" -> ", " → "))


def procedure_name(procedure: str) -> str:
    """A procedure or log event by name: ``jump.malfunction`` -> its title in the rules."""
    if procedure in EVENTS:
        return EVENTS[procedure]
    try:
        return plain_text(rules.get(procedure).title)
    except rules.InputError:
        return humanise(procedure.replace(".", "_")) if procedure else ""


@cache
def _choice_labels(target: str, field: str) -> dict[str, str]:
    """A record field's choices by their labels (``initiative`` -> ``Initiative Phase``)."""
    for model in apps.get_models():
        if model._meta.model_name == target:
            try:
                choices = model._meta.get_field(field).flatchoices or []
            except FieldDoesNotExist:
                return {}
            return {str(value): str(name) for value, name in choices}
    return {}


def _value(value, target: str, field: str, codes: _Codes) -> str:
    if isinstance(value, str) and value in (labels := _choice_labels(str(target), str(field))):
        return labels[value]
    if isinstance(value, dict) and "unit_type" in value:  # a record sheet: named, never spelt out
        name = " ".join(str(value.get(k) or "") for k in ("chassis", "model")).strip()
        return f"the record sheet of {name}" if name else "a record sheet"
    return words(value, codes)


def _modifiers(result: dict) -> str:
    """The result's modifiers and bonuses that are not nothing, whole numbers signed."""
    found = []
    for key, value in result.items():
        if not ("mod" in key or key.endswith("_bonus")) or value in (None, 0, False, [], {}):
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            shown = f"+{value}" if value > 0 else f"−{-value}"
        else:
            shown = words(value)
        found.append(f"{label(key)} {shown}")
    return "; ".join(found)


def entry_words(
    *,
    title: str,
    summary: str,
    reference: str = "",
    procedure: str = "",
    inputs: dict | None = None,
    rolls: list | None = None,
    result: dict | None = None,
    effects: list | None = None,
    name_of=None,
    player_name_of=None,
) -> dict:
    """What a person reads of a log entry, derived from what its hash covers (and, for a
    change to a record reference, the referenced record's name, ``name_of(code)``).

    Kept beside the entry (``LogEntry.words``) so the exports can write it without Python
    per entry. Records stay keyed by code (``subjects``, each change's ``code`` and the
    codes its values name, ``before_codes`` and ``after_codes``), so a player's copy names only the records players may see."""
    inputs, rolls, effects = inputs or {}, rolls or [], effects or []
    result = result if isinstance(result, dict) else {}
    if procedure:
        try:
            order = rules.get(procedure).result_keys
        except rules.InputError:  # an event, not a procedure: the result's own order
            order = []
        result = {k: result[k] for k in order if k in result} | result
    subjects: list[dict] = []

    def about(code, name) -> None:
        if code and all(s["code"] != str(code) for s in subjects):
            subjects.append({"code": str(code), "name": str(name or "a record no longer kept")})

    for key, value in inputs.items():
        if key.startswith("@") and isinstance(value, dict) and value.get("code"):
            about(value["code"], value.get("name"))
    changes = []
    for change in effects:
        if not isinstance(change, dict):
            continue
        before, after = _Codes(name_of), _Codes(name_of)
        changes.append(
            {
                "code": str(change.get("code", "")),
                "name": str(change.get("name", "")),
                "label": plain_text(str(change.get("label") or humanise(change.get("field", "")))),
                "before": _value(change.get("before"), change.get("target"), change.get("field"), before),
                "after": _value(change.get("after"), change.get("target"), change.get("field"), after),
                "before_codes": before.seen,
                "after_codes": after.seen,
            }
        )
        if change.get("target") != "campaign":
            about(change.get("code"), change.get("name"))
    if not subjects:  # an event of the campaign itself: a phase, the clock, its settings
        for change in effects:
            if isinstance(change, dict) and change.get("target") == "campaign":
                about(change.get("code"), change.get("name"))
    dice = inputs.get("@dice")
    dice = DICE_SOURCES.get(dice, "") if isinstance(dice, str) else ""
    # A title or summary that names a record by its code (a hand edit of a reference) is
    # kept twice: as the GM reads it, and as players read it (``player_name_of``: a record
    # kept from them as such; without it, every record so named).
    for_players = {}
    for key, text in (("title", title), ("summary", summary)):
        if _UUID_IN_TEXT.search(str(text or "")):
            for_players[f"player_{key}"] = sentence(
                text, player_name_of or (lambda code: sharing.KEPT_RECORD)
            )
    return {
        **for_players,
        # As the GM reads them, ready-made (a player's copy is made from the parts below).
        "about": prose(s["name"] for s in subjects) if subjects else "",
        "changed": "; ".join(f"{c['name']} {c['label']}: {c['before']} → {c['after']}" for c in changes),
        "procedure": procedure_name(procedure),
        "title": sentence(title, name_of),
        "summary": sentence(summary, name_of),
        "rule": book_reference(reference),
        "subjects": subjects,
        "changes": changes,
        "rolls": [label(str(r.get("label", ""))) if isinstance(r, dict) else "" for r in rolls],
        "modifiers": _modifiers(result),
        "dice": dice or ("not recorded" if rolls else ""),
    }


def words_of(entry, name_of=None, player_name_of=None) -> dict:
    """``entry_words`` of a log entry (a ``LogEntry`` or any row with its fields)."""
    return entry_words(
        title=entry.title,
        summary=entry.summary,
        reference=entry.reference,
        procedure=entry.procedure,
        inputs=entry.inputs,
        rolls=entry.rolls,
        result=entry.result,
        effects=entry.effects,
        name_of=name_of,
        player_name_of=player_name_of,
    )
