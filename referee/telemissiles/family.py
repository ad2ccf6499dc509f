"""Tele-operated missiles as a rule family: everything this app brings to the house."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import Family, Panel

from .bindings import BINDINGS, RULES
from .forms import TelemissileForm
from .models import Telemissile
from .selectors import PANEL, missiles_context

FAMILY = Family(
    name="telemissiles",
    title="Tele-operated missiles",
    procedure_titles={"telemissile": "Tele-operated missiles"},
    group="space",
    menu_first={"telemissile.maneuver": 80, "telemissile.attack": 81},
    panels=(Panel("telemissiles", PANEL, missiles_context, order=70),),
    kinds=(Kind("telemissiles", Telemissile, TelemissileForm, "missile", "Tele-operated missiles", PANEL),),
    effects=RULES,
    bindings=tuple(BINDINGS),
)
