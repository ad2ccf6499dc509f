"""Fill the benchmark's throwaway database: the demo campaign scaled up, sessions for its
GM and player, and the pages' costs measured in process."""

from __future__ import annotations

import statistics
import time
import uuid
from importlib import import_module
from itertools import cycle

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.utils.crypto import get_random_string

from referee.campaigns.models import Campaign
from referee.demo.campaign import DEMO_LOGINS, demo_campaign_load
from referee.fleet.models import Ship, Unit
from referee.play.management.commands import bench_export
from referee.play.models import LogEntry
from referee.play.selectors import poll_version


def fill(*, ships: int, units: int, entries: int, measure: bool = True) -> dict:
    """The campaign and its sessions; with ``measure``, vacuumed and its pages' costs measured
    (without: nothing that cannot run inside a transaction)."""
    campaign, _ = demo_campaign_load()
    gm = campaign.memberships.get(user__username=DEMO_LOGINS["gm"][0]).user
    player = campaign.memberships.get(user__username=DEMO_LOGINS["player"][0]).user
    resolve_ship = Ship.objects.create(
        campaign=campaign,
        name="Bench jumper",
        kind="jumpship",
        kf_integrity=30000,
        kf_integrity_max=30000,
        drive_charged=True,
        shared=True,
    )
    templates = list(Ship.objects.filter(campaign=campaign).exclude(pk=resolve_ship.pk))
    more_ships = max(ships - len(templates) - 1, 0)
    Ship.objects.bulk_create(
        [_copy(t, f"{t.name} {n + 2}") for n, t in zip(range(more_ships), cycle(templates), strict=False)]
    )
    unit_templates = list(Unit.objects.filter(campaign=campaign))
    more_units = max(units - len(unit_templates), 0)
    Unit.objects.bulk_create(
        [
            _copy(t, f"{t.name} {n + 2}")
            for n, t in zip(range(more_units), cycle(unit_templates), strict=False)
        ]
    )
    if entries:
        with transaction.atomic():  # the campaign is touched once per 5000-row insert
            bench_export._fill_log(campaign, entries, 5000)
        Campaign.objects.filter(pk=campaign.pk).update(turn=1 + entries // 40)
    if measure:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    store = import_module(settings.SESSION_ENGINE).SessionStore
    campaign.refresh_from_db()
    return {
        "campaign": str(campaign.code),
        "state_version": campaign.state_version,
        "gm_session": _session(store, gm),
        "player_session": _session(store, player),
        "csrf": get_random_string(32),
        "resolve_ship": str(resolve_ship.code),
        "pages": page_costs(campaign, gm, player, str(resolve_ship.code)) if measure else {},
    }


def _copy(template, name: str):
    fields = {f.attname: getattr(template, f.attname) for f in template._meta.concrete_fields}
    return type(template)(**{**fields, "id": None, "code": uuid.uuid4(), "name": name})


def _session(store, user) -> str:
    session = store()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def page_costs(campaign: Campaign, gm, player, ship_code: str) -> dict:
    """Queries and median milliseconds of each page rendered in process: served again while
    the campaign is unchanged (its panels from the fragment cache), and rendered afresh
    after a change (the campaign's version moved before each request)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    code = campaign.code
    last = LogEntry.objects.filter(campaign=campaign).order_by("-seq").values_list("seq", flat=True).first()
    clients = {"gm": Client(), "player": Client()}
    clients["gm"].force_login(gm)
    clients["player"].force_login(player)
    pages = {
        "GM dashboard": ("gm", f"/c/{code}/"),
        "player page": ("player", f"/c/{code}/"),
        "procedure form": ("gm", f"/c/{code}/play/jump.malfunction/?ship={ship_code}"),
        "log page": ("gm", f"/c/{code}/log/"),
        "entry page": ("player", f"/c/{code}/log/{last or 1}/"),
        "status poll, nothing changed": ("player", f"/c/{code}/status/?v={{version}}"),
        "status poll after a change": ("player", f"/c/{code}/status/?v=0"),
    }
    costs = {}
    for name, (who, url) in pages.items():
        client = clients[who]
        headers = {"HX-Request": "true"} if "poll" in name else {}
        row = {}
        for when in ("again", "changed"):

            def prepare(when=when, url=url) -> str:
                if when == "changed":
                    Campaign.objects.filter(pk=campaign.pk).update(state_version=F("state_version") + 2)
                fresh = Campaign.objects.get(pk=campaign.pk)
                return url.replace("{version}", poll_version(fresh, "player"))

            response = client.get(prepare(), headers=headers)  # warm: connections, caches
            if response.status_code not in (200, 204):
                raise RuntimeError(f"{name}: {response.status_code}")
            queries = Counter()
            target = prepare()
            with connection.execute_wrapper(queries):
                client.get(target, headers=headers)
            times = []
            for _ in range(5):
                target = prepare()
                started = time.perf_counter()
                client.get(target, headers=headers)
                times.append((time.perf_counter() - started) * 1000)
            row[when] = (queries.count, statistics.median(times))
        costs[name] = {
            "queries": row["again"][0],
            "ms": row["again"][1],
            "queries_after_change": row["changed"][0],
            "ms_after_change": row["changed"][1],
        }
    return costs


class Counter:
    """A database execute wrapper that counts the statements it lets through."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)
