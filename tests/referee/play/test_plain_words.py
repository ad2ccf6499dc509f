"""Every procedure page and a result card of each of the 63 procedures read in plain words:
no contract notation (null, [A12] tags, snake_case keys, UUIDs, Python reprs, True/False,
rulebook file names) on the pages a GM reads."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

import rules
from referee.play import families, wording
from referee.play.models import LogEntry
from tests.plain_words import notation_in
from tests.referee.conftest import htmx
from tests.referee.play.test_every_procedure import post_data

pytestmark = pytest.mark.django_db


def visible_text(page: str) -> str:
    """What a reader sees: text outside tags, scripts and styles, plus titles and labels."""
    # A JSON box holds what the GM types (a GM-data table), not words the page says.
    page = re.sub(r"(?is)<(script|style|textarea)\b.*?</\1>", " ", page)
    shown = re.findall(r'\b(?:title|aria-label|placeholder)="([^"]*)"', page)
    text = re.sub(r"(?s)<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *shown]))


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_a_procedure_page_and_its_result_card_read_in_plain_words(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    page = client.get(url)
    assert page.status_code == 200
    assert notation_in(visible_text(page.text)) == []
    assert "is required" not in visible_text(page.text)  # the odds panel asks calmly instead

    card = client.post(url, post_data(procedure, binding, cast.campaign), **htmx())
    assert card.status_code == 200, card.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
    assert notation_in(visible_text(card.text)) == []
    detail = client.get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
    assert notation_in(visible_text(detail.text)) == []


# What the engine's contract writes for itself and a GM should never read in a form's
# help, a field's label, a choice or the odds selector: its notation, not its meaning.
CONTRACT_NOTATION = {
    "null": re.compile(r"\bnull\b", re.I),
    "null made 'blank:' (a mapping, not words)": re.compile(r"\bblank\s*[:=)→]", re.I),
    "a toggle named, not what it does": re.compile(r"\btoggle\b", re.I),
    "GM-data": re.compile(r"\bGM-data\b", re.I),
    "a note to the engine ('informational;')": re.compile(r"\binformational\s*;", re.I),
    "snake_case": re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b"),
    "a dotted range (1..32)": re.compile(r"\d\s*\.\.\s*\d"),
    "a comparison sign": re.compile(r"[≥≤]|[<>]=?\s*\d|\b\w+\s*[<>]\s*\d"),
    "an equals sign as a mapping (0 = none)": re.compile(r"\s=\s"),
    "only numbers and signs": re.compile(r"^[\s\d.,+\-–−×/()]*\d[\s\d.,+\-–−×/()]*$"),
    "a unit letter left at the end of a label": re.compile(r"\s[a-z]$"),
    "a catalogue tag": re.compile(r"\[[A-Z]\d+\]"),
    "a key's shorthand (mod, crit, id, torp, prev, los)": re.compile(
        r"\b(?:mods?|crits?|ids?|torp|prev|los)\b", re.I
    ),
    "a snake_case key made words in brackets": re.compile(r"\((?:[A-Za-z-]+ ){2,}blank\)"),
}


def contract_notation(text: str) -> list[str]:
    return [what for what, pattern in CONTRACT_NOTATION.items() if pattern.search(str(text))]


def test_the_notation_patterns_catch_the_old_help_texts_and_pass_plain_words():
    old = [
        "toggle for 14-15",
        "GM-data (BattleSpace p. 46)",
        "informational; detection always uses it",
        "current; blank: not tracked (K-F integrity after blank)",
        "current; null = not tracked (kf_integrity_after null)",
        "blank: never jumped",
        "1..32",
        "0..2",
        "≥ 0",
        "Lw s",
        "Killer whale t",
        "To hit mod",
        "Candidate ids",
        "Radar crit boxes",
        "Torp",
    ]
    assert [text for text in old if not contract_notation(text)] == []
    plain = [
        "Count a roll of 14 or 15 as a drive failure that keeps the charge (the table leaves it open; "
        "by default the charge is lost).",
        "The Failed Jump Table (BattleSpace, p. 46), which the rulebook does not print; "
        "leave empty and the result asks you for the outcome.",
        "Hours since the ship last jumped; leave empty if it never has.",
        "Between 1 and 32.",
        "Tremor strength from 1 to 5.",
        "Distance to the K-F field, 1-2 km for a WarShip",
    ]
    assert {text: contract_notation(text) for text in plain} == {text: [] for text in plain}


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_every_input_label_help_choice_and_odds_outcome_reads_plainly(procedure_id):
    """Fast and without a database: what each of the form's inputs says, its choices, and
    the outcomes the odds selector offers, for every input of the procedure."""
    from referee.play.forms import input_field

    procedure = rules.get(procedure_id)
    found = {}
    for spec in procedure.contract.inputs:
        field = input_field(spec, procedure_id)
        shown = {"label": field.label, "help": field.help_text}
        for value, name in getattr(field, "choices", None) or []:
            shown[f"choice {value}"] = name
        for where, text in shown.items():
            if problems := contract_notation(text) + [p.split(":")[0] for p in notation_in(str(text))]:
                found[f"{spec.name} {where}: {text!r}"] = problems
    for key in procedure.result_keys:
        name = wording.label(key)
        if problems := contract_notation(name) + [p.split(":")[0] for p in notation_in(name)]:
            found[f"odds outcome {key}: {name!r}"] = problems
    assert found == {}


def test_every_input_the_contract_comments_on_has_help_in_words_and_the_table_names_real_inputs():
    """The contract's comment on an input is notation for the engine: each one has its words
    for people in the help table, and the table speaks only of inputs that exist."""
    from referee.play.help_words import HELP

    missing, unknown = [], []
    for procedure_id in rules.PROCEDURE_IDS:
        inputs = {spec.name: spec for spec in rules.get(procedure_id).contract.inputs}
        written = HELP.get(procedure_id, {})
        missing += [
            f"{procedure_id} {name}" for name, spec in inputs.items() if spec.help and name not in written
        ]
        unknown += [f"{procedure_id} {name}" for name in written if name not in inputs]
    unknown += [procedure_id for procedure_id in HELP if procedure_id not in rules.PROCEDURE_IDS]
    assert (missing, unknown) == ([], [])


def _record_fields():
    from django.apps import apps

    for model in apps.get_models():
        if not model.__module__.startswith("referee.") or model._meta.label == "play.LogEntry":
            continue  # the log's own columns are never a form's fields
        for field in model._meta.get_fields():
            if getattr(field, "auto_created", False) or not hasattr(field, "help_text"):
                continue
            yield f"{model._meta.label} {field.name}", field


@pytest.mark.parametrize("where,field", list(_record_fields()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_record_fields_label_and_help_read_plainly(where, field):
    """The record forms take their labels and help from the models: no catalogue tags,
    GM-data, dotted or dashed-number ranges standing for words."""
    texts = {"label": str(field.verbose_name), "help": str(field.help_text)}
    found = {
        f"{name}: {text!r}": problems
        for name, text in texts.items()
        if text and (problems := contract_notation(text) + [p.split(":")[0] for p in notation_in(text)])
    }
    assert found == {}
