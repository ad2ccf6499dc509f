"""Tele-operated missiles in flight: what the GM tracks of each between its turns."""

from __future__ import annotations

from django.db import models

from referee.fleet.models import CampaignObject, Ship
from rules.tables.equipment import MISSILES


class MissileType(models.TextChoices):
    KILLER_WHALE_T = "killer_whale_t", MISSILES["killer_whale_t"]["name"]
    WHITE_SHARK_T = "white_shark_t", MISSILES["white_shark_t"]["name"]
    BARRACUDA_T = "barracuda_t", MISSILES["barracuda_t"]["name"]
    KRAKEN_T = "kraken_t", MISSILES["kraken_t"]["name"]


class Telemissile(CampaignObject):
    """A missile an operator flies by remote control: its fuel runs down with every thrust."""

    missile_type = models.CharField(max_length=20, choices=MissileType.choices)
    operator = models.ForeignKey(
        Ship, null=True, blank=True, on_delete=models.SET_NULL, related_name="telemissiles"
    )
    fuel = models.PositiveIntegerField(
        "fuel points",
        null=True,
        blank=True,
        help_text="Leave empty to use the table's fuel (the table does not give it for every type).",
    )
    fire_factor = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Leave empty to use the table's Fire Factor (the table does not give one for every type).",
    )
    armor_boxes_lost = models.PositiveIntegerField("armour boxes lost", default=0)
    shared = models.BooleanField("shared with players", default=False)

    class Meta(CampaignObject.Meta):
        constraints = [
            models.CheckConstraint(
                condition=models.Q(fire_factor__isnull=True) | models.Q(fire_factor__gte=1),
                name="telemissile_fire_factor_positive",
            ),
        ]

    @property
    def table_fuel(self) -> int | None:
        return MISSILES[self.missile_type]["fuel"]

    @property
    def fuel_left(self) -> int | None:
        return self.fuel if self.fuel is not None else self.table_fuel
