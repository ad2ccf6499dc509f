"""Who may read a record: the one test of whether an entry about it can be public.

A record is *unshared* when its model's ``player_visible`` does not admit it (a ship the
GM has not shared, a character aboard one, the GM's terrain rulings). An entry that
involves any unshared record (a role, an extra such as a destination, a record its
changes touch) is GM-only unless the GM chooses otherwise."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models

from referee.campaigns.models import Campaign


def seen_by_players(obj: models.Model) -> bool:
    """Whether players of the record's campaign may read it."""
    if isinstance(obj, Campaign):
        return True
    visible = getattr(type(obj), "player_visible", None)
    if visible is None:
        return False
    return type(obj)._default_manager.filter(pk=obj.pk).filter(visible()).exists()


def unshared(objects: Iterable[models.Model | None]) -> list[models.Model]:
    """The records among ``objects`` players cannot see, each once, in order."""
    found: dict[tuple[str, int], models.Model] = {}
    for obj in objects:
        if not isinstance(obj, models.Model) or obj.pk is None:
            continue
        key = (obj._meta.label, obj.pk)
        if key not in found and not seen_by_players(obj):
            found[key] = obj
    return list(found.values())


def names(objects: Iterable[models.Model]) -> str:
    """``Valley Forge, Tharkad`` — for the GM's warning."""
    return ", ".join(str(obj) for obj in objects)
