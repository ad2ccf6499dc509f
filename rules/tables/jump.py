"""Jump-drive tables (Seed B: Malfunction Roll Modifiers, Drive-System Malfunctions,
Non-Standard Jump Points, Double Jumping, Objects Within a K-F Field, Basic Jump Procedure)."""

# Hours since the last jump -> Malfunction Roll modifier; only one band applies [A20].
# A Navigation target number, at most: 2D6 never makes more than 12, and the margin of
# failure is rolled as D6 per armour facing, so a larger TN only adds dice.
MAX_NAVIGATION_TN = 20
# Armour facings of one craft, at most (nose, fore/aft left and right, aft).
MAX_FACINGS = 6

TIME_BANDS = ((1, 4), (6, 3), (12, 2), (36, 1), (None, 0))
# How each band reads in a summary ("last jump 5 h ago, within 1-6 h: +3").
TIME_BAND_TEXT = {4: "within the past hour", 3: "within 1-6 h", 2: "within 6-12 h", 1: "within 12-36 h"}
REACTOR_CHARGE_MODIFIER = 2
MISHAP_AT = 12

# Effect total -> result (2-8, 9-11, 12-13, 14-15, 16-17, 18+).
EFFECT_BANDS = (
    (8, "no_effect"),
    (11, "micro_fractures"),
    (13, "helium_seal"),
    (15, "drive_failure"),
    (17, "failed_jump_table"),
    (None, "catastrophic"),
)

# The printed row of the Drive-System Malfunctions Table each result comes from.
EFFECT_ROW = {
    "no_effect": "2-8",
    "micro_fractures": "9-11",
    "helium_seal": "12-13",
    "drive_failure": "14-15",
    "failed_jump_table": "16-17",
    "catastrophic": "18+",
}

EFFECT_TEXT = {
    "no_effect": "no noticeable effect",
    "micro_fractures": "micro-fractures in the drive",
    "helium_seal": "a helium-tank seal blows, every helium-tank box is crossed off",
    "drive_failure": "static discharge, drive failure",
    "failed_jump_table": "static discharge, drive-controller failure",
    "catastrophic": "static discharge, catastrophic drive-controller failure: the K-F field misforms "
    "but the jump goes ahead, the ship MISJUMPS and the GM decides its fate",
}

# Non-Standard Jump Points, Step 1: Navigation Skill Roll +4, 2D6 x 30 minutes of plotting.
PLOT_TN_MODIFIER = 4
PLOT_MINUTES_PER_PIP = 30
# Distance to a non-standard point when leaving a gravity well [A7]:
# (location, reading) -> (subtracted from 3D6, km per point).
PLOT_DISTANCE = {
    ("deep_space", "multiply"): (0, 3_000_000),
    ("planet_with_moon", "multiply"): (0, 300_000),
    ("deep_space", "subtract"): (3, 1_000_000),
    ("planet_with_moon", "subtract"): (3, 100_000),
}
PLOT_LOCATION_TEXT = {"deep_space": "deep space", "planet_with_moon": "near a planet with a moon"}

# Double Jumping: navigational sensors recover 30 s after a jump; the second jump's
# malfunction roll falls in the "within the past hour" band.
DOUBLE_JUMP_MIN_S = 30
DOUBLE_JUMP_MALFUNCTION_MODIFIER = 4

# Basic Jump Procedure (12.7).
MAX_JUMP_LY = 30
FIELD_EXPANDS_AFTER_READY_S = 10
SENSOR_BLIND_S = 30
ARRIVAL_ACCURACY_M = 5000
MILITARY_ARRIVAL_ACCURACY_M = 500
KF_FIELD_RADIUS_M = 1000
