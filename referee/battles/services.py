"""Battles handed to MegaMek and back: forces out as a unit list, a battlefield out and in as
a board, and the battle's result onto the sheets as one logged, undoable entry."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, prefetch_related_objects

from referee.campaigns.models import Campaign
from referee.campaigns.names import free_name
from referee.fleet.models import Character, Ship, Unit
from referee.play import sharing
from referee.play.effects import ChangeRecorder
from referee.play.models import LogEntry, Visibility
from referee.play.services import RECORDS_IMPORT, PlayError, log_append
from referee.sheets import document
from referee.sheets.effects import current, sheet_updates
from referee.sheets.services import blank_for
from referee.terrain import catalog
from referee.terrain.models import Battlefield, Hex, TerrainRow, UnitPlacement

from . import board as boards
from . import mul
from .models import MegaMekBoard

BATTLE_RESULT = "battle.result"
# A board's import lists every hex it made, so that Undo can tell a hex edited since: this
# many fit one log entry.
MAX_DESCRIBED_HEXES = 1_400
RECORD_MODELS = (Unit, Ship)


# -- Forces out -----------------------------------------------------------------------------


def sheet_of(record) -> dict:
    """The record's sheet as it stands (a blank one holding its fields, when it has none)."""
    return current(record) or blank_for(record)


# A unit list names each record's first crew member by name: read for the whole list in one
# query per record type, never one per record.
CREWS = Prefetch("characters", queryset=Character.objects.order_by("name", "id"))


def _crew_name(record) -> str:
    aboard = getattr(record, "characters", None)
    first = next(iter(aboard.all()), None) if aboard is not None else None
    return first.name if first else ""


def outgoing(record) -> mul.Outgoing:
    return mul.Outgoing(
        external_id=str(record.code),
        doc=sheet_of(record),
        name=str(record),
        crew_name=_crew_name(record),
        gunnery=getattr(record, "gunnery", 4),
        piloting=getattr(record, "piloting", 5),
    )


def battlefield_forces(battlefield: Battlefield) -> list[Unit]:
    """The units standing on the battlefield's map."""
    placed = UnitPlacement.objects.filter(battlefield=battlefield).select_related("unit")
    return sorted((p.unit for p in placed), key=lambda u: u.name)


def readable_records(campaign: Campaign, role: str, user) -> dict[str, list]:
    """The units and ships a member may take a unit list of: all for the GM; for a player,
    what they own and what is shared with them."""
    out = {}
    for model in RECORD_MODELS:
        records = model.objects.in_campaign(campaign)
        if role != "gm":
            records = records.filter(model.player_visible() | model.owned_by(user))
        out[model._meta.model_name] = list(records.order_by("name"))
    return out


class NoSuchRecord(PlayError):
    """A code that names no record the member may read: the page answers 404, as it would
    for a record that does not exist, so a player learns nothing of what is kept from them."""


def records_by_code(campaign: Campaign, codes, role: str = "gm", user=None) -> list:
    """The records named by ``codes`` the member may read; ``NoSuchRecord`` for any other."""
    wanted = []
    for raw in codes:
        try:
            wanted.append(uuid.UUID(str(raw)))
        except ValueError:
            raise NoSuchRecord("That is not a record of this campaign.") from None
    readable = readable_records(campaign, role, user)
    found = {r.code: r for group in readable.values() for r in group}
    missing = [c for c in wanted if c not in found]
    if missing:
        raise NoSuchRecord("That is not a record of this campaign.")
    return [found[c] for c in dict.fromkeys(wanted)]


def mul_export(records: list) -> tuple[str, list[str]]:
    if not records:
        raise PlayError("Choose at least one unit or ship for the unit list.")
    for model in RECORD_MODELS:
        prefetch_related_objects([r for r in records if isinstance(r, model)], CREWS)
    return mul.write_mul([outgoing(r) for r in records])


# -- The battlefield out and in -------------------------------------------------------------

# Our weather, as MegaMek's planetary conditions name it (set in its lobby, not on the board;
# its Weather, Wind, Fog and Light lists). MegaMek has no blizzard: it is listed, with a hint.
PLANETARY = {
    "blowing_sand": "Blowing Sand",
    "dusk_dawn": "Light: Dusk/Dawn",
    "fog": "Fog: Light Fog",
    "heavy_snowfall": "Weather: Heavy Snowfall",
    "rain_light": "Weather: Light Rain",
    "rain_heavy": "Weather: Heavy Rain",
    "wind_moderate": "Wind: Moderate Gale",
    "wind_high": "Wind: Strong Gale",
}


def _names(campaign: Campaign) -> dict[str, str]:
    rows = {r.key: r for r in TerrainRow.objects.in_campaign(campaign)}
    keys = set(rows) | set(catalog.ENGINE_BASE) | set(catalog.SEED_ROWS) | set(catalog.ENGINE_CONDITIONS)
    keys |= set(catalog.ENGINE_WEATHER)
    return {k: catalog.terrain_name(k, rows) for k in keys}


def board_export(battlefield: Battlefield) -> tuple[str, list[str]]:
    """The battlefield as a MegaMek board, and the notes on what MegaMek has no place for."""
    campaign = battlefield.campaign
    names = _names(campaign)
    extra = MegaMekBoard.objects.filter(battlefield=battlefield).first()
    kept = extra.kept if extra else {}
    themes = extra.themes if extra else {}
    hexes = []
    for row in Hex.objects.filter(battlefield=battlefield).order_by("name"):
        hexes.append(
            boards.BoardHex(
                row.name,
                row.level,
                row.terrain,
                list(row.conditions),
                list(row.weather),
                row.geyser,
                row.volcanic,
                list(kept.get(row.name, [])),
                themes.get(row.name, ""),
            )
        )
    described = {h.label for h in hexes}
    for label in set(kept) | set(themes):
        if label not in described:
            hexes.append(boards.BoardHex(label, kept=list(kept.get(label, [])), theme=themes.get(label, "")))
    conditions, notes = [], []
    for key in battlefield.weather:
        if key in PLANETARY:
            conditions.append(PLANETARY[key])
        else:
            hint = " (the nearest: Heavy Snowfall with a Strong Gale)" if key == "blizzard" else ""
            notes.append(
                f"{names.get(key, key)} over the whole battlefield has no planetary condition in MegaMek{hint}."
            )
    if battlefield.ambient_c is not None:
        conditions.append(f"Temperature: {battlefield.ambient_c:g} °C")
    if battlefield.earthquake:
        notes.append(f"An earthquake of strength {battlefield.earthquake} has no place in MegaMek.")
    if battlefield.weapons_miscalibrated:
        notes.append("Ballistic weapons mis-calibrated (+2 to hit) has no place in MegaMek.")
    if conditions:
        notes.insert(0, "Set these planetary conditions in MegaMek's lobby: " + "; ".join(conditions) + ".")
    read = boards.ReadBoard(
        battlefield.columns, battlefield.rows, hexes, tags=list(extra.tags) if extra else []
    )
    description = (extra.description if extra else "") or f"{battlefield.name}, from the referee's campaign."
    text = boards.write_board(read, notes=notes, names=names, description=description)
    return text, notes


def _free_battlefield_name(campaign: Campaign, wanted: str) -> str:
    taken = Battlefield.objects.in_campaign(campaign).values_list("name", flat=True)
    return free_name(wanted or "MegaMek board", taken, suffix=" ({})")


@transaction.atomic
def board_import(
    *, campaign: Campaign, read: boards.ReadBoard, name: str, actor
) -> tuple[Battlefield, LogEntry]:
    """A new battlefield (unshared) with a hex for every one the board describes, the
    terrain we do not model kept by name; one GM-only entry, which Undo reverses."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    field_ = Battlefield(
        campaign=campaign, name=_free_battlefield_name(campaign, name), columns=read.columns, rows=read.rows
    )
    try:
        field_.full_clean(exclude=["campaign"])
    except ValidationError as error:
        raise PlayError("; ".join(error.messages)) from None
    field_.save()
    rows, kept, themes = [], {}, {}
    for item in read.hexes:
        if item.kept:
            kept[item.label] = item.kept
        if item.theme:
            themes[item.label] = item.theme
        if item.plain:
            continue
        words = ", ".join(boards.megamek_name(t) for t in item.kept)
        hex_ = Hex(
            campaign=campaign,
            battlefield=field_,
            name=item.label,
            terrain=item.terrain,
            level=item.level,
            conditions=item.conditions,
            weather=item.weather,
            geyser=item.geyser,
            volcanic=item.volcanic,
            notes=f"MegaMek terrain not modelled here: {words}." if words else "",
        )
        try:
            hex_.clean()
        except ValidationError as error:
            raise PlayError(f"Hex {item.label}: {'; '.join(error.messages)}") from None
        rows.append(hex_)
    if len(rows) > MAX_DESCRIBED_HEXES:
        raise PlayError(
            f"The board describes {len(rows):,} hexes (terrain, or a level other than 0); one import "
            f"takes at most {MAX_DESCRIBED_HEXES:,}. Split the board in MegaMek's board editor."
        )
    extra = MegaMekBoard(
        campaign=campaign,
        battlefield=field_,
        name=field_.name[:120],
        kept=kept,
        themes=themes,
        tags=read.tags,
        description=read.description,
    )
    try:
        with transaction.atomic():
            Hex.objects.bulk_create(rows)
            extra.save()
    except IntegrityError as error:
        raise PlayError(f"The board was refused by the database: {str(error).splitlines()[0]}") from None
    unmodelled = sorted({boards.megamek_name(t) for group in kept.values() for t in group})
    title = f"The GM made the battlefield {field_.name} from a MegaMek board"
    summary = f"{title}: {read.columns} by {read.rows} hexes, {len(rows)} described."
    if unmodelled:
        summary += f" Kept by name (not modelled here): {', '.join(unmodelled[:30])}."
    entry = log_append(
        campaign=campaign,
        procedure=RECORDS_IMPORT,
        title=title,
        summary=summary,
        actor=actor,
        inputs={
            "@created": {
                "hex": [str(h.code) for h in rows],
                "megamekboard": [str(extra.code)],
                "battlefield": [str(field_.code)],
            }
        },
        effects=[
            {
                "target": "battlefield",
                "code": str(field_.code),
                "name": field_.name,
                "field": "imported",
                "label": "made from a MegaMek board",
                "before": 0,
                "after": 1,
            }
        ],
        visibility=Visibility.GM,
    )
    return field_, entry


# -- The result back ------------------------------------------------------------------------


@dataclass(slots=True)
class LocationRow:
    name: str
    armor: tuple[int, int] | None
    rear: tuple[int, int] | None
    structure: tuple[int, int] | None
    destroyed: tuple[bool, bool]

    @property
    def changed(self) -> bool:
        pairs = [p for p in (self.armor, self.rear, self.structure) if p]
        return any(a != b for a, b in pairs) or self.destroyed[0] != self.destroyed[1]


@dataclass(slots=True)
class ResultRow:
    """One entity of the file, the record it lands on, and what it does to the sheet."""

    entity: mul.Incoming
    record: object | None
    how: str  # "id" | "name" | "chosen" | ""
    before: dict = field(default_factory=dict)
    after: dict = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    locations: list[LocationRow] = field(default_factory=list)
    criticals: list[str] = field(default_factory=list)
    crew: tuple[int, int] | None = None
    destroyed: bool = False

    @property
    def key(self) -> str:
        return choice_key(self.record) if self.record is not None else ""

    @property
    def status(self) -> str:
        return mul.SECTIONS.get(self.entity.section, "")


@dataclass(slots=True)
class Preview:
    rows: list[ResultRow]
    choices: list[tuple[str, str]]  # (key, label) of every record an entity may land on

    @property
    def matched(self) -> list[ResultRow]:
        return [r for r in self.rows if r.record is not None]


def choice_key(record) -> str:
    return f"{record._meta.model_name}:{record.code}"


def _campaign_records(campaign: Campaign) -> list:
    records = []
    for model in RECORD_MODELS:
        records += list(model.objects.in_campaign(campaign).order_by("name"))
    return records


def _pilot_name(doc: dict) -> str:
    return ((doc.get("pilot") or {}).get("name") or "").strip().lower()


def _by_name(entity: mul.Incoming, records: list, taken: set) -> object | None:
    crew = entity.crew[0].name.strip().lower() if entity.crew else ""
    fits = []
    for record in records:
        if choice_key(record) in taken:
            continue
        doc = sheet_of(record)
        same = (doc.get("chassis", "").lower(), doc.get("model", "").lower()) == (
            entity.chassis.lower(),
            entity.model.lower(),
        ) or str(record).lower() == entity.name.lower()
        if same:
            fits.append((record, not crew or _pilot_name(doc) in ("", crew)))
    crewed = [r for r, crew_fits in fits if crew_fits]
    if len(crewed) == 1:
        return crewed[0]
    return fits[0][0] if len(fits) == 1 else None  # none, or several alike: the GM chooses


def _foreign(codes: set[uuid.UUID], campaign: Campaign) -> set[uuid.UUID]:
    """Which of ``codes`` are another campaign's records (one query per record model)."""
    found: set[uuid.UUID] = set()
    for model in RECORD_MODELS:
        if codes:
            others = model.objects.filter(code__in=codes).exclude(campaign=campaign)
            found |= set(others.values_list("code", flat=True))
    return found


def result_preview(
    campaign: Campaign, entities: list[mul.Incoming], chosen: dict[int, str] | None = None
) -> Preview:
    """Each entity matched to its record: by the id written with it, else by chassis, model
    and crew; ``chosen`` (entity position → record key, "" to leave it out) is the GM's word.
    ``PlayError`` for an entity carrying another campaign's record id."""
    records = _campaign_records(campaign)
    by_key = {choice_key(r): r for r in records}
    by_code = {r.code: r for r in records}
    taken: set[str] = set()
    rows: list[ResultRow] = []
    foreign = _foreign(
        {e.record_code for e in entities if e.record_code is not None} - set(by_code), campaign
    )
    for entity in entities:
        if entity.record_code in foreign:
            raise PlayError(
                f"Line {entity.line}: the {entity.name} carries the id of a record that is not this "
                "campaign's; this unit list was not written for it. Nothing was written."
            )
    for position, entity in enumerate(entities):
        record, how = None, ""
        if chosen is not None and position in chosen:
            key = chosen[position]
            if key and key not in by_key:
                raise PlayError(f"The {entity.name} was matched to a record that is not this campaign's.")
            record, how = (by_key[key], "chosen") if key else (None, "")
        elif entity.record_code in by_code:
            record, how = by_code[entity.record_code], "id"
        else:
            record = _by_name(entity, records, taken)
            how = "name" if record is not None else ""
        if record is not None:
            key = choice_key(record)
            if key in taken:
                raise PlayError(f"{record} is matched to two entities of the file; choose one for each.")
            taken.add(key)
        rows.append(_result_row(entity, record, how))
    choices = [(choice_key(r), f"{r} ({r.get_kind_display()})") for r in records]
    return Preview(rows, choices)


def _pair(old: dict, new: dict, key: str) -> tuple[int, int] | None:
    return (old[key], new[key]) if key in old and key in new else None


def _result_row(entity: mul.Incoming, record, how: str) -> ResultRow:
    row = ResultRow(entity, record, how)
    if record is None:
        return row
    before = sheet_of(record)
    clash = mul.kind_clash(before, entity)
    if clash:
        kind = document.UNIT_TYPES[before["unit_type"]]
        raise PlayError(
            f"Line {entity.line}: the {entity.name} is {clash} in MegaMek ({entity.movement}); "
            f"{record} is a {kind}. Match it to another record, or leave it out."
        )
    try:
        after = document.normalise(mul.apply_to_sheet(before, entity))
    except document.SheetError as error:
        raise PlayError(f"Line {entity.line}: the {entity.name}: {error}") from None
    except mul.MulError as error:  # a location the record's kind has not: matched to the wrong record
        raise PlayError(f"{error} It cannot be {record}.") from None
    row.before, row.after = before, after
    row.lines = document.changes(before, after)
    olds = {loc["name"]: loc for loc in before.get("locations", [])}
    for loc in after.get("locations", []):
        old = olds.get(loc["name"], {})
        row.locations.append(
            LocationRow(
                loc["name"],
                _pair(old, loc, "armor"),
                _pair(old, loc, "rear_armor"),
                _pair(old, loc, "structure"),
                (bool(old.get("destroyed")), bool(loc.get("destroyed"))),
            )
        )
    old_faces = {f["name"]: f for f in before.get("facings", [])}
    for face in after.get("facings", []):
        row.locations.append(
            LocationRow(
                face["name"],
                _pair(old_faces.get(face["name"], {}), face, "armor"),
                None,
                None,
                (False, False),
            )
        )
    pairs = zip(before.get("troopers", []), after.get("troopers", []), strict=False)
    for number, (old_t, new_t) in enumerate(pairs, start=1):
        row.locations.append(
            LocationRow(
                f"Trooper {number}",
                (old_t["armor"], new_t["armor"]),
                None,
                None,
                (not old_t["alive"], not new_t["alive"]),
            )
        )
    row.criticals = [line for line in row.lines if line.endswith(" hit")]
    for old_e, new_e in zip(before.get("equipment", []), after.get("equipment", []), strict=False):
        if "shots" in new_e and old_e.get("shots") != new_e["shots"]:
            was = old_e.get("shots", "a full load")
            row.lines.append(
                f"{new_e['name']} ({new_e['location'] or 'unit'}) shots {was} → {new_e['shots']}"
            )
    if "pilot" in before:
        row.crew = (before["pilot"]["hits"], after["pilot"]["hits"])
    row.destroyed = bool(after.get("destroyed"))
    return row


CREW_WORD = {"mech": "MechWarrior", "vehicle": "Commander", "aerospace_fighter": "Pilot"}


def battle_report(rows: list[ResultRow]) -> str:
    """The result in a GM's words: "The Hunchback HBK-4H lost its left arm; MechWarrior
    Lena Ortiz took 2 hits"."""
    parts = []
    for row in rows:
        if row.record is None:
            continue
        before, after = row.before, row.after
        name = document.display_name(after) or str(row.record)
        said = []
        lost = [
            loc.name.lower()
            for loc in row.locations
            if loc.destroyed[1] and not loc.destroyed[0] and not loc.name.startswith("Trooper")
        ]
        if after.get("destroyed") and not before.get("destroyed"):
            said.append("was destroyed")
        if lost:
            said.append("lost its " + _and(lost))
        damage = sum(
            max(0, pair[0] - pair[1])
            for loc in row.locations
            for pair in (loc.armor, loc.rear, loc.structure)
            if pair
        )
        if damage and not lost and not said:
            said.append(f"took {damage} points of damage")
        if row.criticals:
            said.append(f"took {len(row.criticals)} critical hit{'s' if len(row.criticals) != 1 else ''}")
        killed = [
            loc
            for loc in row.locations
            if loc.name.startswith("Trooper") and loc.destroyed[1] and not loc.destroyed[0]
        ]
        if killed:
            said.append(f"lost {len(killed)} trooper{'s' if len(killed) != 1 else ''}")
        text = f"The {name} " + _and(said) if said else ""
        if row.crew and row.crew[1] != row.crew[0]:
            crewed = row.entity.crew[0].name if row.entity.crew else ""
            who = (after.get("pilot") or {}).get("name") or crewed or "its pilot"
            role = CREW_WORD.get(after["unit_type"], "Pilot")
            hits = row.crew[1] - row.crew[0]
            crew = (
                f"{role} {who} was killed"
                if row.crew[1] >= mul.DEAD
                else f"{role} {who} took {hits} hit{'s' if hits != 1 else ''}"
                if hits > 0
                else f"{role} {who} recovered from {-hits} hit{'s' if hits != -1 else ''}"
            )
            text = f"{text}; {crew}" if text else crew
        if text:
            parts.append(text)
    return ". ".join(parts) if parts else "No unit's sheet changed"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@transaction.atomic
def result_apply(
    *,
    campaign: Campaign,
    entities: list[mul.Incoming],
    chosen: dict[int, str],
    actor,
    request_key: uuid.UUID | None = None,
) -> LogEntry:
    """Every matched entity's state on its record's sheet, as one logged entry; Undo restores
    every sheet. Nothing is written when any part is refused; the same form sent twice finds
    the first entry."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if request_key is not None:
        earlier = LogEntry.objects.filter(campaign=campaign, request_key=request_key).first()
        if earlier is not None:
            return earlier
    preview = result_preview(campaign, entities, chosen)
    recorder = ChangeRecorder()
    touched = []
    locked = {}
    for model in RECORD_MODELS:  # every matched record locked in one query per record model
        pks = [row.record.pk for row in preview.matched if isinstance(row.record, model)]
        if pks:  # in one order, so that two results applied at once wait rather than deadlock
            rows = model.objects.select_for_update().filter(pk__in=pks).order_by("pk")
            locked.update({(model, r.pk): r for r in rows})
    for row in preview.matched:
        record = locked[(type(row.record), row.record.pk)]
        row.record = record
        for name, value in sheet_updates(record, row.after):
            recorder.set(record, name, value)
        touched.append(record)
    try:
        changes = recorder.save()
    except ValidationError as error:
        raise PlayError("; ".join(error.messages)) from None
    if not changes:
        raise PlayError("The unit list changes no sheet: every unit came back as it went.")
    report = battle_report(preview.rows)
    left_out = [r.entity.name for r in preview.rows if r.record is None]
    summary = f"{report}."
    visible = not sharing.unshared(touched)
    if left_out and not visible:
        summary += f" Not brought back (no record chosen): {_and(left_out)}."
    elif left_out:  # the units left out are often the other side's: players read only how many
        summary += f" {len(left_out)} unit{'s' if len(left_out) != 1 else ''} in the file not brought back."
    try:
        return log_append(
            campaign=campaign,
            procedure=BATTLE_RESULT,
            title="The GM brought a battle's result back from MegaMek",
            summary=summary,
            actor=actor,
            inputs={
                "@records": [
                    {"target": r._meta.model_name, "code": str(r.code), "name": str(r)} for r in touched
                ]
            },
            effects=changes,
            visibility=Visibility.EVERYONE if visible else Visibility.GM,
            request_key=request_key,
        )
    except PlayError as error:
        # Each sheet is logged whole, before and after, so that Undo restores it: a big battle
        # may not fit one entry.
        raise PlayError(
            f"{error} Leave some units out in the matching table, apply the rest, then upload the "
            "same file again for the ones left out."
        ) from None


def parse_chosen(data, count: int) -> dict[int, str]:
    """The GM's matching table from a form: ``match-N`` is the record key for entity N."""
    chosen = {}
    for position in range(count):
        value = data.get(f"match-{position}")
        if value is not None:
            chosen[position] = str(value)[:100]
    return chosen
