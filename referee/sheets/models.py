"""A campaign's designs: record sheets kept to start new units and ships from."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from referee.fleet.models import CampaignObject

from . import document


class UnitType(models.TextChoices):
    MECH = "mech", "BattleMech"
    VEHICLE = "vehicle", "Combat vehicle"
    BATTLE_ARMOR = "battle_armor", "Battle armour"
    INFANTRY = "infantry", "Infantry"
    AEROSPACE_FIGHTER = "aerospace_fighter", "Aerospace fighter"
    SMALL_CRAFT = "small_craft", "Small craft"
    DROPSHIP = "dropship", "DropShip"
    JUMPSHIP = "jumpship", "JumpShip"
    WARSHIP = "warship", "WarShip"
    SPACE_STATION = "space_station", "Space station"


class Design(CampaignObject):
    """A unit's or ship's record sheet as built, undamaged: new records start from it.

    GM-only (it has no ``shared`` flag): players see the sheets of shared records."""

    unit_type = models.CharField("unit type", max_length=20, choices=UnitType.choices)
    document = models.JSONField("record sheet", default=dict, blank=True)
    notes = models.TextField(blank=True)

    class Meta(CampaignObject.Meta):
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="design_name_unique"),
            models.CheckConstraint(
                condition=models.Q(unit_type__in=[t.value for t in UnitType]), name="design_unit_type_valid"
            ),
        ]

    def clean(self) -> None:
        if self.document:
            try:
                self.document = document.normalise(self.document)
            except document.SheetError as error:
                raise ValidationError({"document": str(error)}) from None
            if self.document["unit_type"] != self.unit_type:
                raise ValidationError({"unit_type": "The sheet is for another type of unit."})

    @property
    def record(self) -> str:
        """Which record a design becomes: a unit or a ship."""
        return "unit" if self.unit_type in document.UNIT_RECORD else "ship"
