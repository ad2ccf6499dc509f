"""Players at the table: rolls for what they own, the GM's Accept/Reject, whispers, blind
rolls and notes, as each reader sees them (pages, status poll, exports)."""

import json

import pytest
from django.urls import reverse

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, Unit
from referee.play import families, players
from referee.play.models import LogEntry, Numbering, Visibility
from referee.play.selectors import poll_version
from tests.factories import MembershipFactory, ShipFactory, UnitFactory
from tests.referee.conftest import htmx
from tests.referee.play.test_every_procedure import post_data, subject_for

pytestmark = pytest.mark.django_db


def landing_setup(cast, **campaign):
    Campaign.objects.filter(pk=cast.campaign.pk).update(**campaign)
    cast.campaign.refresh_from_db()
    mech = UnitFactory(campaign=cast.campaign, name="Atlas", owner=cast.player, shared=True, piloting=4)
    ship = ShipFactory(campaign=cast.campaign, name="Leopard", kind="dropship", shared=True)
    return mech, ship


def roll_url(cast, procedure_id="boarding.landing"):
    return reverse("play:player-roll", args=[cast.campaign.code, procedure_id])


def landing_post(mech, ship, **extra):
    return {
        "unit": str(mech.code),
        "target": str(ship.code),
        "entry_hexside": "nose",
        "started_in_hex": "on",
        "action": "enter",
        "dice": "6 6",
        "visibility": "everyone",
        **extra,
    }


def export(client, campaign, fmt) -> str:
    response = client.get(reverse("play:export", args=[campaign.code, fmt]))
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


# --- who may start what ---------------------------------------------------------------------


def test_the_procedures_players_start_come_from_the_bindings_subject_roles():
    startable = {b.procedure_id for b in players.player_bindings()}
    assert {"boarding.landing", "gforce.threshold", "heat.expanded", "drive.charge"} <= startable
    # Subjects nobody owns (a hex, a booby trap, a compartment) and End Phase steps are not offered.
    assert not startable & {"terrain.clearing", "booby_trap.generate", "shipboard.decompression"}
    assert "fighter.overburn" not in startable
    for binding in players.player_bindings():
        assert hasattr(binding.roles[0].model, "owned_by")


def _owned_subjects(cast, binding, *, owner, shared=True) -> dict:
    """post data for the binding with its subject owned by ``owner`` and every record shared."""
    procedure = rules.get(binding.procedure_id)
    data = post_data(procedure, binding, cast.campaign)
    data.pop("gm_ruling")
    for index, role in enumerate(binding.roles):
        if role.name not in data:
            continue
        obj = role.model.objects.get(code=data[role.name])
        holder = obj
        if role.model.__name__ == "Character":  # played through its ship or unit
            holder = obj.unit or obj.ship
            if holder is None:
                holder = UnitFactory(campaign=cast.campaign)
                obj.unit = holder
                obj.save()
        holder.shared = shared
        if index == 0:
            holder.owner = owner
        holder.save()
    return data


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_every_procedure_as_a_player(cast, procedure_id):
    """Owned and shared: the form opens and a roll is logged (or the rules' refusal is told,
    422, writing nothing). Someone else's record: 403. Unshared: 404. Not a player's
    procedure at all: 404. Nothing of it writes to the log."""
    binding = families.binding(procedure_id)
    client = cast.client("player")
    url = roll_url(cast, procedure_id)
    startable = players.player_binding(procedure_id)
    if startable is None:
        query = {}
        if binding.roles:
            query = {binding.roles[0].name: str(subject_for(binding.roles[0], cast.campaign).code)}
        assert client.get(url, query).status_code == 404
        assert client.post(url, query).status_code == 404
        assert not LogEntry.objects.filter(campaign=cast.campaign).exists()
        return
    subject = binding.roles[0].name
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    theirs = _owned_subjects(cast, binding, owner=other)
    assert client.get(url, {subject: theirs[subject]}).status_code == 403
    assert client.post(url, theirs).status_code == 403
    unshared = _owned_subjects(cast, binding, owner=cast.player, shared=False)
    assert client.get(url, {subject: unshared[subject]}).status_code == 404
    assert client.post(url, unshared).status_code == 404
    assert not LogEntry.objects.filter(campaign=cast.campaign).exists()

    mine = _owned_subjects(cast, binding, owner=cast.player)
    assert client.get(url, {subject: mine[subject]}).status_code == 200
    response = client.post(url, mine, **htmx())
    if response.status_code == 422:  # the bare record does not meet the rules: told, not rolled
        assert "The rules do not allow this now" in response.text or "error" in response.text
        assert not LogEntry.objects.filter(campaign=cast.campaign).exists()
    else:
        assert response.status_code == 200, response.text[:1500]
        entry = LogEntry.objects.get(campaign=cast.campaign, procedure=procedure_id)
        assert entry.actor == cast.player and entry.inputs["@awaiting_gm"] == {"by": cast.player.username}
        assert entry.effects == []  # nothing changes until the GM accepts
    # The GM's own form stays the GM's.
    assert client.get(reverse("play:procedure", args=[cast.campaign.code, procedure_id])).status_code == 403


def test_outsiders_and_the_anonymous_get_404(cast):
    mech, _ship = landing_setup(cast)
    for who in ("outsider", "anonymous"):
        response = cast.client(who).get(roll_url(cast), {"unit": mech.code})
        assert response.status_code == 404


def test_the_values_the_records_give_are_not_the_players_to_change(cast):
    mech, ship = landing_setup(cast, player_rolls_wait=False)
    response = cast.client("player").post(roll_url(cast), landing_post(mech, ship, piloting="0"), **htmx())
    assert response.status_code == 200, response.text[:1000]
    entry = LogEntry.objects.get(procedure="boarding.landing")
    assert entry.inputs["piloting"] == 4  # the Atlas's, not the typed 0


# --- wait for the GM, or apply at once ----------------------------------------------------------


def test_a_waiting_roll_changes_nothing_until_the_gm_accepts_it(cast):
    mech, ship = landing_setup(cast)
    response = cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    assert response.status_code == 200, response.text[:1000]
    entry = LogEntry.objects.get(procedure="boarding.landing")
    assert entry.result["landed"] is True and entry.awaiting_gm_for("gm")
    assert Unit.objects.get(pk=mech.pk).landed_on is None
    assert "Waiting for the GM" in response.text

    gm = cast.client("gm")
    assert (
        cast.client("player").post(reverse("play:accept", args=[cast.campaign.code, entry.seq])).status_code
        == 403
    )
    answer = gm.post(reverse("play:accept", args=[cast.campaign.code, entry.seq]), **htmx())
    assert answer.status_code == 200
    assert Unit.objects.get(pk=mech.pk).landed_on == ship
    accepted = LogEntry.objects.get(procedure="roll.accept")
    assert accepted.refers_to == entry and accepted.inputs["@about"]["hash"] == entry.hash
    assert not LogEntry.objects.get(pk=entry.pk).awaiting_gm_for("gm")
    again = gm.post(reverse("play:reject", args=[cast.campaign.code, entry.seq]), **htmx())
    assert again.status_code == 409 and "already accepted" in again.text
    # The accept is undoable like any change.
    assert gm.post(reverse("play:undo", args=[cast.campaign.code, accepted.seq]), **htmx()).status_code == 200
    assert Unit.objects.get(pk=mech.pk).landed_on is None


def test_a_rejected_roll_changes_nothing_and_is_logged(cast):
    mech, ship = landing_setup(cast)
    cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    entry = LogEntry.objects.get(procedure="boarding.landing")
    cast.client("gm").post(reverse("play:reject", args=[cast.campaign.code, entry.seq]), **htmx())
    rejected = LogEntry.objects.get(procedure="roll.reject")
    assert rejected.refers_to == entry and rejected.effects == []
    assert Unit.objects.get(pk=mech.pk).landed_on is None
    assert (
        cast.client("gm").post(reverse("play:accept", args=[cast.campaign.code, entry.seq])).status_code
        == 302
    )


def test_with_waiting_off_a_players_roll_applies_at_once(cast):
    mech, ship = landing_setup(cast, player_rolls_wait=False)
    cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    assert Unit.objects.get(pk=mech.pk).landed_on == ship
    assert not LogEntry.objects.get(procedure="boarding.landing").awaiting_gm_for("gm")


def test_the_gms_choice_of_waiting_is_logged(cast):
    url = reverse("play:settings", args=[cast.campaign.code])
    data = {"name": cast.campaign.name, "year": 3067, "turn_length_s": 60, "clock": "3067-01-01T00:00:00"}
    assert cast.client("gm").post(url, data).status_code == 302  # the box unticked: apply at once
    entry = LogEntry.objects.get(procedure="campaign.settings")
    assert "players' rolls wait for the GM True -> False" in entry.summary
    assert Campaign.objects.get(pk=cast.campaign.pk).player_rolls_wait is False


def test_a_player_cannot_name_someone_elses_record_in_another_role(cast):
    mech, ship = landing_setup(cast)
    Ship.objects.filter(pk=ship.pk).update(shared=False)
    response = cast.client("player").post(roll_url(cast), landing_post(mech, ship), **htmx())
    assert response.status_code == 422
    assert not LogEntry.objects.exists()


# --- blind rolls and whispers -----------------------------------------------------------------


def test_a_blind_roll_shows_its_player_that_they_rolled_and_nothing_more(cast):
    mech, ship = landing_setup(cast)
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    cast.campaign.refresh_from_db()
    before_other = poll_version(cast.campaign, "player", user=other)
    response = cast.client("player").post(
        roll_url(cast), landing_post(mech, ship, visibility="blind", dice="2 3"), **htmx()
    )
    assert response.status_code == 200
    entry = LogEntry.objects.get(procedure="boarding.landing")
    assert entry.visibility == Visibility.BLIND and entry.audience == [cast.player.pk]
    assert "Only the GM sees the result" in response.text
    page = cast.client("player").get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    for text in (response.text, page):
        assert "You rolled" in text
        assert entry.summary[:40] not in text and 'data-testid="change"' not in text
        assert "Rolls" not in text and "Result" not in text
    # Not numbered, not exported, not for other players at all.
    assert Numbering.for_campaign(cast.campaign, cast.player).number(entry.seq) is None
    for fmt in ("csv", "json", "md"):
        assert "boarding" not in export(cast.client("player"), cast.campaign, fmt).lower()
    cast.campaign.refresh_from_db()
    assert poll_version(cast.campaign, "player", user=other) == before_other
    other_client = cast.client("player")
    other_client.force_login(other)
    assert "You rolled" not in other_client.get(reverse("campaigns:detail", args=[cast.campaign.code])).text
    # The GM sees it all, and can reveal it.
    gm_page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).text
    assert "Blind roll by" in gm_page and "Control" in gm_page


def test_a_whisper_reaches_only_its_player(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    gm = cast.client("gm")
    ship = ShipFactory(campaign=cast.campaign, shared=True)
    url = reverse("play:procedure", args=[cast.campaign.code, "drive.charge"])
    data = {
        "ship": str(ship.code),
        "visibility": "whisper",
        "audience": [str(cast.player.pk)],
        "action": "enter",
        "dice": "6",
        "gm_ruling": "on",
    }
    procedure = rules.get("drive.charge")
    for name, value in procedure.example.items():
        data.setdefault(name, json.dumps(value) if isinstance(value, (list, dict)) else str(value))
    cast.campaign.refresh_from_db()
    before = poll_version(cast.campaign, "player", user=other)
    assert gm.post(url, data, **htmx()).status_code == 200
    entry = LogEntry.objects.get(procedure="drive.charge")
    assert entry.visibility == Visibility.WHISPER and entry.audience == [cast.player.pk]

    reader = cast.client("player")
    outsider = cast.client("player")
    outsider.force_login(other)
    assert "Whispered to you" in reader.get(reverse("play:log", args=[cast.campaign.code])).text
    page = outsider.get(reverse("play:log", args=[cast.campaign.code])).text
    entries = page.split('data-testid="log-filters"', 1)[1].split("</form>", 1)[1]  # not the filter's choices
    assert entry.title not in entries
    assert reader.get(reverse("play:entry", args=[cast.campaign.code, 1])).status_code == 200
    assert outsider.get(reverse("play:entry", args=[cast.campaign.code, 1])).status_code == 404
    for fmt in ("csv", "json", "md"):
        assert entry.summary[:40] in export(reader, cast.campaign, fmt)
        assert "drive.charge" not in export(outsider, cast.campaign, fmt)
    cast.campaign.refresh_from_db()
    assert poll_version(cast.campaign, "player", user=other) == before
    status = reverse("play:status", args=[cast.campaign.code])
    assert outsider.get(status, {"v": before}).status_code == 204
    assert entry.title in reader.get(status, {"v": "0"}).text
    # Revealed, everyone reads it.
    gm.post(reverse("play:reveal", args=[cast.campaign.code, entry.seq]))
    assert entry.summary[:40] in export(outsider, cast.campaign, "csv")


def test_numbering_stays_gap_free_for_each_player(cast):
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    for to, text in ((None, "one"), ([cast.player.pk], "two"), ([other.pk], "three"), (None, "four")):
        players.note_post(campaign=cast.campaign, actor=cast.gm, role="gm", text=text, audience=to or ())
    mine = cast.client("player")
    theirs = cast.client("player")
    theirs.force_login(other)
    for client, expected in ((mine, ["one", "two", "four"]), (theirs, ["one", "three", "four"])):
        document = json.loads(export(client, cast.campaign, "json"))
        assert [e["inputs"]["text"] for e in document["entries"]] == expected
        assert [e["seq"] for e in document["entries"]] == [1, 2, 3]
        for number, text in enumerate(expected, 1):
            page = client.get(reverse("play:entry", args=[cast.campaign.code, number]))
            assert text in page.text


# --- notes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, absent",
    [
        ("<script>alert(1)</script>", "<script>alert(1)"),
        ("[click](javascript:alert(1))", 'href="javascript:'),
        ('<img src=x onerror="alert(1)">', "<img src=x"),
        ('[x](https://a.example/" onmouseover="alert(1))', 'onmouseover="alert'),
    ],
)
def test_notes_render_as_safe_markdown(cast, text, absent):
    response = cast.client("player").post(reverse("play:note", args=[cast.campaign.code]), {"text": text})
    assert response.status_code == 302
    page = cast.client("gm").get(reverse("play:log", args=[cast.campaign.code])).text
    assert absent not in page
    assert LogEntry.objects.get(procedure="note.post").inputs["text"] == text


def test_notes_keep_a_small_markdown(cast):
    text = "**Bold** and *calm*, see [the map](https://example.org/map)\n\n- one\n- two"
    cast.client("player").post(reverse("play:note", args=[cast.campaign.code]), {"text": text})
    page = cast.client("gm").get(reverse("play:log", args=[cast.campaign.code])).text
    assert "<strong>Bold</strong>" in page and "<em>calm</em>" in page
    assert '<a href="https://example.org/map" rel="nofollow noopener noreferrer">the map</a>' in page
    assert "<ul><li>one</li><li>two</li></ul>" in page


@pytest.mark.parametrize("text", ["", "   ", "a\x00b", "x" * 4001])
def test_a_bad_note_is_refused_and_writes_nothing(cast, text):
    response = cast.client("player").post(
        reverse("play:note", args=[cast.campaign.code]), {"text": text}, **htmx()
    )
    assert response.status_code == 422
    assert not LogEntry.objects.exists()


def test_a_note_is_corrected_by_appending_and_exports_with_the_rolls(cast):
    url = reverse("play:note", args=[cast.campaign.code])
    player = cast.client("player")
    player.post(url, {"text": "We land at dawn."})
    player.post(url, {"text": "We land at dusk.", "about": "1"})
    correction = LogEntry.objects.get(procedure="note.correct")
    assert correction.refers_to.inputs["text"] == "We land at dawn."  # the first stays as written
    # Not someone else's note, and not a roll.
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    other_client = cast.client("player")
    other_client.force_login(other)
    assert other_client.post(url, {"text": "no", "about": "1"}, **htmx()).status_code == 422
    # The GM annotates anything.
    cast.client("gm").post(url, {"text": "Dawn it was.", "about": "2"})
    assert LogEntry.objects.get(procedure="note.annotate").refers_to == correction
    for fmt in ("csv", "md"):
        text = export(player, cast.campaign, fmt)
        assert "We land at dawn." in text and "We land at dusk." in text and "Dawn it was." in text


def test_a_players_note_to_the_gm_only_is_a_whisper_to_the_gm(cast):
    cast.client("player").post(reverse("play:note", args=[cast.campaign.code]), {"text": "psst", "to": "gm"})
    entry = LogEntry.objects.get(procedure="note.post")
    assert entry.visibility == Visibility.WHISPER and entry.audience == [cast.player.pk]
    other = MembershipFactory(campaign=cast.campaign, role="player").user
    client = cast.client("player")
    client.force_login(other)
    assert "psst" not in client.get(reverse("play:log", args=[cast.campaign.code])).text
    assert "psst" in cast.client("gm").get(reverse("play:log", args=[cast.campaign.code])).text


def test_a_gm_whisper_goes_only_to_players_of_the_campaign(cast):
    url = reverse("play:note", args=[cast.campaign.code])
    response = cast.client("gm").post(url, {"text": "hi", "audience": [str(cast.outsider.pk)]}, **htmx())
    assert response.status_code == 422
    assert not LogEntry.objects.exists()


def test_a_backup_keeps_a_whispers_audience_by_name(cast):
    from referee.play import backup

    players.note_post(
        campaign=cast.campaign, actor=cast.gm, role="gm", text="psst", audience=[cast.player.pk]
    )
    document = backup.backup_document(cast.campaign)
    [row] = document["log"]
    assert row["audience"] == [cast.player.username] and cast.player.username in document["users"]
    from tests.referee.play.test_backup import wipe

    wipe(cast.campaign)
    restored, _created = backup.restore(document, same_accounts=True)
    assert restored.log.get().audience == [cast.player.pk]


def test_a_blind_roll_waits_for_the_gm_even_where_rolls_apply_at_once(cast):
    mech, ship = landing_setup(cast, player_rolls_wait=False)
    cast.client("player").post(roll_url(cast), landing_post(mech, ship, visibility="blind"), **htmx())
    entry = LogEntry.objects.get(procedure="boarding.landing")
    assert entry.awaiting_gm_for("gm") and Unit.objects.get(pk=mech.pk).landed_on is None
    cast.client("gm").post(reverse("play:accept", args=[cast.campaign.code, entry.seq]), **htmx())
    accepted = LogEntry.objects.get(procedure="roll.accept")
    assert accepted.visibility == Visibility.GM and accepted.audience == []
    assert Unit.objects.get(pk=mech.pk).landed_on == ship


HOSTILE = ["1e308", "-1", "nan", "\x00", "a\x00b", "x" * 100_000, "[" * 5000, "9" * 5000, "", "null"]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_on_a_players_form_never_500_and_a_refusal_writes_nothing(cast, value):
    mech, ship = landing_setup(cast)
    client = cast.client("player")
    base = landing_post(mech, ship)
    for field in [*base, "piloting", "damage_psr_mods", "leg_actuator_mods", "request_key"]:
        before = LogEntry.objects.count()
        response = client.post(roll_url(cast), {**base, field: value}, **htmx())
        assert response.status_code < 500, field
        if response.status_code >= 400:
            assert LogEntry.objects.count() == before, field
        odds = client.post(
            reverse("play:player-odds", args=[cast.campaign.code, "boarding.landing"]), {**base, field: value}
        )
        assert odds.status_code < 500, field
    for text in (value, f"**{value}**"):
        response = client.post(
            reverse("play:note", args=[cast.campaign.code]), {"text": text, "about": value}, **htmx()
        )
        assert response.status_code < 500
