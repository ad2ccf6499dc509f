"""Record sheets as a family: the campaign's designs on the dashboard, and the effect rules
that put damage on units' and ships' sheets."""

from __future__ import annotations

from referee.fleet.forms import Kind
from referee.play.families import Family, Panel

from .effects import RULES
from .forms import DesignForm
from .models import Design
from .selectors import PANEL, designs_context

FAMILY = Family(
    name="sheets",
    title="Record sheets",
    panels=(Panel("designs", PANEL, designs_context, order=80),),
    kinds=(Kind("designs", Design, DesignForm, "design", "Designs", PANEL),),
    effects=RULES,
)
