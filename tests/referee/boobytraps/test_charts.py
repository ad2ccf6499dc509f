"""The GM's weapon charts: kept per campaign, checked against IR107.32 on every save."""

import html

import pytest
from django.urls import reverse

from referee.boobytraps.models import WeaponChart, printed_torpedo_chart
from tests.referee.conftest import htmx

from .factories import DRONE_CAPACITIES, BoobyTrapFactory, WeaponChartFactory, drone_entries

pytestmark = pytest.mark.django_db


def rows_data(entries: dict, capacities: dict | None = None, **extra) -> dict:
    data = {"name": "House chart", "weapon_type": "torp", "notes": ""}
    for roll, entry in entries.items():
        data[f"weapon_{roll}"] = entry["weapon"]
        data[f"spaces_{roll}"] = str(entry["spaces"])
        data[f"weight_{roll}"] = (
            "" if entry.get("weight") in (None, entry["spaces"]) else str(entry["weight"])
        )
        data[f"capacity_{roll}"] = str((capacities or {}).get(roll, ""))
    data.update(extra)
    return data


def create_url(cast):
    return reverse("boobytraps:chart-create", args=[cast.campaign.code])


def chart_urls(cast, chart):
    return {
        name: reverse(f"boobytraps:chart-{name}", args=[cast.campaign.code, chart.code])
        for name in ("edit", "copy", "delete")
    }


class TestAccess:
    @pytest.mark.parametrize("who,status", [("anonymous", 404), ("outsider", 404), ("player", 403)])
    def test_only_the_gm_reaches_the_chart_pages(self, cast, who, status):
        chart = WeaponChartFactory(campaign=cast.campaign)
        client = cast.client(who)
        urls = chart_urls(cast, chart)
        assert client.get(create_url(cast)).status_code == status
        assert client.post(create_url(cast), rows_data(printed_torpedo_chart())).status_code == status
        assert client.get(urls["edit"]).status_code == status
        assert client.post(urls["copy"]).status_code == status
        assert client.post(urls["delete"]).status_code == status
        assert WeaponChart.objects.count() == 1

    def test_wrong_methods_are_refused(self, cast):
        chart = WeaponChartFactory(campaign=cast.campaign)
        client = cast.client("gm")
        urls = chart_urls(cast, chart)
        assert client.put(create_url(cast)).status_code == 405
        assert client.delete(urls["edit"]).status_code == 405
        assert client.get(urls["copy"]).status_code == 405
        assert client.get(urls["delete"]).status_code == 405

    def test_another_campaigns_chart_is_not_found(self, cast):
        other = WeaponChartFactory()
        url = reverse("boobytraps:chart-edit", args=[cast.campaign.code, other.code])
        assert cast.client("gm").get(url).status_code == 404
        url = reverse("boobytraps:chart-copy", args=[cast.campaign.code, other.code])
        assert cast.client("gm").post(url).status_code == 404

    def test_players_never_see_the_charts(self, cast):
        WeaponChartFactory(campaign=cast.campaign)
        assert not WeaponChart.objects.in_campaign(cast.campaign).visible_to("player").exists()
        assert WeaponChart.objects.in_campaign(cast.campaign).visible_to("gm").count() == 1


class TestCreate:
    def test_a_new_chart_starts_from_the_printed_torpedo_chart(self, cast):
        response = cast.client("gm").get(create_url(cast), **htmx())
        assert response.status_code == 200
        assert 'value="Plasma-R (FA)"' in response.text and 'value="WARG (FA)"' in response.text
        blank = cast.client("gm").get(create_url(cast) + "?start=blank")
        assert blank.status_code == 200 and "Plasma-R" not in blank.text

    def test_the_gm_saves_a_drone_chart_with_rack_capacities(self, cast):
        data = rows_data(drone_entries(), DRONE_CAPACITIES, name="Drones", weapon_type="drone")
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 200
        assert 'id="boobytraps-panel"' in response.text and "Drones" in response.text
        chart = WeaponChart.objects.get(name="Drones")
        assert chart.entries == drone_entries()
        assert chart.rack_capacities == DRONE_CAPACITIES
        assert chart.rack_capacity("Drone rack B (FA)") == 6

    def test_without_htmx_a_save_goes_back_to_the_dashboard(self, cast):
        response = cast.client("gm").post(create_url(cast), rows_data(printed_torpedo_chart()))
        assert response.status_code == 302
        assert response["Location"] == reverse("campaigns:detail", args=[cast.campaign.code])

    def test_a_weight_other_than_the_spaces_is_kept(self, cast):
        entries = printed_torpedo_chart()
        entries["2"]["weight"] = 2.5
        cast.client("gm").post(create_url(cast), rows_data(entries))
        assert WeaponChart.objects.get().entries["2"] == {
            "weapon": "Plasma-R (FA)",
            "spaces": 2,
            "weight": 2.5,
        }


class TestIR107_32:
    """Each broken rule comes back 422 with the reason, and nothing is saved."""

    def refused(self, cast, data) -> str:
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 422
        assert response["HX-Retarget"] == "#form-slot"
        assert not WeaponChart.objects.exists()
        return html.unescape(response.text)

    def test_weight_rising_from_2_to_7_is_refused(self, cast):
        entries = printed_torpedo_chart()
        entries["6"] = {"weapon": "Plasma-S (FA)", "spaces": 2, "weight": 2}
        text = self.refused(cast, rows_data(entries))
        assert "entry 6 (Plasma-S (FA), weight 2) is heavier than entry 5" in text
        assert "from 2 to 7 weapons must get lighter or stay the same (IR107.32)" in text

    def test_weight_falling_from_7_to_12_is_refused(self, cast):
        entries = printed_torpedo_chart()
        entries["12"] = {"weapon": "Photon (FA)", "spaces": 1, "weight": 1}
        text = self.refused(cast, rows_data(entries))
        assert "entry 12 (Photon (FA), weight 1) is lighter than entry 11" in text

    @pytest.mark.parametrize(
        "weapon,why", [("Mauler", "Maulers"), ("SFG-2", "SFGs"), ("Stasis field", "SFGs")]
    )
    def test_forbidden_weapons_are_refused(self, cast, weapon, why):
        entries = printed_torpedo_chart()
        entries["7"]["weapon"] = weapon
        text = self.refused(cast, rows_data(entries))
        assert f"{why} cannot be booby-trap weapons (IR107.32)" in text

    def test_a_chart_with_no_one_space_weapon_is_refused(self, cast):
        entries = {str(r): {"weapon": f"W{r}", "spaces": 2} for r in range(2, 13)}
        text = self.refused(cast, rows_data(entries))
        assert "needs at least one 1-space weapon" in text

    def test_a_missing_row_is_named_on_its_row(self, cast):
        data = rows_data(printed_torpedo_chart())
        data["spaces_9"] = ""
        data["weapon_4"] = ""
        response = cast.client("gm").post(create_url(cast), data, **htmx())
        assert response.status_code == 422
        assert response.text.count("This field is required.") == 2
        assert "cannot be used" not in response.text  # the rows say what is wrong

    def test_rack_capacities_belong_on_drone_charts(self, cast):
        text = self.refused(cast, rows_data(printed_torpedo_chart(), {"7": 4}))
        assert "rack capacities belong on a drone-hit chart" in text

    def test_a_second_chart_of_the_same_name_is_refused(self, cast):
        WeaponChartFactory(campaign=cast.campaign, name="House chart")
        response = cast.client("gm").post(create_url(cast), rows_data(printed_torpedo_chart()), **htmx())
        assert response.status_code == 422
        assert "already has a weapon chart of that name" in response.text


class TestEditCopyDelete:
    def test_an_edit_that_breaks_the_rules_keeps_the_chart_as_it_was(self, cast):
        chart = WeaponChartFactory(campaign=cast.campaign, name="House chart")
        entries = printed_torpedo_chart()
        entries["7"]["weapon"] = "Mauler"
        response = cast.client("gm").post(chart_urls(cast, chart)["edit"], rows_data(entries), **htmx())
        assert response.status_code == 422
        chart.refresh_from_db()
        assert chart.entries == printed_torpedo_chart()

    def test_an_edit_is_saved(self, cast):
        chart = WeaponChartFactory(campaign=cast.campaign, name="House chart")
        entries = printed_torpedo_chart()
        entries["7"]["weapon"] = "Fusion (RA)"
        page = cast.client("gm").get(chart_urls(cast, chart)["edit"])
        assert page.status_code == 200 and 'value="Fusion (FA)"' in page.text
        response = cast.client("gm").post(chart_urls(cast, chart)["edit"], rows_data(entries), **htmx())
        assert response.status_code == 200
        chart.refresh_from_db()
        assert chart.entries["7"]["weapon"] == "Fusion (RA)"

    def test_copies_get_their_own_names_and_entries(self, cast):
        chart = WeaponChartFactory(
            campaign=cast.campaign, name="Drones", weapon_type="drone", entries=drone_entries()
        )
        client = cast.client("gm")
        assert client.post(chart_urls(cast, chart)["copy"], **htmx()).status_code == 200
        assert client.post(chart_urls(cast, chart)["copy"], **htmx()).status_code == 200
        names = set(WeaponChart.objects.values_list("name", flat=True))
        assert names == {"Drones", "Copy of Drones", "Copy of Drones (2)"}
        copy = WeaponChart.objects.get(name="Copy of Drones")
        assert copy.entries == chart.entries and copy.weapon_type == "drone" and copy.pk != chart.pk

    def test_deleting_a_chart_leaves_its_traps_with_no_chart(self, cast):
        chart = WeaponChartFactory(campaign=cast.campaign, weapon_type="torp")
        trap = BoobyTrapFactory(campaign=cast.campaign, torp_chart=chart)
        response = cast.client("gm").post(chart_urls(cast, chart)["delete"], **htmx())
        assert response.status_code == 200
        trap.refresh_from_db()
        assert trap.torp_chart is None and not WeaponChart.objects.exists()
