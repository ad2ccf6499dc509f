"""Who may read a record: the one test of whether an entry about it can be public.

A record is *unshared* when its model's ``player_visible`` does not admit it (a ship the
GM has not shared, a character aboard one, the GM's terrain rulings). An entry that
involves any unshared record (a role, an extra such as a destination, a record its
changes touch) is GM-only unless the GM chooses otherwise."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models

from referee.campaigns.models import Campaign
from referee.fleet.models import StarSystem

# What a reader kept from a record reads in its place: a star system the GM has not shared
# is "a system not shared with you" (as the players' page says of a ship's whereabouts);
# any other record, "a record not shared with players". ``records_seen`` marks a kept star
# system with ``KEPT_SYSTEM``, any other kept record with 0, a seen one with 1.
KEPT_RECORD = "a record not shared with players"
KEPT_SYSTEM_WORDS = "a system not shared with you"
KEPT_SYSTEM = -1
GONE_RECORD = "a record no longer kept"


def kept_words(seen: int | None) -> str:
    """The words for a record a reader may not read, by its ``records_seen`` mark (None:
    not in the map, a record no longer kept)."""
    if seen is None:
        return GONE_RECORD
    return KEPT_SYSTEM_WORDS if seen == KEPT_SYSTEM else KEPT_RECORD


def kept_words_sql(seen: str) -> str:
    """``kept_words`` in SQL, of the text of a ``records_seen`` mark (NULL: not in the map)."""
    return (
        f"CASE WHEN ({seen}) IS NULL THEN '{GONE_RECORD}' WHEN ({seen}) = '{KEPT_SYSTEM}' "
        f"THEN '{KEPT_SYSTEM_WORDS}' ELSE '{KEPT_RECORD}' END"
    )


def kept_mark(model: type[models.Model]) -> int:
    """The ``records_seen`` mark of a record of ``model`` kept from the reader."""
    return KEPT_SYSTEM if issubclass(model, StarSystem) else 0


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
