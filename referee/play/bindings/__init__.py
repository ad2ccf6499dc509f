"""How each procedure meets campaign state, declared in one place per rule family.

A :class:`Binding` says which campaign objects a procedure is about (its *roles*: the
jumping ship, the detector and the target, the boarding unit...), how the form is
pre-filled from them, which effect targets they stand for, and what else the
resolution changes (a jump that goes ahead moves the ship to its destination).

Every engine procedure has a binding: those without state still run as calculators.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import models
from django.utils.module_loading import autodiscover_modules

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

    def choices(self, campaign: Campaign) -> models.QuerySet:
        qs = self.model.objects.in_campaign(campaign)
        return qs.filter(**{f"{self.kind_field}__in": self.kinds}) if self.kinds else qs

    def accepts(self, obj: models.Model) -> bool:
        return isinstance(obj, self.model) and (not self.kinds or getattr(obj, self.kind_field) in self.kinds)


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
class Binding:
    procedure_id: str
    roles: tuple[Role, ...] = ()
    extras: tuple[Extra, ...] = ()
    label: str = ""  # the button on a ship/unit ("Jump", "Detection roll")
    prefill: Callable[[Context], dict] | None = None
    after: Callable[[Context, rules.Outcome, Any], None] | None = None  # further changes
    handled: tuple[str, ...] = ()  # effect fields (prefixes) that ``after`` applies
    secret: Callable[[Context], bool] = lambda ctx: False  # GM-only by default?

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
            values.update({k: v for k, v in self.prefill(ctx).items() if k in known})
        return values


BINDINGS: dict[str, Binding] = {}


def bind(binding: Binding) -> Binding:
    if binding.procedure_id in BINDINGS:
        raise ValueError(f"{binding.procedure_id} bound twice")
    procedure = rules.get(binding.procedure_id)  # only engine procedures can be bound
    clash = {r.name for r in binding.roles} | {e.name for e in binding.extras}
    clash &= {i.name for i in procedure.contract.inputs}
    if clash:
        raise ValueError(f"{binding.procedure_id}: role names {sorted(clash)} are also engine inputs")
    BINDINGS[binding.procedure_id] = binding
    return binding


def get(procedure_id: str) -> Binding:
    """The procedure's binding; a plain calculator when no family module binds it."""
    _load()
    rules.get(procedure_id)
    return BINDINGS.get(procedure_id) or Binding(procedure_id)


def for_object(obj: models.Model) -> list[Binding]:
    """The bindings whose first role this object can fill (its action buttons)."""
    _load()
    return [b for b in BINDINGS.values() if b.roles and b.label and b.roles[0].accepts(obj)]


_loaded = False


def _load() -> None:
    """Import the family modules here and every installed app's ``bindings`` module."""
    global _loaded
    if not _loaded:
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        autodiscover_modules("bindings")
        _loaded = True
