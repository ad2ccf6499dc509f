"""The demo campaign, built from the seeds' own worked examples so a newcomer can replay them."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from referee.campaigns.models import Campaign, Membership, Role
from referee.fleet.models import Character, Ship, StarSystem, Unit
from referee.maps.models import PiratePoint
from referee.sheets import classes, document
from referee.sheets.models import Design
from referee.terrain.models import Battlefield, Hex, UnitPlacement

DEMO_CODE = uuid.UUID("0e1c0a5e-3067-4c0e-8e00-000000000001")
DEMO_LOGINS = {"gm": ("gm", "explorer-gm"), "player": ("player", "explorer-player")}


def _armor(**values: int) -> dict:
    fields = {}
    for facing, value in values.items():
        fields[f"armor_{facing}"] = value
        fields[f"armor_{facing}_max"] = value
    return fields


def _sheet(record, doc: dict):
    """The record carries its class's sheet, its summary fields in step with it."""
    record.sheet = doc
    kind = "unit" if isinstance(record, Unit) else "ship"
    for field, value in document.record_fields(doc, kind).items():
        setattr(record, field, value)
    record.save()
    return record


def _user(username: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.save()
    return user


@transaction.atomic
def demo_campaign_load() -> tuple[Campaign, bool]:
    """Create the demo campaign unless it exists; returns (campaign, created)."""
    gm = _user(*DEMO_LOGINS["gm"])
    player = _user(*DEMO_LOGINS["player"])
    existing = Campaign.objects.filter(code=DEMO_CODE).first()
    if existing:
        return existing, False

    campaign = Campaign.objects.create(
        code=DEMO_CODE,
        name="Explorer Corps: the Waterloo survey",
        year=3067,
        clock=datetime(3067, 3, 14, 8, 0, tzinfo=UTC),
        turn_length_s=60,
    )
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)

    # The seed names its Jump Point Distance table and its sail-charging times by star class
    # (151 to more than 200 hours) without printing them: the demo GM's figures, a cooler
    # star charging a sail more slowly.
    terra = StarSystem.objects.create(
        campaign=campaign,
        name="Galax",
        spectral_class="G2V",
        jump_point_au=1.5,
        sail_charge_hours=184,
        notes="Explorer Corps staging system.",
    )
    StarSystem.objects.create(
        campaign=campaign,
        name="Unnamed system EC-4471",
        spectral_class="K4V",
        sail_charge_hours=191,
        notes="Survey target.",
    )

    waterloo = _sheet(
        Ship.objects.create(
            campaign=campaign,
            name="Waterloo",
            class_name="Invader",
            kind="jumpship",
            mass_t=152000,
            crew=24,
            kf_integrity=4,
            kf_integrity_max=4,
            drive_charged=True,
            helium_tank_boxes=4,
            helium_tank_boxes_max=4,
            dropship_capacity=3,
            **_armor(nose=9, fore_left=8, fore_right=8, aft_left=7, aft_right=7, aft=6),
            radar_crit_boxes=2,
            heat_sinks=119,
            star_system=terra,
            position="zenith jump point",
            x_au=0,
            y_au=1.5,
            shared=True,
            owner=player,
        ),
        classes.invader(),
    )
    _sheet(
        Ship.objects.create(
            campaign=campaign,
            name="John Wayne",
            class_name="Union",
            kind="dropship",
            mass_t=3500,
            crew=14,
            passengers=28,
            **_armor(nose=13, fore_left=11, fore_right=11, aft_left=10, aft_right=10, aft=8),
            heat_sinks=90,
            fuel_points=80,
            star_system=terra,
            position="3 AU from the zenith jump point",
            x_au=3,
            y_au=1.5,
            shared=True,
            owner=player,
        ),
        classes.union(),
    )
    _sheet(
        Ship.objects.create(
            campaign=campaign,
            name="Valley Forge",
            class_name="Potemkin",
            kind="warship",
            military=True,
            mass_t=1100000,
            crew=480,
            kf_integrity=5,
            kf_integrity_max=5,
            drive_charged=True,
            helium_tank_boxes=6,
            helium_tank_boxes_max=6,
            dropship_capacity=25,
            **_armor(nose=42, fore_left=38, fore_right=38, aft_left=34, aft_right=34, aft=30),
            radar_crit_boxes=3,
            heat_sinks=2596,
            star_system=terra,
            position="nadir jump point",
            x_au=0,
            y_au=-1.5,
        ),
        classes.potemkin(),
    )
    _sheet(
        Ship.objects.create(
            campaign=campaign,
            name="Garibaldi",
            class_name="Scout",
            kind="jumpship",
            mass_t=60000,
            crew=10,
            kf_integrity=3,
            kf_integrity_max=3,
            helium_tank_boxes=2,
            helium_tank_boxes_max=2,
            dropship_capacity=1,
            **_armor(nose=4, fore_left=3, fore_right=3, aft_left=3, aft_right=3, aft=2),
            radar_crit_boxes=1,
            star_system=terra,
            position="1 AU from the zenith jump point",
            x_au=-1.0,
            y_au=1.5,
            shared=True,
        ),
        classes.scout(),
    )
    lightning = _sheet(
        Ship.objects.create(
            campaign=campaign,
            name="Lightning squadron",
            class_name="Lightning",
            kind="fighter_squadron",
            military=True,
            mass_t=300,
            crew=6,
            fighters=6,
            heat_sinks=12,
            **_armor(nose=6, fore_left=5, fore_right=5, aft=4),
            fuel_points=20,
            velocity=4,
            heading="nose",
            star_system=terra,
            position="escorting the Waterloo",
            x_au=0.4,
            y_au=1.9,
            shared=True,
            owner=player,
        ),
        classes.lightning(),
    )
    victor = _sheet(
        Unit.objects.create(
            campaign=campaign,
            name="Victor VTR-9K",
            kind="battlemech",
            tonnage=80,
            armor_factor=200,
            jump_mp=4,
            piloting=5,
            gunnery=4,
            shared=True,
            owner=player,
        ),
        classes.victor_vtr_9k(),
    )
    elementals = _sheet(
        Unit.objects.create(
            campaign=campaign,
            name="Elemental point Alpha",
            kind="battle_armor",
            tonnage=5,
            armor_factor=10,
            jump_mp=3,
            piloting=5,
            gunnery=3,
            shared=True,
        ),
        classes.elemental_point(),
    )
    PiratePoint.objects.create(
        campaign=campaign,
        star_system=terra,
        name="Galax L4",
        x_au=2.2,
        y_au=-0.8,
        notes="Known to the GM only.",
    )
    _landing_zone(campaign, terra, victor, elementals)
    for name, sheet in classes.SEED_CLASSES.items():
        Design.objects.create(campaign=campaign, name=name, unit_type=sheet()["unit_type"], document=sheet())
    Character.objects.bulk_create(
        [
            Character(
                campaign=campaign,
                name="Kari Holm",
                role="aerospace_pilot",
                bld=5,
                ref=6,
                piloting=4,
                gunnery=4,
                g_suit=True,
                ship=lightning,
            ),
            Character(
                campaign=campaign, name="Richard Marsh", role="crew", bld=4, ref=5, gunnery=5, ship=waterloo
            ),
            Character(
                campaign=campaign,
                name="Anjali Rao",
                role="crew",
                bld=4,
                ref=5,
                navigation=6,
                leadership=6,
                ship=waterloo,
            ),
            Character(
                campaign=campaign, name="Tomas Vey", role="mechwarrior", bld=6, ref=5, piloting=5, unit=victor
            ),
            Character(campaign=campaign, name="Dr. Ilse Brandt", role="passenger", bld=3, ref=4),
        ]
    )
    return campaign, True


def _landing_zone(campaign: Campaign, system: StarSystem, *units: Unit) -> None:
    """A small battlefield: woods on a rise, a muddy crossing, and a geyser only the GM
    knows of until it erupts."""
    field = Battlefield.objects.create(
        campaign=campaign,
        name="Landing zone Alpha",
        star_system=system,
        world="Galax II",
        weather=["rain_light"],
        columns=8,
        rows=6,
        shared=True,
    )
    rows = [
        ("0203", "heavy_woods", 1, []),
        ("0303", "heavy_woods", 2, []),
        ("0304", "clear", 1, []),
        ("0404", "clear", 0, ["mud"]),
        ("0504", "clear", 0, ["mud"]),
        ("0605", "sand", 0, []),
        ("0702", "building_medium", 1, []),
    ]
    Hex.objects.bulk_create(
        [
            Hex(
                campaign=campaign,
                battlefield=field,
                name=label,
                terrain=terrain,
                level=level,
                conditions=cond,
                shared=True,
            )
            for label, terrain, level, cond in rows
        ]
    )
    Hex.objects.create(
        campaign=campaign,
        battlefield=field,
        name="0503",
        terrain="clear",
        geyser=True,
        shared=True,
        notes="A geyser the players have not seen yet.",
    )
    for unit, hex_label, facing in zip(units, ("0405", "0305"), ("n", "ne"), strict=False):
        UnitPlacement.objects.create(
            campaign=campaign, unit=unit, battlefield=field, name=unit.name, hex=hex_label, facing=facing
        )
