"""Terrain, weather, heat and fire procedures meet the campaign's hexes, battlefields and units.

Hexes pre-fill terrain and weather (with the GM's rows where the seed prints none);
units pre-fill piloting, engine hits and jump capability. The changes the campaign
stores are applied (hex terrain, a geyser's eruption, a unit's heat); a unit's damage,
fall, destruction or being stuck are not stored, so they stay pending for the GM.
Every End Phase rolls the geysers of the battlefields in play, GM-only: how long an
eruption lasts is the GM's secret."""

from __future__ import annotations

from django.urls import reverse

import rules
from referee.fleet import sheet_reads as sheets
from referee.fleet.models import Unit
from referee.play import wording
from referee.play.bindings import (
    FROM_THE_RECORD,
    FROM_THE_SHEET,
    Binding,
    BindingList,
    Context,
    Missing,
    Role,
    Ruling,
    Sourced,
)

from . import catalog
from .models import Battlefield, Hex, UnitPlacement
from .modifiers import magma_hex, read_hex

BINDINGS = BindingList()

HEX = Role("hex", Hex, "Hex", targets=("hex",))
GEYSER = Role("hex", Hex, "Geyser", targets=("hex",), kinds=(True,), kind_field="geyser")
CLEARABLE = Role(
    "hex",
    Hex,
    "Jungle or ultra-heavy woods hex",
    targets=("hex",),
    kinds=catalog.CLEARABLE,
    kind_field="terrain",
)
WHERE = Role("hex", Hex, "Hex the unit is in", required=False)
FIELD = Role("battlefield", Battlefield, "Battlefield")
UNIT = Role("unit", Unit, "Unit", targets=("unit",))
MECH = Role("unit", Unit, "BattleMech", targets=("unit",), kinds=("battlemech",))


def _weather(hex_: Hex | None, battlefield: Battlefield | None = None) -> list[str]:
    if hex_ is not None:
        return catalog.merge_weather(hex_.battlefield.weather, hex_.weather)
    return list(battlefield.weather) if battlefield is not None else []


def _ground(ctx: Context, role: str = "hex") -> dict:
    """The hex a unit stands in on its battlefield map (or the battlefield), for the
    procedures that ask where the unit is when the GM has not said."""
    unit = ctx.objects.get("unit")
    if unit is None:
        return {}
    placement = UnitPlacement.objects.filter(unit=unit).select_related("battlefield").first()
    if placement is None:
        return {}
    return {role: placement.battlefield if role == "battlefield" else placement.hex_row()}


# --- terrain.hex_modifiers -------------------------------------------------------------


def _unit_type(unit: Unit) -> str | Sourced | None:
    """The movement table's unit type: how the sheet says the unit moves (a Quad, a hover
    tank), else what its record's kind tells (a vehicle's motive type it does not: the GM
    picks wheeled, tracked, hover...; a tank is never taken for a two-legged 'Mech)."""
    if (moves := sheets.moves_as(unit.sheet)) is not None:
        return Sourced(moves, FROM_THE_SHEET)
    if unit.kind == "battlemech":
        return Sourced("battlemech_biped", FROM_THE_RECORD)
    if unit.kind in ("infantry", "battle_armor"):
        return Sourced("infantry_jump" if unit.jump_mp else "infantry_foot", FROM_THE_RECORD)
    if unit.kind == "vehicle":
        return Missing(
            f"How {unit.name} moves (wheeled, tracked, hover...) is not on its record: give it a sheet "
            "from its unit file, or choose it here."
        )
    return None


def _hex_prefill(ctx: Context) -> dict:
    values = {}
    if (hex_ := ctx.objects.get("hex")) is not None:
        values.update(read_hex(hex_).inputs)
    if (unit := ctx.objects.get("unit")) is not None and (unit_type := _unit_type(unit)):
        values["unit_type"] = unit_type
    return values


def terrain_rulings(ctx: Context, *, heat: bool = False) -> list[Ruling]:
    """The rows of the hex's terrain, conditions (or, for heat, weather) that the rulebook
    names without printing and the GM has not filled in: the roll waits for them."""
    hex_ = ctx.objects.get("hex")
    if hex_ is None:
        return []
    reading = read_hex(hex_)
    table = "heat.expanded" if heat else "terrain.hex_modifiers"
    book = wording.book_reference(rules.get(table).reference).split(";")[0]
    rulings = []
    for gap in reading.missing_heat if heat else reading.missing:
        code = ctx.campaign.code
        if gap.row is not None:
            link, action = (
                reverse("campaigns:object-edit", args=[code, "terrain-rows", gap.row.code]),
                "Complete its row",
            )
        else:
            link, action = reverse("terrain:row-fill", args=[code, gap.key]), "Fill in its row"
        what = f"{gap.name}: {wording.prose(gap.fields)} not ruled on yet"
        rulings.append(Ruling(what, link, action, f"{book} ({wording.plain_text(gap.source)})"))
    return rulings


BINDINGS.add(
    Binding(
        "terrain.hex_modifiers",
        gm_inputs=("base_custom", "custom_conditions"),
        roles=(HEX, Role("unit", Unit, "Unit entering or fired at", required=False)),
        label="Hex modifiers",
        prefill=_hex_prefill,
        fill_roles=_ground,
        rulings=terrain_rulings,
    )
)


# --- terrain.clearing ------------------------------------------------------------------


def _clearing_prefill(ctx: Context) -> dict:
    hex_ = ctx.objects.get("hex")
    return {"terrain": hex_.terrain} if hex_ is not None else {}


BINDINGS.add(
    Binding(
        "terrain.clearing",
        roles=(CLEARABLE,),
        label="Clear jungle or woods",
        prefill=_clearing_prefill,
    )
)


# --- terrain.geyser and the End Phase ----------------------------------------------------


def _geyser_prefill(ctx: Context) -> dict:
    hex_ = ctx.objects.get("hex")
    if hex_ is None:
        return {}
    return {
        "erupting_turns_left": hex_.erupting_turns_left,
        "volcanic": hex_.volcanic,
        "eruption_turn_counts": hex_.eruption_turn_counts,
    }


GEYSER_BINDING = BINDINGS.add(
    Binding(
        "terrain.geyser",
        roles=(GEYSER,),
        label="Geyser (End Phase)",
        prefill=_geyser_prefill,
        secret=lambda ctx: True,  # the eruption's length is kept from the players
    )
)


# --- units in terrain --------------------------------------------------------------------

MAGMA_UNIT_TYPES = {"battlemech": "battlemech", "infantry": "infantry", "battle_armor": "infantry"}


def _magma_prefill(ctx: Context) -> dict:
    values = {}
    if (unit := ctx.objects.get("unit")) is not None:
        if unit.kind in MAGMA_UNIT_TYPES:
            values["unit_type"] = MAGMA_UNIT_TYPES[unit.kind]
        if unit.kind == "battlemech":
            values["psr_tn"] = unit.piloting
    if (hex_ := ctx.objects.get("hex")) is not None:
        values["start_hex"] = magma_hex(hex_)
    return values


BINDINGS.add(
    Binding(
        "terrain.magma",
        roles=(UNIT, Role("hex", Hex, "Hex it starts in", required=False)),
        label="Magma",
        prefill=_magma_prefill,
        fill_roles=_ground,
    )
)


def _bog_terrain(hex_: Hex) -> str | None:
    if hex_.terrain in catalog.BOG_TERRAIN:
        return hex_.terrain
    if hex_.volcanic and hex_.erupting:
        return "liquid_magma"
    return next((c for c in catalog.BOG_CONDITIONS if c in hex_.conditions), None)


def _bog_prefill(ctx: Context) -> dict:
    values = {}
    if (unit := ctx.objects.get("unit")) is not None:
        values.update(piloting=unit.piloting, jump_capable=unit.jump_mp > 0)
    if (hex_ := ctx.objects.get("hex")) is not None and (terrain := _bog_terrain(hex_)):
        values["terrain"] = terrain
    return values


BINDINGS.add(
    Binding(
        "terrain.bog_down",
        gm_inputs=("swamp_mod",),
        roles=(UNIT, WHERE),
        label="Bog down",
        prefill=_bog_prefill,
        fill_roles=_ground,
    )
)


def _careful_prefill(ctx: Context) -> dict:
    values = {}
    if (unit := ctx.objects.get("unit")) is not None:
        values.update(
            unit_kind="battlemech" if unit.kind == "battlemech" else "vehicle", psr_tn=unit.piloting
        )
    if (hex_ := ctx.objects.get("hex")) is not None:
        values.update(fog="fog" in _weather(hex_), ice="ice" in hex_.conditions)
    return values


BINDINGS.add(
    Binding(
        "terrain.careful_movement",
        roles=(
            Role("unit", Unit, "Unit moving carefully", targets=("unit",), kinds=("battlemech", "vehicle")),
            WHERE,
        ),
        label="Careful movement",
        prefill=_careful_prefill,
        fill_roles=_ground,
    )
)


# --- weather -----------------------------------------------------------------------------


def _earthquake_prefill(ctx: Context) -> dict:
    values = {}
    if (unit := ctx.objects.get("unit")) is not None:
        values["psr_tn"] = unit.piloting
    battlefield = ctx.objects.get("battlefield")
    if battlefield is not None and battlefield.earthquake:
        values["strength"] = battlefield.earthquake
    return values


BINDINGS.add(
    Binding(
        "weather.earthquake",
        roles=(MECH, Role("battlefield", Battlefield, "Battlefield shaking", required=False)),
        label="Earthquake PSR",
        prefill=_earthquake_prefill,
        fill_roles=lambda ctx: _ground(ctx, "battlefield"),
    )
)


def _missile_prefill(ctx: Context) -> dict:
    weather = _weather(None, ctx.objects.get("battlefield"))
    wind = "high" if "wind_high" in weather else "moderate" if "wind_moderate" in weather else "none"
    return {"wind": wind, "blizzard": "blizzard" in weather}


BINDINGS.add(
    Binding(
        "weather.missile_hits_modifier",
        roles=(FIELD,),
        label="Missile hits in wind",
        prefill=_missile_prefill,
    )
)


# --- heat and fire -------------------------------------------------------------------------


def _heat_prefill(ctx: Context) -> dict:
    """Heat sinks (count and type) and engine hits from the unit's sheet, its weapons named
    for the GM to add the heat of those fired; temperature and the GM's weather heat rows
    from its hex. Magma heat is left out: terrain.magma puts it on the unit itself."""
    values = {}
    if (unit := ctx.objects.get("unit")) is not None:
        values.update(unit_heat(unit))
    if (hex_ := ctx.objects.get("hex")) is not None:
        values["ambient_c"] = hex_.battlefield.ambient_c
        values["other_heat"] = read_hex(hex_).other_heat
    return values


def unit_heat(unit: Unit) -> dict:
    """What a 'Mech's sheet (or, without one, its record) answers of the Heat Phase."""
    source = FROM_THE_SHEET if unit.sheet else FROM_THE_RECORD
    values = {}
    hits = min(2, unit.engine_hits) if unit.engine_type == "fusion" else unit.engine_hits
    values["fusion_engine_hits" if unit.engine_type == "fusion" else "ice_engine_hits"] = Sourced(
        hits, source
    )
    sinks = sheets.heat_sinks_on(unit.sheet)
    if sinks is None:
        lacking = Missing(
            f"{unit.name} has no record sheet to give its heat sinks: import its unit file "
            "(Import unit files) or give it a sheet, or type them here."
        )
        values["single_sinks_operational"] = values["double_sinks_operational"] = lacking
    else:
        kept, other = ("double", "single") if sinks["type"] == "double" else ("single", "double")
        values[f"{kept}_sinks_operational"] = Sourced(sinks["count"], FROM_THE_SHEET)
        values[f"{other}_sinks_operational"] = Sourced(0, FROM_THE_SHEET)
    weapons = sheets.weapons_on(unit.sheet)
    if weapons:
        named = wording.prose(f"{w['count']} × {w['name']}" if w["count"] > 1 else w["name"] for w in weapons)
        values["weapon_heat"] = Missing(
            f"The sheet's weapons: {named}. Add the heat of those fired this turn."
        )
    elif not unit.sheet:
        values["weapon_heat"] = Missing(
            f"{unit.name} has no record sheet to name its weapons: type the heat of those fired this turn."
        )
    return values


BINDINGS.add(
    Binding(
        "heat.expanded",
        gm_inputs=("other_heat",),
        roles=(Role("unit", Unit, "'Mech", targets=("unit",), kinds=("battlemech",)), WHERE),
        label="Heat Phase",
        prefill=_heat_prefill,
        fill_roles=_ground,
        rulings=lambda ctx: terrain_rulings(ctx, heat=True),
    )
)

FIRE_WEATHER = {
    "rain_light": "rain",
    "rain_heavy": "rain",
    "fog": "thick_fog",
    "heavy_snowfall": "falling_snow",
    "blizzard": "blizzard",
    "wind_high": "high_winds",
}


def _fire_prefill(ctx: Context) -> dict:
    hex_ = ctx.objects.get("hex")
    if hex_ is None:
        return {}
    return {"weather": list(dict.fromkeys(FIRE_WEATHER[w] for w in _weather(hex_) if w in FIRE_WEATHER))}


BINDINGS.add(
    Binding(
        "fire.intentional",
        roles=(Role("hex", Hex, "Hex set alight"),),
        label="Intentional fire",
        prefill=_fire_prefill,
    )
)
