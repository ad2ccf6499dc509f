"""What the battle commands share: the campaign by its code, its GM, a battlefield or a record
by the name the GM gave it, and a file read within its bound."""

from __future__ import annotations

import os
import uuid

from django.core.management.base import CommandError

from referee.campaigns.models import Campaign, Membership, Role
from referee.fleet.models import Ship, Unit
from referee.terrain.models import Battlefield

UNREADABLE = 2


def campaign_of(code: str) -> Campaign:
    try:
        return Campaign.objects.get(code=uuid.UUID(code))
    except (ValueError, Campaign.DoesNotExist):
        raise CommandError(f"There is no campaign with the code {code[:60]}.") from None


def gm_of(campaign: Campaign):
    gm = Membership.objects.filter(campaign=campaign, role=Role.GM).select_related("user").first()
    return gm.user if gm else None


def battlefield_named(campaign: Campaign, name: str) -> Battlefield:
    found = Battlefield.objects.in_campaign(campaign).filter(name=name).first()
    if found is None:
        names = ", ".join(Battlefield.objects.in_campaign(campaign).values_list("name", flat=True)[:20])
        raise CommandError(
            f"{campaign} has no battlefield named {name[:120]!r}." + (f" It has: {names}." if names else "")
        )
    return found


def record_named(campaign: Campaign, name: str):
    found = [r for model in (Unit, Ship) for r in model.objects.in_campaign(campaign).filter(name=name)]
    if not found:
        raise CommandError(f"{campaign} has no unit or ship named {name[:120]!r}.")
    if len(found) > 1:
        raise CommandError(f"{campaign} has {len(found)} records named {name[:120]!r}; rename one first.")
    return found[0]


def read_file(path: str, limit: int) -> bytes:
    try:
        if os.path.getsize(path) > limit:
            raise CommandError(f"{path}: larger than {limit // 1024:,} KB.", returncode=UNREADABLE)
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as error:
        raise CommandError(
            f"{path}: cannot be opened ({error.strerror or error}).", returncode=UNREADABLE
        ) from None


def write_file(path: str, text: str, newline: str = "") -> None:
    try:
        with open(path, "w", encoding="utf-8", newline=newline) as handle:
            handle.write(text)
    except OSError as error:
        raise CommandError(f"{path}: cannot be written ({error.strerror or error}).") from None
