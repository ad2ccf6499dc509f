"""Keeping a local server's embedded PostgreSQL up, and the Content-Security-Policy header."""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
from functools import cache
from http import HTTPStatus

import csp.constants
import csp.middleware
import csp.utils
import psycopg
from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.core.signals import setting_changed
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


class EmbeddedDatabaseMiddleware:
    """Starts the embedded PostgreSQL again when it has died (a crash, a ``kill -9``).

    Only when ``DATABASE_URL`` is unset. The server process counts as an owner of the
    embedded server (``embedded_pg.ensure_running``), so the watchdog leaves it running while
    the process serves; checking that the server is alive costs one small file read."""

    def __init__(self, get_response):
        if os.environ.get("DATABASE_URL"):
            raise MiddlewareNotUsed
        # Imported here, not at the top: a deployment (DATABASE_URL set) never loads the
        # embedded server's code, which its image does not install.
        from referee import embedded_pg

        self.embedded_pg = embedded_pg
        self.get_response = get_response
        self.datadir = (settings.VAR_DIR / "pg").resolve()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The folder was resolved once, above: is_running() would resolve it again each time.
        if self.embedded_pg.postmaster_pid(self.datadir) is None:
            try:
                self.restart()
            except (psycopg.Error, subprocess.SubprocessError, AssertionError):
                logger.exception("The embedded PostgreSQL did not start again.")
                return _unavailable("The database is starting again; nothing was saved. Try again.")
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The server died while this request used it: start it for the next one and say so."""
        if not isinstance(exception, OperationalError | InterfaceError) or self.embedded_pg.is_running(
            self.datadir
        ):
            return None
        self.restart()
        return _unavailable(
            "The database restarted while this page was loading; nothing was saved. Try again."
        )

    def restart(self) -> None:
        logger.warning("The embedded PostgreSQL is not running; starting it again.")
        host = str(self.embedded_pg.ensure_running(self.datadir))
        for alias in connections:
            connection = connections[alias]
            connection.settings_dict["HOST"] = host
            with contextlib.suppress(DatabaseError, InterfaceError):
                connection.close()  # a connection to the dead server is of no more use


def _unavailable(message: str) -> HttpResponse:
    response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "1"
    return response


# What a view or decorator of django-csp sets on a response to change its policy.
CSP_RESPONSE_PARTS = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
CSP_SETTINGS = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")


@cache
def csp_policies() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(header, its policy, the response attribute exempting it, the excluded URL prefixes)
    of the enforced and the report-only policy, built from the settings as django-csp
    builds them: the same on every request until a setting changes."""
    built = []
    for header, setting, exempt, report_only in (
        (csp.constants.HEADER, CSP_SETTINGS[0], "_csp_exempt", False),
        (csp.constants.HEADER_REPORT_ONLY, CSP_SETTINGS[1], "_csp_exempt_ro", True),
    ):
        policy = getattr(settings, setting, None) or {}
        prefixes = tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())
        built.append((header, csp.utils.build_policy(report_only=report_only), exempt, prefixes))
    return tuple(built)


@receiver(setting_changed)
def _csp_setting_changed(*, setting: str, **kwargs) -> None:
    if setting in CSP_SETTINGS:
        csp_policies.cache_clear()


class CSPMiddleware(csp.middleware.CSPMiddleware):
    """django-csp's middleware, building the policy once rather than on every response.

    A response whose policy a view changed (django-csp's decorators) or a page that used a
    nonce goes through django-csp as it is; every other response gets the policy django-csp
    would build for it, from ``csp_policies``."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        nonce = getattr(request, "_csp_nonce", None)
        if nonce is not None or any(hasattr(response, part) for part in CSP_RESPONSE_PARTS):
            return super().process_response(request, response)
        if (
            response.status_code in (HTTPStatus.INTERNAL_SERVER_ERROR, HTTPStatus.NOT_FOUND)
            and settings.DEBUG
        ):
            return response
        for header, policy, exempt, prefixes in csp_policies():
            if (
                policy
                and header not in response
                and getattr(response, exempt, False) is False
                and not request.path_info.startswith(prefixes)
            ):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = csp.middleware.CheckableLazyObject(self._csp_nonce_post_response)
        return response
