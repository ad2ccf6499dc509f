"""Sensors (Seed B: Sensor Rules; section 8 of the catalogue).

Every unit broadcasting IFF is detected automatically; everyone else is assumed to be
under EMCON, and these procedures say who sees them, at what distance, on what roll.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules import distributions
from rules.errors import InputError
from rules.registry import SEED_B, Resolution, procedure, set_effect
from rules.tables import sensor as tables

from ._common import lookup_band, success

REFERENCE = f"{SEED_B}, Sensor Rules"


def _num(x: float) -> str:
    """A distance or time for people: thousands separators, no trailing .0."""
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.6g}" if abs(x) < 1e6 else f"{x:,.1f}"


def _duration(seconds: float) -> str:
    """750 -> '750 s (12 min 30 s)'; 10 -> '10 s'."""
    text = f"{_num(seconds)} s"
    if seconds >= 60:
        minutes, rest = divmod(seconds, 60)
        text += f" ({int(minutes)} min" + (f" {_num(rest)} s)" if rest else ")")
    return text


def _tn_verdict(roll: int, tn: int) -> str:
    """'roll 9 vs TN 8: detected' with the impossible/automatic cases named [A57]."""
    if tn > 12:
        return f"2D6 roll {roll} vs TN {tn} (impossible on 2D6): not detected"
    if tn <= 2:
        return f"2D6 roll {roll} vs TN {tn} (automatic): detected"
    hit = success(roll, tn)
    return f"2D6 roll {roll} {'≥' if hit else '<'} TN {tn}: {'detected' if hit else 'not detected'}"


def _check_last_roll(minutes: float | None) -> None:
    if minutes is not None and minutes < tables.MINUTES_BETWEEN_ROLLS:
        raise InputError(
            "minutes_since_last_roll",
            f"only one detection roll per target per hour: the last roll was {_num(minutes)} min ago "
            f"(wait {_num(tables.MINUTES_BETWEEN_ROLLS - minutes)} min more)",
        )


def _has_esm(detector_class: str, military: bool) -> bool:
    """ESM: every military craft except fighters and small craft."""
    return military and detector_class not in tables.SMALL_CRAFT


def _detector(detector_class: str, military: bool) -> str:
    return f"{'military' if military else 'civilian'} {tables.CLASS_TEXT[detector_class]}"


@procedure(
    """
procedure: sensor.ir_signature
inputs:
  ly: float                                  # 0 < ly ≤ 30
  dropship_factor: int                       # docking capacity by default (GM toggle: carried); 0 is read as 1 [A1][A3]
  ship_kind: str enum {jumpship|warship|dropship} = "jumpship"   # the arriving vessel
  observers: list[object{id: str, distance_km: float}] = []
dice: none
result:
  detection_period_s: float                  # headline; ly × max(1, dropship_factor)
  jump_duration_s: float                     # detection_period_s / 2
  auto_detected_by: list[str]                # observers within 50000 km of an arriving JumpShip/WarShip [A50]
effects:
  - {"target": "ship", "field": "ir_signature_at", "op": "set", "value": "arrival − <detection_period_s> s"}
errors:
  - InputError(ly): ≤ 0 or > 30
  - InputError(dropship_factor): negative
""",
    title="Sensors: infrared signature of an arriving ship",
    reference=f"{REFERENCE}, Infrared Signature",
    bounds={"ly": (0, tables.IR_MAX_LY), "dropship_factor": (0, None)},
    units={"ly": "LY", "observers": "km"},
    example={
        "ly": 30,
        "dropship_factor": 25,
        "ship_kind": "warship",
        "observers": [{"id": "Picket", "distance_km": 40000}, {"id": "Station", "distance_km": 120000}],
    },
)
def ir_signature(inp, dice) -> Resolution:
    if inp.ly <= 0:
        raise InputError("ly", "a jump covers more than 0 light-years")
    for observer in inp.observers:
        if observer.distance_km < 0:
            raise InputError("observers", f"{observer.id}: the distance cannot be negative")
    # [A1] "+ 2" is read as "÷ 2"; [A3] no DropShips multiplies by 1.
    factor = max(1, inp.dropship_factor)
    period = inp.ly * factor
    duration = period / 2
    auto = []
    if inp.ship_kind in tables.IR_AUTO_DETECT_KINDS:  # [A50] not arriving DropShips
        auto = [o.id for o in inp.observers if o.distance_km <= tables.IR_AUTO_DETECT_KM]
    result = {
        "detection_period_s": period,
        "jump_duration_s": duration,
        "auto_detected_by": auto,
    }
    effects = [set_effect("ship", "ir_signature_at", f"arrival − {period:g} s")]
    return Resolution(result, _ir_summary(result, inp, factor), effects)


def _ir_summary(r: dict, inp, factor: int) -> str:
    line = (
        f"The arriving {tables.CLASS_TEXT[inp.ship_kind]}'s IR signature appears "
        f"{_duration(r['detection_period_s'])} before it arrives ({_num(inp.ly)} LY × {factor}); "
        f"the jump itself lasts {_duration(r['jump_duration_s'])}"
    )
    if inp.ship_kind not in tables.IR_AUTO_DETECT_KINDS:
        return line + "; an arriving DropShip is not auto-detected by IR."
    if not inp.observers:
        return line + f"; every unit within {_num(tables.IR_AUTO_DETECT_KM)} km sees it with no roll."
    seen = ", ".join(r["auto_detected_by"]) or "none of the observers"
    return line + f"; seen with no roll (within {_num(tables.IR_AUTO_DETECT_KM)} km) by {seen}."


@procedure(
    """
procedure: sensor.emergence_wave
inputs:
  distance_au: float                         # ≥ 0
  kf_integrity_max: int                      # undamaged K-F integrity [A4]
  dropship_factor: int                       # docking capacity by default; 0 stays 0 [A3]
  kf_integrity: int|null = null              # current integrity: accepted, never used [A4]
  detector_large_military: bool = true
  already_rolled: bool = false               # this detector already rolled against this arrival
dice:
  - detection: 2D6  [distance_au ≤ 15]
result:
  detected: bool                             # headline; roll ≥ tn (no clamping of tn) [A57]
  in_range: bool                             # distance_au ≤ 15
  base_tn: int|null                          # ceil(distance_au/2 + 7)
  modifier: int|null                         # ceil((kf_integrity_max + dropship_factor)/10)
  tn: int|null                               # base_tn − modifier
  roll: int|null
  delay_min: float|null                      # 8 × distance_au, minutes after arrival [A2]
effects:
  - {"target": "ship", "field": "emergence_roll_used.<target>", "op": "set", "value": true}   [in_range]
  - {"target": "ship", "field": "detected.<target>", "op": "set", "value": "arrival + <delay_min> min"}   [detected]
errors:
  - InputError(already_rolled): true (one roll per detector per arrival)
  - InputError(detector_large_military): false
""",
    title="Sensors: emergence-wave detection roll",
    reference=f"{REFERENCE}, Emergence Wave",
    bounds={
        "distance_au": (0, None),
        "kf_integrity_max": (0, None),
        "dropship_factor": (0, None),
        "kf_integrity": (0, None),
    },
    units={"distance_au": "AU"},
    example={"distance_au": 3, "kf_integrity_max": 4, "dropship_factor": 3},
)
def emergence_wave(inp, dice) -> Resolution:
    if inp.already_rolled:
        raise InputError(
            "already_rolled", "this detector has already rolled against this arrival (one roll per arrival)"
        )
    if not inp.detector_large_military:
        raise InputError("detector_large_military", "only large military craft can detect an emergence wave")
    in_range = inp.distance_au <= tables.EMERGENCE_MAX_AU
    base = modifier = tn = roll = delay = None
    detected = False
    if in_range:
        # [A2] each term is rounded up on its own before subtracting (W13: 9 − 1 = 8).
        base = math.ceil(
            Fraction(inp.distance_au) / tables.EMERGENCE_DISTANCE_DIVISOR + tables.EMERGENCE_BASE_TN
        )
        modifier = math.ceil(
            Fraction(inp.kf_integrity_max + inp.dropship_factor, tables.EMERGENCE_MODIFIER_DIVISOR)
        )
        tn = base - modifier  # [A57] no clamping
        roll = dice.total("detection", 2)
        detected = success(roll, tn)
        delay = tables.MINUTES_PER_AU * inp.distance_au
    effects = []
    if in_range:
        effects.append(set_effect("ship", "emergence_roll_used.<target>", True))
    if detected:
        effects.append(set_effect("ship", "detected.<target>", f"arrival + {delay:g} min"))
    result = {
        "detected": detected,
        "in_range": in_range,
        "base_tn": base,
        "modifier": modifier,
        "tn": tn,
        "roll": roll,
        "delay_min": delay,
    }
    return Resolution(result, _emergence_summary(result, inp), effects)


def _emergence_summary(r: dict, inp) -> str:
    who = f"Large military detector {_num(inp.distance_au)} AU from an arriving ship's emergence wave"
    if not r["in_range"]:
        return f"{who}: beyond {tables.EMERGENCE_MAX_AU} AU, detection is impossible (no roll)."
    line = (
        f"{who}: TN {r['base_tn']} (ceil({_num(inp.distance_au)}/2 + 7)) − {r['modifier']} "
        f"(ceil((K-F {inp.kf_integrity_max} + DropShips {inp.dropship_factor})/10)) = {r['tn']}; "
        f"{_tn_verdict(r['roll'], r['tn'])}"
    )
    if r["detected"]:
        return line + f"; the wave reaches the detector {_num(r['delay_min'])} min after the ship arrives."
    return line + "; no further roll against this arrival."


@procedure(
    """
procedure: sensor.active_radar
inputs:
  detector_class: str enum {dropship|warship|jumpship|station|fighter|small_craft}
  military: bool = true
  radar_crit_boxes: int = 0
  distance_km: float
  minutes_since_last_roll: float|null = null   # against this target; null = never
  already_detected: bool = false             # detected earlier and still in range → stays detected, no roll
dice:
  - detection: 2D6  [in_range and not already_detected]
result:
  detected: bool                             # headline
  in_range: bool                             # distance_km ≤ range_km
  range_km: int                              # 100000 large craft, 1000 fighters/small craft [A48]
  tn: int                                    # 4 military dropship/warship/jumpship, else 6; +1 per radar crit box
  roll: int|null
effects:
  - {"target": "ship", "field": "detected.<target>", "op": "set", "value": "<detected>"}
  - {"target": "ship", "field": "radar_emitting", "op": "set", "value": true}
errors:
  - InputError(minutes_since_last_roll): < 60 (one roll per target per hour)
""",
    title="Sensors: active-radar detection roll",
    reference=f"{REFERENCE}, Active Radar",
    bounds={"radar_crit_boxes": (0, None), "distance_km": (0, None), "minutes_since_last_roll": (0, None)},
    units={"distance_km": "km", "minutes_since_last_roll": "min"},
    example={"detector_class": "warship", "military": True, "radar_crit_boxes": 1, "distance_km": 60000},
)
def active_radar(inp, dice) -> Resolution:
    _check_last_roll(inp.minutes_since_last_roll)
    range_km = tables.RADAR_RANGE_KM[inp.detector_class]
    military_tn = inp.military and inp.detector_class in tables.RADAR_MILITARY_TN_CLASSES
    tn = (tables.RADAR_MILITARY_TN if military_tn else tables.RADAR_OTHER_TN) + (
        tables.RADAR_CRIT_BOX_MODIFIER * inp.radar_crit_boxes
    )
    in_range = inp.distance_km <= range_km
    roll = None
    if not in_range:
        detected = False
    elif inp.already_detected:
        detected = True  # stays detected while in range; no roll
    else:
        roll = dice.total("detection", 2)
        detected = success(roll, tn)
    effects = [
        set_effect("ship", "detected.<target>", detected),
        set_effect("ship", "radar_emitting", True),
    ]
    result = {"detected": detected, "in_range": in_range, "range_km": range_km, "tn": tn, "roll": roll}
    return Resolution(result, _radar_summary(result, inp), effects)


def _radar_summary(r: dict, inp) -> str:
    base = r["tn"] - tables.RADAR_CRIT_BOX_MODIFIER * inp.radar_crit_boxes
    boxes = "box" if inp.radar_crit_boxes == 1 else "boxes"
    crits = f"{base} + {inp.radar_crit_boxes} radar crit {boxes} = " if inp.radar_crit_boxes else ""
    who = (
        f"Active radar: {_detector(inp.detector_class, inp.military)} vs a target at "
        f"{_num(inp.distance_km)} km (range {_num(r['range_km'])} km, TN {crits}{r['tn']})"
    )
    emitting = " The detector now emits radar (ESM can detect it within 150,000 km)."
    if not r["in_range"]:
        lost = " (lost: it left radar range)" if inp.already_detected else ""
        return f"{who}: out of range, no roll; not detected{lost}.{emitting}"
    if r["roll"] is None:
        return f"{who}: already detected and still in range, no roll needed; detected.{emitting}"
    return f"{who}: {_tn_verdict(r['roll'], r['tn'])}; next roll against it in an hour at the earliest.{emitting}"


@procedure(
    """
procedure: sensor.passive_intercept
inputs:
  signal: str enum {radar|radio}
  distance_km: float
  detector_class: str enum {dropship|warship|jumpship|station|fighter|small_craft}
  military: bool = true
dice: none
result:
  detected: bool                             # headline; distance_km ≤ range_km
  range_km: int|null                         # radar: 150000 for military non-fighter/small craft (ESM), null otherwise; radio: 1000000 ESM-equipped, 500000 everyone else
effects: none
errors: none
""",
    title="Sensors: passive intercept of radar or radio (ESM, radio triangulation)",
    reference=f"{REFERENCE}, ESM/Passive Radar; Radio Triangulation",
    bounds={"distance_km": (0, None)},
    units={"distance_km": "km"},
    example={"signal": "radar", "distance_km": 120000, "detector_class": "dropship", "military": True},
)
def passive_intercept(inp, dice) -> Resolution:
    esm = _has_esm(inp.detector_class, inp.military)
    if inp.signal == "radar":
        range_km = tables.ESM_RADAR_RANGE_KM if esm else None
    else:
        range_km = tables.RADIO_RANGE_KM["esm" if esm else "no_esm"]  # C.9: no ESM -> 500,000 km
    detected = range_km is not None and inp.distance_km <= range_km
    result = {"detected": detected, "range_km": range_km}
    return Resolution(result, _passive_summary(result, inp, esm))


def _passive_summary(r: dict, inp, esm: bool) -> str:
    what = "an active-radar emitter" if inp.signal == "radar" else "radio/HPG traffic"
    who = (
        f"Passive intercept: {_detector(inp.detector_class, inp.military)} "
        f"({'with' if esm else 'no'} ESM) listening for {what} {_num(inp.distance_km)} km away"
    )
    if r["range_km"] is None:
        return f"{who}: without ESM it cannot detect radar emissions; not detected."
    verdict = "detected, no roll needed" if r["detected"] else "out of range, not detected"
    return f"{who}: range {_num(r['range_km'])} km; {verdict}."


@procedure(
    """
procedure: sensor.drive_plume
inputs:
  distance_km: float                         # ≥ 0; the target is accelerating
  minutes_since_last_roll: float|null = null
dice:
  - detection: 2D6
result:
  detected: bool                             # headline
  tn: int                                    # 5 + ceil(distance_km / 500000)
  roll: int
effects:
  - {"target": "ship", "field": "plume_seen.<target>", "op": "set", "value": "<detected>"}
errors:
  - InputError(minutes_since_last_roll): < 60
""",
    title="Sensors: drive-plume detection roll",
    reference=f"{REFERENCE}, Drive Plumes",
    bounds={"distance_km": (0, None), "minutes_since_last_roll": (0, None)},
    units={"distance_km": "km", "minutes_since_last_roll": "min"},
    example={"distance_km": 1200000},
)
def drive_plume(inp, dice) -> Resolution:
    _check_last_roll(inp.minutes_since_last_roll)
    # +1 for every 500,000 km or part of it.
    steps = math.ceil(Fraction(inp.distance_km) / tables.PLUME_STEP_KM)
    tn = tables.PLUME_BASE_TN + steps
    roll = dice.total("detection", 2)
    detected = success(roll, tn)
    result = {"detected": detected, "tn": tn, "roll": roll}
    effects = [set_effect("ship", "plume_seen.<target>", detected)]
    return Resolution(result, _plume_summary(result, inp, steps), effects)


def _plume_summary(r: dict, inp, steps: int) -> str:
    line = (
        f"Observer vs the drive plume of an accelerating target {_num(inp.distance_km)} km away: "
        f"TN {tables.PLUME_BASE_TN} "
        f"+ {steps} (per 500,000 km or part) = {r['tn']}; {_tn_verdict(r['roll'], r['tn'])}"
    )
    if r["detected"]:
        return line + "; the observer learns the target's heading, velocity and distance."
    return line + "; next roll against it in an hour at the earliest."


@procedure(
    """
procedure: sensor.hpg_detection
inputs:
  distance_au: float                         # real distance
  detector_large_military: bool = true
dice:
  - detection: 2D6  [distance_au ≤ 15]
result:
  detected: bool                             # headline
  in_range: bool                             # real distance ≤ 15 AU [A5]
  tn: int|null                               # ceil(distance_au + 7) (base TN with doubled distance)
  roll: int|null
effects: none
errors:
  - InputError(detector_large_military): false
""",
    title="Sensors: detecting an HPG transmission (emergence-wave rules)",
    reference=f"{REFERENCE}, Radio Triangulation",
    bounds={"distance_au": (0, None)},
    units={"distance_au": "AU"},
    example={"distance_au": 2.5},
)
def hpg_detection(inp, dice) -> Resolution:
    if not inp.detector_large_military:
        raise InputError("detector_large_military", "only large military craft can detect an HPG's K-F pulse")
    in_range = inp.distance_au <= tables.EMERGENCE_MAX_AU  # [A5] on the real distance
    tn = roll = None
    detected = False
    if in_range:
        # Base TN only, with the distance doubled: ceil(2d/2 + 7) = ceil(d + 7).
        tn = math.ceil(Fraction(inp.distance_au) + tables.EMERGENCE_BASE_TN)
        roll = dice.total("detection", 2)
        detected = success(roll, tn)
    result = {"detected": detected, "in_range": in_range, "tn": tn, "roll": roll}
    return Resolution(result, _hpg_summary(result, inp))


def _hpg_summary(r: dict, inp) -> str:
    who = f"Large military detector vs an HPG transmission {_num(inp.distance_au)} AU away"
    if not r["in_range"]:
        return f"{who}: beyond {tables.EMERGENCE_MAX_AU} AU, detection is impossible (no roll)."
    return (
        f"{who}: TN ceil({_num(inp.distance_au)} × 2 / 2 + 7) = {r['tn']} (no K-F/DropShip modifier); "
        f"{_tn_verdict(r['roll'], r['tn'])}."
    )


def _neutrino_row(v, roll: int | None) -> dict:
    """A vessel's row for its detection roll (None: beyond 4 AU, no roll)."""
    detected = roll is not None and success(roll, tables.NEUTRINO_DETECT_AT)
    # Unbroken tracking: 0 at the first detection, +1 each hour; a miss or leaving range resets it.
    tracked = (0 if v.tracked_hours is None else v.tracked_hours + 1) if detected else None
    level = "none" if tracked is None else lookup_band(tables.PROFILE_BANDS, tracked)
    return {
        "id": v.id,
        "rolled": roll is not None,
        "roll": roll,
        "detected": detected,
        "tracked_hours": tracked,
        "profile_level": level,
    }


# Values of the vessels' odds counted exactly, at most: every vessel within 4 AU doubles the
# lists of detected ids (2**12 = 4,096 for twelve) and multiplies the rows by its 11 totals.
# Past this the odds are a labelled estimate sampled from the same 2D6 per vessel.
NEUTRINO_COUNTED_VALUES = 5_000


def _neutrino_odds(key: str):
    """``detected_ids`` or ``vessels`` of a detection hour: each vessel within 4 AU rolls its
    own 2D6, independently; the calibration phase lists nothing."""

    def count(inp):
        if inp.phase == "calibrate":
            return {(): 1}, 1
        ways = distributions.dice_sum_ways(2, 6)
        totals = {roll: ways[roll] for roll in range(2, 13)}
        rolled = [v.distance_au <= tables.NEUTRINO_RANGE_AU for v in inp.vessels]
        # Per vessel: its row for each total, as odds keys are (items sorted by name).
        rows = [
            {
                roll: tuple(sorted(_neutrino_row(v, roll if rolls else None).items()))
                for roll in (totals if rolls else (None,))
            }
            for v, rolls in zip(inp.vessels, rolled, strict=True)
        ]
        if key == "vessels":

            def value(rolls) -> tuple:
                return tuple(by_roll[roll] for by_roll, roll in zip(rows, rolls, strict=True))

            parts = [(totals, 36) if rolls else ({None: 1}, 1) for rolls in rolled]
        else:
            hit = distributions.at_least(2, 6, tables.NEUTRINO_DETECT_AT)
            ids = [v.id for v, rolls in zip(inp.vessels, rolled, strict=True) if rolls]

            def value(detected) -> tuple:
                return tuple(vid for vid, seen in zip(ids, detected, strict=True) if seen)

            parts = [({True: hit, False: 36 - hit}, 36)] * len(ids)
        exact = distributions.independent(parts, NEUTRINO_COUNTED_VALUES)
        if exact is not None:
            merged: dict = {}
            for parts_value, n in exact[0].items():
                named = value(parts_value)
                merged[named] = merged.get(named, 0) + n
            return merged, exact[1]
        if key == "detected_ids":  # every vessel's part is the same draw
            pick = distributions.Picker(parts[0])
            return distributions.sample(lambda rng: value(pick(rng, len(ids))), len(ids), key)
        n_rolled = sum(1 for rolls in rolled if rolls)
        roll = distributions.Picker((totals, 36))

        def draw(rng) -> tuple:
            drawn = iter(roll(rng, n_rolled))
            return value([next(drawn) if rolls else None for rolls in rolled])

        return distributions.sample(draw, 2 * len(rolled), key)

    return count


@procedure(
    """
procedure: sensor.neutrino
inputs:
  phase: str enum {calibrate|hour}
  start_hour: int = 0                        # calibrate: hour the detector starts calibrating
  vessels: list[object{id: str, distance_au: float, tracked_hours: int|null = null}] = []   # hour: other vessels; tracked_hours = unbroken tracking so far (0 at the first detection), null = not tracked
dice:
  - calibration: 2D6  [phase == "calibrate"] (hours)
  - detect_<id>: 2D6  [phase == "hour"; each vessel within 4 AU, input order] [A49]
result:
  detected_ids: list[str]                    # headline; [] in the calibrate phase
  calibration_hours: int|null
  calibrated_at_hour: int|null               # start_hour + calibration_hours
  vessels: list[object{id: str, rolled: bool, roll: int|null, detected: bool, tracked_hours: int|null, profile_level: str}]   # profile_level enum {none|class|individual}: tracked_hours ≥ 6 → class, ≥ 12 → individual
effects:
  - {"target": "ship", "field": "neutrino.calibrated_at", "op": "set", "value": "<calibrated_at_hour>"}   [calibrate]
  - {"target": "ship", "field": "neutrino.tracking.<id>", "op": "set", "value": "<tracked_hours>"}   [hour]
errors: none
notes:
  - On detection tracked_hours becomes 0 if it was null, else +1; a miss or a vessel beyond 4 AU resets it to null.
""",
    title="Sensors: neutrino detector (calibration, hourly detection and tracking)",
    reference=f"{REFERENCE}, Neutrino Detectors",
    bounds={"start_hour": (0, None)},  # C.9: no negative times
    units={"start_hour": "h"},
    example={
        "phase": "hour",
        "vessels": [
            {"id": "V1", "distance_au": 1.5, "tracked_hours": 5},
            {"id": "V2", "distance_au": 3, "tracked_hours": None},
            {"id": "V3", "distance_au": 6, "tracked_hours": 11},
        ],
    },
    exact_odds={key: _neutrino_odds(key) for key in ("detected_ids", "vessels")},
)
def neutrino(inp, dice) -> Resolution:
    seen = set()
    for v in inp.vessels:
        if not v.id:
            raise InputError("vessels", "every vessel needs an id")
        if v.id in seen:
            raise InputError("vessels", f"vessel id “{v.id}” is listed twice")
        seen.add(v.id)
        if v.distance_au < 0:
            raise InputError("vessels", f"{v.id}: the distance cannot be negative")
        if v.tracked_hours is not None and v.tracked_hours < 0:
            raise InputError("vessels", f"{v.id}: the hours tracked cannot be negative")
    if inp.phase == "calibrate":
        hours = dice.total("calibration", 2, feeds=("calibration_hours", "calibrated_at_hour"))
        at = inp.start_hour + hours
        result = {"detected_ids": [], "calibration_hours": hours, "calibrated_at_hour": at, "vessels": []}
        summary = (
            f"Neutrino detector calibrating: {hours} h (2D6), from hour {inp.start_hour} to hour {at}; "
            "hourly detection rolls start after that."
        )
        return Resolution(result, summary, [set_effect("ship", "neutrino.calibrated_at", at)])
    rows = []
    for v in inp.vessels:
        rolled = v.distance_au <= tables.NEUTRINO_RANGE_AU  # [A49]
        roll = dice.total(f"detect_{v.id}", 2, feeds=("detected_ids", "vessels")) if rolled else None
        rows.append(_neutrino_row(v, roll))
    result = {
        "detected_ids": [row["id"] for row in rows if row["detected"]],
        "calibration_hours": None,
        "calibrated_at_hour": None,
        "vessels": rows,
    }
    effects = [set_effect("ship", f"neutrino.tracking.{row['id']}", row["tracked_hours"]) for row in rows]
    return Resolution(result, _neutrino_summary(rows, inp), effects)


def _neutrino_summary(rows: list[dict], inp) -> str:
    if not rows:
        return "Neutrino detector hour: no other vessels listed, nothing to roll."
    parts = []
    for row, v in zip(rows, inp.vessels, strict=True):
        if not row["rolled"]:
            lost = ", tracking lost" if v.tracked_hours is not None else ""
            parts.append(f"{row['id']} at {_num(v.distance_au)} AU: beyond 4 AU, no roll{lost}")
        elif row["detected"]:
            before = "new" if v.tracked_hours is None else f"{v.tracked_hours} -> {row['tracked_hours']} h"
            parts.append(
                f"{row['id']}: roll {row['roll']} ≥ 9, detected (tracking {before}; "
                f"{tables.PROFILE_TEXT[row['profile_level']]})"
            )
        else:
            lost = ", tracking lost" if v.tracked_hours is not None else ""
            parts.append(f"{row['id']}: roll {row['roll']} < 9, not detected{lost}")
    return "Neutrino detector hour (2D6 ≥ 9 per vessel within 4 AU): " + "; ".join(parts) + "."
