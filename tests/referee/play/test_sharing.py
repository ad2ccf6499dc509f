"""Visibility follows sharing: an entry about a record players cannot see stays with the GM."""

import json

import pytest
from django.urls import reverse

import rules
from referee.play import families
from referee.play.models import LogEntry, Visibility
from tests.factories import ShipFactory, StarSystemFactory, UnitFactory
from tests.referee.conftest import form_data, htmx
from tests.referee.play.test_every_procedure import form_value, subject_for

pytestmark = pytest.mark.django_db


def player_reads(cast) -> str:
    """Everything a player of the campaign can fetch: pages, poll, entries, exports."""
    client = cast.client("player")
    code = cast.campaign.code
    texts = [
        client.get(reverse("campaigns:detail", args=[code])).text,
        client.get(reverse("play:status", args=[code])).text,
        client.get(reverse("play:log", args=[code])).text,
    ]
    for fmt in ("csv", "json", "md"):
        response = client.get(reverse("play:export", args=[code, fmt]))
        assert response.status_code == 200
        texts.append(b"".join(response.streaming_content).decode())
    count = len(json.loads(texts[-2])["entries"])
    for number in range(1, count + 2):  # every entry a player can address, and one beyond
        texts.append(client.get(reverse("play:entry", args=[code, number])).text)
    return "\n".join(texts)


def resolve_with_unshared_subjects(cast, procedure_id) -> tuple[list[str], LogEntry]:
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
    data = {"action": "roll", "dice": ""}  # no visibility chosen: it follows sharing
    names = []
    for i, role in enumerate(r for r in binding.roles if r.required):  # as the example needs
        subject = subject_for(role, cast.campaign)
        subject.name = f"Hidden {role.name} {i} Zanzibar"
        subject.save(update_fields=["name"])
        names.append(subject.name)
        data[role.name] = str(subject.code)
    for extra in binding.extras:
        obj = StarSystemFactory(campaign=cast.campaign, name=f"Destination of {procedure_id}")
        data[extra.name] = str(obj.code)
    values = {i.name: i.default for i in procedure.contract.inputs if not i.required}
    values.update(procedure.example)
    data.update(form_data(procedure_id, values))  # lists and tables row by row, as a GM types them
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    data["gm_ruling"] = "on"  # the example's state may not meet the procedure's preconditions
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text[:2000]
    return names, LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_no_player_reads_of_an_unshared_subject(cast, procedure_id):
    names, entry = resolve_with_unshared_subjects(cast, procedure_id)
    if not names:  # a calculator: about no record of the campaign, so nothing to hide
        return
    assert entry.visibility == Visibility.GM
    seen = player_reads(cast)
    for name in names:
        assert name not in seen
    assert "For the GM to apply" not in seen


def test_the_valley_forge_jump_stays_with_the_gm_and_the_form_names_what_players_would_see(cast):
    forge = ShipFactory(campaign=cast.campaign, name="Valley Forge", kind="warship", drive_charged=True)
    tharkad = StarSystemFactory(campaign=cast.campaign, name="Tharkad")
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    form = cast.client("gm").get(url, {"ship": forge.code})
    assert "Not shared with players: Valley Forge" in form.text
    data = {"ship": str(forge.code), "destination": str(tharkad.code), "action": "enter", "dice": "3 4"}
    data |= {"kf_integrity": "4", "kf_integrity_max": "4", "hours_since_last_jump": "200"}
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text[:2000]
    entry = LogEntry.objects.get(campaign=cast.campaign, procedure="jump.malfunction")
    assert entry.visibility == Visibility.GM
    forge.refresh_from_db()
    assert forge.star_system == tharkad
    assert "Valley Forge" not in player_reads(cast)


def test_the_gm_may_still_choose_everyone(cast):
    forge = ShipFactory(campaign=cast.campaign, name="Valley Forge", kind="warship", drive_charged=True)
    url = reverse("play:procedure", args=[cast.campaign.code, "drive.charge"])
    data = {"ship": str(forge.code), "action": "roll", "dice": "", "visibility": "everyone"}
    data |= {
        k: form_value(v) for k, v in rules.get("drive.charge").example.items() if form_value(v) is not None
    }
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 200, response.text[:2000]
    assert LogEntry.objects.get(procedure="drive.charge").visibility == Visibility.EVERYONE
    assert "Valley Forge" in player_reads(cast)


def test_a_shared_subject_is_public_by_default(cast):
    ship = ShipFactory(campaign=cast.campaign, name="Dagger", shared=True, drive_charged=True)
    url = reverse("play:procedure", args=[cast.campaign.code, "jump.malfunction"])
    data = {"ship": str(ship.code), "action": "enter", "dice": "3 4"}
    data |= {"kf_integrity": "4", "kf_integrity_max": "4", "hours_since_last_jump": "200"}
    assert cast.client("gm").post(url, data, **htmx()).status_code == 200
    assert LogEntry.objects.get(procedure="jump.malfunction").visibility == Visibility.EVERYONE
    assert "Dagger" in player_reads(cast)


def test_a_shared_unit_landed_on_an_unshared_ship_does_not_name_it(cast):
    forge = ShipFactory(campaign=cast.campaign, name="Valley Forge")
    UnitFactory(campaign=cast.campaign, name="Atlas", shared=True, landed_on=forge)
    seen = player_reads(cast)
    assert "Atlas" in seen and "Valley Forge" not in seen
