"""Rule families: what each one brings to the house, declared once and read in one place.

A family (booby traps, terrain, jump drives...) is one :class:`Family` object: the
headings of its procedures in the catalogue, its dashboard panels, the kinds of record
the GM keeps for it, the effect rules that land the engine's effects on those records,
the bindings that tie its procedures to them, and the steps it runs at every End Phase.

The families are found once, at start-up (``PlayConfig.ready``): the core families in
``referee/play/bindings/*.py`` and a ``family.py`` in every installed app, each defining
``FAMILY``. ``FAMILIES`` is then the whole plugin list, like healthchecks' ``TRANSPORTS``.
The recipe for a new one is ``docs/adding-a-rule-family.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.apps import apps
from django.db import models
from django.utils.module_loading import module_has_submodule

import rules
from referee.campaigns.models import Campaign
from referee.fleet.forms import Kind

from . import bindings
from .bindings import Binding, Role

# The dashboard's groups of records, in the order it shows them: each panel sits in its
# family's group (or its own). A group with no records is folded away.
GROUPS: dict[str, str] = {
    "space": "Space",
    "ground": "Ground",
    "shipboard": "Shipboard and crew",
    "logistics": "Logistics",
    "traps": "Booby traps",
    "other": "More records",
}


def _records_in(context: Any) -> int:
    """How many records a panel's context holds: a page's total (a panel that shows some of
    its records at a time), a list's length, or for a mapping the lengths of its lists added
    up (a panel whose context reads otherwise says so itself)."""
    if isinstance(getattr(context, "total", None), int):
        return context.total
    if isinstance(context, Mapping):
        return sum(_records_in(v) for v in context.values() if not isinstance(v, (Mapping, str)))
    if isinstance(context, (list, tuple, models.QuerySet)):
        return len(context)
    return 0


@dataclass(frozen=True)
class Panel:
    """A panel of the GM's dashboard: ``template`` is rendered with ``context(campaign)``
    under ``name`` (its element id is ``<name>-panel``), in ``group`` (by default its
    family's); ``records(context)`` says how many records it shows (none: folded away)."""

    name: str
    template: str  # e.g. "boobytraps/panel.html#boobytraps-panel"
    context: Callable[[Campaign], Any]
    order: int = 100
    group: str = ""
    records: Callable[[Any], int] = _records_in


# An effect rule turns (record, effect, context, **placeholders) into changes: (field, value)
# pairs for the record the effect targets, or (record, field, value) for another record.
Apply = Callable[..., list[tuple]]


@dataclass(frozen=True)
class EffectRule:
    """How one engine effect lands on what the campaign stores.

    ``field`` is the effect's field, or with ``pattern`` a regular expression whose named
    groups are passed to ``apply`` as keywords. With ``procedure`` the rule holds only for
    that procedure's effects (and comes before a rule for every procedure). An effect no
    rule takes, or whose rule returns no change, stays pending: shown to the GM, never guessed.
    """

    target: str  # the engine's effect target: "ship", "booby_trap", "campaign"...
    field: str
    apply: Apply
    pattern: bool = False
    procedure: str = ""

    def match(self, target: str, field: str, procedure: str) -> dict | None:
        if target != self.target or (self.procedure and procedure != self.procedure):
            return None
        if not self.pattern:
            return {} if field == self.field else None
        found = re.fullmatch(self.field, field)
        return found.groupdict() if found else None


@dataclass(frozen=True)
class EndPhaseStep:
    """At every End Phase, ``binding``'s procedure is resolved for each record ``records``
    finds (the record fills the binding's first role), with the inputs pre-filled as on
    the GM's form and ``inputs(record, campaign)`` on top."""

    binding: Binding
    records: Callable[[Campaign], Iterable[models.Model]]
    inputs: Callable[[models.Model, Campaign], dict] | None = None
    visibility: str | None = None  # None: the binding's own default


@dataclass(frozen=True)
class Timer:
    """A procedure whose result takes campaign time (a drive charge takes its hours).

    ``start(ctx, effects, recorder)`` is called in the resolution's transaction, the outcome
    in ``ctx.outcome``: it keeps back the effects that land only when the time is up (on
    the record it starts, through ``recorder`` so that undoing the roll undoes the start)
    and returns the effects that land now and a sentence for the entry ("Done 3067-03-21 14:00.")."""

    procedure_id: str
    start: Callable[[Any, list[dict], Any], tuple[list[dict], str]]


# Run whenever the campaign clock moves (Advance clock, a new turn), the campaign locked:
# ``hook(campaign=..., actor=...)`` writes what came due and returns its log entries.
ClockHook = Callable[..., list]


@dataclass(frozen=True)
class Family:
    name: str
    title: str
    # The catalogue's headings of the procedure families it binds ("jump": "Jump drives").
    procedure_titles: Mapping[str, str] = field(default_factory=dict)
    panels: tuple[Panel, ...] = ()
    kinds: tuple[Kind, ...] = ()
    effects: tuple[EffectRule, ...] = ()
    bindings: tuple[Binding, ...] = ()
    end_phase: tuple[EndPhaseStep, ...] = ()
    group: str = "other"  # where its panels sit on the dashboard (``GROUPS``)
    # What a GM reaches for most: these procedures open a record's Roll… menu, lowest rank
    # first across every family (a ship's Jump, then Charge drive, then Detect emergence).
    menu_first: Mapping[str, int] = field(default_factory=dict)
    # Where this family's headings come in a record's menu after those, lowest first.
    menu_rank: int = 100
    # Read-only panels of the players' page: what the family's records show of what is
    # shared with players (the context function reads only that). Live like the rest of it.
    player_panels: tuple[Panel, ...] = ()
    # Procedures whose result takes time, and what runs when the clock moves (in family order).
    timers: tuple[Timer, ...] = ()
    on_clock: tuple[ClockHook, ...] = ()
    # Procedures resolved, like End Phase steps, whenever the clock moves (the day's meals).
    clock_steps: tuple[EndPhaseStep, ...] = ()


FAMILIES: list[Family] = []
_BINDINGS: dict[str, Binding] = {}
_KINDS: dict[str, Kind] = {}
_PANELS: list[Panel] = []
_PLAYER_PANELS: list[Panel] = []
_TITLES: dict[str, str] = {}
_RULES: dict[tuple[str, str, str], EffectRule] = {}
_PATTERNS: list[EffectRule] = []
_END_PHASE: list[EndPhaseStep] = []
_MENU_FIRST: dict[str, int] = {}
_HEADING_RANK: dict[str, int] = {}
_TIMERS: dict[str, Timer] = {}
_ON_CLOCK: list[ClockHook] = []
_CLOCK_STEPS: list[EndPhaseStep] = []


def _check_binding(binding: Binding) -> None:
    if binding.procedure_id in _BINDINGS:
        raise ValueError(f"{binding.procedure_id} bound twice")
    procedure = rules.get(binding.procedure_id)  # only engine procedures can be bound
    clash = {r.name for r in binding.roles} | {e.name for e in binding.extras}
    clash &= {i.name for i in procedure.contract.inputs}
    if clash:
        raise ValueError(f"{binding.procedure_id}: role names {sorted(clash)} are also engine inputs")


def register(family: Family) -> Family:
    """Add a family to the house; two families may not claim the same thing."""
    if any(f.name == family.name for f in FAMILIES):
        raise ValueError(f"family {family.name} registered twice")
    for binding in family.bindings:
        _check_binding(binding)
        _BINDINGS[binding.procedure_id] = binding
    for kind in family.kinds:
        if kind.slug in _KINDS:
            raise ValueError(f"record kind {kind.slug} declared twice")
        _KINDS[kind.slug] = kind
    for panel in family.panels:
        if any(p.name == panel.name for p in _PANELS):
            raise ValueError(f"panel {panel.name} declared twice")
        group = panel.group or family.group
        if group not in GROUPS:
            raise ValueError(f"panel {panel.name}: no dashboard group {group!r}")
        _PANELS.append(replace(panel, group=group))
    _PANELS.sort(key=lambda p: (p.order, p.name))
    for panel in family.player_panels:
        if any(p.name == panel.name for p in _PLAYER_PANELS):
            raise ValueError(f"player panel {panel.name} declared twice")
        _PLAYER_PANELS.append(panel)
    _PLAYER_PANELS.sort(key=lambda p: (p.order, p.name))
    for procedure_family, title in family.procedure_titles.items():
        if procedure_family in _TITLES:
            raise ValueError(f"procedures {procedure_family} have two titles")
        _TITLES[procedure_family] = title
        _HEADING_RANK[procedure_family] = family.menu_rank
    for procedure_id, rank in family.menu_first.items():
        if procedure_id in _MENU_FIRST:
            raise ValueError(f"{procedure_id} ranked twice in the menus")
        _MENU_FIRST[procedure_id] = rank
    for rule in family.effects:
        if rule.pattern:
            _PATTERNS.append(rule)
            continue
        key = (rule.target, rule.field, rule.procedure)
        if key in _RULES:
            raise ValueError(f"effect {rule.target}.{rule.field} has two rules")
        _RULES[key] = rule
    _END_PHASE.extend(family.end_phase)
    for timer in family.timers:
        if timer.procedure_id in _TIMERS:
            raise ValueError(f"{timer.procedure_id} has two timers")
        _TIMERS[timer.procedure_id] = timer
    _ON_CLOCK.extend(family.on_clock)
    _CLOCK_STEPS.extend(family.clock_steps)
    FAMILIES.append(family)
    return family


def discover() -> None:
    """Register every family: the core ones in ``play/bindings``, then each installed
    app's ``family`` module, in ``INSTALLED_APPS`` order (the End Phase runs in this order)."""
    if FAMILIES:
        return
    names = [f"{bindings.__name__}.{m.name}" for m in pkgutil.iter_modules(bindings.__path__)]
    names += [
        f"{config.name}.family"
        for config in apps.get_app_configs()
        if module_has_submodule(config.module, "family")
    ]
    for name in names:
        register(importlib.import_module(name).FAMILY)


# -- Reading the house ------------------------------------------------------------------


def binding(procedure_id: str) -> Binding:
    """The procedure's binding; a plain calculator when no family binds it.
    An unknown procedure is a ``rules.InputError``."""
    rules.get(procedure_id)
    return _BINDINGS.get(procedure_id) or Binding(procedure_id)


def all_bindings() -> list[Binding]:
    """Every binding of every family, in the order they were found."""
    return list(_BINDINGS.values())


def prepare_menus(objects: list[models.Model]) -> None:
    """Let each kind of menu role read what it needs for all ``objects`` at once (one
    query per kind of role), so listing records' Roll… menus costs the same whatever
    their number."""
    done: set[type[Role]] = set()
    for bound in _BINDINGS.values():
        if bound.roles and bound.label:
            role = bound.roles[0]
            if type(role).prepare is not Role.prepare and type(role) not in done:
                done.add(type(role))
                role.prepare(objects)


def bindings_for(obj: models.Model) -> list[Binding]:
    """The bindings whose first role this record can fill (its Roll… menu)."""
    return [b for b in _BINDINGS.values() if b.label and b.offered_to(obj)]


def has_menu(obj: models.Model) -> bool:
    """Whether the record may have a Roll… menu, from its type and kind alone (no query, no
    walk over every binding): the dashboard shows the button, the menu itself is read when
    opened (``bindings_for``)."""
    roles = _menu_kinds()
    kinds = [k for cls in type(obj).__mro__ for k in roles.get(cls, ())]
    return any(not wanted or getattr(obj, field, None) in wanted for field, wanted in kinds)


def _menu_kinds() -> dict[type, set[tuple[str, frozenset]]]:
    """For each model a menu role takes: (kind field, kinds) of each such role."""
    if len(_MENU_KINDS_FOR) != len(_BINDINGS):
        _MENU_KINDS.clear()
        for bound in _BINDINGS.values():
            if bound.roles and bound.label:
                role = bound.roles[0]
                _MENU_KINDS.setdefault(role.model, set()).add((role.kind_field, frozenset(role.kinds)))
        _MENU_KINDS_FOR[:] = list(_BINDINGS)
    return _MENU_KINDS


_MENU_KINDS: dict[type, set[tuple[str, frozenset]]] = {}
_MENU_KINDS_FOR: list[str] = []


def menu(found: list[Binding]) -> list[tuple[str, list[Binding]]]:
    """A record's Roll… menu in the order a GM reaches for it: first, without a heading,
    the procedures the families rank (``Family.menu_first``), by rank; then the rest under
    their catalogue headings, headings by their family's ``menu_rank``, then by name."""
    first = sorted(
        (b for b in found if b.procedure_id in _MENU_FIRST), key=lambda b: _MENU_FIRST[b.procedure_id]
    )
    sections: dict[str, list[Binding]] = {}
    for b in found:
        if b.procedure_id not in _MENU_FIRST:
            sections.setdefault(b.procedure_id.split(".", 1)[0], []).append(b)
    order = sorted(sections, key=lambda prefix: (_HEADING_RANK.get(prefix, 100), procedure_title(prefix)))
    return ([("", first)] if first else []) + [
        (procedure_title(prefix), sections[prefix]) for prefix in order
    ]


def kinds() -> dict[str, Kind]:
    """Every kind of record the GM keeps, by slug, in the order the families declare them."""
    return dict(_KINDS)


def kind(slug: str) -> Kind | None:
    return _KINDS.get(slug)


def panels() -> list[Panel]:
    return list(_PANELS)


def player_panels() -> list[Panel]:
    return list(_PLAYER_PANELS)


def procedure_title(procedure_family: str) -> str:
    """The catalogue's heading for a procedure family ("jump" -> "Jump drives")."""
    return _TITLES.get(procedure_family, procedure_family)


def effect_rule(target: str, field: str, procedure: str = "") -> Callable[..., list[tuple]] | None:
    """The rule for one effect: a rule of this procedure first, then one for every procedure;
    within each, an exact field before a pattern."""
    for scope in dict.fromkeys((procedure, "")):
        if (target, field, scope) in _RULES:
            return _RULES[target, field, scope].apply
        for rule in _PATTERNS:
            groups = rule.match(target, field, procedure) if rule.procedure == scope else None
            if groups is not None:
                return lambda obj, effect, ctx, rule=rule, groups=groups: rule.apply(
                    obj, effect, ctx, **groups
                )
    return None


def end_phase_steps() -> list[EndPhaseStep]:
    return list(_END_PHASE)


def start_timer(ctx, effects: list[dict], recorder, procedure_id: str) -> tuple[list[dict], str]:
    """The effects that land now, and the entry's sentence on what takes time: a procedure
    with a timer keeps back what lands only when its time is up."""
    timer = _TIMERS.get(procedure_id)
    return timer.start(ctx, effects, recorder) if timer else (effects, "")


def clock_hooks() -> list[ClockHook]:
    return list(_ON_CLOCK)


def clock_steps() -> list[EndPhaseStep]:
    return list(_CLOCK_STEPS)
