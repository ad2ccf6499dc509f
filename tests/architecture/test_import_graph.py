"""The shape of the house, read from the source: who imports whom.

Every import statement of the project's modules counts, at the top of a module or inside a
function: no module may import another app's views, the imports may not go round in a
circle, and an import inside a function needs a comment saying why it is there."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("referee", "rules")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


MODULES = _modules()


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, path: Path):
    """(imported project module, line, inside a function?) for every import statement."""
    tree = ast.parse(path.read_text(), str(path))
    local = {
        id(sub)
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        for sub in ast.walk(fn)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node)
            # ``from pkg import name`` imports the module pkg.name when there is one.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            if target in MODULES:
                yield target, node.lineno, id(node) in local


def _graph() -> dict[str, set[str]]:
    return {m: {t for t, _, _ in _imports(m, p) if t != m} for m, p in MODULES.items()}


def _app(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "referee" and len(parts) > 2 else module


def _is_views(module: str) -> bool:
    return module.rsplit(".", 1)[-1].endswith("views")


# The layers, lowest first: an app may import its own layer's modules only when the table
# says so (``SIBLINGS``), and the layers below it; never a layer above (import-linter's
# layers contract). Every rule family is its own app in the top layer.
# Every app with a ``family.py`` (what ``referee.play.families`` discovers at start-up).
FAMILIES = tuple(f"referee.{path.parent.name}" for path in sorted((ROOT / "referee").glob("*/family.py")))
# Apps above the play loop that are not rule families: the unit-file import pages.
FEATURES = ("referee.imports",)
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("referee.campaigns", "referee.fleet"),
    ("referee.play",),
    ("referee.dashboard", *FAMILIES, *FEATURES),
    ("referee.demo",),
    ("referee.urls",),
)
# Apps of one layer that may import each other: the families build on each other's records
# (a booby trap sits on a battlefield); the dashboard and the families never meet.
SIBLINGS = {app: set(FAMILIES + FEATURES) - {app} for app in FAMILIES + FEATURES}
SIBLINGS["referee.fleet"] = {"referee.campaigns"}
# The project's own plumbing, below everything that serves a page (settings, the session
# engine, the embedded database, the shared HTMX helpers, the unit file readers).
BASE = {
    "referee",
    "referee.settings",
    "referee.sessions",
    "referee.embedded_pg",
    "referee.middleware",
    "referee.htmx",
    "referee.forms",
    "referee.health",
    "referee.unitfiles",
    "referee.bench",
    "referee.wsgi",
    "referee.asgi",
}


def _layer_of(module: str) -> int | None:
    for depth, layer in enumerate(LAYERS):
        for app in layer:
            if module == app or module.startswith(app + "."):
                return depth
    return None


def _app_of(module: str) -> str | None:
    for layer in LAYERS:
        for app in layer:
            if module == app or module.startswith(app + "."):
                return app
    return None


def _against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    offenders = []
    for module, targets in graph.items():
        here, app = _layer_of(module), _app_of(module)
        if here is None:
            continue
        for target in targets:
            there, other = _layer_of(target), _app_of(target)
            if there is None or other == app:
                continue
            if there > here or (there == here and other not in SIBLINGS.get(app, set())):
                offenders.append(f"{module} imports {target}")
    return offenders


def test_the_families_are_found_as_the_house_finds_them():
    assert {"referee.boobytraps", "referee.terrain", "referee.maps", "referee.telemissiles"} <= set(FAMILIES)
    assert "referee.dashboard" not in FAMILIES and "referee.play" not in FAMILIES


def test_the_layers_table_finds_an_arrow_against_it():
    assert _against_the_layers({"referee.campaigns.views": {"referee.play.models"}}) == [
        "referee.campaigns.views imports referee.play.models"
    ]
    assert _against_the_layers({"referee.maps.views": {"referee.dashboard.selectors"}})
    assert _against_the_layers({"referee.dashboard.views": {"referee.maps.models"}})
    assert _against_the_layers({"referee.dashboard.views": {"referee.play.door"}}) == []


def test_every_module_imports_along_the_layers():
    assert _against_the_layers(_graph()) == []


def test_every_app_of_the_project_has_a_place_in_the_layers():
    placed = [
        m for m in MODULES if _layer_of(m) is not None or any(m == b or m.startswith(b + ".") for b in BASE)
    ]
    assert sorted(set(MODULES) - set(placed)) == []


def test_only_the_url_root_imports_the_dashboard():
    offenders = [
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in targets
        if target.startswith("referee.dashboard")
        and not module.startswith("referee.dashboard")
        and module != "referee.urls"
    ]
    assert offenders == []


def test_the_import_scan_sees_the_project():
    graph = _graph()
    assert "referee.play.services" in graph
    assert "referee.play.models" in graph["referee.play.services"]
    assert "referee.dashboard.views" in graph["referee.dashboard.urls"]


def test_no_module_imports_another_apps_views():
    offenders = [
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in targets
        if _is_views(target) and _app(target) != _app(module)
    ]
    assert offenders == []


def test_views_are_imported_only_by_url_modules_and_commands_of_their_app():
    offenders = [
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in targets
        if _is_views(target)
        and not module.rsplit(".", 1)[-1].endswith("urls")
        and ".management.commands." not in module
    ]
    assert offenders == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_project_import_graph_has_no_cycle():
    assert _cycles(_graph()) == []


def test_imports_inside_functions_say_why():
    """A comment on the line, or on the lines just above it, explains the deferred import."""
    unexplained = []
    for module, path in MODULES.items():
        lines = path.read_text().splitlines()
        for target, lineno, local in _imports(module, path):
            if not local:
                continue
            line = lines[lineno - 1]
            above = lines[lineno - 2].strip() if lineno > 1 else ""
            if "#" not in line and not above.startswith("#"):
                unexplained.append(f"{path.relative_to(ROOT)}:{lineno} imports {target}")
    assert unexplained == []


def _underscore_imports(module: str, path: Path):
    """(imported module, name, line) for every ``from m import _name`` of another project module."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node)
            if base not in MODULES or base == module:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield base, alias.name, node.lineno


def test_no_module_imports_another_modules_underscore_helpers():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name} from {base}"
        for module, path in MODULES.items()
        for base, name, line in _underscore_imports(module, path)
    ]
    assert offenders == []
