"""The GM's dashboard at the table, in a real browser: a ship's form follows its kind, the
record menus answer the keyboard and close as menus do, and a phone reaches every action."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

KF = re.compile(r"^K-F integrity:?$")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_ship_form_redraws_for_the_kind_chosen_keeping_what_was_typed(sign_in, campaign_url):
    gm = sign_in("gm")
    gm.goto(campaign_url)
    gm.locator("#ships-panel").get_by_role("link", name="Add ship").click()
    form = gm.locator("#form-slot")
    form.get_by_label("Name").fill("Blue Wing")
    expect(form.get_by_label(KF)).to_be_visible()
    form.get_by_label("Kind").select_option(label="Fighter squadron")
    expect(form.get_by_label("Fighters in the squadron")).to_have_value("6")
    expect(form.get_by_label(KF)).to_have_count(0)
    expect(form.get_by_label("Lithium-fusion battery fitted")).to_have_count(0)
    expect(form.get_by_label("Name")).to_have_value("Blue Wing")
    expect(form.get_by_label("Shared with players")).to_be_checked()
    form.get_by_role("button", name="Save").click()
    expect(gm.locator("#ships-panel")).to_contain_text("Blue Wing")
