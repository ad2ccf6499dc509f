"""Restoring a campaign in the browser's pages: upload, say who is who, land on the
campaign; every refusal is a 4xx in words and writes nothing."""

import gzip
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from referee.campaigns.models import Campaign, Membership
from referee.fleet.models import Ship
from referee.play import backup, integrity, services
from referee.play.models import LogEntry, Visibility
from tests.factories import ShipFactory, UserFactory
from tests.plain_words import REFUSAL_NOTATION, notation_in
from tests.referee.play.test_backup import wipe

pytestmark = pytest.mark.django_db
User = get_user_model()
UPLOAD = reverse("integrity:restore")


@pytest.fixture
def saved(cast):
    """The campaign's backup as bytes (a few logged rolls), the campaign then lost."""
    cast.campaign.name = "Lyran Drift"
    cast.campaign.save()
    ship = ShipFactory(campaign=cast.campaign, name="Waterloo", kf_integrity=9, kf_integrity_max=9)
    for visibility in (Visibility.EVERYONE, Visibility.GM):
        services.procedure_resolve(
            campaign=cast.campaign,
            procedure_id="jump.malfunction",
            inputs={},
            actor=cast.gm,
            gm_ruling=True,
            dice=[6, 6, 4, 5],
            subjects={"ship": ship.code},
            visibility=visibility,
        )
    raw = "".join(backup.backup_chunks(cast.campaign)).encode()
    wipe(cast.campaign)
    return raw


def counts() -> tuple:
    return (
        User.objects.count(),
        Campaign.objects.count(),
        Membership.objects.count(),
        LogEntry.objects.count(),
    )


def upload(client, raw: bytes, name: str = "backup.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(UPLOAD, {"backup": SimpleUploadedFile(name, raw, content_type="application/json")})


def refusal(response) -> str:
    return response.context["refusal"]


def people_url(response) -> str:
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"]


def test_anonymous_is_sent_to_sign_in(client, saved):
    for response in (client.get(UPLOAD), upload(client, saved), client.get("/restore/abc/")):
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Campaign.objects.count() == 0


def test_the_campaign_list_links_to_the_restore_page(client, cast):
    client.force_login(cast.outsider)
    page = client.get(reverse("campaigns:list")).content.decode()
    assert f'href="{UPLOAD}"' in page
    assert "Upload and check" in client.get(UPLOAD).content.decode()


def test_a_restore_maps_people_and_lands_on_the_campaign_with_its_checks(client, cast, saved):
    restorer = UserFactory(username="new_gm")
    client.force_login(restorer)
    url = people_url(upload(client, saved))
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and "Lyran Drift" in text, text
    assert re.search(r"with \d+ log entries", text)
    people = page.context["form"].people
    assert {p.username: p.role for p in people} == {cast.gm.username: "gm", cast.player.username: "player"}
    plan = {}
    for i, person in enumerate(people):
        plan[f"who_{i}"] = "me" if person.role == "gm" else "new"
        plan[f"name_{i}"] = "" if person.role == "gm" else "kestrel"
    response = client.post(url, plan, follow=True)
    campaign = Campaign.objects.get(name="Lyran Drift")
    assert response.redirect_chain[0][0] == reverse("campaigns:detail", args=[campaign.code])
    said = [str(m) for m in response.context["messages"]]
    assert said[0] == "Restored Lyran Drift. The checks it passed:"
    assert any(f"hash chain verifies: {campaign.log.count()} entries" in m for m in said)
    assert any("New accounts without a password: kestrel" in m for m in said)
    assert integrity.verify_campaign(campaign).holds
    kestrel = User.objects.get(username="kestrel")
    assert not kestrel.has_usable_password()
    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"new_gm": "gm", "kestrel": "player"}
    assert set(campaign.log.values_list("actor__username", flat=True)) == {"new_gm"}
    # a second submit of the same form restores nothing more
    again = client.post(url, plan)
    assert again.status_code == 410 and "upload the backup again" in refusal(again)
    assert Campaign.objects.count() == 1


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"", "The file is empty"),
        (b"hello, GM", "This is not a campaign backup: the file is not JSON"),
        (b'{"format": "referee-backup/1", "campaign": {"na', "it ends too early, as if cut short"),
        (gzip.compress(b"{}" * 10_000_000), "gzip-compressed file, not a backup. Unpack it"),
        (b"PK\x03\x04rest", "zip-compressed file"),
        (b'{"a": 1}', "Not restored: not a campaign backup"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_what_is_not_a_backup_is_refused_in_words(client, cast, saved, raw, words):
    client.force_login(cast.outsider)
    before = counts()
    response = upload(client, raw)
    assert response.status_code == 400 and words in refusal(response)
    assert words in response.content.decode().replace("&#x27;", "'")
    assert counts() == before


def test_a_truncated_backup_is_refused(client, cast, saved):
    client.force_login(cast.outsider)
    response = upload(client, saved[: len(saved) // 2])
    assert response.status_code == 400 and "cut short" in refusal(response)
    assert Campaign.objects.count() == 0


def test_a_nul_in_a_name_is_refused(client, cast, saved):
    document = json.loads(saved)
    document["campaign"]["name"] = "Lyran\x00Drift"
    client.force_login(cast.outsider)
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 400 and "NUL character" in refusal(response)


def test_an_upload_over_the_limit_is_refused_with_413(client, cast, saved):
    client.force_login(cast.outsider)
    with override_settings(RESTORE_UPLOAD_MAX_BYTES=len(saved) - 1):
        response = upload(client, saved)
    assert response.status_code == 413 and "larger than this server takes" in refusal(response)
    assert "RESTORE_UPLOAD_MAX_BYTES" in refusal(response)
    with override_settings(RESTORE_UPLOAD_MAX_BYTES=1024):
        response = upload(client, saved + b" " * 200_000)  # refused by its length before it is read
    assert response.status_code == 413
    assert Campaign.objects.count() == 0


def test_a_campaign_already_here_is_refused_with_409(client, cast, saved):
    client.force_login(cast.outsider)
    url = people_url(upload(client, saved))
    backup.restore(json.loads(saved), same_accounts=True)
    assert upload(client, saved).status_code == 409
    response = client.get(url)
    assert response.status_code == 409 and "already on this server" in refusal(response)


def test_a_backup_from_a_server_with_another_log_key_names_the_setting(client, cast, saved):
    client.force_login(cast.outsider)
    before = counts()
    with override_settings(LOG_HMAC_KEY="the key of a server that never made this backup"):
        response = upload(client, saved)
    assert response.status_code == 400
    words = refusal(response)
    assert "made on another server" in words and "set the LOG_HMAC_KEY setting" in words
    assert "restart this server and restore again" in words
    assert counts() == before


def _plan(form, **by_role) -> dict:
    plan = {}
    for i, person in enumerate(form.people):
        who, name = by_role[person.role]
        plan[f"who_{i}"], plan[f"name_{i}"] = who, name
    return plan


def test_the_mapping_form_refuses_in_words_and_writes_nothing(client, cast, saved):
    client.force_login(cast.outsider)
    url = people_url(upload(client, saved))
    form = client.get(url).context["form"]
    before = counts()
    cases = [
        # nobody is me: the restorer could not open the campaign
        (_plan(form, gm=("new", "first"), player=("new", "second")), "Choose yourself"),
        # a new account under a name taken here
        (_plan(form, gm=("me", ""), player=("new", cast.gm.username)), "exists here already"),
        # the player's own name is taken here too (they are on this server)
        (_plan(form, gm=("me", ""), player=("new", "")), "exists here already"),
        (_plan(form, gm=("me", ""), player=("new", "bad\x00name")), "Null characters are not allowed"),
        (_plan(form, gm=("me", ""), player=("new", "no spaces allowed")), "Enter a valid username"),
        # only staff may hand a person to someone else's account
        (_plan(form, gm=("me", ""), player=("account", cast.player.username)), "Select a valid choice"),
        (_plan(form, gm=("me", ""), player=("me", "")), "would both become"),
    ]
    for plan, words in cases:
        response = client.post(url, plan)
        assert response.status_code == 400, words
        text = response.content.decode().replace("&#x27;", "'")
        assert words in text, words
        assert counts() == before


def test_staff_may_map_a_person_to_an_account_here(client, cast, saved):
    admin = UserFactory(username="admin", is_staff=True)
    client.force_login(admin)
    url = people_url(upload(client, saved))
    form = client.get(url).context["form"]
    missing = client.post(url, _plan(form, gm=("me", ""), player=("account", "nobody_here")))
    assert (
        missing.status_code == 400
        and "There is no account named nobody_here here." in missing.content.decode()
    )
    response = client.post(url, _plan(form, gm=("me", ""), player=("account", cast.player.username)))
    campaign = Campaign.objects.get()
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.code])
    assert dict(campaign.memberships.values_list("user__username", "role")) == {
        "admin": "gm",
        cast.player.username: "player",
    }


def test_an_upload_waits_only_for_the_one_who_made_it(client, cast, saved):
    client.force_login(cast.outsider)
    url = people_url(upload(client, saved))
    client.force_login(UserFactory())
    response = client.get(url)
    assert response.status_code == 410
    assert client.get("/restore/..%2F..%2Fetc/").status_code in (404, 410)


def test_a_backup_that_names_nobody_is_not_restored_from_the_page(client, cast, saved):
    document = json.loads(saved)
    document["users"] = []
    document["tables"]["campaigns.membership"] = []
    document["tables"]["campaigns.invite"] = []
    for entry in document["log"]:
        entry["actor"], entry["audience"] = None, []
    client.force_login(cast.outsider)
    url = people_url(upload(client, json.dumps(document).encode()))
    response = client.post(url, {})
    assert response.status_code == 400 and "The backup names nobody" in response.content.decode()
    assert Campaign.objects.count() == 0


def test_an_unsigned_backup_is_refused_in_the_restore_commands_words(client, cast, saved):
    document = json.loads(saved)
    document.pop("log_signature")
    client.force_login(cast.outsider)
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 400
    assert refusal(response).startswith("Not restored: the backup is not signed")
    assert Campaign.objects.count() == 0


def _nested(depth: int):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "where, value, words",
    [
        ("name", "Lyran\ud800Drift", "broken character"),
        ("name", "Lyran\x00Drift", "NUL character"),
        ("entry", {"note": "a\udfffb"}, "broken character"),
        ("entry", {"\ud800": 1}, "broken character"),
        ("year", 10**30, "whole number larger than any record holds"),
        ("year", 2**63, "whole number larger than any record holds (at most 9,223,372,036,854,775,807)"),
        (
            "year",
            -(2**63) - 1,
            "whole number smaller than any record holds (at least -9,223,372,036,854,775,808)",
        ),
        ("year", "1e999", "number too large to be read"),
        ("year", "9" * 5000, "number too long to read"),
        ("entry", _nested(200), "nested far deeper"),
    ],
)
def test_a_backup_holding_what_no_record_can_is_refused_in_plain_words(
    client, cast, saved, where, value, words
):
    document = json.loads(saved)
    if where == "name":
        document["campaign"]["name"] = value
    elif where == "entry":
        document["log"][0]["inputs"] = {"odd": value}
    else:
        document["campaign"]["year"] = "@NUMBER@"
    raw = json.dumps(document).replace('"@NUMBER@"', str(value)).encode()
    assert "\\ud800" in raw.decode() or "\ud800" not in str(value)
    client.force_login(cast.outsider)
    before = counts()
    response = upload(client, raw)
    assert response.status_code == 400, response.content.decode()[:500]
    assert words in refusal(response) and not notation_in(refusal(response), REFUSAL_NOTATION)
    assert counts() == before


def test_the_widest_whole_numbers_a_database_holds_are_restored_from_the_page(client, cast, saved):
    document = json.loads(saved)
    document["tables"]["fleet.ship"][0]["sheet"] = {"lowest": -(2**63), "highest": 2**63 - 1}
    client.force_login(cast.outsider)
    url = people_url(upload(client, json.dumps(document).encode()))
    people = client.get(url).context["form"].people
    plan = {}
    for i, person in enumerate(people):
        plan[f"who_{i}"] = "me" if person.role == "gm" else "new"
        plan[f"name_{i}"] = "" if person.role == "gm" else "kestrel"
    assert client.post(url, plan).status_code == 302
    ship = Ship.objects.get(campaign__name="Lyran Drift", name="Waterloo")
    assert ship.sheet == {"lowest": -9223372036854775808, "highest": 9223372036854775807}


def _edited(saved: bytes, change) -> bytes:
    document = json.loads(saved)
    change(document)
    return json.dumps(document).encode()


def _first_ship(document) -> dict:
    return document["tables"]["fleet.ship"][0]


@pytest.mark.parametrize(
    "change, words",
    [
        (
            lambda d: d["tables"].update({"auth.user": [{"username": "mallory"}]}),
            "holds users, which are not",
        ),
        (lambda d: d["tables"].update({"made.up": [{}]}), "records of an unknown kind"),
        (lambda d: d.update({"campaigns": []}), "holds parts named campaigns"),
        (lambda d: d["tables"].update({"fleet.ship": "ships"}), "are not a list of records"),
        (lambda d: _first_ship(d).update({"warp_factor": 9}), "this version of the app does not know"),
        (
            lambda d: _first_ship(d).update({"docked_on": "6f1d3c2e-0000-4000-8000-000000000000"}),
            "names a ship",
        ),
        (lambda d: _first_ship(d).update({"kf_integrity": 10**12}), "the database refused its records"),
        (lambda d: _first_ship(d).pop("code"), "incomplete or malformed"),
    ],
)
def test_every_restore_refusal_reads_in_plain_words(client, cast, saved, change, words):
    client.force_login(cast.outsider)
    before = counts()
    raw = _edited(saved, change)
    response = upload(client, raw)
    if response.status_code == 302:  # the upload looks sound: the restore itself refuses it
        url = people_url(response)
        people = client.get(url).context["form"].people
        plan = {}
        for i, person in enumerate(people):
            plan[f"who_{i}"] = "me" if person.role == "gm" else "new"
            plan[f"name_{i}"] = "" if person.role == "gm" else f"kestrel{i}"
        response = client.post(url, plan)
    assert response.status_code == 400, response.content.decode()[:1000]
    message = refusal(response)
    assert words in message, message
    assert not notation_in(message, REFUSAL_NOTATION), message
    assert "--" not in message and "restore_campaign" not in message
    assert counts() == before
