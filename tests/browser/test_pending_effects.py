"""A change a result leaves for the GM, applied from the result card in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.boobytraps.models import BoobyTrap

pytestmark = pytest.mark.browser


def test_the_gm_applies_a_pending_change_from_the_result_card_and_sees_the_record_change(
    sign_in, campaign_url, demo
):
    trap = BoobyTrap.objects.create(campaign=demo, name="Cerberus")
    gm = sign_in("gm")
    gm.goto(f"{campaign_url}play/booby_trap.speed_by_year/")  # a calculator run: no trap chosen
    gm.get_by_test_id("roll").click()
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    speed = card.get_by_test_id("pending-effect").filter(has_text="speed")
    expect(speed).to_have_attribute("data-state", "pending")
    speed.get_by_test_id("apply-record").select_option(label="Cerberus")
    speed.get_by_test_id("apply-effect").dblclick()  # a clumsy double click applies it once
    card = gm.locator("#result-slot").get_by_test_id("result-card")
    applied = card.get_by_test_id("pending-effect").filter(has_text="speed")
    expect(applied).to_have_attribute("data-state", "applied")
    expect(applied.get_by_test_id("effect-state")).to_contain_text("applied by #")
    trap.refresh_from_db()
    assert trap.speed is not None
    # The log beside the form shows the change on the record, before -> after.
    expect(gm.locator("#log-panel")).to_contain_text(f"Cerberus speed — → {trap.speed}")
    gm.goto(f"{campaign_url}log/")
    expect(gm.locator("#log-panel")).to_contain_text("The GM applied a change left by")
    assert BoobyTrap.objects.get(pk=trap.pk).speed == trap.speed
