"""The End Phase reloads every trap's drone racks, one space a rack (IR107.342)."""

import pytest

from referee.boobytraps.models import BoobyTrap
from referee.play import services
from referee.play.models import LogEntry

from .factories import BoobyTrapFactory

pytestmark = pytest.mark.django_db

UPKEEP = "booby_trap.turn_upkeep"


def to_end_phase(cast):
    for _ in range(3):
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    cast.campaign.refresh_from_db()
    assert cast.campaign.phase == "end"


def next_turn_end_phase(cast):
    services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)  # turn + 1
    to_end_phase(cast)


def racks(trap):
    trap.refresh_from_db()
    return [(r["loaded"], r["capacity"]) for r in trap.drone_racks]


def test_each_rack_regains_one_space_a_turn_up_to_its_capacity(cast):
    trap = BoobyTrapFactory(
        campaign=cast.campaign,
        name="Wanderer",
        drone_racks=[
            {"weapon": "Rack A", "capacity": 4, "loaded": 2},
            {"weapon": "Rack B", "capacity": 6, "loaded": 6},
            {"weapon": "Rack C", "capacity": 2, "loaded": 0},
        ],
    )
    to_end_phase(cast)
    assert racks(trap) == [(3, 4), (6, 6), (1, 2)]
    entry = LogEntry.objects.get(procedure=UPKEEP)
    assert entry.inputs["@trap"]["name"] == "Wanderer" and entry.actor_name == cast.gm.username
    assert entry.visibility == "gm"  # the trap is not shared with the players
    assert [c["field"] for c in entry.effects] == ["drone_racks"]
    next_turn_end_phase(cast)
    assert racks(trap) == [(4, 4), (6, 6), (2, 2)]
    next_turn_end_phase(cast)  # all full: nothing to reload, nothing logged
    assert racks(trap) == [(4, 4), (6, 6), (2, 2)]
    assert LogEntry.objects.filter(procedure=UPKEEP).count() == 2
    assert [r.get("weapon") for r in BoobyTrap.objects.get(pk=trap.pk).drone_racks] == [
        "Rack A",
        "Rack B",
        "Rack C",
    ]


def test_only_traps_short_of_drones_are_reloaded(cast):
    BoobyTrapFactory(campaign=cast.campaign, name="No racks")
    BoobyTrapFactory(campaign=cast.campaign, name="Full", drone_racks=[{"capacity": 4, "loaded": 4}])
    short = BoobyTrapFactory(
        campaign=cast.campaign, name="Short", shared=True, drone_racks=[{"capacity": 4, "loaded": 0}]
    )
    BoobyTrapFactory(name="Elsewhere", drone_racks=[{"capacity": 4, "loaded": 0}])
    to_end_phase(cast)
    entry = LogEntry.objects.get(procedure=UPKEEP)
    assert entry.inputs["@trap"]["code"] == str(short.code)
    assert entry.visibility == "everyone"  # a shared trap's reload is public
    assert racks(short) == [(1, 4)]


def test_undo_takes_the_reload_back(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"capacity": 4, "loaded": 1}])
    to_end_phase(cast)
    services.log_entry_reverse(entry=LogEntry.objects.get(procedure=UPKEEP), actor=cast.gm)
    assert racks(trap) == [(1, 4)]


def test_no_other_phase_reloads(cast):
    trap = BoobyTrapFactory(campaign=cast.campaign, drone_racks=[{"capacity": 4, "loaded": 1}])
    for _ in range(2):
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
    assert racks(trap) == [(1, 4)] and not LogEntry.objects.filter(procedure=UPKEEP).exists()
