"""The fleet's own records: ships, units, characters, star systems and markers, and the
engine effects their fields store (K-F integrity, armour, heat, a character knocked out...)."""

from __future__ import annotations

from datetime import timedelta

from referee.fleet.forms import CharacterForm, Kind, MarkerForm, ShipForm, StarSystemForm, UnitForm
from referee.fleet.models import FACINGS, Character, Marker, Ship, StarSystem, Unit

from .. import selectors
from ..effects import flag, moment, numeric
from ..families import EffectRule, Family, Panel

DASHBOARD = "campaigns/dashboard.html"


def _helium(obj, effect, ctx):
    if effect["value"] == "all_crossed":
        return [("helium_tank_boxes", 0)]
    return numeric("helium_tank_boxes", high="helium_tank_boxes_max")(obj, effect, ctx)


def _armor(obj, effect, ctx, facing: str):
    if facing not in FACINGS:
        return []
    return numeric(f"armor_{facing}", high=f"armor_{facing}_max")(obj, effect, ctx)


def _fighters_lost(obj, effect, ctx):
    value = effect["value"]
    if effect["op"] == "add" and isinstance(value, int):
        return [("fighters", max(0, obj.fighters + value))]
    return []


def _unconscious(obj, effect, ctx):
    value = effect["value"]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [("unconscious_until", ctx.clock + timedelta(minutes=value))]
    return moment("unconscious_until")(obj, effect, ctx)


FAMILY = Family(
    name="fleet",
    title="Fleet",
    group="space",
    panels=(
        Panel("ships", f"{DASHBOARD}#ships-panel", selectors.ships_panel, order=1),
        Panel("systems", f"{DASHBOARD}#systems-panel", selectors.systems_panel, order=2),
        Panel("markers", f"{DASHBOARD}#markers-panel", selectors.markers_panel, order=3),
        Panel("units", f"{DASHBOARD}#units-panel", selectors.units_panel, order=1, group="ground"),
        Panel(
            "characters",
            f"{DASHBOARD}#characters-panel",
            selectors.characters_panel,
            order=1,
            group="shipboard",
        ),
    ),
    kinds=(
        Kind("ships", Ship, ShipForm, "ship", "Ships"),
        Kind("units", Unit, UnitForm, "unit", "Units"),
        Kind("characters", Character, CharacterForm, "character", "Characters"),
        Kind("systems", StarSystem, StarSystemForm, "star system", "Star systems"),
        Kind("markers", Marker, MarkerForm, "marker", "Markers"),
    ),
    effects=(
        EffectRule("ship", "kf_integrity", numeric("kf_integrity", high="kf_integrity_max")),
        EffectRule("ship", "drive_charged", flag("drive_charged")),
        EffectRule("ship", "charged_from_reactor", flag("charged_from_reactor")),
        EffectRule("ship", "lf_battery_charged", flag("lf_battery_charged")),
        EffectRule("ship", "last_jump_at", moment("last_jump_at")),
        EffectRule("ship", "helium_tank_boxes", _helium),
        EffectRule("ship", "radar_crit_boxes", numeric("radar_crit_boxes")),
        EffectRule("ship", r"armor\.(?P<facing>[a-z_]+)", _armor, pattern=True),
        EffectRule("fighter", "overburn", numeric("overburn", high=None)),
        EffectRule("fighter", "shutdown", flag("shutdown")),
        EffectRule("fighter", "armor_rows", _fighters_lost),
        EffectRule("unit", "heat", numeric("heat")),
        EffectRule("unit", "fuel", numeric("fuel_points")),
        EffectRule("unit", "engine_hits", numeric("engine_hits")),
        EffectRule("character", "unconscious_until", _unconscious),
    ),
)
