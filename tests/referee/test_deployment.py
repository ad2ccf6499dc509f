"""The deployment files say what the app really reads."""

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

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


def nginx_directives(text: str) -> dict[str, list[str]]:
    """``name value...;`` lines of an nginx config, comments dropped (name -> each value)."""
    directives: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.endswith(";"):
            name, _, value = line[:-1].partition(" ")
            directives.setdefault(name, []).append(value.strip())
    return directives


def seconds(value: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60}
    number = value.rstrip("ms")
    return float(number) * units.get(value[len(number) :] or "s", 1)


# The live streams' location: players' /c/<code>/live/ and GM pages' /c/<code>/live/gm/.
LIVE_LOCATION = r"location ~ (\^/c/[^ ]*/live/[^ ]*\$) \{[^}]*\}"
LIVE_BLOCKS = re.compile(rf"(upstream referee_live \{{[^}}]*\}}|{LIVE_LOCATION})")


RESTORE_LOCATION = re.compile(r"location = /restore/ \{[^}]*\}")


def without_live_streams(text: str) -> str:
    """The proxy's settings for pages and forms, without the players' live streams' route
    and the restore page's upload."""
    return RESTORE_LOCATION.sub("", LIVE_BLOCKS.sub("", text))


def test_the_restore_page_alone_takes_a_backup_sized_body():
    from django.conf import settings

    block = RESTORE_LOCATION.search((ROOT / "deploy/nginx.conf").read_text())
    route = nginx_directives(block.group(0))
    assert route["proxy_pass"] == ["http://referee_app"]
    size = route["client_max_body_size"][0]
    assert size.endswith("m") and int(size[:-1]) * 1024 * 1024 >= settings.RESTORE_UPLOAD_MAX_BYTES
    assert 0 < seconds(route["client_body_timeout"][0]) <= 60


def test_players_live_streams_go_unbuffered_to_the_asgi_server():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    live = compose["services"]["live"]
    assert "uvicorn referee.asgi:application" in live["command"]
    assert "ports" not in live, "only the proxy faces the network"
    assert "live" in compose["services"]["proxy"]["depends_on"]
    text = (ROOT / "deploy/nginx.conf").read_text()
    blocks = LIVE_BLOCKS.findall(text)
    assert len(blocks) == 2, blocks
    location = re.search(LIVE_LOCATION, text)
    pattern = re.compile(location.group(1))
    code = "0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e"
    assert pattern.match(f"/c/{code}/live/") and pattern.match(f"/c/{code}/live/gm/")
    assert not pattern.match(f"/c/{code}/log/") and not pattern.match(f"/c/{code}/live/gm/x")
    route = nginx_directives(location.group(0))
    assert route["proxy_pass"] == ["http://referee_live"]
    assert route["proxy_buffering"] == ["off"], "each event must reach the player at once"
    assert nginx_directives(re.search(r"upstream referee_live \{[^}]*\}", text).group(0))["server"] == [
        "live:8001"
    ]


def test_only_the_buffering_proxy_is_published_and_it_bounds_request_size_and_time():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy, web = compose["services"]["proxy"], compose["services"]["web"]
    assert proxy["image"].startswith("nginx")
    assert any(str(port).endswith(":80") for port in proxy["ports"]), proxy["ports"]
    assert "ports" not in web, "gunicorn must not face the network; the proxy does"
    assert "web" in proxy["depends_on"]
    mount = next(v for v in proxy["volumes"] if "nginx.conf" in v)
    source, target = mount.split(":")[:2]
    assert target == "/etc/nginx/conf.d/default.conf"
    conf = nginx_directives(without_live_streams((ROOT / source).read_text()))

    assert conf["server"] == ["web:8000"], "the proxy forwards to the app's service"
    assert conf["proxy_pass"] == ["http://referee_app"]
    assert conf["listen"] == ["80"]
    # Size: a body over 1 MiB is refused by the proxy, and the app agrees on the limit.
    body_limit = conf["client_max_body_size"][0]
    assert body_limit == "1m"
    from django.conf import settings

    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024, "the app refuses what the proxy lets by"
    # Time: a slow client is cut off by the proxy, never handed to a worker.
    for name, most in [
        ("client_header_timeout", 15),
        ("client_body_timeout", 15),
        ("send_timeout", 60),
        ("proxy_connect_timeout", 10),
        ("proxy_send_timeout", 60),
        ("proxy_read_timeout", 60),
    ]:
        assert name in conf, f"{name} missing"
        assert 0 < seconds(conf[name][0]) <= most, (name, conf[name])
    assert conf.get("proxy_request_buffering", ["on"]) == ["on"]
    assert conf.get("proxy_buffering", ["on"]) == ["on"]


def test_gunicorn_runs_with_time_and_request_limits():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command = compose["services"]["web"]["command"]
    assert "--config deploy/gunicorn.conf.py" in command
    config = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    conf = nginx_directives((ROOT / "deploy" / "nginx.conf").read_text())
    assert 0 < config["timeout"] < seconds(conf["proxy_read_timeout"][0])
    assert config["limit_request_line"] <= 8190
    assert config["limit_request_fields"] <= 100
    assert config["limit_request_field_size"] <= 8190
    assert config["bind"].endswith(":8000")
    assert "deploy" in (ROOT / "Dockerfile").read_text(), "the image carries the gunicorn settings"


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


def _local_settings(var_dir: Path, *names: str) -> list[str]:
    """Values of settings as a fresh local run (DEBUG and SECRET_KEY unset) sees them."""
    env = {**os.environ, "REFEREE_VAR_DIR": str(var_dir), "DATABASE_URL": "postgres://x@127.0.0.1:1/x"}
    for name in ("DEBUG", "SECRET_KEY"):
        env.pop(name, None)
    code = "from django.conf import settings\n" + "".join(f"print(settings.{n})\n" for n in names)
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "referee.settings"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_a_local_run_makes_its_own_signing_key_keeps_it_private_and_reuses_it(tmp_path):
    first_key, debug = _local_settings(tmp_path / "var", "SECRET_KEY", "DEBUG")
    assert debug == "True"
    key_file = tmp_path / "var" / "secret_key"
    assert key_file.read_text().strip() == first_key
    assert len(first_key) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600, "only its owner may read the signing key"
    # The next run keeps signing with the same key (sessions survive a restart) ...
    assert _local_settings(tmp_path / "var", "SECRET_KEY") == [first_key]
    # ... and another machine (another var/) gets a key of its own.
    assert _local_settings(tmp_path / "other", "SECRET_KEY") != [first_key]


def test_no_signing_key_is_in_the_repository():
    settings_source = (ROOT / "referee" / "settings.py").read_text()
    assert "insecure" not in settings_source.lower()
    assert 'SECRET_KEY = "' not in settings_source
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    assert not [path for path in tracked.splitlines() if Path(path).name == "secret_key"]


def test_the_app_refuses_a_body_over_the_limit_with_a_400(client, db):
    response = client.post("/accounts/login/", {"username": "x" * (1024 * 1024 + 1), "password": "y"})
    assert response.status_code == 400


@pytest.mark.parametrize("option", ["--slow-clients=65", "--oversized=33", "--seconds=21", "--seconds=-1"])
def test_the_slow_client_benchmark_stays_bounded(option):
    with pytest.raises(CommandError, match="must be between 0 and"):
        call_command("bench_slow_clients", option)
