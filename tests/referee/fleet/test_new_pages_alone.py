"""Every "New …" page works on its own, opened in a tab of its own: a plain post that
saves and comes back to the dashboard, without the dashboard's panels around the form."""

import pytest
from django.urls import reverse

from referee.play import families
from referee.play.models import LogEntry
from tests.referee.play.test_hand_edits import form_data

pytestmark = pytest.mark.django_db


REQUIRED = {"ships": {"kind": "jumpship"}, "units": {"kind": "battlemech"}, "characters": {"role": "crew"}}


@pytest.mark.parametrize("slug", ["ships", "units", "characters", "systems"])
def test_a_new_page_alone_posts_plainly_and_comes_back_to_the_dashboard(cast, slug):
    client = cast.client("gm")
    url = reverse("campaigns:object-create", args=[cast.campaign.code, slug])
    page = client.get(url)
    assert page.status_code == 200
    assert "hx-post" not in page.text.split('id="form-slot"', 1)[1].split("</form>", 1)[0]
    assert 'id="ships-panel"' not in page.text  # the form alone, not the dashboard
    kind = families.kind(slug)
    data = form_data(kind.form(campaign=cast.campaign)) | {"name": "Alone", **REQUIRED.get(slug, {})}
    saved = client.post(url, data)
    assert saved.status_code == 302, saved.content[:2000]
    assert saved["Location"].startswith(reverse("campaigns:detail", args=[cast.campaign.code]))
    assert LogEntry.objects.filter(procedure="record.create").count() == 1


def test_in_the_dashboards_slot_the_form_answers_in_place(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
    page = cast.client("gm").get(url, HTTP_HX_REQUEST="true")
    assert 'hx-post="' in page.text


def test_redrawn_on_its_own_page_the_form_stays_a_plain_post(cast):
    url = reverse("campaigns:object-create", args=[cast.campaign.code, "ships"])
    alone = cast.client("gm").get(
        url, {"kind": "dropship"}, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=f"http://testserver{url}"
    )
    assert alone.status_code == 200 and 'data-kind="dropship"' in alone.text
    assert "hx-post" not in alone.text.split('id="form-slot"', 1)[1].split("</form>", 1)[0]
    dashboard = reverse("campaigns:detail", args=[cast.campaign.code])
    in_slot = cast.client("gm").get(
        url, {"kind": "dropship"}, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=f"http://testserver{dashboard}"
    )
    assert 'hx-post="' in in_slot.text
