"""The Content-Security-Policy header is built once from the settings: it is the one
django-csp would build, it follows a change of the settings, and a response whose policy a
view changed (django-csp's decorators) or that used a nonce still gets its own."""

import pytest
from csp.constants import NONCE
from csp.exceptions import CSPNonceError
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from referee.middleware import CSPMiddleware

HEADER = "Content-Security-Policy"
REPORT_ONLY = "Content-Security-Policy-Report-Only"


def directives(header: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in header.split(";"))}


def served(make=HttpResponse, path="/c/x/"):
    """The response of a view returning ``make()``, through the middleware, and its request."""
    request = RequestFactory().get(path)
    middleware = CSPMiddleware(lambda request: make())
    return middleware(request), request


def test_the_header_is_the_one_django_csp_builds_from_the_settings():
    response, _ = served()
    assert directives(response[HEADER]) == directives(build_policy())
    assert "'self'" in directives(response[HEADER])["script-src"]
    assert REPORT_ONLY not in response


def test_the_header_follows_a_change_of_the_settings():
    before = served()[0][HEADER]
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=policy):
        response, _ = served()
        assert directives(response[HEADER]) == {"default-src": ["'none'"]}
        assert directives(response[REPORT_ONLY]) == {"default-src": ["'none'"]}
    assert served()[0][HEADER] == before


def test_excluded_prefixes_and_exempt_responses_get_no_header():
    policy = {"EXCLUDE_URL_PREFIXES": ["/static/"], "DIRECTIVES": {"default-src": ["'self'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert HEADER not in served(path="/static/x.css")[0]
        assert HEADER in served(path="/c/x/")[0]

    def exempt():
        response = HttpResponse()
        response._csp_exempt = True
        return response

    assert HEADER not in served(exempt)[0]


def test_a_view_that_changes_its_policy_or_uses_a_nonce_gets_its_own():
    def updated():
        response = HttpResponse()
        response._csp_update = {"img-src": ["https://maps.example"]}
        return response

    response, _ = served(updated)
    assert "https://maps.example" in directives(response[HEADER])["img-src"]

    request = RequestFactory().get("/c/x/")

    def with_nonce():
        str(request.csp_nonce)  # a page that put the nonce into a script tag
        return HttpResponse()

    policy = {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'", NONCE]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        response = CSPMiddleware(lambda r: with_nonce())(request)
    assert directives(response[HEADER])["script-src"] == ["'self'", f"'nonce-{request._csp_nonce}'"]
    assert str(request.csp_nonce) == request._csp_nonce  # the one the header names

    _, unused = served()  # as django-csp's: no nonce once a header without one is written
    with pytest.raises(CSPNonceError):
        str(unused.csp_nonce)
