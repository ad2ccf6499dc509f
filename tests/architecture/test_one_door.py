"""One door: who is asking is decided in ``referee/play/door.py`` alone, every campaign URL
goes through it, paths live in the URL modules, and views leave the cache to ``kept``."""

from __future__ import annotations

import ast
import re

import django
import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.architecture.test_import_graph import MODULES, ROOT

DOOR = "referee.play.door"
# What reads the session table or decodes a session.
SESSION_READS = re.compile(
    r"django_session|Session\._meta|sessions\.models import|SessionStore\(\)|\.decode\(session"
)


def test_only_the_door_reads_the_session_table_or_decodes_a_session():
    offenders = [
        f"{path.relative_to(ROOT)}"
        for module, path in MODULES.items()
        if module != DOOR and SESSION_READS.search(path.read_text())
    ]
    assert offenders == []
    assert SESSION_READS.search(MODULES[DOOR].read_text())  # the scan sees what it looks for


def _walk(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


@pytest.fixture(scope="module")
def campaign_urls():
    django.setup()
    return [
        (route, view)
        for route, view in _walk(get_resolver().url_patterns)
        if route.startswith("c/<uuid:code>/")
    ]


def test_every_url_under_a_campaign_resolves_to_a_view_behind_the_door(campaign_urls):
    assert len(campaign_urls) > 40  # the walk sees the project's URLs
    outside = [route for route, view in campaign_urls if getattr(view, "door", None) not in ("gm", "member")]
    assert outside == []


def test_the_door_marks_only_what_it_wraps():
    from referee.play.door import gm_view

    def bare(request, code):
        return None

    assert getattr(bare, "door", None) is None
    assert gm_view("GET")(bare).door == "gm"


def _calls(tree: ast.AST, name: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called == name:
                yield node


def test_no_campaign_path_is_compiled_outside_the_url_modules():
    offenders = []
    for module, path in MODULES.items():
        if module.endswith("urls"):
            continue
        for call in _calls(ast.parse(path.read_text()), "compile"):
            if call.args and isinstance(call.args[0], ast.Constant) and "/c/" in str(call.args[0].value):
                offenders.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert offenders == []


CACHE_USE = re.compile(r"django\.core\.cache|\bcaches\[|\bfragments\.(get|put)\(|\bcache\.(get|set|delete)\(")
CONTENT_EDIT = re.compile(r"response\.content\s*=")


def _view_modules():
    return {m: p for m, p in MODULES.items() if m.rsplit(".", 1)[-1].endswith("views")}


def test_views_never_touch_the_cache_or_rewrite_a_response():
    views = _view_modules()
    assert "referee.dashboard.views" in views and "referee.play.views" in views
    offenders = [
        f"{path.relative_to(ROOT)}"
        for path in views.values()
        if CACHE_USE.search(path.read_text()) or CONTENT_EDIT.search(path.read_text())
    ]
    assert offenders == []
    assert CACHE_USE.search("fragments.get(key)") and CONTENT_EDIT.search("response.content = b''")
