"""How each procedure meets campaign state, declared in one place per rule family.

A :class:`Binding` says which campaign objects a procedure is about (its *roles*: the
jumping ship, the detector and the target, the boarding unit...), how the form is
pre-filled from them, which effect targets they stand for, and what else the
resolution changes (a jump that goes ahead moves the ship to its destination).

Every engine procedure has a binding: those without state still run as calculators.
The modules beside this one are the core families; each declares its ``FAMILY``
(see ``referee.play.families``), which is how its bindings reach the house.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import models

import rules
from referee.campaigns.models import Campaign


@dataclass(frozen=True)
class Role:
    """A campaign object a procedure is about."""

    name: str  # form field name and query parameter: ship, target, unit, ...
    model: type[models.Model]
    label: str
    targets: tuple[str, ...] = ()  # the effect targets it stands for ("ship", "fighter")
    kinds: tuple[str, ...] = ()  # only objects of these kinds (empty: any)
    kind_field: str = "kind"  # the model field the kinds are read from
    required: bool = True
    # Said where the campaign has no record for the role: which records take the roll.
    when_none: str = ""

    def choices(self, campaign: Campaign) -> models.QuerySet:
        qs = self.model.objects.in_campaign(campaign)
        return qs.filter(**{f"{self.kind_field}__in": self.kinds}) if self.kinds else qs

    def accepts(self, obj: models.Model) -> bool:
        return isinstance(obj, self.model) and (not self.kinds or getattr(obj, self.kind_field) in self.kinds)

    def prepare(self, objects: list[models.Model]) -> None:
        """Read at once what ``accepts`` needs beyond the objects' own fields, for a page
        that lists many of them (a role that asks the database per object overrides it)."""


@dataclass(frozen=True)
class Extra:
    """A form field the engine does not have (e.g. the jump's destination)."""

    name: str
    model: type[models.Model]
    label: str
    help: str = ""


@dataclass
class Context:
    campaign: Campaign
    objects: dict[str, models.Model]  # role name -> object (locked during a resolution)
    extras: dict[str, Any] = field(default_factory=dict)
    outcome: rules.Outcome | None = None  # set once the procedure is resolved
    takes_time: str = ""  # the entry's sentence on what the outcome's time holds back
    # What each binding's prefill read for these records: a form's page asks for its values,
    # their sources and what they fix several times, and the records are read once.
    prefills: dict[tuple, dict] = field(default_factory=dict, repr=False, compare=False)

    @property
    def clock(self) -> datetime:
        return self.campaign.clock

    def targets(self, binding: Binding) -> dict[str, models.Model]:
        found = {"campaign": self.campaign}
        for role in binding.roles:
            obj = self.objects.get(role.name)
            if obj is not None:
                found.update(dict.fromkeys(role.targets, obj))
        return found


@dataclass(frozen=True)
class Precondition:
    """Something the rules say must hold before the procedure can happen at all.

    ``holds(ctx, inputs)`` reads the records in their roles (and the engine inputs); it is
    only asked when every role it reads is filled. ``text`` says what must hold, ``rule``
    where the seeds say so. The GM may waive it with a GM ruling, which the entry records."""

    text: str
    rule: str
    holds: Callable[[Context, dict], bool]
    reads: tuple[str, ...] = ()  # the role names it needs


@dataclass(frozen=True)
class Sourced:
    """A pre-filled value with where it came from, as the form says it ("from the sheet")."""

    value: Any
    source: str


FROM_THE_SHEET = "from the sheet"
FROM_THE_RECORD = "from the record"
FROM_THE_MAP = "from the map"
TYPED = "typed by the GM"


@dataclass(frozen=True)
class Missing:
    """An input the campaign cannot answer: the form leaves it blank and says what is
    missing and how to supply it, instead of a zero that looks like data."""

    text: str


@dataclass(frozen=True)
class Ruling:
    """A value the rules leave to the GM that the campaign does not hold yet (a terrain row
    the rulebook names without printing): the form asks for it, with a link to where the
    GM supplies it and the rulebook's words, before anything is rolled."""

    what: str  # "Heavy jungle: to-hit and PSR not filled in"
    link: str  # the page where the GM supplies it
    action: str  # the link's words: "Fill in its row"
    reference: str  # where the rulebook says so, in words


@dataclass(frozen=True)
class NextStep:
    """The procedure a result leads to, with its roles filled (codes by role name)."""

    label: str
    procedure_id: str
    roles: dict[str, str]


def subject(entry, name: str) -> str | None:
    """The code of the record that filled role ``name`` in a logged resolution."""
    found = entry.inputs.get(f"@{name}")
    return found.get("code") if isinstance(found, dict) else None


@dataclass(frozen=True)
class Binding:
    procedure_id: str
    roles: tuple[Role, ...] = ()
    extras: tuple[Extra, ...] = ()
    label: str = ""  # the button on a ship/unit ("Jump", "Detection roll")
    prefill: Callable[[Context], dict] | None = None
    # What else the outcome changes that is no engine effect (a jump carries the ship to its
    # destination); the effects themselves land through the families' effect rules only.
    after: Callable[[Context, rules.Outcome, Any], None] | None = None
    secret: Callable[[Context], bool] = lambda ctx: False  # GM-only by default?
    preconditions: tuple[Precondition, ...] = ()
    # Roles the state fills when the GM has not chosen them (the ship a unit landed on).
    fill_roles: Callable[[Context], dict[str, models.Model]] | None = None
    # The step a result leads to (a charged drive -> the jump), offered on the result card.
    next_step: Callable[[Any, Campaign], NextStep | None] | None = None
    # Inputs the pre-fill measures on the map (distances): the entry says whether the
    # figure rolled with was the map's or one the GM typed.
    measured: tuple[str, ...] = ()
    # What the GM must rule on before the roll (rows the rulebook does not print).
    rulings: Callable[[Context], list[Ruling]] | None = None
    # Whether a record in the first role may take the roll at all, from its kind and sheet
    # (a fighter detects no emergence wave): its Roll… menu offers only what it may.
    offered: Callable[[models.Model], bool] | None = None
    # The inputs that are the GM's data or house-rule options, never the roller's (a rule
    # toggle, a row the books leave to the GM): a player's form shows the campaign's, fixed.
    # The GM's tables and charts are the GM's by their type and need not be named here.
    gm_inputs: tuple[str, ...] = ()

    def _read(self, ctx: Context, *, unbound: bool = False) -> dict:
        """What the prefill gives: from the records in their roles, or (``unbound``, a form
        opened with none chosen) from the campaign alone, such as its year."""
        if self.prefill is None or not (ctx.objects or unbound):
            return {}
        # The same records (and extras) in their roles give the same values: read them once.
        asked = (
            self.procedure_id,
            tuple((name, id(obj)) for name, obj in ctx.objects.items()),
            tuple((name, id(obj)) for name, obj in ctx.extras.items()),
        )
        if asked not in ctx.prefills:
            ctx.prefills[asked] = self.prefill(ctx)
        return ctx.prefills[asked]

    def prefilled(self, ctx: Context, *, unbound: bool = False) -> dict:
        """The values the records in their roles give (what they cannot give left out)."""
        return {
            name: value.value if isinstance(value, Sourced) else value
            for name, value in self._read(ctx, unbound=unbound).items()
            if not isinstance(value, Missing)
        }

    def sources(self, ctx: Context, *, unbound: bool = False) -> dict[str, str | Missing]:
        """Where each pre-filled input came from ("from the sheet", "from the map"), and for
        an input the campaign cannot answer, what is missing."""
        found: dict[str, str | Missing] = {}
        for name, value in self._read(ctx, unbound=unbound).items():
            if isinstance(value, Missing):
                found[name] = value
            elif isinstance(value, Sourced):
                found[name] = value.source
            elif name in self.measured and value is not None:
                found[name] = FROM_THE_MAP
        return found

    def measurements(self, ctx: Context, inputs: dict) -> dict[str, str]:
        """For each input the map or the sheet gives, whether the roll used that figure
        ("from the map", "from the sheet") or one the GM typed."""
        sources = {k: v for k, v in self.sources(ctx).items() if isinstance(v, str)}
        sources.update({name: TYPED for name in self.measured if name not in sources and ctx.objects})
        if not sources:
            return {}
        given = self.prefilled(ctx)
        return {
            name: source if given.get(name) is not None and given[name] == inputs[name] else TYPED
            for name, source in sources.items()
            if inputs.get(name) is not None and source in (FROM_THE_MAP, FROM_THE_SHEET)
        }

    def offered_to(self, obj: models.Model) -> bool:
        """Whether ``obj`` fills the first role and its kind and sheet allow the roll."""
        return bool(self.roles) and self.roles[0].accepts(obj) and (self.offered is None or self.offered(obj))

    def rulings_needed(self, ctx: Context) -> list[Ruling]:
        """What the records in their roles leave for the GM to rule on first."""
        return self.rulings(ctx) if self.rulings is not None and ctx.objects else []

    def unmet(self, ctx: Context, inputs: dict) -> list[Precondition]:
        """The preconditions the records in their roles (and the inputs) do not meet."""
        return [
            p
            for p in self.preconditions
            if all(name in ctx.objects for name in p.reads) and not p.holds(ctx, inputs)
        ]

    @property
    def procedure(self) -> rules.Procedure:
        return rules.get(self.procedure_id)

    def initial(self, ctx: Context) -> dict:
        """Form values: the procedure's example for calculators, state where bound."""
        known = {i.name for i in self.procedure.contract.inputs}
        values = {i.name: i.default for i in self.procedure.contract.inputs if not i.required}
        if not self.roles:
            values.update(self.procedure.example)
        if self.prefill:
            values.update({k: v for k, v in self.prefilled(ctx, unbound=True).items() if k in known})
            for name, source in self.sources(ctx, unbound=True).items():  # missing: blank, not 0
                if isinstance(source, Missing) and name in known:
                    values[name] = None
        return values


class BindingList(list):
    """A family's bindings in the order it declares them (the order of a record's Roll… menu)."""

    def add(self, binding: Binding) -> Binding:
        self.append(binding)
        return binding
