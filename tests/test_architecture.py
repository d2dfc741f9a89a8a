"""The package's import graph: no cycle, type-only and function-local imports included, and the core
never imports the guide layer (agentkit.guide imports agentkit, never the other way round)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from guidetools.project import REPO_ROOT

GUIDE = "agentkit.guide"


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under `root` by its dotted name (a package by its own name)."""
    modules = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports anywhere in its source: at the top, under
    `if TYPE_CHECKING:`, inside functions. `from P import M` counts as importing the module P.M when
    there is one, and P itself otherwise."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    found.add(f"{base}.{alias.name}")
                elif base in modules:
                    found.add(base)
    return found - {name}


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    modules = module_names(root, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle once, as the path that closes it (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def core_imports_of_guide(graph: dict[str, set[str]]) -> list[str]:
    """`core -> guide` for every import from agentkit's core into the guide layer."""
    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  if not _in_guide(module) for target in targets if _in_guide(target))


def _in_guide(module: str) -> bool:
    return module == GUIDE or module.startswith(GUIDE + ".")


@functools.cache
def agentkit_graph() -> dict[str, frozenset[str]]:
    """The checkout's own graph, read once for the tests below (neither changes it)."""
    return {name: frozenset(targets) for name, targets in import_graph(REPO_ROOT, "agentkit").items()}


def test_agentkit_imports_form_no_cycle():
    """No module of agentkit reaches itself through its imports, counting type-only and local ones."""
    graph = agentkit_graph()
    assert "agentkit._mesh" in graph and "agentkit.guide._scenarios" in graph  # the walk saw both layers
    assert cycles(graph) == []


def test_the_core_never_imports_the_guide_layer():
    """agentkit.guide imports agentkit; nothing outside agentkit.guide imports it."""
    graph = agentkit_graph()
    assert "agentkit._mesh" in graph["agentkit.guide._scenarios"]  # the guide does import the core
    assert core_imports_of_guide(graph) == []


def _plant(root: Path, files: dict[str, str]) -> Path:
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return root


def test_a_planted_type_only_cycle_and_a_local_import_of_the_guide_are_caught(tmp_path):
    """The walk is able to fail: a cycle closed only under TYPE_CHECKING, and a function-local import
    of the guide layer from the core, are both found."""
    root = _plant(tmp_path, {
        "agentkit/__init__.py": "from ._mesh import Mesh\n",
        "agentkit/_mesh.py": "from ._index import Index\nclass Mesh: ...\n",
        "agentkit/_index.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._chunks import Chunk\nclass Index: ...\n"),
        "agentkit/_chunks.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from agentkit._mesh import Mesh\n"
            "def show():\n    from .guide import _report\n    return _report\n"),
        "agentkit/guide/__init__.py": "from agentkit import Mesh\nfrom . import _report\n",
        "agentkit/_paths.py": "",
        "agentkit/guide/_report.py": "from .. import _paths\n",
    })
    graph = import_graph(root, "agentkit")
    assert cycles(graph) == [["agentkit._chunks", "agentkit._index", "agentkit._mesh"]]
    assert core_imports_of_guide(graph) == ["agentkit._chunks -> agentkit.guide._report"]
    assert graph["agentkit.guide"] == {"agentkit", "agentkit.guide._report"}
    assert graph["agentkit.guide._report"] == {"agentkit._paths"}


def test_the_planted_package_without_its_circle_passes(tmp_path):
    """The same package with the type-only import and the guide import removed has no finding."""
    root = _plant(tmp_path, {
        "agentkit/__init__.py": "from ._mesh import Mesh\n",
        "agentkit/_mesh.py": "from ._index import Index\nclass Mesh: ...\n",
        "agentkit/_index.py": "class Index: ...\n",
        "agentkit/guide/__init__.py": "import agentkit\n",
    })
    graph = import_graph(root, "agentkit")
    assert cycles(graph) == [] and core_imports_of_guide(graph) == []
