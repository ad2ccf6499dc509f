"""Many resolutions at once against one campaign, on real PostgreSQL and real
transactions: the campaign row lock queues them, so the log never forks or skips a
seq and no change to the ship is lost."""

import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from referee.campaigns.models import Campaign, Phase
from referee.fleet.models import Ship
from referee.play import services
from referee.play.models import GENESIS_HASH, LogEntry
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 12
PER_THREAD = 5
MICRO_FRACTURES = [6, 6, 4, 5]  # mishap 12, effect 9: K-F integrity -1
NO_MISHAP = [3, 4]
START = 1000


def run_together(work, threads: int = THREADS) -> list[BaseException]:
    """Run ``work(i)`` in ``threads`` threads released at the same moment; each thread
    closes its own database connection. Returns what the threads raised."""
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as error:  # reported by the test, not lost in the thread
            errors.append(error)
        finally:
            connection.close()

    pool = [threading.Thread(target=target, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in pool), "a thread hung: a deadlock?"
    return errors


def assert_one_unbroken_chain(campaign: Campaign, count: int) -> list[LogEntry]:
    entries = list(LogEntry.objects.filter(campaign=campaign).order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, count + 1))  # no gap, no duplicate
    assert [e.prev_hash for e in entries] == [GENESIS_HASH] + [e.hash for e in entries[:-1]]  # no fork
    out = StringIO()
    call_command("verify_log", str(campaign.code), stdout=out)
    assert out.getvalue() == f"chain holds: {count} entries\n"
    return entries


def dice_for(thread: int, call: int) -> list[int]:
    return NO_MISHAP if (thread + call) % 3 == 0 else MICRO_FRACTURES


def test_concurrent_resolutions_queue_up_without_lost_updates_or_forks():
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    ship = ShipFactory(campaign=campaign, kf_integrity=START, kf_integrity_max=START)

    def work(i: int) -> None:
        for j in range(PER_THREAD):
            ruled_jump(campaign, gm, ship, dice=dice_for(i, j))

    assert run_together(work) == []

    total = THREADS * PER_THREAD
    entries = assert_one_unbroken_chain(campaign, total)
    fractures = [e for e in entries if e.result["effect"] == "micro_fractures"]
    planned = sum(dice_for(i, j) == MICRO_FRACTURES for i in range(THREADS) for j in range(PER_THREAD))
    assert len(fractures) == planned
    ship.refresh_from_db()
    assert ship.kf_integrity == START - planned
    # Serialised, not merely summed: each fracture starts where the previous one left off.
    kf = [next(c for c in e.effects if c["field"] == "kf_integrity") for e in fractures]
    assert [(c["before"], c["after"]) for c in kf] == [(START - n, START - n - 1) for n in range(planned)]


def test_concurrent_phase_advances_keep_turn_phase_and_clock_consistent():
    campaign = CampaignFactory(turn_length_s=90)
    gm = MembershipFactory(campaign=campaign, role="gm").user
    start_clock = campaign.clock
    threads, each = 8, 5

    def work(i: int) -> None:
        for _ in range(each):
            services.campaign_phase_advance(campaign=campaign, actor=gm)

    assert run_together(work, threads) == []

    advances = threads * each  # 40 phases = 10 whole turns
    campaign.refresh_from_db()
    assert (campaign.turn, campaign.phase) == (1 + advances // 4, Phase.INITIATIVE)
    assert campaign.clock == start_clock + (advances // 4) * campaign.turn_length
    entries = assert_one_unbroken_chain(campaign, advances)
    phases = [next(c for c in e.effects if c["field"] == "phase") for e in entries]
    assert [c["before"] for c in phases[1:]] == [c["after"] for c in phases[:-1]]
    order = [p.value for p in (Phase.INITIATIVE, Phase.MOVEMENT, Phase.COMBAT, Phase.END)]
    assert [c["after"] for c in phases] == (order[1:] + order[:1]) * (advances // 4)
    assert [e.turn for e in entries] == [1 + n // 4 + (n % 4 == 3) for n in range(advances)]


def test_resolutions_and_phase_advances_interleave_cleanly():
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    ship = ShipFactory(campaign=campaign, kf_integrity=START, kf_integrity_max=START)

    def work(i: int) -> None:
        for _ in range(3):
            if i % 2:
                services.campaign_phase_advance(campaign=campaign, actor=gm)
            else:
                ruled_jump(campaign, gm, ship, dice=MICRO_FRACTURES)

    assert run_together(work, 8) == []
    entries = assert_one_unbroken_chain(campaign, 24)
    assert Ship.objects.get(pk=ship.pk).kf_integrity == START - 12
    # Every entry carries the turn and phase the campaign was in when it was written.
    turn, phase = 1, Phase.INITIATIVE.value
    for entry in entries:
        if entry.procedure == "turn.advance":
            changes = {c["field"]: c["after"] for c in entry.effects}
            turn, phase = changes.get("turn", turn), changes["phase"]
        assert (entry.turn, entry.phase) == (turn, phase)


def test_resolutions_on_different_ships_still_share_one_chain():
    """No shared ship row to queue on here: the campaign row lock keeps seq and chain whole."""
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    ships = [
        ShipFactory(campaign=campaign, kf_integrity=START, kf_integrity_max=START) for _ in range(THREADS)
    ]

    def work(i: int) -> None:
        for _ in range(PER_THREAD):
            ruled_jump(campaign, gm, ships[i], dice=MICRO_FRACTURES)

    assert run_together(work) == []
    assert_one_unbroken_chain(campaign, THREADS * PER_THREAD)
    assert set(Ship.objects.filter(campaign=campaign).values_list("kf_integrity", flat=True)) == {
        START - PER_THREAD
    }


def test_resolutions_that_change_no_state_still_take_turns_on_the_chain():
    """A procedure that writes nothing but its log entry: nothing but the campaign lock
    stands between two transactions reading the same last seq."""
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user

    def work(i: int) -> None:
        for _ in range(PER_THREAD):
            services.procedure_resolve(
                campaign=campaign,
                procedure_id="booby_trap.weapon_spaces",
                inputs={"speed": 10},
                dice=None,
                actor=gm,
            )

    assert run_together(work) == []
    entries = assert_one_unbroken_chain(campaign, THREADS * PER_THREAD)
    assert all(e.effects == [] and e.pending for e in entries)
