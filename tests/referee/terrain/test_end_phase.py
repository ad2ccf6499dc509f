"""The End Phase rolls every geyser in play: GM-only, undoable, volcanic ones leave magma."""

import json

import pytest
from django.urls import reverse

from referee.play import services
from referee.play.models import LogEntry
from referee.terrain.models import Hex
from referee.terrain.modifiers import read_hex
from rules.dice import RandomDice
from tests.referee.terrain.factories import BattlefieldFactory, HexFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_dice(monkeypatch):
    """The server's dice, rigged: each die drawn is taken from this list, in order."""
    queue: list[int] = []

    def draw(self, label, count, sides, accept):
        if len(queue) < count:
            raise AssertionError(f"the {label} roll was not expected")
        return tuple(queue.pop(0) for _ in range(count))

    monkeypatch.setattr(RandomDice, "_draw", draw)
    return queue


@pytest.fixture
def field(cast):
    return BattlefieldFactory(campaign=cast.campaign, name="Geyser flats", shared=True)


def geyser(field, **kwargs) -> Hex:
    return HexFactory(battlefield=field, campaign=field.campaign, geyser=True, shared=True, **kwargs)


def to_end_phase(cast) -> list[LogEntry]:
    entries = []
    for _ in range(4):
        cast.campaign.refresh_from_db()
        entries += services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        cast.campaign.refresh_from_db()
        if cast.campaign.phase == "end":
            return [e for e in entries if e.procedure == "terrain.geyser"]
    raise AssertionError("never reached the End Phase")


def geyser_entries(cast):
    return LogEntry.objects.filter(campaign=cast.campaign, procedure="terrain.geyser").order_by("seq")


class TestEruption:
    def test_a_dormant_geyser_that_rolls_1_erupts_and_the_length_is_kept_from_the_players(
        self, cast, field, server_dice
    ):
        hex_ = geyser(field, name="0412")
        server_dice += [1, 4]
        (entry,) = to_end_phase(cast)
        assert server_dice == []
        assert [(r["label"], r["values"]) for r in entry.rolls] == [("erupt", [1]), ("duration", [4])]
        assert entry.result["erupted"] is True and entry.result["duration"] == 4
        assert entry.visibility == "gm" and entry.secret
        assert entry.inputs["@hex"]["name"] == "Hex 0412 (Geyser flats)"
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 3  # the eruption turn counts as the first [A59]
        assert hex_.erupting

        player = cast.client("player")
        log = player.get(reverse("play:log", args=[cast.campaign.code]))
        entries = log.text.split('data-testid="log-filters"', 1)[1].split("</form>", 1)[1]  # not the choices
        assert log.status_code == 200 and "geyser" not in entries.lower()
        assert player.get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).status_code == 404
        exported = player.get(reverse("play:export", args=[cast.campaign.code, "json"]))
        body = b"".join(exported.streaming_content).decode()
        assert "terrain.geyser" not in body
        csv_body = b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "csv"])).streaming_content
        ).decode()
        assert "terrain.geyser" not in csv_body
        gm_body = b"".join(
            cast.client("gm").get(reverse("play:export", args=[cast.campaign.code, "json"])).streaming_content
        ).decode()
        assert "terrain.geyser" in gm_body

    def test_the_players_see_the_eruption_once_the_gm_reveals_it(self, cast, field, server_dice):
        geyser(field)
        server_dice += [1, 5]
        (entry,) = to_end_phase(cast)
        services.log_entry_reveal(entry=entry, actor=cast.gm)
        player = cast.client("player")
        assert player.get(reverse("play:entry", args=[cast.campaign.code, entry.seq])).status_code == 200
        body = b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "json"])).streaming_content
        ).decode()
        revealed = [e for e in json.loads(body)["entries"] if e["procedure"] == "terrain.geyser"]
        assert [e["result"]["duration"] for e in revealed] == [5]

    def test_a_roll_other_than_1_leaves_it_dormant(self, cast, field, server_dice):
        hex_ = geyser(field)
        server_dice += [2]
        (entry,) = to_end_phase(cast)
        assert entry.result == {
            "erupted": False,
            "duration": None,
            "erupting_turns_left": 0,
            "became_liquid_magma": False,
        }
        assert entry.visibility == "gm"
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 0 and not hex_.erupting

    def test_the_gm_may_rule_that_the_eruption_turn_does_not_count(self, cast, field, server_dice):
        hex_ = geyser(field, eruption_turn_counts=False)
        server_dice += [1, 3]
        to_end_phase(cast)
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 3

    def test_an_erupting_geyser_counts_down_without_rolling(self, cast, field, server_dice):
        hex_ = geyser(field, erupting_turns_left=2)
        (entry,) = to_end_phase(cast)  # any die drawn would fail the rigged source
        assert entry.rolls == [] and entry.result["erupting_turns_left"] == 1
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 1

    def test_every_geyser_in_play_is_rolled_and_nothing_else(self, cast, field, server_dice):
        geyser(field, name="0101")
        geyser(field, name="0102")
        HexFactory(battlefield=field, campaign=cast.campaign, name="0103", terrain="heavy_woods")
        quiet = BattlefieldFactory(campaign=cast.campaign, name="Old map", active=False)
        geyser(quiet, name="0901")
        server_dice += [3, 4]
        entries = to_end_phase(cast)
        assert [e.inputs["@hex"]["name"] for e in entries] == [
            "Hex 0101 (Geyser flats)",
            "Hex 0102 (Geyser flats)",
        ]
        assert server_dice == []

    def test_another_campaigns_geysers_are_left_alone(self, cast, field, server_dice):
        elsewhere = BattlefieldFactory(name="Elsewhere")
        other = geyser(elsewhere)
        to_end_phase(cast)
        assert not LogEntry.objects.filter(procedure="terrain.geyser").exists()
        other.refresh_from_db()
        assert other.erupting_turns_left == 0

    def test_while_it_erupts_the_hex_has_the_geyser_row(self, cast, field, server_dice):
        hex_ = geyser(field, terrain="heavy_woods")
        assert read_hex(hex_).inputs["conditions"] == []
        server_dice += [1, 6]
        to_end_phase(cast)
        hex_.refresh_from_db()
        reading = read_hex(hex_)
        assert reading.inputs["conditions"] == ["geyser"]
        page = cast.client("gm").get(reverse("terrain:hex", args=[cast.campaign.code, hex_.code]))
        assert "erupting, 5 more turns" in page.text


class TestVolcanic:
    def test_when_the_eruption_ends_the_hex_is_liquid_magma(self, cast, field, server_dice):
        hex_ = geyser(field, volcanic=True, erupting_turns_left=1, terrain="rough")
        assert read_hex(hex_).magma == "liquid"  # standing in the eruption is liquid magma
        (entry,) = to_end_phase(cast)
        assert entry.result["became_liquid_magma"] is True
        hex_.refresh_from_db()
        assert hex_.terrain == "liquid_magma" and hex_.erupting_turns_left == 0
        assert hex_.geyser  # it may erupt again
        assert read_hex(hex_).magma == "liquid"

    def test_a_one_turn_eruption_turns_the_hex_at_once(self, cast, field, server_dice):
        hex_ = geyser(field, volcanic=True)
        server_dice += [1, 1]
        (entry,) = to_end_phase(cast)
        assert entry.result["erupted"] and entry.result["became_liquid_magma"]
        hex_.refresh_from_db()
        assert hex_.terrain == "liquid_magma"

    def test_a_plain_geyser_leaves_its_terrain(self, cast, field, server_dice):
        hex_ = geyser(field, erupting_turns_left=1, terrain="sand")
        to_end_phase(cast)
        hex_.refresh_from_db()
        assert hex_.terrain == "sand" and hex_.erupting_turns_left == 0


class TestUndo:
    def test_undoing_an_eruption_makes_the_geyser_dormant_again(self, cast, field, server_dice):
        hex_ = geyser(field)
        server_dice += [1, 4]
        (entry,) = to_end_phase(cast)
        reversal = services.log_entry_reverse(entry=entry, actor=cast.gm)
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 0
        assert reversal.visibility == "gm"  # the undo does not give the secret away
        assert reversal.effects[0]["before"] == 3 and reversal.effects[0]["after"] == 0

    def test_undoing_a_volcanic_eruption_restores_the_terrain(self, cast, field, server_dice):
        hex_ = geyser(field, volcanic=True, erupting_turns_left=1, terrain="heavy_woods")
        (entry,) = to_end_phase(cast)
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        hex_.refresh_from_db()
        assert hex_.terrain == "heavy_woods" and hex_.erupting_turns_left == 1

    def test_an_eruption_counted_down_since_must_be_undone_latest_first(self, cast, field, server_dice):
        hex_ = geyser(field)
        server_dice += [1, 4]
        (first,) = to_end_phase(cast)
        (second,) = to_end_phase(cast)
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 2
        with pytest.raises(services.PlayError, match=f"Undo #{second.seq} first"):
            services.log_entry_reverse(entry=first, actor=cast.gm)
        services.log_entry_reverse(entry=second, actor=cast.gm)
        services.log_entry_reverse(entry=first, actor=cast.gm)
        hex_.refresh_from_db()
        assert hex_.erupting_turns_left == 0

    def test_undo_through_the_browser_is_for_the_gm_only(self, cast, field, server_dice):
        geyser(field)
        server_dice += [1, 2]
        (entry,) = to_end_phase(cast)
        url = reverse("play:undo", args=[cast.campaign.code, entry.seq])
        assert cast.client("player").post(url).status_code == 403
        assert cast.client("gm").post(url).status_code == 302
        assert geyser_entries(cast).count() == 1 and LogEntry.objects.filter(reversal_of=entry).exists()
