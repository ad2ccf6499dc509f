"""Every form, posted by an attacker: never a 500, and a refusal writes nothing.

Each procedure form (Roll, Enter dice and the odds endpoint) and each record form the GM
uses (every kind of the dashboard, created and edited, campaign settings, the clock, weapon
charts, pursuit, shipboard surfaces, recruits, invites) starts from a submission that
succeeds; then one field at a time, and all of them at once, take hostile values: huge,
negative, non-finite, NaN, NUL bytes, deep nesting, very long text, wrong types. Any 5xx
fails the test; any 4xx must leave the turn log and the campaign's records as they were.

Seeded (``REFEREE_FUZZ_SEED``, printed on failure) so a failure replays exactly.
"""

from __future__ import annotations

import os
import random
from datetime import datetime

import pytest
from django import forms
from django.urls import reverse

import rules
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, Unit
from referee.play import families
from referee.play.models import LogEntry
from tests.factories import ShipFactory, UnitFactory
from tests.referee.boobytraps.factories import BoobyTrapFactory, WeaponChartFactory
from tests.referee.conftest import htmx
from tests.referee.play.test_every_procedure import build, post_data
from tests.referee.shipboard.factories import CompartmentFactory, SurfaceFactory

pytestmark = pytest.mark.django_db

SEED = int(os.environ.get("REFEREE_FUZZ_SEED", "20261130"))
GROUP_SIZE = 8  # fields attacked together

DEEP_LIST = "[" * 5_000 + "]" * 5_000
DEEP_OBJECT = '{"a":' * 3_000 + "1" + "}" * 3_000
HOSTILE = [
    "1e308",
    "-1e308",
    "99999999999999999999",
    "-99999999999999999999",
    "9" * 5_000,
    "nan",
    "NaN",
    "inf",
    "-Infinity",
    "-1",
    "-0",
    "1e-320",
    "",
    "\x00",
    "a\x00b",
    "line\x00\nline",
    "[" * 5_000,
    DEEP_LIST,
    DEEP_OBJECT,
    '"\\u0000"',
    '["\\u0000"]',
    '{"2": {"weapon": "\\u0000", "spaces": 1}}',
    '["\\ud800"]',
    '[{"id": "\\u0000", "distance_au": 1}]',
    "[1e308, -1e308]",
    "[" + ",".join(["1"] * 5_000) + "]",
    "x" * 100_000,
    "true",
    "null",
    "{}",
    "[]",
    "99999999999999999999/1",
    "1/0",
    "0x10",
    "\uff17",  # a full-width digit
    "2026-02-30T25:61:61",
    "99999-12-31T23:59:59",
    "00000000-0000-0000-0000-000000000000",
]
# What a database column cannot hold, typed raw or as a JSON escape: every text field gets one.
UNSTORABLE = [v for v in HOSTILE if "\x00" in v or "\\u0000" in v or "\\ud800" in v]
WRONG_TYPES = [["1", "2"], ["\x00", "x" * 10_000]]


def state(campaign: Campaign) -> tuple[int, int]:
    """What a refusal must leave alone: the log's length and the records' version
    (every write to a campaign's records bumps it, in the database)."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    return LogEntry.objects.filter(campaign=campaign).count(), campaign.state_version


def hostile_posts(baseline: dict, fields: list[str], text_fields: list[str], rng: random.Random):
    """(what changed, data). A field that takes text or JSON first gets something no
    database column can hold, alone (so nothing else refused masks what it would smuggle
    through); then every field, in small groups, gets any hostile value; last, every
    field at once, one of them posted with several values. Every field is attacked in
    every run; the seed picks the values."""
    for field in text_fields:
        value = rng.choice(UNSTORABLE)
        yield f"{field}={value[:40]!r}", {**baseline, field: value}
    shuffled = list(fields)
    rng.shuffle(shuffled)
    for start in range(0, len(shuffled), GROUP_SIZE):
        group = {f: rng.choice(HOSTILE) for f in shuffled[start : start + GROUP_SIZE]}
        yield ", ".join(f"{f}={v[:20]!r}" for f, v in group.items()), {**baseline, **group}
    if fields:
        everything = {f: rng.choice(HOSTILE) for f in fields}
        several = rng.choice(fields)
        everything[several] = rng.choice(WRONG_TYPES)
        yield f"every field hostile, {several} several times", {**baseline, **everything}


def check(client, url: str, data: dict, campaign: Campaign, what: str, *, writes: bool = True) -> int:
    before = state(campaign)
    use_htmx = random.Random(f"{SEED}{url}{what}").random() < 0.5
    try:
        response = client.post(url, data, **(htmx() if use_htmx else {}))
    except Exception as error:  # the view raised: a 500 in production
        raise AssertionError(f"{url} with {what} raised (REFEREE_FUZZ_SEED={SEED})") from error
    status = response.status_code
    assert status < 500, f"{url} with {what}: {status} (REFEREE_FUZZ_SEED={SEED})"
    if status >= 400 or not writes:
        assert state(campaign) == before, f"{url} with {what}: refused ({status}) but wrote"
    return status


def accepted(status: int) -> bool:
    return status in (200, 204, 302)


# --- Procedure forms ------------------------------------------------------------------------


ISSUE_CASES = [
    # (procedure, field, value): each once a 500 or a stalled worker
    ("gforce.tactical", "thrust_points", "1000000000"),
    ("gforce.tactical", "thrust_points", "200000"),
    ("shipboard.bulkhead_hit", "damage_dice", "1000000000"),
    ("shipboard.over_penetration", "damage_dice", "1000000000"),
    ("cargo.food", "days", "1e308"),
    ("lowtech.ice_engine", "tonnage", "99999999999999999999"),
    ("lowtech.ice_engine", "fusion_engine_weight_t", "1e308"),
    ("hpg.transmit", "comm_minutes", "1e308"),
    # Lists and charts are rows of fields now: the same junk typed into one cell.
    ("hpg.transmit", "craft-0-id", "[" * 5_000 + "]" * 5_000),
    ("sensor.neutrino", "vessels-0-id", "\u0000"),
    ("booby_trap.fill_weapons", "chart-2-weapon", "\u0000"),
]


@pytest.mark.parametrize("procedure_id,field,value", ISSUE_CASES)
def test_the_reported_inputs_come_back_to_their_field_with_a_message(cast, procedure_id, field, value):
    procedure = rules.get(procedure_id)
    data = {**post_data(procedure, families.binding(procedure_id), cast.campaign), field: value}
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    before = state(cast.campaign)
    response = cast.client("gm").post(url, data, **htmx())
    assert response.status_code == 422
    assert f'data-testid="error-{field}"' in response.text
    assert state(cast.campaign) == before


TEXT_KINDS = ("str", "rational", "list", "object", "map", "chart", "table2d6")


@pytest.mark.parametrize("procedure_id", rules.PROCEDURE_IDS)
def test_every_procedure_form_refuses_hostile_input_cleanly(cast, procedure_id):
    procedure = rules.get(procedure_id)
    binding = families.binding(procedure_id)
    client = cast.client("gm")
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    odds = reverse("play:odds", args=[cast.campaign.code, procedure_id])
    baseline = post_data(procedure, binding, cast.campaign)
    assert accepted(check(client, url, baseline, cast.campaign, "the example"))
    rng = random.Random(f"{SEED}:{procedure_id}")
    inputs = [i.name for i in procedure.contract.inputs]
    text = [i.name for i in procedure.contract.inputs if i.type.kind in TEXT_KINDS]
    roles = [r.name for r in binding.roles]
    for what, data in hostile_posts(baseline, [*inputs, *roles, "visibility"], text, rng):
        check(client, url, {**data, "action": rng.choice(["roll", "enter"])}, cast.campaign, what)
    dice = rng.choice([*HOSTILE, "6 " * 20_000, "-1 7 0", "1" * 5_000])
    check(client, url, {**baseline, "action": "enter", "dice": dice}, cast.campaign, f"dice={dice[:20]!r}")
    posts = list(hostile_posts(baseline, inputs, text, rng))
    if posts:  # the odds panel reads the same form: one hostile post, a random one of them
        what, data = rng.choice(posts)
        check(
            client,
            odds,
            {**data, "odds_key": rng.choice(HOSTILE)},
            cast.campaign,
            f"odds {what}",
            writes=False,
        )


# --- Record forms ---------------------------------------------------------------------------


def form_baseline(form) -> dict:
    """A submission of what the form shows for its record: it saves unchanged."""
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        if value is True:
            data[name] = "on"
        elif isinstance(value, (list, tuple)):
            data[name] = [str(v) for v in value]
        elif isinstance(value, datetime):
            data[name] = value.strftime("%Y-%m-%d %H:%M:%S")
        else:
            data[name] = str(value)
    return data


def record_for(model, campaign):
    """One record of a kind the dashboard keeps, made by its factory (or minimal)."""
    from tests.referee.logistics import factories as logistics
    from tests.referee.terrain import factories as terrain

    factories = {
        Ship: ShipFactory,
        Unit: UnitFactory,
        BoobyTrapFactory._meta.model: BoobyTrapFactory,
        CompartmentFactory._meta.model: CompartmentFactory,
        terrain.BattlefieldFactory._meta.model: terrain.BattlefieldFactory,
        terrain.HexFactory._meta.model: lambda campaign: terrain.HexFactory(
            battlefield=terrain.BattlefieldFactory(campaign=campaign)
        ),
        terrain.TerrainRowFactory._meta.model: terrain.TerrainRowFactory,
        logistics.ShipStoresFactory._meta.model: lambda campaign: logistics.ShipStoresFactory(
            ship=ShipFactory(campaign=campaign)
        ),
        logistics.UnitRefitFactory._meta.model: lambda campaign: logistics.UnitRefitFactory(
            unit=UnitFactory(campaign=campaign)
        ),
    }
    if model in factories:
        return factories[model](campaign=campaign)
    return build(model, campaign)


def text_fields(form) -> list[str]:
    return [n for n, f in form.fields.items() if isinstance(f, (forms.CharField, forms.JSONField))]


def target(label: str, url: str, form, **overrides) -> tuple:
    return label, url, {**form_baseline(form), **overrides}, list(form.fields), text_fields(form)


def record_targets(campaign) -> list[tuple[str, str, dict, list[str], list[str]]]:
    """(label, url, a baseline that saves, fields to attack, which of them take text) for
    every record form."""
    from referee.boobytraps.forms import PursuitForm, WeaponChartForm
    from referee.campaigns.forms import CampaignSettingsForm, InviteForm
    from referee.shipboard.forms import SurfaceForm

    code = campaign.code
    targets = []
    for slug, kind in families.kinds().items():
        obj = record_for(kind.model, campaign)
        form = kind.form(instance=obj, campaign=campaign)
        targets.append(
            target(f"edit {slug}", reverse("campaigns:object-edit", args=[code, slug, obj.code]), form)
        )
        if slug in ("ships", "boobytraps"):  # creating takes the same form; two are enough
            url = reverse("campaigns:object-create", args=[code, slug])
            targets.append(target(f"new {slug}", url, form, **_renamed(form)))
    chart = WeaponChartFactory(campaign=campaign)
    form = WeaponChartForm(instance=chart, campaign=campaign)
    targets.append(target("edit chart", reverse("boobytraps:chart-edit", args=[code, chart.code]), form))
    url = reverse("boobytraps:chart-create", args=[code])
    targets.append(target("new chart", url, form, name="Another chart"))
    trap = BoobyTrapFactory(campaign=campaign)
    ship = ShipFactory(campaign=campaign, velocity=4)
    key = str(ship.code)
    form = PursuitForm(campaign=campaign, trap=trap)
    pursuit = {f"detected_{key}": "on", f"range_{key}": "3", f"size_{key}": "2", f"cost_{key}": "1"}
    url = reverse("boobytraps:pursuit", args=[code, trap.code])
    targets.append(target("pursuit", url, form, **pursuit, **{f"speed_{key}": "4"}))
    compartment = CompartmentFactory(campaign=campaign)
    surface = SurfaceFactory(compartment=compartment)
    form = SurfaceForm(instance=surface, compartment=compartment)
    targets.append(target("edit surface", reverse("shipboard:surface-edit", args=[code, surface.code]), form))
    url = reverse("shipboard:surface-create", args=[code, compartment.code])
    targets.append(target("new surface", url, form, name="Hatch"))
    url = reverse("shipboard:surface-add", args=[code, compartment.code])
    targets.append(("add surface", url, {"surface_type": "door"}, ["surface_type"], ["surface_type"]))
    form = CampaignSettingsForm(instance=campaign)
    targets.append(target("settings", reverse("play:settings", args=[code]), form, name="Renamed"))
    clock = {"amount": "2", "unit": "hours", "reason": "refit"}
    targets.append(("clock", reverse("play:clock", args=[code]), clock, list(clock), ["reason"]))
    unit = UnitFactory(campaign=campaign)
    url = reverse("logistics:recruit", args=[code, _a_template()])
    targets.append(("recruit", url, {"name": "New hand", "unit": str(unit.code)}, ["name", "unit"], ["name"]))
    targets.append(target("invite", reverse("campaigns:invite-create", args=[code]), InviteForm()))
    return targets


def _renamed(form) -> dict:
    return {name: f"fuzz-{name}" for name in ("name", "key") if name in form.fields}


def _a_template() -> str:
    from rules.tables import characters as templates

    return next(iter(templates.TEMPLATES))


def test_every_record_form_refuses_hostile_input_cleanly(cast):
    client = cast.client("gm")
    targets = record_targets(cast.campaign)
    assert {f"edit {slug}" for slug in families.kinds()} <= {label for label, *_ in targets}
    for label, url, baseline, fields, text in targets:
        rng = random.Random(f"{SEED}:{label}")
        status = check(client, url, baseline, cast.campaign, f"{label}: as shown")
        assert accepted(status), f"{label}: the unchanged form was refused ({status})"
        for what, data in hostile_posts(baseline, fields, text, rng):
            check(client, url, data, cast.campaign, f"{label}: {what}")
