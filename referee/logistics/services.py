"""Writes of the logistics app that are not procedures."""

from __future__ import annotations

import copy

from django.db import transaction

from referee.campaigns.models import Campaign
from referee.campaigns.names import free_name
from referee.fleet.models import Character, Unit
from rules.tables import characters as templates

from .models import CharacterSheet


class TemplateError(ValueError):
    """A character template the app does not know, or a unit from elsewhere."""


def _free_name(campaign: Campaign, base: str) -> str:
    """``base``, or ``base 2``, ``base 3``... so one-click recruits can be told apart."""
    taken = (
        Character.objects.in_campaign(campaign).filter(name__istartswith=base).values_list("name", flat=True)
    )
    return free_name(base, taken)


@transaction.atomic
def character_from_template(
    *, campaign: Campaign, template: str, name: str = "", unit: Unit | None = None
) -> Character:
    """A character made from a printed template: the fleet's Character gets the fields it has
    (role, BLD, REF, skill target numbers), the sheet keeps the rest of the template."""
    if template not in templates.TEMPLATES:
        raise TemplateError(f"No character template called {template!r}.")
    if unit is not None and unit.campaign_id != campaign.pk:
        raise TemplateError("That unit belongs to another campaign.")
    data = templates.TEMPLATES[template]
    sheet = copy.deepcopy(data)
    fields = sheet.pop("character_fields")
    character = Character(
        campaign=campaign,
        name=_free_name(campaign, name.strip() or data["name"]),
        unit=unit,
        **fields,
    )
    character.full_clean()
    character.save()
    CharacterSheet.objects.create(
        campaign=campaign, name=character.name, character=character, template=template, sheet=sheet
    )
    return character
