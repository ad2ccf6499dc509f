"""What a map draws, read from the campaign now or as it stood at a log entry.

A map's state is plain dictionaries keyed by record code, one per record, with the
fields the map draws. The state at entry #n is the state now with every later entry's
recorded changes taken back (each change holds the field's value before it): a move,
a jump, a hand edit, an undo, a record added or deleted all rewind the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F

from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, StarSystem, Unit
from referee.play.models import LogEntry
from referee.terrain.models import Battlefield, Hex, UnitPlacement

from .models import PiratePoint

# The fields each kind of record contributes to a map (the names its logged changes use).
SHIP_FIELDS = ("name", "kind", "heading", "x_au", "y_au", "position", "shared", "star_system", "docked_on")
SYSTEM_FIELDS = ("name", "spectral_class", "jump_point_au", "x_ly", "y_ly", "explored", "shared")
PIRATE_FIELDS = ("name", "x_au", "y_au", "shared", "star_system", "notes")
HEX_FIELDS = (
    "name",
    "terrain",
    "level",
    "conditions",
    "weather",
    "geyser",
    "volcanic",
    "erupting_turns_left",
    "shared",
    "battlefield",
    "notes",
)
FIELD_FIELDS = ("name", "weather", "columns", "rows", "shared", "world", "earthquake")
PLACEMENT_FIELDS = ("unit", "battlefield", "hex", "facing")
UNIT_FIELDS = ("name", "kind", "shared")


@dataclass
class MapState:
    """Records by model name, then by code: ``state.of("ship")["<code>"]["x_au"]``."""

    records: dict[str, dict[str, dict]] = field(default_factory=dict)
    at_seq: int | None = None  # the entry the state was rewound to (None: now)

    def of(self, target: str) -> dict[str, dict]:
        return self.records.setdefault(target, {})


def _rows(queryset, fields, **related) -> dict[str, dict]:
    """Records as dictionaries, foreign keys as the related record's code (as the log has them)."""
    values = queryset.values(
        "code", *[f for f in fields if f not in related], **{f"{k}__map_code": v for k, v in related.items()}
    )
    found = {}
    for row in values:
        code = str(row.pop("code"))
        record = {}
        for key, value in row.items():
            if key.endswith("__map_code"):
                key, value = key.removesuffix("__map_code"), None if value is None else str(value)
            record[key] = value
        found[code] = record
    return found


def system_state(
    campaign: Campaign, *, everything: bool = False, system: StarSystem | None = None
) -> MapState:
    """Star systems, ships and pirate points. Only those of ``system`` unless ``everything``
    (a rewind needs every record: a ship elsewhere now may have been here then)."""
    ships = Ship.objects.in_campaign(campaign)
    pirates = PiratePoint.objects.in_campaign(campaign)
    systems = StarSystem.objects.in_campaign(campaign)
    if system is not None and not everything:
        ships = ships.filter(star_system=system) | ships.filter(docked_on__star_system=system)
        pirates = pirates.filter(star_system=system)
        systems = systems.filter(pk=system.pk)
    state = MapState()
    state.records["ship"] = _rows(
        ships,
        SHIP_FIELDS,
        star_system=F("star_system__code"),
        docked_on=F("docked_on__code"),
    )
    state.records["starsystem"] = _rows(systems, SYSTEM_FIELDS)
    state.records["piratepoint"] = _rows(pirates, PIRATE_FIELDS, star_system=F("star_system__code"))
    return state


def battlefield_state(campaign: Campaign) -> MapState:
    state = MapState()
    state.records["battlefield"] = _rows(Battlefield.objects.in_campaign(campaign), FIELD_FIELDS)
    state.records["hex"] = _rows(
        Hex.objects.filter(campaign=campaign), HEX_FIELDS, battlefield=F("battlefield__code")
    )
    state.records["unitplacement"] = _rows(
        UnitPlacement.objects.filter(campaign=campaign),
        PLACEMENT_FIELDS,
        unit=F("unit__code"),
        battlefield=F("battlefield__code"),
    )
    state.records["unit"] = _rows(Unit.objects.in_campaign(campaign), UNIT_FIELDS)
    return state


def rewind(state: MapState, campaign: Campaign, seq: int) -> MapState:
    """The state as it stood just after entry ``seq``: every later change taken back,
    latest first. A record added since loses its fields (it was not there); a record
    deleted since comes back with the values it held."""
    later = (
        LogEntry.objects.filter(campaign=campaign, seq__gt=seq)
        .order_by("-seq")
        .values_list("effects", flat=True)
    )
    tracked = set(state.records)
    for effects in later.iterator(chunk_size=500):
        for change in reversed(effects or []):
            target = change.get("target")
            if target not in tracked:
                continue
            record = state.of(target).setdefault(str(change.get("code")), {"name": change.get("name", "")})
            record[change.get("field")] = change.get("before")
    state.at_seq = seq
    return state


# --- what a role may see -------------------------------------------------------------------


def ships_in(state: MapState, system_code: str) -> list[dict]:
    """Ships in the system as drawn: placed ships at their own position, docked ships
    riding with their carrier (at its position, in its system). Each gets ``at`` (x, y) or
    None when not placed, and ``carrier`` (the carrier's record) when docked."""
    ships = state.of("ship")
    found = []
    for code, ship in ships.items():
        carrier = ships.get(ship.get("docked_on") or "")
        host = carrier if carrier is not None else ship
        if host.get("star_system") != system_code or not ship.get("kind"):
            continue
        x, y = host.get("x_au"), host.get("y_au")
        found.append(
            {**ship, "code": code, "carrier": carrier, "at": None if x is None or y is None else (x, y)}
        )
    found.sort(key=lambda s: (s["name"] or "", s["code"]))
    return found


def pirates_in(state: MapState, system_code: str) -> list[dict]:
    found = [
        {**p, "code": code}
        for code, p in state.of("piratepoint").items()
        if p.get("star_system") == system_code and p.get("x_au") is not None and p.get("y_au") is not None
    ]
    found.sort(key=lambda p: (p["name"] or "", p["code"]))
    return found


def for_role(items: list[dict], role: str) -> list[dict]:
    """The GM sees everything; players what is shared with them (and a docked ship only
    with its carrier shared too, since it rides where the carrier is)."""
    if role == "gm":
        return items
    return [i for i in items if i.get("shared") and (i.get("carrier") is None or i["carrier"].get("shared"))]
