"""The diary reads like a story: an evening of play on the demo campaign (ten rolls, five
record edits, three notes) exports to a Markdown forum post of under 600 words that
carries every roll's headline; a record added or deleted is one line of it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee.demo.campaign import demo_campaign_load
from referee.fleet.forms import ShipForm
from referee.fleet.models import Ship
from referee.play import players, services
from referee.play.models import LogEntry
from tests.referee.play.test_hand_edits import form_data

pytestmark = pytest.mark.django_db

ROLLS = [
    ("jump.malfunction", {"ship": "Waterloo"}, {"kf_integrity": 4, "kf_integrity_max": 4}, [3, 4]),
    (
        "sensor.active_radar",
        {"detector": "Valley Forge", "target": "Waterloo"},
        {"detector_class": "warship", "military": True, "distance_km": 60000},
        [6, 5],
    ),
    (
        "sensor.active_radar",
        {"detector": "Valley Forge", "target": "John Wayne"},
        {"detector_class": "warship", "military": True, "distance_km": 60000},
        [1, 2],
    ),
    ("cargo.food", {"ship": "Waterloo"}, {"crew": 20, "passengers": 4, "days": 2}, None),
    ("ram.accidental", {}, None, None),
    ("ram.collision_damage", {}, None, None),
    ("jump.double_jump_interval", {}, None, None),
    ("jump.basic_constants", {}, None, None),
    ("sensor.drive_plume", {"detector": "Valley Forge", "target": "Garibaldi"}, None, None),
    ("jump.nonstandard_plot", {"ship": "Valley Forge"}, {"navigation_tn": 5}, [6, 6, 3, 4]),
]


def an_evening(campaign, gm) -> list[LogEntry]:
    rolls = []
    for procedure_id, roles, inputs, dice in ROLLS:
        if inputs is None:
            from referee.play import families

            inputs = dict(families.binding(procedure_id).procedure.example)
        subjects = {role: Ship.objects.get(campaign=campaign, name=name).code for role, name in roles.items()}
        rolls.append(
            services.procedure_resolve(
                campaign=campaign,
                procedure_id=procedure_id,
                inputs=inputs,
                dice=dice,
                actor=gm,
                subjects=subjects,
                gm_ruling=True,
                visibility="everyone",
            )
        )
    for n, name in enumerate(["Waterloo", "John Wayne", "Valley Forge", "Garibaldi", "Waterloo"]):
        ship = Ship.objects.get(campaign=campaign, name=name)
        shown = ShipForm(instance=ship, campaign=campaign)
        form = ShipForm(form_data(shown) | {"position": f"hex 04{n}2"}, instance=ship, campaign=campaign)
        assert form.is_valid(), form.errors
        services.record_save(campaign=campaign, form=form, actor=gm)
    for text in (
        "The crew <cheers> as the drive spools up.",
        "Garibaldi holds station.",
        "Dinner break & dice.",
    ):
        players.note_post(campaign=campaign, actor=gm, role="gm", text=text)
    return rolls


def test_an_evening_exports_to_under_600_words_with_every_rolls_headline(client):
    campaign, _ = demo_campaign_load()
    gm = get_user_model().objects.get(username="gm")
    start = LogEntry.objects.filter(campaign=campaign).order_by("-seq").first()
    first_turn = campaign.turn if start is None else start.turn
    rolls = an_evening(campaign, gm)
    client.force_login(gm)
    url = reverse("diary:evening", args=[campaign.code]) + f"?from_turn={first_turn}&as=md"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/markdown")
    text = response.content.decode()
    words = len(text.split())
    print(text)
    assert words < 600, (words, text)
    for roll in rolls:
        assert roll.title in text, roll.title
    assert "&lt;" not in text and "&amp;" not in text
    assert "The crew \\<cheers> as the drive spools up." in text
    assert not re.search(r"owner — → \d", text)
