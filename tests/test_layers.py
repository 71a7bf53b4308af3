"""The package's layers point one way: no import circle in Python or in the page's
JavaScript, and the faces that serve programs (the protocol, the web app, the
environments) load nothing of the terminal's."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import ecarte
import pytest

PACKAGE = Path(ecarte.__file__).parent
STATIC = PACKAGE / "web" / "static"


def python_modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code (at the top or in a
    function), type-checking imports left out: each import statement is an edge."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    edges = set()
    for target in found:
        while target and target not in modules and not target.startswith("ecarte._core"):
            target = target.rpartition(".")[0]
        if target in modules and target != name:
            edges.add(target)
    return edges


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def python_graph() -> dict[str, set[str]]:
    modules = python_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def javascript_graph() -> dict[str, set[str]]:
    return {
        path.name: set(re.findall(r'from "\./([^"]+)"', path.read_text(encoding="utf-8")))
        for path in STATIC.glob("*.js")
    }


def test_the_import_graphs_are_read() -> None:
    python = python_graph()
    assert "ecarte.results" in python["ecarte.duel"]  # a top-level import
    assert "ecarte.terminal" in python["ecarte.gymnasium"]  # an import in a function
    assert "ecarte.protocol.wire" in python["ecarte.protocol.session"]
    assert "messages.js" in javascript_graph()["duel.js"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_python_import_circle() -> None:
    assert circles(python_graph()) == []


def test_no_javascript_import_circle() -> None:
    assert circles(javascript_graph()) == []


def test_only_the_bench_command_imports_the_benchmarks() -> None:
    importers = {
        name
        for name, targets in python_graph().items()
        if name.startswith("ecarte.cli") and any(t.startswith("ecarte.bench") for t in targets)
    }
    assert importers == {"ecarte.cli.bench"}


def loaded_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running ``code``."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def terminal_modules(modules: set[str]) -> Iterator[str]:
    """The terminal's modules among ``modules``: rich, the terminal renderer, the CLI."""
    for name in sorted(modules):
        if name.split(".")[0] == "rich" or name == "ecarte.terminal":
            yield name
        elif name.startswith(("ecarte.cli", "ecarte.bench", "click")):
            yield name


@pytest.mark.parametrize("module", ["ecarte.protocol", "ecarte.web.app"])
def test_the_protocol_and_the_web_app_load_nothing_of_the_terminal(module: str) -> None:
    if module == "ecarte.web.app":
        pytest.importorskip("starlette")
    loaded = loaded_after(
        f"import {module}\nfrom ecarte.protocol import Session, Client\n"
        "s, c = Session(), Client()\n"
        "s.handle(c, {'id': 1, 'cmd': 'hello'})\n"
        "s.handle(c, {'id': 2, 'cmd': 'new', 'kind': 'match', 'opponent': 'easy', 'seed': 1})"
    )
    assert "ecarte.play" in loaded  # the game against an agent, without its screen
    assert list(terminal_modules(loaded)) == []


@pytest.mark.parametrize(
    ("module", "framework"),
    [
        ("ecarte.pettingzoo", "pettingzoo"),
        ("ecarte.gymnasium", "gymnasium"),
        ("ecarte.openspiel", "pyspiel"),
        ("ecarte.sb3", "stable_baselines3"),
    ],
)
def test_an_environment_loads_the_terminal_renderer_only_to_render_text(
    module: str, framework: str
) -> None:
    pytest.importorskip(framework)
    loaded = loaded_after(f"import {module}")
    if framework == "stable_baselines3":  # which loads rich itself
        loaded = {name for name in loaded if not name.startswith("rich")}
    assert list(terminal_modules(loaded)) == []
    if module in ("ecarte.pettingzoo", "ecarte.gymnasium"):
        make = (
            "ecarte.pettingzoo.env(render_mode='ansi')"
            if module == "ecarte.pettingzoo"
            else "ecarte.gymnasium.DuelEnv(render_mode='ansi')"
        )
        loaded = loaded_after(f"import {module}\ne = {make}\ne.reset(seed=1)\ne.render()")
        assert "ecarte.terminal" in loaded
