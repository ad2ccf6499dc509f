"""How long a big system map takes to draw: a throwaway campaign with N ships in one system
(some docked, some GM-only), the map read and drawn as the GM and as a player, the median
and worst of a few runs printed. Everything it creates is rolled back.

    manage.py bench_maps --ships 500 --runs 7
"""

from __future__ import annotations

import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test import Client
from django.urls import reverse

from referee.campaigns.models import Campaign, Membership
from referee.fleet.models import Ship, ShipKind, StarSystem
from referee.maps import selectors
from referee.maps.models import PiratePoint

GOAL_MS = 300


def _client_for(campaign: Campaign, role: str) -> Client:
    user = get_user_model().objects.create(username=f"bench-maps-{role}")
    Membership.objects.create(campaign=campaign, user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the drawing of a system map with many ships (rolled back afterwards)."

    def add_arguments(self, parser):
        parser.add_argument("--ships", type=int, default=500)
        parser.add_argument("--runs", type=int, default=7)

    def handle(self, *args, ships: int, runs: int, **options):
        if not 1 <= ships <= 5000 or not 1 <= runs <= 50:
            raise CommandError("Use 1 to 5,000 ships and 1 to 50 runs.")
        try:
            with transaction.atomic():
                self._run(ships, runs)
                raise _Rollback
        except _Rollback:
            pass

    def _page(self, campaign: Campaign, system: StarSystem, runs: int) -> None:
        """The whole map page through Django (access, read, draw, template), as the GM."""
        client = _client_for(campaign, "gm")
        url = reverse("maps:system", args=[campaign.code, system.code])
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            response = client.get(url, HTTP_HOST="127.0.0.1")
            timings.append((time.perf_counter() - start) * 1000)
            if response.status_code != 200:
                raise CommandError(f"The map page answered {response.status_code}.")
        self.stdout.write(
            f"  the GM's whole page: median {statistics.median(timings):.1f} ms, worst {max(timings):.1f} ms"
        )

    def _run(self, count: int, runs: int) -> None:
        rng = random.Random(15)
        campaign = Campaign.objects.create(name="Map benchmark", year=3067)
        system = StarSystem.objects.create(
            campaign=campaign, name="Benchmark", spectral_class="G2V", jump_point_au=1.5
        )
        for i in range(5):
            PiratePoint.objects.create(
                campaign=campaign,
                star_system=system,
                name=f"Point {i}",
                x_au=rng.uniform(-5, 5),
                y_au=rng.uniform(-5, 5),
            )
        kinds = [k.value for k in ShipKind]
        carriers = Ship.objects.bulk_create(
            [
                Ship(
                    campaign=campaign,
                    name=f"Ship {i:04d}",
                    kind=kinds[i % len(kinds)],
                    dropship_capacity=4,
                    star_system=system,
                    x_au=rng.uniform(-30, 30),
                    y_au=rng.uniform(-30, 30),
                    heading=rng.choice(["nose", "aft", "fore_left", ""]),
                    shared=i % 3 != 0,
                )
                for i in range(count - count // 10)
            ]
        )
        Ship.objects.bulk_create(
            [
                Ship(
                    campaign=campaign,
                    name=f"Docked {i:04d}",
                    kind="dropship",
                    docked_on=carriers[i],
                    shared=True,
                )
                for i in range(count // 10)
            ]
        )
        self.stdout.write(
            f"System map, {count} ships ({count // 10} docked), 5 pirate points; {runs} runs each"
        )
        self._page(campaign, system, runs)
        for role in ("gm", "player"):
            timings = []
            for _ in range(runs):
                start = time.perf_counter()
                drawn = selectors.system_map(campaign, system, role)
                timings.append((time.perf_counter() - start) * 1000)
            median = statistics.median(timings)
            verdict = "within" if median < GOAL_MS else "over"
            self.stdout.write(
                f"  as {'the GM' if role == 'gm' else 'a player'}: median {median:.1f} ms, worst {max(timings):.1f} ms, "
                f"{len(drawn.svg) / 1024:.0f} KB of SVG ({verdict} the {GOAL_MS} ms goal)"
            )
