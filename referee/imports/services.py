"""Unit files into a campaign: records (or designs) with their full sheets, as one logged, undoable entry."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.campaigns.models import Campaign
from referee.campaigns.names import free_name
from referee.fleet.models import Ship, ShipKind, Unit, UnitKind
from referee.play.models import LogEntry, Visibility
from referee.play.services import RECORDS_IMPORT, PlayError, log_append
from referee.sheets import document
from referee.sheets.models import Design
from referee.sheets.services import sheet_update
from referee.unitfiles import ReadUnit

UNIT_KINDS = {
    "mech": UnitKind.BATTLEMECH,
    "vehicle": UnitKind.VEHICLE,
    "battle_armor": UnitKind.BATTLE_ARMOR,
    "infantry": UnitKind.INFANTRY,
}
SHIP_KINDS = {
    "aerospace_fighter": ShipKind.FIGHTER_SQUADRON,  # a squadron of one
    "small_craft": ShipKind.SMALL_CRAFT,
    "dropship": ShipKind.DROPSHIP,
    "jumpship": ShipKind.JUMPSHIP,
    "warship": ShipKind.WARSHIP,
    "space_station": ShipKind.STATION,
}
LISTED_IN_SUMMARY = 30
# One entry lists every record it created (for undo); a thousand fit well inside an entry's limit.
MAX_IMPORT = 1_000


@dataclass(frozen=True, slots=True)
class Created:
    name: str
    what: str  # "BattleMech", "DropShip design"...
    source: str


@dataclass(frozen=True, slots=True)
class Imported:
    entry: LogEntry | None  # None when every unit updated a record already there
    created: list[Created]
    again: bool = False  # the same form posted twice: this is the first post's import
    updated: tuple[Created, ...] = ()  # records whose sheet a unit file replaced, each its own entry
    update_entries: tuple[LogEntry, ...] = ()


# What to do with a unit whose chassis and model a record of the campaign already has.
ASK, COPY, UPDATE = "ask", "copy", "update"


class AlreadyInCampaign(PlayError):
    """Units whose chassis and model the campaign already has, and no word on what to do."""

    def __init__(self, names: list[str]) -> None:
        shown = ", ".join(names[:LISTED_IN_SUMMARY]) + (
            f" and {len(names) - LISTED_IN_SUMMARY} more" if len(names) > LISTED_IN_SUMMARY else ""
        )
        super().__init__(
            f"Already in this campaign: {shown}. Import a second copy (named “#2”) or update the existing "
            "record's sheet."
        )
        self.names = names


def _same_design(doc: dict) -> tuple[str, str, str]:
    return (doc["unit_type"], str(doc.get("chassis", "")).casefold(), str(doc.get("model", "")).casefold())


def existing_records(campaign: Campaign, units: Sequence[ReadUnit]) -> dict[int, Unit | Ship]:
    """The record each unit's chassis and model already has in the campaign (by index), the first
    made when there are several."""
    wanted = {_same_design(u.doc) for u in units}
    found: dict[tuple, Unit | Ship] = {}
    for model in (Unit, Ship):
        for record in model.objects.in_campaign(campaign).exclude(sheet={}).order_by("id"):
            key = _same_design(record.sheet) if record.sheet.get("unit_type") else None
            if key in wanted:
                found.setdefault(key, record)
    return {i: found[_same_design(u.doc)] for i, u in enumerate(units) if _same_design(u.doc) in found}


def _claimed(name: str, taken: set[str], **numbering) -> str:
    """A free name (``free_name``), taken from then on by the import's later records."""
    candidate = free_name(name, taken, **numbering)
    taken.add(candidate)
    return candidate


def record_for(campaign: Campaign, doc: dict) -> Unit | Ship:
    """An unsaved record carrying the sheet, its summary fields in step with it."""
    name = document.display_name(doc)[:120] or "Unnamed unit"
    unit_type = doc["unit_type"]
    if unit_type in UNIT_KINDS:
        return Unit(
            campaign=campaign,
            name=name,
            kind=UNIT_KINDS[unit_type],
            sheet=doc,
            **document.record_fields(doc, "unit"),
        )
    ship = Ship(
        campaign=campaign,
        name=name,
        class_name=doc.get("chassis", "")[:80],
        kind=SHIP_KINDS[unit_type],
        military=unit_type == "warship",
        sheet=doc,
        **document.record_fields(doc, "ship"),
    )
    if unit_type == "aerospace_fighter":
        ship.fighters = 1
    return ship


@transaction.atomic
def unit_files_import(
    *,
    campaign: Campaign,
    units: Sequence[ReadUnit],
    actor,
    as_designs: bool = False,
    skipped: int = 0,
    request_key: uuid.UUID | None = None,
    existing: str = ASK,
) -> Imported:
    """Create a record (or a design) for each unit read, in one transaction and one log entry.

    The entry is GM-only: imported records start unshared. ``skipped`` (files that could not be
    read) is only told in the entry's summary. A unit whose chassis and model a record of the
    campaign already has is, as ``existing`` says, a second copy named “#2” (``copy``), or the
    new sheet of that record, a logged and undoable change of its own (``update``); with ``ask``
    nothing is imported and ``AlreadyInCampaign`` names them."""
    if not units:
        raise PlayError("There is nothing to import.")
    if len(units) > MAX_IMPORT:
        raise PlayError(
            f"That is {len(units):,} units; one import takes at most {MAX_IMPORT:,}. Split them over several zips."
        )
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if request_key is not None:
        earlier = LogEntry.objects.filter(campaign=campaign, request_key=request_key).first()
        if earlier is not None:
            return Imported(earlier, [], again=True)
    created: list[Created] = []
    by_model: dict[type, list] = {}
    taken = (
        set(Design.objects.filter(campaign=campaign).values_list("name", flat=True)) if as_designs else set()
    )
    there = {} if as_designs else existing_records(campaign, units)
    if there and existing not in (COPY, UPDATE):
        raise AlreadyInCampaign(
            [document.display_name(units[i].doc) or "Unnamed unit" for i in sorted(there)]
        )
    if there and existing == COPY:
        taken |= set(Unit.objects.in_campaign(campaign).values_list("name", flat=True))
        taken |= set(Ship.objects.in_campaign(campaign).values_list("name", flat=True))
    updated: list[Created] = []
    update_entries: list[LogEntry] = []
    for index, unit in enumerate(units):
        doc = unit.doc
        if index in there and existing == UPDATE:
            record = there[index]
            entry = sheet_update(
                campaign=campaign,
                record=record,
                doc=doc,
                actor=actor,
                why="updated from a unit file",  # the file's name stays in the GM's import entry
            )
            if entry is not None:
                update_entries.append(entry)
            updated.append(Created(str(record), document.UNIT_TYPES[doc["unit_type"]], unit.source))
            continue
        label = document.UNIT_TYPES[doc["unit_type"]]
        if as_designs:
            wanted = document.display_name(doc)[:120] or "Unnamed design"
            name = _claimed(wanted, taken, suffix=" ({})")
            obj = Design(campaign=campaign, name=name, unit_type=doc["unit_type"], document=doc)
            label = f"{label} design"
        else:
            obj = record_for(campaign, doc)
            if index in there:  # a second copy of a record already there
                obj.name = _claimed(obj.name, taken, suffix=" #{}", bare=False)
        try:
            obj.clean_fields(exclude=["campaign"])
            obj.clean()
        except ValidationError as error:
            raise PlayError(f"{unit.source}: {'; '.join(error.messages)}") from None
        by_model.setdefault(type(obj), []).append(obj)
        created.append(Created(obj.name, label, unit.source))
    if not created:
        return Imported(None, [], updated=tuple(updated), update_entries=tuple(update_entries))
    try:
        with transaction.atomic():
            for model, objs in by_model.items():
                model.objects.bulk_create(objs)
    except IntegrityError as error:
        raise PlayError(f"The import was refused by the database: {str(error).splitlines()[0]}") from None
    effects = [
        {
            "target": model._meta.model_name,
            "code": "",
            "name": str(model._meta.verbose_name_plural).capitalize(),
            "field": "imported",
            "label": "imported from unit files",
            "before": 0,
            "after": len(objs),
        }
        for model, objs in by_model.items()
    ]
    count = len(created)
    noun = "design" if as_designs else "record"
    title = f"The GM imported {count} {noun}{'s' if count != 1 else ''} from unit files"
    names = ", ".join(f"{c.name} ({c.what})" for c in created[:LISTED_IN_SUMMARY])
    if count > LISTED_IN_SUMMARY:
        names += f" and {count - LISTED_IN_SUMMARY:,} more"
    summary = f"{title}: {names}."
    if skipped:
        summary += f" {skipped:,} file{'s were' if skipped != 1 else ' was'} skipped."
    entry = log_append(
        campaign=campaign,
        procedure=RECORDS_IMPORT,
        title=title,
        summary=summary,
        actor=actor,
        inputs={
            "@created": {
                model._meta.model_name: [str(obj.code) for obj in objs] for model, objs in by_model.items()
            }
        },
        effects=effects,
        visibility=Visibility.GM,
        request_key=request_key,
    )
    return Imported(entry, created, updated=tuple(updated), update_entries=tuple(update_entries))
