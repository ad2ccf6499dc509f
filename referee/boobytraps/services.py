"""Writes that touch more than one row: copying a chart, a turn's pursuit check."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from referee.campaigns.models import Campaign
from referee.campaigns.names import free_name
from referee.play.models import LogEntry
from referee.play.services import procedure_resolve, record_created

from .models import BoobyTrap, WeaponChart


def weapon_chart_copy(*, chart: WeaponChart, actor=None) -> WeaponChart:
    """A copy the GM can change without touching the original (or the traps using it)."""
    with transaction.atomic():
        wanted = f"Copy of {chart.name}"
        taken = (
            WeaponChart.objects.in_campaign(chart.campaign)
            .filter(name__istartswith=wanted[:100])
            .values_list("name", flat=True)
        )
        name = free_name(wanted, taken, suffix=" ({})")
        copy = WeaponChart(
            campaign=chart.campaign,
            name=name,
            weapon_type=chart.weapon_type,
            entries=chart.entries,
            rack_capacities=chart.rack_capacities,
            notes=chart.notes,
        )
        copy.full_clean()
        copy.save()
        record_created(campaign=chart.campaign, obj=copy, actor=actor, how=f"copied {chart} into")
        return copy


@transaction.atomic
def booby_trap_pursue(
    *,
    campaign: Campaign,
    trap: BoobyTrap,
    units: list[dict],
    terrain: list[dict],
    passes_through: bool,
    dice: Sequence[int] | None,
    actor,
) -> list[LogEntry]:
    """One turn's pursuit for a trap: the unit it pursues (IR107.22), then inter-sector
    terrain (IR107.23) when any is listed or it passes through some. Both or neither are
    logged. Raises rules.InputError / rules.DiceError / PlayError."""
    entries = [
        procedure_resolve(
            campaign=campaign,
            procedure_id="booby_trap.pursuit_target",
            inputs={"units": units},
            dice=dice,
            actor=actor,
            subjects={"trap": trap.code},
        )
    ]
    if terrain or passes_through:
        trap.refresh_from_db()
        campaign.refresh_from_db()
        entries.append(
            procedure_resolve(
                campaign=campaign,
                procedure_id="booby_trap.terrain_pursuit",
                inputs={
                    "terrain": terrain,
                    "current_turn": campaign.turn,
                    "terrain_cooldown_until": trap.terrain_cooldown_until,
                    "unit_target": entries[0].result["target_id"] is not None,
                    "priority": trap.terrain_priority,
                    "passes_through": passes_through,
                },
                dice=None,
                actor=actor,
                subjects={"trap": trap.code},
            )
        )
    return entries
