"""Writes of the sheets, each one logged and undoable: the GM's adjustments to a sheet,
a sheet saved as a design, a record started from a design."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, Unit
from referee.play import sharing
from referee.play.effects import ChangeRecorder
from referee.play.models import LogEntry, Visibility
from referee.play.services import PlayError, log_append, record_save

from . import document
from .effects import current, record_kind, sheet_updates
from .forms import DesignFromRecordForm, ShipFromDesignForm, UnitFromDesignForm
from .models import Design

SHEET_EDIT = "sheet.edit"

UNIT_KINDS = {
    "mech": "battlemech",
    "vehicle": "vehicle",
    "battle_armor": "battle_armor",
    "infantry": "infantry",
}
SHIP_KINDS = {
    "aerospace_fighter": "fighter_squadron",
    "small_craft": "small_craft",
    "dropship": "dropship",
    "jumpship": "jumpship",
    "warship": "warship",
    "space_station": "station",
}
# A record without a sheet gets a blank one of the type its kind names.
TYPE_OF_KIND = {**{v: k for k, v in UNIT_KINDS.items()}, **{v: k for k, v in SHIP_KINDS.items()}}


def _lock(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def sheet_update(*, campaign: Campaign, record, doc: dict, actor, why: str = "") -> LogEntry | None:
    """Put ``doc`` on ``record`` (a unit, a ship or a design), with the summary fields it
    implies; one log entry holding each field's before and after, so Undo restores them."""
    campaign = _lock(campaign)
    record = type(record).objects.select_for_update().get(pk=record.pk)
    try:
        new = document.normalise(doc)
    except document.SheetError as error:
        raise PlayError(str(error)) from None
    recorder = ChangeRecorder()
    if isinstance(record, Design):
        if new["unit_type"] != record.unit_type:
            raise PlayError(
                f"{record} is a {record.get_unit_type_display()} design; this sheet is for another type."
            )
        recorder.set(record, "document", new)
    else:
        for field, value in sheet_updates(record, new):
            recorder.set(record, field, value)
    try:
        changes = recorder.save()
    except ValidationError as error:
        raise PlayError("; ".join(error.messages)) from None
    if not changes:
        return None
    lines = document.changes(
        next((c["before"] for c in changes if c["field"] in ("sheet", "document")), {}) or {},
        new,
    )
    title = f"The GM adjusted the record sheet of {record}"
    what = "; ".join(lines) if lines else "summary fields brought in step"
    return log_append(
        campaign=campaign,
        procedure=SHEET_EDIT,
        title=title,
        summary=f"{title}{f' ({why})' if why else ''}: {what}.",
        actor=actor,
        inputs={
            "@record": {"target": record._meta.model_name, "code": str(record.code), "name": str(record)}
        },
        effects=changes,
        visibility=Visibility.EVERYONE if sharing.seen_by_players(record) else Visibility.GM,
    )


def blank_for(record) -> dict:
    """A blank sheet for a record that has none, holding what the record already says."""
    unit_type = TYPE_OF_KIND[record.kind]
    tonnage = record.tonnage if isinstance(record, Unit) else record.mass_t
    try:
        doc = document.blank(unit_type, tonnage=tonnage, chassis=str(record))
    except document.SheetError:  # a 'Mech of a tonnage the structure table has not
        doc = document.blank(unit_type, chassis=str(record))
        doc["tonnage"] = tonnage
    if isinstance(record, Ship):
        for face in doc.get("facings", []):
            key = document.FACING_FIELDS[face["name"]]
            face["armor"], face["armor_max"] = (
                getattr(record, f"armor_{key}"),
                getattr(record, f"armor_{key}_max"),
            )
        if record.kf_integrity_max:
            doc["kf_drive"] = {
                "integrity": record.kf_integrity,
                "integrity_max": record.kf_integrity_max,
                "lf_battery": record.lf_battery,
            }
        if record.heat_sinks:
            doc["heat_sinks"] = {"count": record.heat_sinks, "type": "single"}
        doc["crew"] = {"crew": record.crew, "passengers": record.passengers}
        if record.fuel_points:
            doc["fuel"] = {"points": record.fuel_points}
        if unit_type in ("jumpship", "warship", "space_station"):
            doc["docking_collars"] = record.dropship_capacity
    else:
        doc["heat"] = record.heat
        if "pilot" in doc:
            doc["pilot"].update(gunnery=record.gunnery, piloting=record.piloting)
        doc["movement"] = {"jump": record.jump_mp} if record.jump_mp else {}
        doc["engine"] = {"rating": 0, "type": "ICE" if record.engine_type == "ice" else "Fusion"}
    return document.normalise(doc)


def as_built(doc: dict) -> dict:
    """A sheet as it left the factory: armour and structure whole, nothing hit, no heat."""
    doc = document.normalise(doc)
    for part in (*doc.get("locations", []), *doc.get("facings", [])):
        for key in ("armor", "rear_armor", "structure"):
            if key in part:
                part[key] = part[f"{key}_max"]
        part.pop("destroyed", None)
    for slots in doc.get("criticals", {}).values():
        for slot in slots:
            slot["hit"] = False
    for weapon in doc.get("weapons", []):
        weapon["destroyed"] = False
    for trooper in doc.get("troopers", []):
        trooper.update(armor=trooper["armor_max"], alive=True)
    for part, key, top in (
        ("structural_integrity", "value", "max"),
        ("platoon", "troopers", "troopers_max"),
        ("kf_drive", "integrity", "integrity_max"),
    ):
        if part in doc:
            doc[part][key] = doc[part][top]
    doc["heat"] = 0
    doc.pop("destroyed", None)
    if "pilot" in doc:
        doc["pilot"].update(name="", hits=0)
    return document.normalise(doc)


def design_save(*, campaign: Campaign, record, name: str, notes: str, actor) -> Design:
    """Keep ``record``'s sheet, as built, as one of the campaign's designs (logged: Undo removes it)."""
    doc = current(record) or blank_for(record)
    design = Design(campaign=campaign, unit_type=doc["unit_type"], document=as_built(doc))
    form = DesignFromRecordForm({"name": name, "notes": notes}, instance=design, campaign=campaign)
    if not form.is_valid():
        raise PlayError(" ".join(m for errors in form.errors.values() for m in errors))
    record_save(campaign=campaign, form=form, actor=actor)
    return form.instance


def record_from_design(*, campaign: Campaign, design: Design, name: str, actor, shared: bool = False):
    """A new unit or ship carrying the design's sheet, its summary fields filled from it
    (logged as the GM adding it: Undo removes it)."""
    doc = document.normalise(design.document or document.blank(design.unit_type))
    if design.record == "unit":
        record, form_class = Unit(kind=UNIT_KINDS[doc["unit_type"]]), UnitFromDesignForm
    else:
        record, form_class = (
            Ship(kind=SHIP_KINDS[doc["unit_type"]], class_name=doc["chassis"][:80]),
            ShipFromDesignForm,
        )
        if doc["unit_type"] == "aerospace_fighter":
            record.fighters = 1
    record.campaign, record.sheet, record.shared = campaign, doc, shared
    for field, value in document.record_fields(doc, record_kind(record)).items():
        setattr(record, field, value)
    form = form_class({"name": name}, instance=record, campaign=campaign)
    if not form.is_valid():
        raise PlayError(" ".join(m for errors in form.errors.values() for m in errors))
    record_save(campaign=campaign, form=form, actor=actor)
    return form.instance
