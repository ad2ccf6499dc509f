"""The deployment files say what the app really reads."""

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_has_postgres_with_a_healthcheck_and_gunicorn_with_the_settings_the_app_reads():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    postgres, web = compose["services"]["postgres"], compose["services"]["web"]
    assert postgres["image"].startswith("postgres")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert "gunicorn referee.wsgi:application" in web["command"]
    assert web["depends_on"]["postgres"]["condition"] == "service_healthy"
    settings_source = (ROOT / "referee" / "settings.py").read_text()
    for name in ("DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"):
        assert name in web["environment"], name
        assert f'"{name}"' in settings_source, f"settings.py does not read {name}"


def test_production_settings_pass_the_deploy_checks():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 60 + "-a-long-random-production-secret",
        "ALLOWED_HOSTS": "referee.example",
        "DATABASE_URL": "postgres://referee:pw@127.0.0.1:1/referee",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' switch, never set in production
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "DEBUG": "false", "DATABASE_URL": "postgres://x@127.0.0.1:1/x"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
