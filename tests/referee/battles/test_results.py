"""Forces out as a unit list and the battle's result back: matched by id (else by chassis, model
and crew), previewed, applied as one entry whose Undo restores every sheet; a hostile or foreign
unit list refused with nothing written; players take a unit list only of what they may read."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from referee.battles import mul, services
from referee.battles.forms import pack
from referee.fleet.models import Unit
from referee.play.models import LogEntry
from referee.play.services import PlayError, log_entry_reverse
from referee.sheets import document
from referee.terrain.models import UnitPlacement
from tests.factories import CampaignFactory
from tests.referee.battles.records import record
from tests.referee.terrain.factories import BattlefieldFactory


def place(unit, field, hex_="0101"):
    UnitPlacement.objects.create(
        campaign=unit.campaign, name=unit.name, unit=unit, battlefield=field, hex=hex_
    )


@pytest.fixture
def battle(cast):
    """Two 'Mechs and a tank on a battlefield, and a DropShip."""
    field = BattlefieldFactory(campaign=cast.campaign, name="Hachiman Ridge")
    victor = record(
        cast.campaign,
        "Victor VTR-9K.mtf",
        name="Lena's Victor",
        pilot="Lena Ortiz",
        shared=True,
        owner=cast.player,
    )
    tortuga = record(cast.campaign, "Tortuga TRT-2Q.mtf", pilot="Ivo Brand")
    tank = record(cast.campaign, "Bulwark Heavy Tank.blk")
    union = record(cast.campaign, "Union (3067).blk")
    for unit, hex_ in ((victor, "0101"), (tortuga, "0202"), (tank, "0303")):
        place(unit, field, hex_)
    return field, victor, tortuga, tank, union


def exported(field) -> str:
    text, _ = services.mul_export(services.battlefield_forces(field))
    return text


def megamek_after(text: str) -> str:
    """The unit list as MegaMek saves it after the battle: a <record>, the survivors' damage
    written as its writer writes it (the Victor loses its left arm, its pilot takes 2 hits; the
    Tortuga is destroyed)."""
    entities = {
        re.search(r'chassis="(\w+)', e)[1]: e for e in re.findall(r"  <entity .*?</entity>", text, re.S)
    }
    victor, tortuga, tank = entities["Victor"], entities["Tortuga"], entities["Bulwark"]
    victor = victor.replace('hits="', 'was="').replace('ejected="false"', 'hits="2" ejected="false"', 1)
    victor = victor.replace(
        "  </entity>",
        '    <location index="5" isDestroyed="true" /> Left Arm\n'
        '    <location index="3"> Left Torso\n      <armor points="4"/>\n      <armor points="10" type="Internal"/>\n'
        '      <slot index="3" type="Jump Jet" isHit="true" isDestroyed="true"/>\n    </location>\n  </entity>',
    )
    victor = victor.replace(  # MegaMek counts every bin's shots
        "  </entity>",
        '    <location index="2"> Right Torso\n      <slot index="1" type="IS Gauss Ammo" shots="5"/>\n'
        "    </location>\n  </entity>",
    )
    tortuga = tortuga.replace(
        "  </entity>", '    <location index="1" isDestroyed="true" /> Center Torso\n  </entity>'
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n\n<record version="0.49.19" >\n\t<survivors>\n\n'
        f"{victor}\n{tank}\n\t</survivors>\n\t<salvage>\n\n{tortuga}\n\t</salvage>\n</record>\n"
    )


def test_a_battlefields_forces_go_out_with_their_ids_crews_and_names(battle):
    field, victor, tortuga, tank, union = battle
    text = exported(field)
    entities = mul.parse_mul(text)
    assert {e.external_id for e in entities} == {str(victor.code), str(tortuga.code), str(tank.code)}
    assert 'chassis="Victor" model="VTR-9K"' in text and 'name="Lena Ortiz"' in text
    assert str(union.code) not in text  # not on the map


def test_the_result_is_previewed_then_applied_as_one_entry_and_undone(battle, cast):
    field, victor, tortuga, tank, _union = battle
    before = {u.pk: u.sheet for u in (victor, tortuga, tank)}
    entities = mul.parse_mul(megamek_after(exported(field)))
    preview = services.result_preview(cast.campaign, entities)
    assert [r.how for r in preview.rows] == ["id", "id", "id"]
    row = preview.rows[0]
    arm = next(loc for loc in row.locations if loc.name == "Left Arm")
    assert arm.armor == (22, 0) and arm.structure == (13, 0) and arm.destroyed == (False, True)
    torso = next(loc for loc in row.locations if loc.name == "Left Torso")
    assert torso.armor == (22, 4) and torso.structure == (17, 10) and torso.rear == (7, 7)
    assert row.crew == (0, 2) and row.criticals == ["Left Torso slot 3 (Jump Jet) hit"]
    assert "IS Gauss Ammo (Right Torso) shots a full load → 5" in row.lines
    assert preview.rows[2].destroyed and preview.rows[2].status == "Salvage"
    assert LogEntry.objects.count() == 0  # a preview writes nothing

    entry = services.result_apply(campaign=cast.campaign, entities=entities, chosen={}, actor=cast.gm)
    assert LogEntry.objects.count() == 1
    assert entry.summary.startswith(
        "The Victor VTR-9K lost its left arm and took 1 critical hit; MechWarrior Lena Ortiz took 2 hits. "
        "The Tortuga TRT-2Q was destroyed"
    )
    victor.refresh_from_db()
    assert document.location(victor.sheet, "Left Arm")["destroyed"] and victor.sheet["pilot"]["hits"] == 2
    assert victor.armor_factor == document.armour_total(victor.sheet)
    assert Unit.objects.get(pk=tortuga.pk).sheet["destroyed"] is True
    assert entry.visibility == "gm"  # the Tortuga is not shared
    log_entry_reverse(entry=entry, actor=cast.gm)
    for unit in (victor, tortuga, tank):
        unit.refresh_from_db()
        assert unit.sheet == before[unit.pk]


def test_an_entity_without_an_id_is_matched_by_chassis_model_and_crew(battle, cast):
    field, victor, *_ = battle
    text = megamek_after(exported(field)).replace(f' externalId="{victor.code}"', "")
    preview = services.result_preview(cast.campaign, mul.parse_mul(text))
    assert preview.rows[0].record == victor and preview.rows[0].how == "name"


def test_the_gm_may_correct_the_matching_or_leave_a_unit_out(battle, cast):
    field, victor, _tortuga, tank, _union = battle
    entities = mul.parse_mul(megamek_after(exported(field)))
    preview = services.result_preview(cast.campaign, entities, {0: "", 1: services.choice_key(tank), 2: ""})
    assert [r.record for r in preview.rows] == [None, tank, None]
    with pytest.raises(PlayError, match="matched to two entities"):
        services.result_preview(cast.campaign, entities, {2: services.choice_key(victor)})
    with pytest.raises(PlayError, match="not this campaign's"):
        services.result_preview(cast.campaign, entities, {0: "unit:00000000-0000-4000-8000-000000000000"})


def test_a_unit_list_carrying_another_campaigns_record_id_is_refused_and_writes_nothing(battle, cast):
    field, victor, *_ = battle
    other = record(CampaignFactory(), "Victor VTR-9K.mtf")
    text = megamek_after(exported(field)).replace(str(victor.code), str(other.code))
    entities = mul.parse_mul(text)
    with pytest.raises(PlayError, match="carries the id of a record that is not this campaign's"):
        services.result_apply(campaign=cast.campaign, entities=entities, chosen={}, actor=cast.gm)
    victor.refresh_from_db()
    assert not LogEntry.objects.exists() and victor.sheet["pilot"]["hits"] == 0


def _preview_post(client, cast, text: str):
    upload = SimpleUploadedFile("after.mul", text.encode())
    return client.post(f"/c/{cast.campaign.code}/battles/results/", {"result-file": upload})


HOSTILE_FILES = {
    "entity expansion": '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "x">]><record>&a;</record>',
    "10,000 entities": "<unit>" + '<entity chassis="Atlas"/>' * 10_000 + "</unit>",
    "deep nesting": "<unit>" + "<a>" * 1000 + "</a>" * 1000 + "</unit>",
}


@pytest.mark.parametrize("case", HOSTILE_FILES)
def test_the_page_refuses_a_hostile_unit_list_with_a_message_and_writes_nothing(battle, cast, case):
    response = _preview_post(cast.client("gm"), cast, HOSTILE_FILES[case])
    assert response.status_code == 422
    assert "Nothing was written. Line 1:" in response.content.decode()
    assert not LogEntry.objects.exists()


def test_the_page_previews_then_applies_once(battle, cast):
    field, victor, *_ = battle
    client = cast.client("gm")
    response = _preview_post(client, cast, megamek_after(exported(field)))
    page = response.content.decode()
    assert response.status_code == 200
    assert "by the id written with it" in page and "22 → 0" in page
    assert "MechWarrior Lena Ortiz took 2 hits" in page
    data = re.search(r'name="data" value="([^"]+)"', page)[1]
    key = re.search(r'name="request_key" value="([^"]+)"', page)[1]
    form = {"data": data, "request_key": key, "action": "apply"}
    for position in range(3):
        form[f"match-{position}"] = re.search(
            rf'name="match-{position}".*?<option value="([^"]*)" selected', page, re.S
        )[1]
    first = client.post(f"/c/{cast.campaign.code}/battles/results/apply/", form, follow=True)
    assert "Entry #1 in the log can undo it" in first.content.decode()
    client.post(f"/c/{cast.campaign.code}/battles/results/apply/", form)  # a double click
    assert LogEntry.objects.count() == 1
    victor.refresh_from_db()
    assert victor.sheet["pilot"]["hits"] == 2


def test_a_tampered_apply_form_writes_nothing(battle, cast):
    response = cast.client("gm").post(
        f"/c/{cast.campaign.code}/battles/results/apply/", {"data": "bm90IHppcA==", "action": "apply"}
    )
    assert response.status_code == 422
    assert "did not come back whole" in response.content.decode()
    assert not LogEntry.objects.exists()


def test_a_player_takes_a_unit_list_of_what_they_own_or_see_never_of_what_is_kept_from_them(battle, cast):
    field, victor, tortuga, *_ = battle
    client = cast.client("player")
    base = f"/c/{cast.campaign.code}/battles/forces.mul"
    mine = client.get(base, {"record": str(victor.code)})
    assert mine.status_code == 200 and b'externalId="' + str(victor.code).encode() in mine.content
    assert mine["Content-Disposition"].startswith("attachment")
    assert client.get(base, {"record": [str(victor.code), str(tortuga.code)]}).status_code == 404
    assert client.get(base, {"record": "not-a-code"}).status_code == 404
    assert client.get(base, {"battlefield": str(field.code)}).status_code == 403
    page = client.get(f"/c/{cast.campaign.code}/battles/").content.decode()
    assert "Lena&#x27;s Victor" in page and "Tortuga" not in page


@pytest.mark.parametrize("who, status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
def test_only_the_gm_brings_a_result_back(battle, cast, who, status):
    client = cast.client(who)
    assert client.post(f"/c/{cast.campaign.code}/battles/results/").status_code == status
    assert client.post(f"/c/{cast.campaign.code}/battles/results/apply/").status_code == status
    if who != "player":
        assert client.get(f"/c/{cast.campaign.code}/battles/").status_code == status


def test_the_gm_downloads_a_battlefields_forces_and_any_picked_records(battle, cast):
    field, _victor, _tortuga, tank, union = battle
    client = cast.client("gm")
    base = f"/c/{cast.campaign.code}/battles/forces.mul"
    assert client.get(base, {"battlefield": str(field.code)}).content.count(b"<entity ") == 3
    picked = client.get(base, {"record": [str(union.code), str(tank.code)]})
    assert picked.content.count(b"<entity ") == 2 and b'chassis="Union"' in picked.content
    page = client.get(f"/c/{cast.campaign.code}/battles/").content.decode()
    assert "Hachiman Ridge" in page and "Unit list (.mul)" in page


def test_the_dashboard_and_the_players_page_offer_the_unit_lists(battle, cast):
    field, *_ = battle
    dashboard = cast.client("gm").get(f"/c/{cast.campaign.code}/").content.decode()
    assert 'id="battles-panel"' in dashboard and f"/c/{cast.campaign.code}/battles/" in dashboard
    page = cast.client("gm").get(f"/c/{cast.campaign.code}/battles/").content.decode()
    assert f"/battles/forces.mul?battlefield={field.code}" in page
    players = cast.client("player").get(f"/c/{cast.campaign.code}/").content.decode()
    assert "Your units for MegaMek" in players and f"/c/{cast.campaign.code}/battles/" in players


def test_a_unit_list_too_large_is_refused_before_it_is_read(battle, cast):
    response = _preview_post(cast.client("gm"), cast, "<unit>" + " " * (mul.MAX_MUL_BYTES + 10) + "</unit>")
    assert response.status_code == 422
    assert (
        "The file is larger than 700 KB, the most a unit list of a battle may be."
        in response.content.decode()
    )
    assert not LogEntry.objects.exists()


def test_a_result_that_changes_nothing_is_refused(battle, cast):
    field, *_ = battle
    with pytest.raises(PlayError, match="changes no sheet"):
        services.result_apply(
            campaign=cast.campaign, entities=mul.parse_mul(exported(field)), chosen={}, actor=cast.gm
        )
    assert not LogEntry.objects.exists()


def test_an_entity_matched_to_a_record_of_another_kind_is_refused_in_the_preview(battle, cast):
    field, _victor, _tortuga, tank, _union = battle
    text = megamek_after(exported(field))
    entities = mul.parse_mul(text)
    victor_at = next(i for i, e in enumerate(entities) if e.chassis == "Victor")
    tank_at = next(i for i, e in enumerate(entities) if e.chassis.startswith("Bulwark"))
    chosen = {victor_at: services.choice_key(tank), tank_at: ""}
    with pytest.raises(
        PlayError,
        match=r"the Victor VTR-9K is a 'Mech in MegaMek \(Biped\); Bulwark Heavy Tank \(Standard\) is a Combat vehicle",
    ):
        services.result_preview(cast.campaign, entities, chosen)
    page = cast.client("gm").post(
        f"/c/{cast.campaign.code}/battles/results/apply/",
        {
            "data": pack(text.encode()),
            "action": "apply",
            f"match-{victor_at}": services.choice_key(tank),
            f"match-{tank_at}": "",
        },
    )
    assert page.status_code == 422 and "Nothing was written." in page.content.decode()
    assert not LogEntry.objects.exists()


def test_a_malformed_battlefield_code_is_a_404(battle, cast):
    response = cast.client("gm").get(
        f"/c/{cast.campaign.code}/battles/forces.mul", {"battlefield": "nonsense"}
    )
    assert response.status_code == 404


def test_a_battle_too_big_for_one_entry_is_refused_saying_how_to_split_it(cast):
    field = BattlefieldFactory(campaign=cast.campaign, name="Big fight")
    for number in range(12):
        place(
            record(cast.campaign, "Victor VTR-9K.mtf", name=f"Victor {number}"), field, f"01{number + 1:02d}"
        )
    text = exported(field).replace(
        "  </entity>", '    <location index="5" isDestroyed="true" /> Left Arm\n  </entity>'
    )
    with pytest.raises(PlayError, match="Leave some units out in the matching table"):
        services.result_apply(campaign=cast.campaign, entities=mul.parse_mul(text), chosen={}, actor=cast.gm)
    assert not LogEntry.objects.exists()
    assert all(
        not u.sheet.get("destroyed") and not document.location(u.sheet, "Left Arm").get("destroyed")
        for u in Unit.objects.filter(campaign=cast.campaign)
    )
    half = dict.fromkeys(range(6), "")
    entry = services.result_apply(
        campaign=cast.campaign, entities=mul.parse_mul(text), chosen=half, actor=cast.gm
    )
    assert "Not brought back (no record chosen)" in entry.summary


def test_a_unit_list_of_nothing_says_to_choose_and_another_campaigns_battlefield_is_a_404(battle, cast):
    client = cast.client("gm")
    empty = client.get(f"/c/{cast.campaign.code}/battles/forces.mul", follow=True)
    assert "Choose at least one unit or ship for the unit list." in empty.content.decode()
    elsewhere = BattlefieldFactory(campaign=CampaignFactory())
    assert (
        client.get(
            f"/c/{cast.campaign.code}/battles/forces.mul", {"battlefield": str(elsewhere.code)}
        ).status_code
        == 404
    )
    assert (
        client.get(f"/c/{cast.campaign.code}/battles/battlefields/{elsewhere.code}/board/").status_code == 404
    )


def test_an_entry_players_read_counts_the_units_left_out_without_naming_them(cast):
    field = BattlefieldFactory(campaign=cast.campaign, name="Skirmish")
    ours = record(cast.campaign, "Victor VTR-9K.mtf", name="Our Victor")
    theirs = record(cast.campaign, "Tortuga TRT-2Q.mtf", name="Their Tortuga")
    Unit.objects.filter(pk=ours.pk).update(shared=True)
    place(ours, field, "0101")
    place(theirs, field, "0102")
    text = exported(field).replace(
        "  </entity>", '    <location index="5" isDestroyed="true" /> Left Arm\n  </entity>', 1
    )
    entities = mul.parse_mul(text)
    left = next(n for n, e in enumerate(entities) if "Tortuga" in e.chassis)
    entry = services.result_apply(campaign=cast.campaign, entities=entities, chosen={left: ""}, actor=cast.gm)
    assert entry.visibility == "everyone"
    assert "Tortuga" not in entry.summary and "1 unit in the file not brought back." in entry.summary


def test_a_record_kept_from_the_player_is_its_own_refusal_and_a_404(battle, cast):
    _field, _victor, tortuga, *_ = battle
    with pytest.raises(services.NoSuchRecord):
        services.records_by_code(cast.campaign, [str(tortuga.code)], "player", cast.player)
    client = cast.client("player")
    base = f"/c/{cast.campaign.code}/battles/forces.mul"
    kept = client.get(base, {"record": str(tortuga.code)})
    assert kept.status_code == 404
    # Any other refusal is said on the page, not a 404.
    nothing = client.get(base, follow=True)
    assert nothing.status_code == 200 and "Choose at least one unit or ship" in nothing.content.decode()
