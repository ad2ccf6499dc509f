"""A battle handed to MegaMek and brought back, in a real browser: the GM downloads the landing
zone's forces and board, a battle is played out by editing the unit list the way MegaMek's
writer saves it (damage, a destroyed unit, pilot hits), the GM uploads it, checks the preview,
applies it as one entry; the player's sheet follows live, and Undo restores every sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee.battles import board, mul
from referee.fleet.models import Unit
from referee.play.models import LogEntry
from tests.browser.conftest import expect_not_reloaded, mark_page

pytestmark = pytest.mark.browser


def played_out(forces: str) -> str:
    """The unit list as MegaMek saves it after the battle (a <record>): the Victor lost its left
    arm and most of its left torso, its MechWarrior took 2 hits; the Elementals were wiped out."""
    entities = {
        re.search(r'chassis="(\w+)', e)[1]: e for e in re.findall(r"  <entity .*?</entity>", forces, re.S)
    }
    victor = entities["Victor"].replace('ejected="false"', 'hits="2" ejected="false"', 1)
    victor = victor.replace(
        "  </entity>",
        '      The first slot in a location is at index="1".\n'
        '    <location index="5" isDestroyed="true" /> Left Arm\n'
        '    <location index="3"> Left Torso\n      <armor points="3"/>\n'
        '      <armor points="11" type="Internal"/>\n    </location>\n  </entity>',
    )
    elementals = entities["Elemental"].replace(
        "  </entity>",
        "".join(f'    <location index="{n}" isDestroyed="true" /> Trooper {n}\n' for n in range(1, 6))
        + "  </entity>",
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n\n<record version="0.49.19" >\n'
        f"\t<survivors>\n\n{victor}\n\n\t</survivors>\n\t<devastated>\n\n{elementals}\n\n\t</devastated>\n</record>\n"
    )


def test_a_battle_goes_to_megamek_and_comes_back_onto_the_sheets(sign_in, campaign_url, demo):
    victor = Unit.objects.get(campaign=demo, name="Victor VTR-9K")
    elementals = Unit.objects.get(campaign=demo, name="Elemental point Alpha")
    sheets_before = {u.pk: u.sheet for u in (victor, elementals)}

    player = sign_in("player")
    player.goto(f"{campaign_url}sheets/units/{victor.code}/")
    left_arm = player.get_by_test_id("values-left-arm")
    expect(left_arm).to_contain_text("18 / 18")
    mark_page(player)

    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#battles-panel").get_by_role("link", name="Board or result from MegaMek…").click()
    row = gm.get_by_test_id("battlefield-landing-zone-alpha")
    with gm.expect_download() as download:
        row.get_by_role("link", name="Unit list (.mul)").click()
    forces = Path(download.value.path()).read_text()
    assert {e.external_id for e in mul.parse_mul(forces)} == {str(victor.code), str(elementals.code)}
    assert 'name="Tomas Vey"' in forces  # the MechWarrior aboard
    with gm.expect_download() as download:
        row.get_by_role("link", name="Board (.board)").click()
    zone = board.parse_board(Path(download.value.path()).read_bytes())
    hexes = {h.label: h for h in zone.hexes}
    assert (zone.columns, zone.rows) == (8, 6)
    assert (hexes["0303"].level, hexes["0303"].terrain, hexes["0404"].conditions) == (
        2,
        "heavy_woods",
        ["mud"],
    )
    assert download.value.suggested_filename == "landing-zone-alpha.board"

    result = gm.get_by_test_id("result-upload")
    result.get_by_label("MegaMek unit list").set_input_files(
        files=[{"name": "after.mul", "mimeType": "application/xml", "buffer": played_out(forces).encode()}]
    )
    result.get_by_role("button", name="Preview the result").click()
    expect(gm.get_by_test_id("match-0")).to_contain_text("by the id written with it")
    report = gm.get_by_test_id("report")
    expect(report).to_contain_text("The Victor VTR-9K lost its left arm; MechWarrior Tomas Vey took 2 hits")
    expect(report).to_contain_text("The Elemental Point was destroyed")
    card = gm.get_by_test_id("result-unit-victor-vtr-9k")
    expect(card.get_by_test_id("loc-left-arm")).to_contain_text("18 → 0")
    expect(card.get_by_test_id("loc-left-arm")).to_contain_text("destroyed")
    expect(card.get_by_test_id("loc-left-torso")).to_contain_text("23 → 3")
    expect(card.get_by_test_id("loc-left-torso")).to_contain_text("17 → 11")
    expect(card.get_by_test_id("crew-hits")).to_have_text("Crew hits: 0 → 2")
    expect(gm.get_by_test_id("result-unit-elemental-point-alpha")).to_contain_text("Devastated")
    assert Unit.objects.get(pk=victor.pk).sheet == sheets_before[victor.pk]  # nothing written yet

    entries = LogEntry.objects.filter(campaign=demo).count()
    gm.get_by_test_id("apply").click()
    expect(gm.locator(".messages")).to_contain_text("in the log can undo it")
    assert LogEntry.objects.filter(campaign=demo).count() == entries + 1  # one entry for the battle
    seq = int(re.search(r"Entry #(\d+)", gm.locator(".messages").inner_text())[1])

    # The player's sheet follows without a reload.
    expect(left_arm).to_contain_text("0 / 18")
    expect(player.get_by_test_id("loc-left-arm")).to_have_class("loc destroyed")
    expect_not_reloaded(player)

    # Undo restores every sheet.
    gm.goto(campaign_url)
    entry = gm.locator("#log-panel").locator(f"#entry-{seq}")
    expect(entry).to_contain_text("brought a battle's result back from MegaMek")
    gm.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Undo").click()
    expect(gm.locator("#log-panel").locator(f"#entry-{seq}")).to_contain_text(f"undone by #{seq + 1}")
    expect(left_arm).to_contain_text("18 / 18")
    for unit in (victor, elementals):
        unit.refresh_from_db()
        assert unit.sheet == sheets_before[unit.pk]


def test_the_battle_pages_pass_axe_as_gm_and_as_player(sign_in, campaign_url, demo):
    from tests.browser.test_accessibility import AXE, check

    gm = sign_in("gm")
    problems = check(gm, f"{campaign_url}battles/")
    row = gm.get_by_test_id("battlefield-landing-zone-alpha")
    with gm.expect_download() as download:
        row.get_by_role("link", name="Unit list (.mul)").click()
    result = gm.get_by_test_id("result-upload")
    result.get_by_label("MegaMek unit list").set_input_files(
        files=[
            {
                "name": "after.mul",
                "mimeType": "application/xml",
                "buffer": played_out(Path(download.value.path()).read_text()).encode(),
            }
        ]
    )
    result.get_by_role("button", name="Preview the result").click()
    expect(gm.get_by_test_id("report")).to_be_visible()
    problems += [f"preview: {v['id']} ({v['impact']})" for v in AXE.run(gm).response["violations"]]
    problems += check(sign_in("player"), f"{campaign_url}battles/")
    assert problems == []
