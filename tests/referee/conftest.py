"""Fixtures for the web tests: a campaign seen by each kind of visitor."""

from dataclasses import dataclass

import pytest
from django.test import Client

from referee.play.models import Visibility
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory, UserFactory
from tests.referee.history import ruled_jump


@dataclass
class Cast:
    campaign: object
    gm: object
    player: object
    outsider: object

    def client(self, who: str) -> Client:
        client = Client()
        if who != "anonymous":
            client.force_login(getattr(self, who))
        return client


@pytest.fixture
def cast(db) -> Cast:
    campaign = CampaignFactory()
    gm = MembershipFactory(campaign=campaign, role="gm").user
    player = MembershipFactory(campaign=campaign, role="player").user
    return Cast(campaign=campaign, gm=gm, player=player, outsider=UserFactory())


def htmx(**extra) -> dict:
    return {"HTTP_HX_REQUEST": "true", **extra}


@pytest.fixture
def six_entries(cast):
    """Six jumps in the log, the fourth GM-only."""
    ship = ShipFactory(campaign=cast.campaign, kf_integrity=9, kf_integrity_max=9, shared=True)
    for n in range(6):
        visibility = Visibility.GM if n == 3 else Visibility.EVERYONE
        ruled_jump(cast.campaign, cast.gm, ship, dice=[3, 4], visibility=visibility)
    return cast
