"""Changes a result leaves for the GM: Apply lands one on its record as a logged, undoable
entry; Dismiss rules it out on the record; each is ruled on once, by the GM only."""

import json

import pytest
from django.urls import reverse

from referee.boobytraps.models import BoobyTrap
from referee.play import services
from referee.play.models import LogEntry
from referee.play.pending import APPLY, DISMISS, pending_effect_apply
from tests.factories import ShipFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db


def speed_roll(cast, visibility=None):
    """A calculator run of the speed table with no trap chosen: speed and year band stay pending."""
    entry = services.procedure_resolve(
        visibility=visibility,
        campaign=cast.campaign,
        procedure_id="booby_trap.speed_by_year",
        inputs={"year": 3150},
        dice=None,
        actor=cast.gm,
    )
    assert [e["field"] for e in entry.pending] == ["speed", "year_band"]
    return entry


def trap(cast, **values):
    return BoobyTrap.objects.create(campaign=cast.campaign, name="Cerberus", **values)


def url(cast, entry, number, action="apply"):
    return reverse(f"play:effect-{action}", args=[cast.campaign.code, entry.seq, number])


def test_applying_lands_the_change_on_the_chosen_record_as_an_undoable_entry(cast):
    entry, cerberus = speed_roll(cast), trap(cast)
    response = cast.client("gm").post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx())
    assert response.status_code == 200
    cerberus.refresh_from_db()
    assert cerberus.speed == entry.pending[0]["value"]
    applied = LogEntry.objects.get(campaign=cast.campaign, procedure=APPLY)
    assert applied.effects[0]["name"] == "Cerberus"
    assert applied.effects[0]["before"] is None and applied.effects[0]["after"] == cerberus.speed
    assert f"Cerberus speed — -> {cerberus.speed}" in applied.summary
    assert applied.visibility == "gm"  # the trap is not shared
    # The card now says the change was applied, by which entry, and offers no Apply for it.
    assert (
        f'applied by <a href="/c/{cast.campaign.code}/log/{applied.seq}/">#{applied.seq}</a>' in response.text
    )
    assert response.text.count('data-testid="apply-effect"') == 1  # only the year band is left
    services.log_entry_reverse(entry=applied, actor=cast.gm)
    cerberus.refresh_from_db()
    assert cerberus.speed is None


def test_a_double_click_on_apply_applies_once_and_says_so(cast):
    entry, cerberus = speed_roll(cast), trap(cast)
    client = cast.client("gm")
    first = client.post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx())
    second = client.post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx())
    assert first.status_code == 200
    assert second.status_code == 409
    assert "already applied by #" in second.text
    assert LogEntry.objects.filter(campaign=cast.campaign, procedure=APPLY).count() == 1


def test_an_applied_change_cannot_be_dismissed_nor_a_dismissed_one_applied(cast):
    entry, cerberus = speed_roll(cast), trap(cast)
    client = cast.client("gm")
    assert client.post(url(cast, entry, 2, "dismiss"), **htmx()).status_code == 200
    refused = client.post(url(cast, entry, 2), {"record": str(cerberus.code)}, **htmx())
    assert refused.status_code == 409 and "already dismissed by #" in refused.text
    cerberus.refresh_from_db()
    assert cerberus.year_band == ""
    dismissed = LogEntry.objects.get(campaign=cast.campaign, procedure=DISMISS)
    assert dismissed.effects == [] and "Ruled out" in dismissed.summary
    assert client.post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx()).status_code == 200
    assert client.post(url(cast, entry, 1, "dismiss"), **htmx()).status_code == 409


def test_the_database_holds_one_ruling_per_change_whoever_writes_it(cast):
    from django.db import IntegrityError, transaction

    from referee.play.pending import ruling_key

    entry, cerberus = speed_roll(cast), trap(cast)
    pending_effect_apply(entry=entry, number=1, actor=cast.gm, record=str(cerberus.code))
    with pytest.raises(IntegrityError), transaction.atomic():
        services.log_append(
            campaign=cast.campaign,
            procedure=DISMISS,
            title="A second ruling",
            summary="Written past the service's check.",
            request_key=ruling_key(entry, 1),
        )
    assert LogEntry.objects.filter(campaign=cast.campaign, procedure__in=[APPLY, DISMISS]).count() == 1


@pytest.mark.parametrize("who, status", [("player", 403), ("outsider", 404), ("anonymous", 404)])
@pytest.mark.parametrize("action", ["apply", "dismiss"])
def test_only_the_gm_rules_on_a_pending_change(cast, who, status, action):
    entry, cerberus = speed_roll(cast), trap(cast)
    response = cast.client(who).post(url(cast, entry, 1, action), {"record": str(cerberus.code)})
    assert response.status_code == status
    assert not LogEntry.objects.filter(campaign=cast.campaign, procedure__in=[APPLY, DISMISS]).exists()


@pytest.mark.parametrize("number", [0, 3, 99, 2**63])
def test_a_change_the_entry_does_not_have_is_a_404(cast, number):
    entry = speed_roll(cast)
    for action in ("apply", "dismiss"):
        assert cast.client("gm").post(url(cast, entry, number, action), **htmx()).status_code == 404
    response = cast.client("gm").post(reverse("play:effect-apply", args=[cast.campaign.code, 2**40, 1]))
    assert response.status_code == 404


@pytest.mark.parametrize(
    "record", ["", "not-a-code", "\x00", "x" * 5000, "00000000-0000-0000-0000-000000000000"]
)
def test_no_record_or_a_foreign_one_is_refused_in_words(cast, record):
    entry = speed_roll(cast)
    other_campaign_trap = BoobyTrap.objects.create(campaign=ShipFactory().campaign, name="Elsewhere")
    for code in (record, str(other_campaign_trap.code)):
        response = cast.client("gm").post(url(cast, entry, 1), {"record": code}, **htmx())
        assert response.status_code == 409
        assert "Choose the booby trap to apply this to" in response.text
    other_campaign_trap.refresh_from_db()
    assert other_campaign_trap.speed is None
    assert not LogEntry.objects.filter(campaign=cast.campaign, procedure=APPLY).exists()


def test_a_change_the_campaign_keeps_nothing_for_offers_only_dismiss(cast):
    ship = ShipFactory(campaign=cast.campaign, kind="warship", armor_nose=20, armor_nose_max=20)
    from referee.telemissiles.models import Telemissile

    missile = Telemissile.objects.create(
        campaign=cast.campaign, name="Lance", missile_type="barracuda_t", fuel=10
    )
    entry = services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id="telemissile.attack",
        inputs={"missile_type": "barracuda_t", "fuel_left": 5},
        dice=None,
        actor=cast.gm,
        subjects={"missile": missile.code, "target": ship.code},
        gm_ruling=True,
    )
    page = cast.client("gm").get(reverse("play:entry", args=[cast.campaign.code, entry.seq]))
    assert "the campaign keeps nothing this changes" in page.text
    assert 'data-testid="apply-effect"' not in page.text
    refused = cast.client("gm").post(url(cast, entry, 1), **htmx())
    assert refused.status_code == 409 and "keeps no record this can change" in refused.text


def test_players_never_see_pending_changes_nor_their_rulings_about_unshared_records(cast):
    entry, cerberus = speed_roll(cast), trap(cast)
    gm = cast.client("gm")
    gm.post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx())
    gm.post(url(cast, entry, 2, "dismiss"), **htmx())
    player = cast.client("player")
    for page in (
        player.get(reverse("play:log", args=[cast.campaign.code])).text,
        b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "json"])).streaming_content
        ).decode(),
        b"".join(
            player.get(reverse("play:export", args=[cast.campaign.code, "csv"])).streaming_content
        ).decode(),
    ):
        assert "Cerberus" not in page
        assert "Ruled out" not in page


def test_a_ruling_on_a_shared_record_of_a_public_roll_is_public(cast):
    entry, cerberus = speed_roll(cast, visibility="everyone"), trap(cast, shared=True)
    cast.client("gm").post(url(cast, entry, 1), {"record": str(cerberus.code)}, **htmx())
    applied = LogEntry.objects.get(campaign=cast.campaign, procedure=APPLY)
    assert applied.visibility == "everyone"
    log = cast.client("player").get(reverse("play:log", args=[cast.campaign.code])).text
    assert "Cerberus" in log
    assert json.dumps(applied.inputs)  # recorded as plain data
