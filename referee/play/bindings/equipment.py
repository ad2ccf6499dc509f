"""New equipment: screen launchers, neutrino detector watches, HPGs, yards, ramming.

Screens and neutrino watches are markers the End Phase works on: a screen is rolled
for removal every End Phase; a calibrated watch makes its hourly check when its hour
has come."""

from __future__ import annotations

from datetime import datetime, timedelta

from referee.fleet.models import Character, Marker, Ship

from .. import sharing
from ..families import EffectRule, EndPhaseStep, Family
from . import Binding, BindingList, Context, Precondition, Role

BINDINGS = BindingList()

# The engine's screen effect names the hex it fills; here the screen marker stands for it.
SCREEN = Role("screen", Marker, "Screen", targets=("hex",), kinds=("screen",))
# The engine's neutrino effects name the detecting ship; here its watch marker stands for it.
WATCH = Role("watch", Marker, "Neutrino detector watch", targets=("ship",), kinds=("neutrino_watch",))
FIGHTERS = ("fighter_squadron",)


def _screen_state(obj, effect, ctx):
    """A canister laid (the engine fills the hex with a screen) or dissipated (clears it)."""
    if not isinstance(obj, Marker) or obj.kind != "screen" or not isinstance(effect["value"], bool):
        return []
    if effect["value"]:
        return [("active", True), ("laid_turn", ctx.campaign.turn)]
    return [("active", False)]


def _detonate_prefill(ctx: Context) -> dict:
    screen = ctx.objects.get("screen")
    if screen is None or screen.star_system_id is None:
        return {}
    squadrons = Ship.objects.in_campaign(ctx.campaign).filter(
        kind="fighter_squadron", star_system=screen.star_system, position=screen.position
    )
    return {"fighter_units": [{"id": s.name, "fighters": max(1, s.fighters)} for s in squadrons]}


BINDINGS.add(
    Binding(
        "screen.detonate",
        roles=(SCREEN,),
        label="Detonate screen",
        prefill=_detonate_prefill,
    )
)


def _screen_prefill(ctx: Context) -> dict:
    screen = ctx.objects.get("screen")
    return {"laid_this_turn": bool(screen and screen.laid_turn == ctx.campaign.turn)}


SCREEN_END = BINDINGS.add(
    Binding(
        "screen.end_phase",
        roles=(SCREEN,),
        label="Screen dissipation (End Phase)",
        prefill=_screen_prefill,
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


def _calibration_done(ctx: Context) -> datetime:
    return ctx.clock + timedelta(hours=ctx.outcome.result["calibration_hours"])


def _calibrated(obj, effect, ctx):
    return [("calibrated_at", _calibration_done(ctx))]


def _tracking(obj, effect, ctx, vessel: str):
    """Every vessel's track at once, from the hour's result (the same for each vessel's effect)."""
    vessels = ctx.outcome.result["vessels"]
    return [("tracking", {v["id"]: v["tracked_hours"] for v in vessels if v["tracked_hours"] is not None})]


def _neutrino_schedule(ctx: Context, outcome, recorder) -> None:
    """The watch's next check: when calibration ends, then every hour. An End Phase that
    finds more hours due runs the next one."""
    watch = ctx.objects["watch"]
    if outcome.inputs["phase"] == "calibrate":
        recorder.set(watch, "next_check_at", _calibration_done(ctx))
        return
    if not outcome.result["vessels"]:
        recorder.set(watch, "tracking", {})  # nothing in range: no tracks left to keep
    recorder.set(watch, "next_check_at", (watch.next_check_at or ctx.clock) + timedelta(hours=1))


NEUTRINO = BINDINGS.add(
    Binding(
        "sensor.neutrino",
        roles=(WATCH,),
        label="Neutrino check",
        prefill=_neutrino_prefill,
        after=_neutrino_schedule,
        secret=lambda ctx: not ctx.objects["watch"].shared,
        measured=("vessels",),  # the vessels' distances, from the map
    )
)


AU_M = 149_597_870_700


def _craft_near(ship: Ship) -> list[Ship]:
    """The other craft placed in the transmitting ship's star system (its K-F field and
    the HPG's blinding reach only craft there)."""
    if ship.star_system_id is None:
        return []
    others = Ship.objects.in_campaign(ship.campaign).filter(star_system=ship.star_system_id)
    return [o for o in others.exclude(pk=ship.pk).order_by("name", "pk") if ship.distance_au(o) is not None]


def _hpg_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None or ship.star_system_id is None:
        return {}
    return {
        "craft": [
            {"id": str(o), "distance_m": round(ship.distance_au(o) * AU_M, 1)} for o in _craft_near(ship)
        ]
    }


BINDINGS.add(
    Binding(
        "hpg.transmit",
        roles=(Role("ship", Ship, "Transmitting ship", targets=("ship",)),),
        label="HPG transmission",
        prefill=_hpg_prefill,
        # The entry names the craft near the transmitter: GM-only when players cannot see one.
        secret=lambda ctx: "ship" in ctx.objects and bool(sharing.unshared(_craft_near(ctx.objects["ship"]))),
    )
)


def _yard_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None or ship.kind not in ("warship", "dropship", "jumpship"):
        return {}
    return {"ship_kind": ship.kind, "ship_mass_t": ship.mass_t}


BINDINGS.add(
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

BINDINGS.add(
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


BINDINGS.add(
    Binding(
        "ram.deliberate",
        roles=(Role("rammer", Ship, "Ramming ship"), Role("target", Ship, "Target ship")),
        label="Ram",
        preconditions=(
            Precondition(
                "The ramming ship and its target are two ships",
                "7.3 Deliberate Attacks: the attacker ends its movement in the target's hex",
                lambda ctx, inputs: ctx.objects["rammer"].pk != ctx.objects["target"].pk,
                reads=("rammer", "target"),
            ),
        ),
        prefill=_ram_prefill,
    )
)


def _active_screens(campaign):
    return SCREEN.choices(campaign).filter(active=True).order_by("name")


def _watches_due(campaign):
    due = WATCH.choices(campaign).filter(
        active=True, calibrated_at__isnull=False, next_check_at__lte=campaign.clock
    )
    return due.select_related("ship").order_by("name")


FAMILY = Family(
    name="equipment",
    title="New equipment",
    menu_rank=70,
    procedure_titles={
        "screen": "Screen launchers",
        "yard": "Mobile yards",
        "hpg": "Hyperpulse generators",
        "ram": "Ramming",
    },
    effects=(
        EffectRule("hex", "screen", _screen_state),
        EffectRule("ship", "neutrino.calibrated_at", _calibrated, procedure="sensor.neutrino"),
        EffectRule(
            "ship",
            r"neutrino\.tracking\.(?P<vessel>.+)",
            _tracking,
            pattern=True,
            procedure="sensor.neutrino",
        ),
    ),
    bindings=tuple(BINDINGS),
    end_phase=(
        EndPhaseStep(SCREEN_END, _active_screens),
        EndPhaseStep(NEUTRINO, _watches_due),
    ),
)
