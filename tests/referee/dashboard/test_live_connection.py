"""The live server's own connections (its LISTEN and its door checks) connect as Django's
do: with every libpq setting in ``DATABASES["default"]["OPTIONS"]``."""

import psycopg
import pytest
from django.db import connections

from referee.dashboard import live

pytestmark = pytest.mark.django_db


def test_the_live_connection_takes_the_databases_options(monkeypatch):
    options = {
        "application_name": "referee-live",
        "options": "-c statement_timeout=4321",
        "isolation_level": psycopg.IsolationLevel.READ_COMMITTED,  # Django's own: not libpq's
    }
    monkeypatch.setitem(connections["default"].settings_dict, "OPTIONS", options)
    with psycopg.connect(live.conninfo(), autocommit=True) as conn:
        assert conn.execute("SHOW application_name").fetchone()[0] == "referee-live"
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "4321ms"
        assert conn.info.dbname == connections["default"].settings_dict["NAME"]


def test_without_options_it_connects_to_djangos_database(monkeypatch):
    monkeypatch.setitem(connections["default"].settings_dict, "OPTIONS", {})
    with psycopg.connect(live.conninfo(), autocommit=True) as conn:
        assert conn.info.dbname == connections["default"].settings_dict["NAME"]
        assert conn.execute("SELECT 1").fetchone()[0] == 1
