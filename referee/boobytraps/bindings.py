"""Booby traps at the table: every IR107 procedure against a campaign's traps.

A trap is added unarmed by the GM; "Generate" rolls its speed (from the campaign's
year), weapon spaces and weapons (from the GM's charts) onto that record, so each
generated value is a recorded change that Undo restores. Pursuit sets its target and
course; the End Phase reloads its drone racks."""

from __future__ import annotations

import rules
from referee.play.bindings import Binding, BindingList, Context, Role

from .models import BoobyTrap, Course, TargetKind, WeaponType

BINDINGS = BindingList()

TRAP = Role("trap", BoobyTrap, "Booby trap", targets=("booby_trap",), required=False)


def _trap(ctx: Context) -> BoobyTrap | None:
    return ctx.objects.get("trap")


def _secret(ctx: Context) -> bool:
    """A trap's rolls are for the GM unless the trap is shared with the players."""
    trap = _trap(ctx)
    return trap is None or not trap.shared


def _campaign_speed(year: int) -> int:
    """IR107.211, straight from the engine."""
    return rules.resolve("booby_trap.speed_by_year", {"year": year}).result["speed"]


def _current_speed(ctx: Context) -> dict:
    trap = _trap(ctx)
    speed = trap.speed if trap is not None and trap.speed is not None else _campaign_speed(ctx.campaign.year)
    return {"speed": speed}


def _chart_input(trap: BoobyTrap | None, weapon_type: str) -> dict | None:
    """The trap's chart for a type, as the engine takes it (null: none chosen)."""
    chart = trap.chart(weapon_type) if trap is not None else None
    return None if chart is None else chart.entries


def _racks_for(trap: BoobyTrap, weapons: list[str] | None) -> list[dict] | None:
    """Drone racks for freshly rolled drone-hit weapons, full, with the capacities the GM's
    drone chart gives [A11]; None when the chart gives none (the GM's racks stay)."""
    chart = trap.drone_chart
    if weapons is None or chart is None:
        return None
    racks = []
    for weapon in weapons:
        capacity = chart.rack_capacity(weapon)
        if capacity is not None:
            racks.append({"weapon": weapon, "capacity": capacity, "loaded": capacity})
    return racks if racks or not weapons else None


# --- 1.1-1.5: making a trap ------------------------------------------------------------------

BINDINGS.add(
    Binding(
        "booby_trap.speed_by_year",
        roles=(TRAP,),
        label="Speed from the campaign year",
        prefill=lambda ctx: {"year": ctx.campaign.year},
        secret=_secret,
    )
)

BINDINGS.add(
    Binding(
        "booby_trap.scenario_speed_adjust",
        roles=(TRAP,),
        label="Scenario speed adjustment",
        prefill=_current_speed,
        secret=_secret,
    )
)

BINDINGS.add(
    Binding(
        "booby_trap.weapon_spaces",
        roles=(TRAP,),
        label="Roll weapon spaces",
        prefill=_current_speed,
        secret=_secret,
    )
)


def _fill_prefill(ctx: Context) -> dict:
    """The first weapon type with spaces still unfilled, with the trap's chart for it."""
    trap = _trap(ctx)
    if trap is None:
        return {}
    unfilled = [t.value for t in WeaponType if trap.spaces(t.value) and trap.weapons(t.value) is None]
    weapon_type = unfilled[0] if unfilled else WeaponType.TORP.value
    return {
        "weapon_type": weapon_type,
        "spaces": trap.spaces(weapon_type),
        "chart": _chart_input(trap, weapon_type),
    }


def _fill_after(ctx: Context, outcome, recorder) -> None:
    trap = _trap(ctx)
    if trap is None or outcome.inputs["weapon_type"] != WeaponType.DRONE:
        return
    racks = _racks_for(trap, outcome.result["weapons"])
    if racks is not None:
        recorder.set(trap, "drone_racks", racks)


BINDINGS.add(
    Binding(
        "booby_trap.fill_weapons",
        roles=(TRAP,),
        label="Fill weapon spaces",
        prefill=_fill_prefill,
        after=_fill_after,
        secret=_secret,
    )
)


def _generate_prefill(ctx: Context) -> dict:
    trap = _trap(ctx)
    return {
        "year": ctx.campaign.year,
        "torp_chart": _chart_input(trap, "torp"),
        "drone_chart": _chart_input(trap, "drone"),
        "phaser_chart": _chart_input(trap, "phaser"),
    }


def _generate_after(ctx: Context, outcome, recorder) -> None:
    trap = _trap(ctx)
    if trap is None:
        return
    racks = _racks_for(trap, outcome.result["weapons"]["drone"])
    if racks is not None:
        recorder.set(trap, "drone_racks", racks)


BINDINGS.add(
    Binding(
        "booby_trap.generate",
        roles=(TRAP,),
        label="Generate (speed, spaces, weapons)",
        prefill=_generate_prefill,
        after=_generate_after,
        secret=_secret,
    )
)


# --- 1.6-1.7: pursuit ------------------------------------------------------------------------


def _pursuit_after(ctx: Context, outcome, recorder) -> None:
    trap = _trap(ctx)
    if trap is not None:
        recorder.set(trap, "target_kind", TargetKind.UNIT if outcome.result["target_id"] else TargetKind.NONE)


PURSUIT = BINDINGS.add(
    Binding(
        "booby_trap.pursuit_target",
        roles=(TRAP,),
        # No "Roll…" entry: the panel links the trap's pursuit page, which lists the
        # campaign's ships and units to tick with their ranges.
        after=_pursuit_after,
        secret=_secret,
    )
)


def _terrain_prefill(ctx: Context) -> dict:
    trap = _trap(ctx)
    values = {"current_turn": ctx.campaign.turn}
    if trap is not None:
        values.update(
            terrain_cooldown_until=trap.terrain_cooldown_until,
            unit_target=trap.course == Course.PURSUIT and trap.target_kind == TargetKind.UNIT,
            priority=trap.terrain_priority,
        )
    return values


def _terrain_after(ctx: Context, outcome, recorder) -> None:
    trap = _trap(ctx)
    if trap is None:
        return
    if outcome.inputs["passes_through"]:
        # Through inter-sector terrain: it ignores such terrain from the next turn on [A14],
        # so a terrain chase ends here and it goes straight on until something is detected.
        if outcome.result["pursue_terrain"] or trap.target_kind == TargetKind.TERRAIN:
            recorder.set(trap, "target", "")
            recorder.set(trap, "target_kind", TargetKind.NONE.value)
            recorder.set(trap, "course", Course.STRAIGHT.value)
    elif outcome.result["pursue_terrain"]:
        recorder.set(trap, "course", Course.PURSUIT.value)
        recorder.set(trap, "target_kind", TargetKind.TERRAIN.value)


TERRAIN = BINDINGS.add(
    Binding(
        "booby_trap.terrain_pursuit",
        roles=(TRAP,),
        label="Inter-sector terrain pursuit",
        prefill=_terrain_prefill,
        after=_terrain_after,
        secret=_secret,
    )
)


# --- 1.8: upkeep, every End Phase ------------------------------------------------------------


def _upkeep_prefill(ctx: Context) -> dict:
    trap = _trap(ctx)
    if trap is None:
        return {}
    return {"drone_racks": [{"capacity": r["capacity"], "loaded": r["loaded"]} for r in trap.drone_racks]}


UPKEEP = BINDINGS.add(
    Binding(
        "booby_trap.turn_upkeep",
        roles=(TRAP,),
        label="Drone reload (End Phase)",
        prefill=_upkeep_prefill,
        secret=_secret,
    )
)
