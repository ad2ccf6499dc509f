"""The Content-Security-Policy header for an answer made before the middleware stack's own
``csp.middleware.CSPMiddleware`` (right after SecurityMiddleware) is reached: the answers a
middleware above it gives by itself carry the same policy as every other."""

from __future__ import annotations

from csp.middleware import CSPMiddleware
from django.http import HttpRequest, HttpResponse

_POLICY = CSPMiddleware(lambda request: None)


def policy_added(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    return _POLICY.process_response(request, response)
