"""Shipboard combat at the table: a shot's steps against the compartments a campaign keeps.

Each step is one resolution (C.9): missed shot -> bulkhead or object hit -> critical
hit, decompression or ricochet. The forms are pre-filled from the stored state
(capacity left, pressure, leaked fuel) and from the last hit on the surface, so a
chain of steps needs no calculator. Character damage and Build Saving Rolls stay
pending: the campaign keeps no Condition Monitor for characters.

The End Phase works the state that changes by itself: every open breach loses
another round's pressure, every broken fuel line leaks another point.
"""

from __future__ import annotations

from referee.fleet.models import Character
from referee.play.bindings import Binding, BindingList, Context, Role
from referee.play.models import LogEntry
from referee.play.services import PlayError
from rules.tables import shipboard as tables

from .models import Compartment, Surface

BINDINGS = BindingList()

TABLE_TYPES = tuple(tables.DAMAGE_CAPACITIES)
BULKHEAD_TYPES = tuple(tables.CRITICAL_COLUMN)

COMPARTMENT = Role("compartment", Compartment, "Compartment", targets=("compartment",))
# The surface a shot hits stands for the engine's "compartment" target: the effects
# it gets are the ``surfaces.<type>.*`` of that one surface.
STRUCK = Role("struck_surface", Surface, "Surface hit", targets=("compartment",))


def _last_hit(surface: Surface, campaign, turn: int | None = None) -> LogEntry | None:
    """The newest bulkhead or object hit on this surface that has not been undone."""
    entries = (
        LogEntry.objects.in_campaign(campaign)
        .filter(procedure="shipboard.bulkhead_hit")
        .standing()
        .about("struck_surface", surface)
    )
    if turn is not None:
        entries = entries.filter(turn=turn)
    return entries.order_by("-seq").first()


def _same_ship(ctx: Context, *names: str) -> None:
    """Refuse surfaces of another compartment than the one chosen."""
    compartment = ctx.objects.get("compartment")
    for name in names:
        surface = ctx.objects.get(name)
        if compartment is not None and surface is not None and surface.compartment_id != compartment.pk:
            raise PlayError(f"{surface} is not in {compartment}.")


def _surface_values(surface: Surface) -> dict:
    return {
        "surface": surface.surface_type,
        "capacity": surface.capacity,
        "threshold": surface.threshold,
        "surface_kind": surface.surface_kind,
        "capacity_left": surface.capacity_left,
        "armor_rating": surface.armor_rating,
        "pressure_boundary": surface.pressure_boundary,
    }


# --------------------------------------------------------------------------- 3.2


def _hit_prefill(ctx: Context) -> dict:
    surface = ctx.objects.get("struck_surface")
    return _surface_values(surface) if surface is not None else {}


BINDINGS.add(
    Binding(
        "shipboard.bulkhead_hit",
        gm_inputs=("frangible_capacity_damage",),
        roles=(STRUCK,),
        label="Shot hits it",
        prefill=_hit_prefill,
    )
)


# --------------------------------------------------------------------------- 3.3


def _ricochet_prefill(ctx: Context) -> dict:
    values = {}
    source = ctx.objects.get("from_surface")
    if source is not None and (hit := _last_hit(source, ctx.campaign)) is not None:
        steps = hit.result.get("next_steps", [])
        if hit.result.get("excess", 0) > 0 and ({"ricochet", "pass_through"} & set(steps)):
            values["excess"] = hit.result["excess"]
            values["reduction"] = "pass_through" not in steps  # through a destroyed surface [A60]
            values["weapon_kind"] = hit.inputs.get("weapon_kind", "slug")
            values["ammo"] = hit.inputs.get("ammo", "standard")
    miss = ctx.objects.get("struck_surface")
    if miss is not None:
        values["miss_surface"] = miss.surface_type
        values["miss_capacity_left"] = miss.capacity_left
    return values


BINDINGS.add(
    Binding(
        "shipboard.ricochet",
        roles=(
            Role("from_surface", Surface, "Surface the shot came off", required=False),
            Role(
                "struck_surface",
                Surface,
                "Surface a missed ricochet hits",
                targets=("compartment",),
                kinds=TABLE_TYPES,
                kind_field="surface_type",
                required=False,
            ),
        ),
        label="Ricochet off it",
        prefill=_ricochet_prefill,
    )
)


# --------------------------------------------------------------------------- 3.4


def _critical_prefill(ctx: Context) -> dict:
    bulkhead = ctx.objects.get("pierced_bulkhead")
    if bulkhead is None:
        return {}
    values = {"bulkhead": bulkhead.column}
    hit = _last_hit(bulkhead, ctx.campaign)
    if hit is not None and "critical" in hit.result.get("next_steps", []):
        values["excess"] = hit.result["excess"]  # the per-shot excess [A25]
    return values


def _critical_check(ctx: Context, outcome, recorder) -> None:
    _same_ship(ctx, "pierced_bulkhead")


BINDINGS.add(
    Binding(
        "shipboard.bulkhead_critical",
        roles=(
            COMPARTMENT,
            Role(
                "pierced_bulkhead",
                Surface,
                "Pierced internal bulkhead",
                kinds=BULKHEAD_TYPES,
                kind_field="surface_type",
                required=False,
            ),
        ),
        label="Critical hit check",
        prefill=_critical_prefill,
        after=_critical_check,
    )
)


# --------------------------------------------------------------------------- 3.5


def _last_breach(compartment: Compartment, campaign) -> int | None:
    """This turn's pierce of one of the compartment's pressure boundaries: its excess."""
    for surface in compartment.surfaces.filter(pressure_boundary=True):
        hit = _last_hit(surface, campaign, turn=campaign.turn)
        if hit is not None and "decompression" in hit.result.get("next_steps", []):
            return hit.result["excess"]
    return None


def _decompression_prefill(ctx: Context) -> dict:
    compartment = ctx.objects.get("compartment")
    if compartment is None:
        return {}
    values = {"pressure_pa": compartment.pressure_pa, "rounds": 1}
    points = compartment.breach_points or _last_breach(compartment, ctx.campaign)
    if points:
        values["penetrating_points"] = points
    return values


def _breach_open(ctx: Context, outcome, recorder) -> None:
    """The breach stays open, losing pressure every round, until the GM seals it."""
    compartment = ctx.objects["compartment"]
    if outcome.result["pressure_pa"] > 0:
        recorder.set(compartment, "breach_points", outcome.inputs["penetrating_points"])
    else:
        recorder.set(compartment, "breach_points", 0)  # nothing left to lose


DECOMPRESSION = BINDINGS.add(
    Binding(
        "shipboard.decompression",
        roles=(COMPARTMENT,),
        label="Decompression",
        prefill=_decompression_prefill,
        after=_breach_open,
    )
)


# --------------------------------------------------------------------------- 3.6


def _fuel_prefill(ctx: Context) -> dict:
    compartment = ctx.objects.get("compartment")
    if compartment is None:
        return {}
    # The End Phase adds each turn's leak to the stored points, so none is owed here.
    return {
        "fuel_line_crits": compartment.fuel_line_crits,
        "leaked_points": compartment.fuel_leak_points,
        "turns_leaking": 0,
    }


FUEL_LEAK = BINDINGS.add(
    Binding(
        "shipboard.fuel_leak",
        roles=(COMPARTMENT,),
        label="Weapon fired near leaking fuel",
        prefill=_fuel_prefill,
    )
)


# --------------------------------------------------------------------------- 3.1


def _missed_prefill(ctx: Context) -> dict:
    compartment = ctx.objects.get("compartment")
    if compartment is None:
        return {}
    firer = ctx.objects.get("firer")
    aboard = Character.objects.in_campaign(ctx.campaign).filter(ship=compartment.ship_id).order_by("name")
    if firer is not None:
        aboard = aboard.exclude(pk=firer.pk)
    # Positions are not kept: the GM fills in each distance and drops anyone directly
    # behind the firer [A29]; the engine refuses a blank distance.
    return {"candidates": [{"id": c.name, "distance_m": None} for c in aboard]}


BINDINGS.add(
    Binding(
        "shipboard.missed_shot",
        roles=(
            COMPARTMENT,
            Role("firer", Character, "Firer", required=False),
        ),
        label="Missed shot",
        prefill=_missed_prefill,
    )
)


# --------------------------------------------------------------------------- 3.7


def _over_prefill(ctx: Context) -> dict:
    character = ctx.objects.get("character")
    # W7: an arm's threshold is BLD x 3; the GM changes it for other locations.
    return {"part_threshold": character.bld * 3} if character is not None else {}


BINDINGS.add(
    Binding(
        "shipboard.over_penetration",
        gm_inputs=("reduction",),
        roles=(Role("character", Character, "Character hit", targets=("character",)),),
        label="Over-penetration",
        prefill=_over_prefill,
    )
)


# --------------------------------------------------------------------------- End Phase


def breach_inputs(compartment: Compartment, campaign) -> dict:
    """An open breach loses another round's pressure."""
    return {
        "penetrating_points": compartment.breach_points,
        "pressure_pa": compartment.pressure_pa,
        "rounds": 1,
    }


def leak_inputs(compartment: Compartment, campaign) -> dict:
    """A broken fuel line leaks one more point this turn; nothing fired, nothing ignites."""
    return {
        "fuel_line_crits": compartment.fuel_line_crits,
        "leaked_points": compartment.fuel_leak_points,
        "turns_leaking": 1,
        "weapon_kind": "none",
    }
