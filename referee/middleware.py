"""Keeping a local server's embedded PostgreSQL up."""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess

import psycopg
from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError, InterfaceError, OperationalError, connections
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
        if not self.embedded_pg.is_running(self.datadir):
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
