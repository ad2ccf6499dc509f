"""The End Phase works what changes by itself aboard: open breaches and leaking fuel lines."""

import pytest

from referee.play import services
from referee.play.models import LogEntry
from referee.shipboard.models import Compartment

from .factories import CompartmentFactory

pytestmark = pytest.mark.django_db


def enter_end_phase(cast) -> list[LogEntry]:
    """Advance to the next End Phase; the entries its automation wrote."""
    cast.campaign.refresh_from_db()
    entries = []
    while True:
        entries = services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        cast.campaign.refresh_from_db()
        if cast.campaign.phase == "end":
            return entries[1:]  # after the phase change itself


def state(compartment, **values) -> Compartment:
    Compartment.objects.filter(pk=compartment.pk).update(**values)
    compartment.refresh_from_db()
    return compartment


class TestOpenBreaches:
    def test_an_open_breach_loses_a_round_each_end_phase_until_empty(self, cast):
        hold = state(CompartmentFactory(campaign=cast.campaign, name="Hold"), breach_points=3)
        entries = enter_end_phase(cast)
        assert [e.procedure for e in entries] == ["shipboard.decompression"]
        assert entries[0].inputs["@compartment"]["name"] == str(hold)
        hold.refresh_from_db()
        assert hold.pressure_pa == 70_000 and hold.bulkheads_closed is False
        enter_end_phase(cast)
        hold.refresh_from_db()
        assert hold.pressure_pa == 40_000 and hold.bulkheads_closed is True  # closed on their own
        enter_end_phase(cast)
        enter_end_phase(cast)
        hold.refresh_from_db()
        assert hold.pressure_pa == 0 and hold.breach_points == 0  # nothing left to lose
        assert enter_end_phase(cast) == []

    def test_a_sealed_breach_loses_no_more(self, cast):
        hold = state(CompartmentFactory(campaign=cast.campaign), breach_points=3)
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)
        from referee.shipboard.services import compartment_breach_seal

        compartment_breach_seal(compartment=hold, actor=cast.gm)
        assert enter_end_phase(cast) == []
        hold.refresh_from_db()
        assert hold.pressure_pa == 100_000

    def test_the_end_phase_round_can_be_undone(self, cast):
        hold = state(CompartmentFactory(campaign=cast.campaign), breach_points=6, pressure_pa=90_000)
        (entry,) = enter_end_phase(cast)
        hold.refresh_from_db()
        assert hold.pressure_pa == 30_000
        services.log_entry_reverse(entry=entry, actor=cast.gm)
        hold.refresh_from_db()
        assert hold.pressure_pa == 90_000 and hold.bulkheads_closed is False and hold.breach_points == 6


class TestFuelLines:
    def test_each_broken_line_leaks_a_point_every_turn(self, cast):
        engine_room = state(
            CompartmentFactory(campaign=cast.campaign, name="Engine room"),
            fuel_line_crits=2,
            fuel_leak_points=1,
        )
        CompartmentFactory(campaign=cast.campaign, name="Galley")  # nothing broken: not rolled
        (entry,) = enter_end_phase(cast)
        assert entry.procedure == "shipboard.fuel_leak"
        assert entry.result["ignited"] is False and entry.rolls == []
        engine_room.refresh_from_db()
        assert engine_room.fuel_leak_points == 3
        enter_end_phase(cast)
        engine_room.refresh_from_db()
        assert engine_room.fuel_leak_points == 5

    def test_a_repaired_line_stops_adding(self, cast):
        engine_room = state(CompartmentFactory(campaign=cast.campaign), fuel_line_crits=0, fuel_leak_points=4)
        assert enter_end_phase(cast) == []
        engine_room.refresh_from_db()
        assert engine_room.fuel_leak_points == 4

    def test_breaches_and_leaks_in_other_campaigns_are_left_alone(self, cast):
        other = state(CompartmentFactory(), breach_points=2, fuel_line_crits=1)
        assert enter_end_phase(cast) == []
        other.refresh_from_db()
        assert other.pressure_pa == 100_000 and other.fuel_leak_points == 0
