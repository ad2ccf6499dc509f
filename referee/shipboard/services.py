"""Writes of the shipboard app beyond the procedures: surfaces from the table, sealing a breach."""

from __future__ import annotations

from django.db import transaction

from referee.campaigns.models import Campaign
from referee.play.effects import ChangeRecorder
from referee.play.models import LogEntry
from referee.play.services import PlayError, log_append, record_created
from rules.tables import shipboard as tables

from .forms import next_surface_name
from .models import Compartment, Surface


@transaction.atomic
def surface_add(*, compartment: Compartment, surface_type: str, actor=None) -> Surface:
    """One click: a surface of a table type with the table's capacity and threshold."""
    row = tables.DAMAGE_CAPACITIES.get(surface_type)
    if row is None:
        raise PlayError("Choose a type from the Damage Capacities and Thresholds Table.")
    compartment = Compartment.objects.select_for_update().get(pk=compartment.pk)  # one name at a time
    surface = Surface(
        campaign=compartment.campaign,
        compartment=compartment,
        name=next_surface_name(compartment, surface_type),
        surface_type=surface_type,
        capacity=row.capacity,
        capacity_left=row.capacity,
        threshold=row.threshold,
        armor_rating=row.armor_rating,
    )
    surface.apply_table()
    surface.full_clean()
    surface.save()
    record_created(campaign=compartment.campaign, obj=surface, actor=actor)
    return surface


@transaction.atomic
def compartment_breach_seal(*, compartment: Compartment, actor) -> LogEntry:
    """The crew seal the breach: the compartment stops losing pressure (logged, undoable)."""
    campaign = Campaign.objects.select_for_update().get(pk=compartment.campaign_id)  # the log's order
    compartment = Compartment.objects.select_for_update().select_related("ship").get(pk=compartment.pk)
    if compartment.breach_points == 0:
        raise PlayError(f"{compartment} has no open breach to seal.")
    recorder = ChangeRecorder()
    recorder.set(compartment, "breach_points", 0)
    changes = recorder.save()
    return log_append(
        campaign=campaign,
        procedure="shipboard.seal_breach",
        title="Breach sealed",
        summary=f"{compartment}: the breach is sealed at {compartment.pressure_pa:,} Pa; "
        "the compartment loses no more pressure.",
        actor=actor,
        effects=changes,
    )
