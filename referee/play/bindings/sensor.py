"""Sensors: detection rolls are made from a detector ship against a target ship.

Rolls by a side the players do not see (a detector not shared with them) are
GM-only by default, so the other side's sensor picture stays secret."""

from __future__ import annotations

from referee.fleet.models import Ship

from ..families import Family
from . import Binding, BindingList, Context, NextStep, Role, subject

BINDINGS = BindingList()

AU_KM = 149_597_870.7
LARGE_MILITARY = ("warship", "jumpship", "dropship", "station")
CLASS_OF_KIND = {
    "warship": "warship",
    "jumpship": "jumpship",
    "dropship": "dropship",
    "station": "station",
    "small_craft": "small_craft",
    "fighter_squadron": "fighter",
}

DETECTOR = Role("detector", Ship, "Detector", targets=("ship",))
TARGET = Role("target", Ship, "Target")


def _hidden_side(ctx: Context) -> bool:
    detector = ctx.objects.get("detector")
    return detector is not None and not detector.shared


def _pair(ctx: Context) -> tuple[Ship | None, Ship | None]:
    return ctx.objects.get("detector"), ctx.objects.get("target")


def _distance_au(ctx: Context) -> float | None:
    detector, target = _pair(ctx)
    if detector is None or target is None:
        return None
    distance = detector.distance_au(target)
    return None if distance is None else round(distance, 4)


def _distance_km(ctx: Context) -> float | None:
    au = _distance_au(ctx)
    return None if au is None else round(au * AU_KM)


def _detector_fields(detector: Ship | None) -> dict:
    if detector is None:
        return {}
    return {
        "detector_large_military": detector.military and detector.kind in LARGE_MILITARY,
        "detector_class": CLASS_OF_KIND.get(detector.kind),
        "military": detector.military,
        "radar_crit_boxes": detector.radar_crit_boxes,
    }


def _large_military(ship: Ship) -> bool:
    return ship.military and ship.kind in LARGE_MILITARY


def _emergence_prefill(ctx: Context) -> dict:
    detector, target = _pair(ctx)
    values = {"distance_au": _distance_au(ctx), **_detector_fields(detector)}
    if target is not None:
        values.update(
            kf_integrity_max=target.kf_integrity_max,
            kf_integrity=target.kf_integrity,
            dropship_factor=target.dropship_capacity,
        )
    return values


def _km_prefill(ctx: Context) -> dict:
    detector, _ = _pair(ctx)
    return {"distance_km": _distance_km(ctx), "distance_au": _distance_au(ctx), **_detector_fields(detector)}


def _next_detector(entry, campaign) -> NextStep | None:
    """The same check against the same target for the next ship, by name, that could see it."""
    detector, target = subject(entry, "detector"), subject(entry, "target")
    if detector is None or target is None:
        return None
    candidates = DETECTOR.choices(campaign).exclude(code=target)
    system = (
        Ship.objects.in_campaign(campaign).filter(code=target).values_list("star_system", flat=True).first()
    )
    if system is not None:  # only ships in the arrival's star system can see it
        candidates = candidates.filter(star_system=system)
    ships = list(candidates.order_by("name", "id").values_list("code", flat=True))
    codes = [str(code) for code in ships]
    if detector not in codes or len(codes) < 2:
        return None
    following = codes[(codes.index(detector) + 1) % len(codes)]
    return NextStep("Same check, next detector", entry.procedure, {"detector": following, "target": target})


for procedure_id, label, prefill in (
    ("sensor.emergence_wave", "Detect emergence", _emergence_prefill),
    ("sensor.active_radar", "Radar sweep", _km_prefill),
    ("sensor.passive_intercept", "Passive intercept", _km_prefill),
    ("sensor.drive_plume", "Spot drive plume", _km_prefill),
    ("sensor.hpg_detection", "Detect HPG burst", _km_prefill),
):
    BINDINGS.add(
        Binding(
            procedure_id,
            roles=(DETECTOR, TARGET),
            label=label,
            prefill=prefill,
            secret=_hidden_side,
            next_step=_next_detector,
            measured=("distance_au", "distance_km"),
            # Only a large military vessel detects an emergence wave (the engine refuses others).
            offered=_large_military if procedure_id == "sensor.emergence_wave" else None,
        )
    )


def _ir_prefill(ctx: Context) -> dict:
    ship = ctx.objects.get("ship")
    if ship is None:
        return {}
    return {"dropship_factor": ship.dropship_capacity, "ship_kind": ship.kind}


BINDINGS.add(
    Binding(
        "sensor.ir_signature",
        gm_inputs=("dropship_factor",),
        roles=(Role("ship", Ship, "Arriving ship", targets=("ship",), kinds=("jumpship", "warship")),),
        label="IR signature of a jump",
        prefill=_ir_prefill,
    )
)


FAMILY = Family(
    name="sensor",
    title="Sensors",
    procedure_titles={"sensor": "Sensors"},
    menu_first={"sensor.emergence_wave": 30},
    menu_rank=20,
    bindings=tuple(BINDINGS),
)
