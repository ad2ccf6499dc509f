"""A hex read as the engine's inputs: its terrain, conditions and weather, with the GM's
rows where the seed prints none, and by name every value still missing."""

from __future__ import annotations

from dataclasses import dataclass, field

import rules

from . import catalog
from .models import Hex, RowKind, TerrainRow


@dataclass(frozen=True)
class Missing:
    """A table row the engine needs that the GM has not (fully) filled in."""

    key: str
    name: str
    kind: str  # base | condition | weather
    fields: tuple[str, ...]  # labels of the blank values
    source: str
    row: TerrainRow | None = None  # the GM's row, when there is one to complete

    def __str__(self) -> str:
        return f"{self.name}: {', '.join(self.fields)} not filled in"

    @property
    def kind_label(self) -> str:
        return KIND_LABELS[self.kind]


KIND_LABELS = {"base": "base terrain", "condition": "terrain condition", "weather": "heat table"}


@dataclass
class HexReading:
    hex: Hex
    inputs: dict  # terrain.hex_modifiers inputs, without the unit and weapon options
    complete: bool  # every value the movement table needs is known
    missing: list[Missing] = field(default_factory=list)  # movement table rows
    missing_heat: list[Missing] = field(default_factory=list)  # heat table rows
    weather: list[str] = field(default_factory=list)
    other_heat: int = 0  # heat of the weather rows the GM filled in

    @property
    def magma(self) -> str:
        return magma_hex(self.hex)


def rows_for(campaign) -> dict[str, TerrainRow]:
    return {r.key: r for r in TerrainRow.objects.in_campaign(campaign)}


def known_keys(campaign, rows: dict[str, TerrainRow] | None = None) -> tuple[list[str], list[str]]:
    """The base terrains and the conditions a hex of this campaign may carry."""
    if rows is None:
        rows = rows_for(campaign) if campaign is not None else {}
    bases = [*catalog.ENGINE_BASE, *catalog.seed_keys("base")]
    conditions = [*catalog.ENGINE_CONDITIONS, *catalog.seed_keys("condition")]
    for row in rows.values():
        target = bases if row.kind == RowKind.BASE else conditions if row.kind == RowKind.CONDITION else None
        if target is not None and row.key not in target:
            target.append(row.key)
    return list(dict.fromkeys(bases)), list(dict.fromkeys(conditions))


def magma_hex(hex_: Hex) -> str:
    """other | crust | liquid; an erupting volcanic geyser is liquid magma while it lasts."""
    if hex_.volcanic and hex_.erupting:
        return "liquid"
    return catalog.MAGMA_HEX.get(hex_.terrain, "other")


def row_values(key: str, kind: str, rows: dict[str, TerrainRow]) -> tuple[dict, Missing | None]:
    """What the text states for a GM-data row, completed by the GM's row, and what is
    still blank. Stated values always apply; the GM's fill the rest."""
    seed = catalog.SEED_ROWS.get(key)
    row = rows.get(key)
    known = seed.known if seed else {}
    needs = seed.needs() if seed else (("heat",) if kind == "weather" else catalog.NUMERIC_FIELDS)
    values = {}
    for name in (*catalog.NUMERIC_FIELDS, "heat"):
        values[name] = known.get(name, getattr(row, name) if row else None)
    values["prohibited"] = list(
        dict.fromkeys([*known.get("prohibited", []), *(row.prohibited if row else [])])
    )
    values["flags"] = list(dict.fromkeys([*known.get("flags", []), *(row.flags if row else [])]))
    blank = tuple(catalog.FIELD_LABELS[f] for f in needs if values[f] is None)
    if not blank:
        return values, None
    name = row.name if row else catalog.terrain_name(key)
    source = seed.source if seed else ("the GM's own row" if row else "no row for it: add one")
    return values, Missing(key, name, kind, blank, source, row)


def read_hex(hex_: Hex, rows: dict[str, TerrainRow] | None = None) -> HexReading:
    """The hex as terrain.hex_modifiers inputs, pre-filled from state and the GM's rows."""
    if rows is None:
        rows = rows_for(hex_.campaign)
    battlefield = hex_.battlefield
    missing: list[Missing] = []
    complete = True
    inputs: dict = {}

    key = hex_.terrain
    if key in catalog.ENGINE_BASE and key not in catalog.SEED_ROWS:
        inputs["base_terrain"] = key
    else:
        values, gap = row_values(key, "base", rows)
        if gap is not None:
            missing.append(gap)
        custom = {f: values[f] for f in (*catalog.NUMERIC_FIELDS, "prohibited", "flags")}
        if key == "ultra_heavy_woods" and values["mp_cost"] is None:
            inputs["base_terrain"] = key  # the engine's own row, MP cost null
        else:
            inputs["base_terrain"] = "custom"
            inputs["base_custom"] = custom
            complete &= custom["to_hit"] is not None and custom["psr"] is not None

    conditions, customs = [], []
    for name in hex_.conditions:
        if name in catalog.ENGINE_CONDITIONS:
            conditions.append(name)
            continue
        values, gap = row_values(name, "condition", rows)
        if gap is not None:
            missing.append(gap)
            complete = False
        customs.append(
            {
                "name": catalog.terrain_name(name, rows),
                **{f: values[f] for f in (*catalog.NUMERIC_FIELDS, "prohibited", "flags")},
            }
        )
    if hex_.erupting:
        conditions.append("geyser")
    inputs["conditions"] = conditions
    inputs["custom_conditions"] = customs

    weather = catalog.merge_weather(battlefield.weather, hex_.weather)
    inputs["weather"] = weather
    inputs["earthquake"] = battlefield.earthquake
    inputs["weapon_miscalibrated"] = battlefield.weapons_miscalibrated

    missing_heat, other_heat = [], 0
    for name in weather:
        seed = catalog.SEED_ROWS.get(name)
        if (seed is None or seed.kind != "weather") and name not in rows:
            continue  # no heat effect stated for this weather
        values, gap = row_values(name, "weather", rows)
        if gap is not None:
            missing_heat.append(gap)
        else:
            other_heat += values["heat"]
    return HexReading(hex_, inputs, complete, missing, missing_heat, weather, other_heat)


UNIT_TYPES = {
    "battlemech_biped": "'Mech (biped)",
    "battlemech_quad": "'Mech (quad)",
    "infantry_foot": "Foot infantry",
    "infantry_jump": "Jump infantry",
    "wheeled": "Wheeled",
    "tracked": "Tracked",
    "hover": "Hover",
    "vtol": "VTOL",
    "naval": "Naval",
}


def sheet(reading: HexReading) -> list[dict]:
    """The hex for every unit type: MP, PSR, entry and the to-hit by weapon class."""
    if not reading.complete:
        return []
    lines = []
    for unit_type, label in UNIT_TYPES.items():
        ballistic = rules.resolve(
            "terrain.hex_modifiers", {**reading.inputs, "unit_type": unit_type, "weapon_class": "ballistic"}
        ).result
        energy = rules.resolve(
            "terrain.hex_modifiers", {**reading.inputs, "unit_type": unit_type, "weapon_class": "energy"}
        ).result
        lines.append(
            {
                "unit_type": unit_type,
                "label": label,
                "mp_cost": ballistic["mp_cost"],
                "psr_mod": ballistic["psr_mod"],
                "prohibited": ballistic["prohibited_for_unit"],
                "skippable_mp": ballistic["skippable_mp"],
                "to_hit_ballistic": ballistic["to_hit_mod"],
                "to_hit_energy": energy["to_hit_mod"],
                "flags": [catalog.FLAG_LABELS[f] for f, on in ballistic["flags"].items() if on],
            }
        )
    return lines
