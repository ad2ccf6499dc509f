"""Jump-drive tables (Seed B: Malfunction Roll Modifiers, Drive-System Malfunctions)."""

# Hours since the last jump -> Malfunction Roll modifier; only one band applies [A20].
TIME_BANDS = ((1, 4), (6, 3), (12, 2), (36, 1), (None, 0))
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

EFFECT_TEXT = {
    "no_effect": "no noticeable effect",
    "micro_fractures": "micro-fractures",
    "helium_seal": "a helium-tank seal blows, every helium-tank box is crossed off",
    "drive_failure": "static discharge, drive failure",
    "failed_jump_table": "drive-controller failure",
    "catastrophic": "catastrophic controller failure: misjump, the GM decides the ship's fate",
}
