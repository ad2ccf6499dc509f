"""The shared HTMX answers: what each one sends back (status, swap headers, the event
the page's panels listen for), for an HTMX request and for a plain one."""

import json

import pytest
from django.contrib.messages import ERROR, SUCCESS, get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails, HtmxMiddleware

from referee import htmx
from referee.campaigns.forms import CampaignForm
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

LOG = "play/log.html"


def request(method: str = "get", *, hx: bool = False, data: dict | None = None) -> htmx.HtmxHttpRequest:
    """A request as the views get it: through django-htmx's middleware, with messages."""
    headers = {"HTTP_HX_REQUEST": "true"} if hx else {}
    req = getattr(RequestFactory(), method)("/somewhere", data or {}, **headers)
    req._messages = CookieStorage(req)
    seen = []
    HtmxMiddleware(lambda r: seen.append(r))(req)
    return seen[0]


def log_context(form=None) -> dict:
    campaign = CampaignFactory()
    return {"campaign": campaign, "role": "gm", "page": [], "form": form}


def events(response) -> dict:
    return json.loads(response["HX-Trigger"])


def test_the_middleware_gives_the_request_its_htmx_details():
    assert isinstance(request(hx=True).htmx, HtmxDetails)
    assert request(hx=True).htmx and not request().htmx


def test_posted_is_the_post_data_on_a_post_even_an_empty_one_and_none_otherwise():
    assert htmx.posted(request()) is None
    empty = htmx.posted(request("post"))
    assert empty is not None and not empty
    assert htmx.posted(request("post", data={"name": "Galax"}))["name"] == "Galax"


def test_form_status_is_422_only_for_a_submitted_form_with_errors():
    assert htmx.form_status(CampaignForm()) == 200
    assert htmx.form_status(CampaignForm({"name": ""})) == 422
    assert htmx.form_status(CampaignForm({"name": "Gamma", "year": 3025, "turn_length_s": 60})) == 200


class TestFormCard:
    def test_a_plain_request_gets_the_whole_page_and_no_swap_headers(self):
        response = htmx.form_card(request(), LOG, log_context(CampaignForm()), partial="log-panel")
        assert response.status_code == 200
        assert "<html" in response.text and 'id="log-panel"' in response.text
        assert "HX-Retarget" not in response and "HX-Reswap" not in response

    def test_htmx_gets_only_the_partial_and_it_replaces_the_form_slot(self):
        response = htmx.form_card(request(hx=True), LOG, log_context(CampaignForm()), partial="log-panel")
        assert response.status_code == 200
        assert "<html" not in response.text and 'id="log-panel"' in response.text
        assert response["HX-Retarget"] == "#form-slot"
        assert response["HX-Reswap"] == "outerHTML"

    def test_an_invalid_form_comes_back_422_in_place_of_another_target(self):
        form = CampaignForm({"name": ""})
        response = htmx.form_card(
            request("post", hx=True), LOG, log_context(form), partial="log-panel", target="#procedure-form"
        )
        assert response.status_code == 422
        assert response["HX-Retarget"] == "#procedure-form" and response["HX-Reswap"] == "outerHTML"

    def test_an_invalid_form_on_a_plain_post_is_the_whole_page_with_422(self):
        response = htmx.form_card(request("post"), LOG, log_context(CampaignForm({})), partial="log-panel")
        assert response.status_code == 422 and "<html" in response.text

    def test_a_given_status_wins_over_the_forms(self):
        response = htmx.form_card(
            request(hx=True), LOG, log_context(CampaignForm()), partial="log-panel", status=htmx.INVALID
        )
        assert response.status_code == 422


class TestPanel:
    def test_htmx_gets_the_panel_and_the_campaign_changed_event(self):
        context = log_context()
        response = htmx.panel(request("post", hx=True), f"{LOG}#log-panel", context, back_to="/back")
        assert response.status_code == 200 and 'id="log-panel"' in response.text
        assert "<html" not in response.text
        assert events(response) == {"campaign-changed": {}}
        assert htmx.CAMPAIGN_CHANGED == "campaign-changed"

    def test_a_failed_change_shows_its_error_status_and_fires_nothing(self):
        context = {**log_context(), "log_error": "A later entry changed it."}
        response = htmx.panel(
            request("post", hx=True), f"{LOG}#log-panel", context, back_to="/back", status=409, message="x"
        )
        assert response.status_code == 409 and "A later entry changed it." in response.text
        assert "HX-Trigger" not in response

    def test_a_panel_that_is_not_a_change_fires_nothing(self):
        response = htmx.panel(
            request("post", hx=True), f"{LOG}#log-panel", log_context(), back_to="/", changed=False
        )
        assert response.status_code == 200 and "HX-Trigger" not in response

    def test_the_context_may_be_built_only_when_needed(self):
        built = []
        response = htmx.panel(
            request("post", hx=True),
            f"{LOG}#log-panel",
            lambda: built.append(1) or log_context(),
            back_to="/",
        )
        assert built == [1] and response.status_code == 200

    def test_a_plain_post_is_redirected_without_building_the_panel(self):
        def never():
            raise AssertionError("a plain request must not build the panel")

        req = request("post")
        response = htmx.panel(req, f"{LOG}#log-panel", never, back_to="/back")
        assert response.status_code == 302 and response["Location"] == "/back"
        assert "HX-Trigger" not in response
        assert list(get_messages(req)) == []

    @pytest.mark.parametrize("status,level", [(200, SUCCESS), (409, ERROR), (422, ERROR)])
    def test_a_plain_post_carries_the_message_as_success_or_error(self, status, level):
        req = request("post")
        response = htmx.panel(req, f"{LOG}#log-panel", {}, back_to="/back", status=status, message="Said")
        assert response.status_code == 302
        assert [(m.level, m.message) for m in get_messages(req)] == [(level, "Said")]


def test_page_is_the_whole_page_or_for_htmx_its_partial():
    whole = htmx.page(request(), LOG, log_context(), partial="log-panel")
    part = htmx.page(request(hx=True), LOG, log_context(), partial="log-panel")
    assert "<html" in whole.text and "<html" not in part.text and 'id="log-panel"' in part.text
    assert whole.status_code == part.status_code == 200


def test_campaign_changed_keeps_other_events_on_the_response():
    from django.http import HttpResponse
    from django_htmx.http import trigger_client_event

    response = htmx.campaign_changed(trigger_client_event(HttpResponse(), "odds-shown"))
    assert set(events(response)) == {"odds-shown", "campaign-changed"}
