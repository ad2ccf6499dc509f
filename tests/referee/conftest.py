"""Fixtures for the web tests: a campaign seen by each kind of visitor."""

from dataclasses import dataclass

import pytest
from django.test import Client

from tests.factories import CampaignFactory, MembershipFactory, UserFactory


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
