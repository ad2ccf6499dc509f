"""G-forces on characters."""

from __future__ import annotations

from referee.fleet.models import Character

from ..families import Family
from . import Binding, BindingList, Context, Role

BINDINGS = BindingList()

G_ROLES = ("aerospace_pilot", "crew", "passenger")


def _g_prefill(ctx: Context) -> dict:
    character = ctx.objects.get("character")
    if character is None:
        return {}
    return {"g_suit": character.g_suit, "role": character.role if character.role in G_ROLES else "crew"}


BINDINGS.add(
    Binding(
        "gforce.threshold",
        roles=(
            Role(
                "character",
                Character,
                "Character",
                targets=("character",),
                kinds=G_ROLES,
                kind_field="role",
                when_none="Only aerospace pilots, crew and passengers take G-force checks: "
                "give a character one of those roles on its record.",
            ),
        ),
        label="G-force check",
        prefill=_g_prefill,
    )
)


FAMILY = Family(
    name="characters",
    title="G-forces",
    procedure_titles={"gforce": "G-forces"},
    menu_first={"gforce.threshold": 60},
    bindings=tuple(BINDINGS),
)
