"""Test-suite set-up: the real PostgreSQL (embedded unless DATABASE_URL is set)."""

import os
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    if not os.environ.get("DATABASE_URL"):
        from referee import embedded_pg

        embedded_pg.ensure_running(Path(os.environ.get("REFEREE_VAR_DIR", BASE_DIR / "var")) / "pg")


def pytest_collection_modifyitems(config, items):
    """Fast password hashing: the tests sign in many users, none of them real."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The suite creates its database and runs as the owner role (it tampers with the log
    as the database's owner could, to show verification catches it); the app's own role is
    tried separately (tests/referee/play/test_db_roles.py)."""
    from django.conf import settings
    from django.db import connections

    owner = settings.MIGRATE_DATABASE
    if owner:
        connections["default"].close()
        settings.DATABASES["default"].update(
            {key: owner[key] for key in ("USER", "PASSWORD", "HOST", "PORT") if owner.get(key)}
        )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """The test database, and at its end the door's cache stops listening to it (its
    connection would keep the database from being dropped)."""
    yield
    from referee.play.door_cache import cache

    cache.stop()
