"""New equipment: screen launchers, neutrino detector watches, tele-missiles, HPGs, yards.

Screens and neutrino watches are markers the End Phase works on: a screen is rolled
for removal every End Phase; a calibrated watch makes its hourly check when its hour
has come."""

from __future__ import annotations

from datetime import timedelta

from referee.fleet.models import Character, Marker, Ship

from ..end_phase import end_phase_hook
from ..services import procedure_resolve
from . import Binding, Context, Role, bind

SCREEN = Role("screen", Marker, "Screen", kinds=("screen",))
WATCH = Role("watch", Marker, "Neutrino detector watch", kinds=("neutrino_watch",))
FIGHTERS = ("fighter_squadron",)


def _screen_laid(ctx: Context, outcome, recorder) -> None:
    screen = ctx.objects["screen"]
    recorder.set(screen, "active", True)
    recorder.set(screen, "laid_turn", ctx.campaign.turn)


def _detonate_prefill(ctx: Context) -> dict:
    screen = ctx.objects.get("screen")
    if screen is None or screen.star_system_id is None:
        return {}
    squadrons = Ship.objects.in_campaign(ctx.campaign).filter(
        kind="fighter_squadron", star_system=screen.star_system, position=screen.position
    )
    return {"fighter_units": [{"id": s.name, "fighters": max(1, s.fighters)} for s in squadrons]}


bind(
    Binding(
        "screen.detonate",
        roles=(SCREEN,),
        label="Detonate screen",
        prefill=_detonate_prefill,
        after=_screen_laid,
        handled=("screen",),
    )
)


def _screen_prefill(ctx: Context) -> dict:
    screen = ctx.objects.get("screen")
    return {"laid_this_turn": bool(screen and screen.laid_turn == ctx.campaign.turn)}


def _screen_gone(ctx: Context, outcome, recorder) -> None:
    if outcome.result["removed"]:
        recorder.set(ctx.objects["screen"], "active", False)


SCREEN_END = bind(
    Binding(
        "screen.end_phase",
        roles=(SCREEN,),
        label="Screen dissipation (End Phase)",
        prefill=_screen_prefill,
        after=_screen_gone,
        handled=("screen",),
    )
)


def _vessels_near(ctx: Context, watch: Marker) -> list[dict]:
    """Other ships in the detector's system, with their distance when both are placed."""
    detector = watch.ship
    if detector is None or detector.star_system_id is None:
        return []
    vessels = []
    others = Ship.objects.in_campaign(ctx.campaign).filter(star_system=detector.star_system_id)
    for ship in others.exclude(pk=detector.pk).order_by("name"):
        distance = detector.distance_au(ship)
        if distance is not None:
            tracked = watch.tracking.get(str(ship.code))
            vessels.append(
                {"id": str(ship.code), "distance_au": round(distance, 4), "tracked_hours": tracked}
            )
    return vessels


def _neutrino_prefill(ctx: Context) -> dict:
    watch = ctx.objects.get("watch")
    if watch is None:
        return {}
    if watch.calibrated_at is None:
        return {"phase": "calibrate", "start_hour": 0}
    return {"phase": "hour", "vessels": _vessels_near(ctx, watch)}


def _neutrino_after(ctx: Context, outcome, recorder) -> None:
    watch = ctx.objects["watch"]
    result = outcome.result
    if outcome.inputs["phase"] == "calibrate":
        ready = ctx.clock + timedelta(hours=result["calibration_hours"])
        recorder.set(watch, "calibrated_at", ready)
        recorder.set(watch, "next_check_at", ready)
        return
    tracking = {v["id"]: v["tracked_hours"] for v in result["vessels"] if v["tracked_hours"] is not None}
    recorder.set(watch, "tracking", tracking)
    # Keep the hourly schedule; an End Phase that finds more hours due runs the next one.
    recorder.set(watch, "next_check_at", (watch.next_check_at or ctx.clock) + timedelta(hours=1))


NEUTRINO = bind(
    Binding(
        "sensor.neutrino",
        roles=(WATCH,),
        label="Neutrino check",
        prefill=_neutrino_prefill,
        after=_neutrino_after,
        handled=("neutrino.",),
        secret=lambda ctx: not ctx.objects["watch"].shared,
    )
)


@end_phase_hook
def screens_dissipate(*, campaign, actor):
    return _run_for(campaign, actor, SCREEN_END, SCREEN.choices(campaign).filter(active=True), "screen")


@end_phase_hook
def neutrino_hourly_checks(*, campaign, actor):
    due = WATCH.choices(campaign).filter(
        active=True, calibrated_at__isnull=False, next_check_at__lte=campaign.clock
    )
    return _run_for(campaign, actor, NEUTRINO, due.select_related("ship"), "watch")


def _run_for(campaign, actor, binding: Binding, objects, role: str):
    entries = []
    for obj in objects.order_by("name"):
        ctx = Context(campaign=campaign, objects={role: obj})
        entries.append(
            procedure_resolve(
                campaign=campaign,
                procedure_id=binding.procedure_id,
                inputs=binding.initial(ctx),
                dice=None,
                actor=actor,
                subjects={role: obj.code},
            )
        )
    return entries


bind(
    Binding(
        "hpg.transmit",
        roles=(Role("ship", Ship, "Transmitting ship", targets=("ship",)),),
        label="HPG transmission",
    )
)


def _yard_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None or ship.kind not in ("warship", "dropship", "jumpship"):
        return {}
    return {"ship_kind": ship.kind, "ship_mass_t": ship.mass_t}


bind(
    Binding(
        "yard.capacity_and_damage",
        roles=(
            Role(
                "ship",
                Ship,
                "Ship with a mobile yard",
                targets=("ship",),
                kinds=("warship", "dropship", "jumpship"),
            ),
        ),
        label="Mobile yard",
        prefill=_yard_prefill,
    )
)

bind(
    Binding(
        "gforce.tactical",
        roles=(Role("character", Character, "Character", targets=("character",)),),
        label="Unexpected G-forces",
    )
)


def _ram_prefill(ctx: Context) -> dict:
    target = ctx.objects.get("target")
    attacker = ctx.objects.get("rammer")
    values = {}
    if target is not None and target.kind in ("warship", "jumpship", "station", "dropship"):
        values["target_type"] = target.kind
    if attacker is not None:
        values["attacker"] = "fighter_unit" if attacker.kind in FIGHTERS else "large"
        values["velocity"] = attacker.velocity
        values["fighters_in_unit"] = max(1, attacker.fighters)
    return values


bind(
    Binding(
        "ram.deliberate",
        roles=(Role("rammer", Ship, "Ramming ship"), Role("target", Ship, "Target ship")),
        label="Ram",
        prefill=_ram_prefill,
    )
)
