"""Test-suite set-up: the real PostgreSQL (embedded unless DATABASE_URL is set)."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    if not os.environ.get("DATABASE_URL"):
        from referee import embedded_pg

        embedded_pg.ensure_running(Path(os.environ.get("REFEREE_VAR_DIR", BASE_DIR / "var")) / "pg")


def pytest_collection_modifyitems(config, items):
    """Fast password hashing: the tests sign in many users, none of them real."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
