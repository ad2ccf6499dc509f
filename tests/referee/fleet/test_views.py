"""Create, edit and delete ships, units, characters and star systems through HTMX forms."""

import pytest
from django.urls import reverse

from referee.fleet.models import Character, Ship, StarSystem, Unit
from referee.play import families
from tests.factories import CampaignFactory, MembershipFactory, ShipFactory, StarSystemFactory, UnitFactory
from tests.referee.conftest import htmx

pytestmark = pytest.mark.django_db

VALID = {
    "ships": {"name": "Garibaldi", "kind": "jumpship", "kf_integrity": 3, "kf_integrity_max": 3},
    "units": {"name": "Victor", "kind": "battlemech", "tonnage": 80, "piloting": 5, "gunnery": 4},
    "characters": {"name": "Kari", "role": "aerospace_pilot", "bld": 5, "ref": 6},
    "systems": {"name": "Galax", "spectral_class": "G2V"},
}
MODELS = {"ships": Ship, "units": Unit, "characters": Character, "systems": StarSystem}


def form_data(record: str, **overrides) -> dict:
    """A full form submission: the model form's other fields take their defaults."""
    form = families.kind(record).form(campaign=CampaignFactory())
    data = {}
    for name, field in form.fields.items():
        initial = form.get_initial_for_field(field, name)
        if initial is None or initial is False:
            continue
        data[name] = initial
    return {**data, **VALID[record], **overrides}


@pytest.mark.parametrize("kind", list(VALID))
class TestCreate:
    def url(self, cast, kind):
        return reverse("campaigns:object-create", args=[cast.campaign.code, kind])

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_may_create(self, cast, kind, who, status):
        client = cast.client(who)
        assert client.get(self.url(cast, kind)).status_code == status
        assert client.post(self.url(cast, kind), form_data(kind)).status_code == status
        assert not MODELS[kind].objects.exists()

    def test_the_gm_creates_and_gets_the_refreshed_panel(self, cast, kind):
        client = cast.client("gm")
        assert client.get(self.url(cast, kind), **htmx()).status_code == 200
        response = client.post(self.url(cast, kind), form_data(kind), **htmx())
        assert response.status_code == 200
        assert f'id="{kind}-panel"' in response.text
        assert VALID[kind]["name"] in response.text
        assert "campaign-changed" in response["HX-Trigger"]
        assert '<div id="form-slot" hx-swap-oob="true"></div>' in response.text  # the card closes
        assert MODELS[kind].objects.get().campaign == cast.campaign

    def test_a_bad_form_comes_back_422_with_errors_and_what_was_typed(self, cast, kind):
        response = cast.client("gm").post(self.url(cast, kind), form_data(kind, name=""), **htmx())
        assert response.status_code == 422
        assert "This field is required" in response.text
        assert response["HX-Retarget"] == "#form-slot"
        assert not MODELS[kind].objects.exists()

    def test_wrong_method_is_405(self, cast, kind):
        assert cast.client("gm").put(self.url(cast, kind)).status_code == 405


def test_an_unknown_kind_is_404(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "dragons"])
    assert cast.client("gm").get(url).status_code == 404


class TestEditAndDelete:
    def test_kf_integrity_above_its_maximum_is_refused_with_a_readable_message(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
        data = form_data("ships", name=ship.name, kf_integrity=5, kf_integrity_max=4)
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "cannot exceed its undamaged maximum" in response.text
        assert 'value="5"' in response.text
        ship.refresh_from_db()
        assert ship.kf_integrity == 4

    def test_the_gm_edits_a_ship(self, cast):
        ship = ShipFactory(campaign=cast.campaign)
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
        assert cast.client("gm").get(url).status_code == 200
        response = cast.client("gm").post(url, form_data("ships", name="Waterloo II", kf_integrity=2))
        assert response.status_code == 302
        ship.refresh_from_db()
        assert (ship.name, ship.kf_integrity) == ("Waterloo II", 2)

    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_edits_or_deletes(self, cast, who, status):
        ship = ShipFactory(campaign=cast.campaign, shared=True)
        edit = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", ship.code])
        delete = reverse("campaigns:object-delete", args=[cast.campaign.code, "ships", ship.code])
        assert cast.client(who).post(edit, form_data("ships", name="Hijacked")).status_code == status
        assert cast.client(who).post(delete).status_code == status
        ship.refresh_from_db()
        assert ship.name != "Hijacked"

    def test_a_ship_of_another_campaign_is_404(self, cast):
        foreign = ShipFactory()
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, "ships", foreign.code])
        assert cast.client("gm").get(url).status_code == 404

    def test_the_gm_deletes_a_unit(self, cast):
        unit = UnitFactory(campaign=cast.campaign)
        url = reverse("campaigns:object-delete", args=[cast.campaign.code, "units", unit.code])
        asked = cast.client("gm").get(url)  # without JavaScript: the question first
        assert asked.status_code == 200 and Unit.objects.filter(pk=unit.pk).exists()
        response = cast.client("gm").post(url, **htmx())
        assert response.status_code == 200
        assert not Unit.objects.filter(pk=unit.pk).exists()

    def test_foreign_keys_only_offer_the_campaigns_own_records(self, cast):
        StarSystemFactory(campaign=cast.campaign, name="Home")
        StarSystemFactory(name="Elsewhere")
        url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
        response = cast.client("gm").get(url)
        assert "Home" in response.text
        assert "Elsewhere" not in response.text

    def test_a_duplicate_star_system_name_is_a_field_error(self, cast):
        StarSystemFactory(campaign=cast.campaign, name="Galax")
        url = reverse("campaigns:object-create", args=[cast.campaign.code, "systems"])
        response = cast.client("gm").post(url, form_data("systems"), **htmx())
        assert response.status_code == 422
        assert "already has a star system of that name" in response.text

    def test_a_carrier_takes_no_more_dropships_than_its_capacity(self, cast):
        carrier = ShipFactory(campaign=cast.campaign, dropship_capacity=1)
        ShipFactory(
            campaign=cast.campaign, kind="dropship", kf_integrity=0, kf_integrity_max=0, docked_on=carrier
        )
        url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
        data = form_data("ships", name="Extra", kf_integrity=0, kf_integrity_max=0)
        data["kind"] = "dropship"
        data["docked_on"] = carrier.pk
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 422
        assert "carries at most 1 DropShip" in response.text


@pytest.mark.parametrize("kind,factory", [("ships", ShipFactory), ("units", UnitFactory)])
class TestOwnerChoices:
    """The owner of a ship or unit is one of this campaign's players, offered once."""

    def test_a_player_in_two_campaigns_is_offered_once_and_the_edit_saves(self, cast, kind, factory):
        MembershipFactory(user=cast.player, role="player")  # the player joins a second campaign
        obj = factory(campaign=cast.campaign, owner=cast.player)
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, kind, obj.code])
        page = cast.client("gm").get(url)
        assert page.status_code == 200
        assert page.text.count(f">{cast.player.username}</option>") == 1
        data = form_data(kind, name="Renamed", owner=cast.player.pk)
        response = cast.client("gm").post(url, data, **htmx())
        assert response.status_code == 200
        obj.refresh_from_db()
        assert (obj.name, obj.owner) == ("Renamed", cast.player)

    def test_a_player_of_another_campaign_is_neither_offered_nor_accepted(self, cast, kind, factory):
        stranger = MembershipFactory(role="player").user  # a player elsewhere...
        MembershipFactory(user=stranger, campaign=cast.campaign, role="gm")  # ...and GM here
        obj = factory(campaign=cast.campaign)
        url = reverse("campaigns:object-edit", args=[cast.campaign.code, kind, obj.code])
        page = cast.client("gm").get(url)
        assert f">{stranger.username}</option>" not in page.text
        assert f">{cast.player.username}</option>" in page.text
        response = cast.client("gm").post(url, form_data(kind, name=obj.name, owner=stranger.pk), **htmx())
        assert response.status_code == 422
        assert "Select a valid choice" in response.text
        obj.refresh_from_db()
        assert obj.owner is None
