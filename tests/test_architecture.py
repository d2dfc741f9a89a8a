"""The checkout's import graph, by the import-linter contracts of pyproject.toml ([tool.importlinter]), and the
distributions claimcheck declares."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from guidetools.project import REPO_ROOT

# snippets/ and tests/ are namespace packages: another checkout on the path would lend them its modules.
LINT = """
import os, sys
root = sys.argv[1]
sys.path[:] = [root] + [p for p in sys.path if p and not os.path.isdir(os.path.join(p, "agentkit"))]
sys.argv = ["lint-imports", "--no-cache", os.path.join(root, "pyproject.toml")]
from importlinter.cli import lint_imports_command
lint_imports_command()
"""
PACKAGES = ("agentkit", "claimcheck", "guidetools", "mcp_server", "conformance", "snippets", "tests")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", LINT, str(root)], cwd=root, env=environment,
                          capture_output=True, text=True, timeout=120)


def judged(output: str) -> dict[str, str]:
    return {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in output.splitlines()
            if line.endswith((" KEPT", " BROKEN"))}


def test_the_checkout_keeps_every_import_contract():
    run = lint_imports(REPO_ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(judged(run.stdout)) == 9 and set(judged(run.stdout).values()) == {"KEPT"}, run.stdout


def test_the_snippets_contract_names_every_private_module_of_claimcheck():
    """import-linter's wildcards match whole module names, so the private modules are listed: all of them."""
    contracts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    listed = next(contract for contract in contracts if contract["name"] == "snippets import claimcheck's public modules only")
    assert listed["forbidden_modules"] == [f"claimcheck.{path.stem}" for path in sorted((REPO_ROOT / "claimcheck").glob("_*.py"))
                                           if path.stem != "__init__"]


PLANTS = {
    # One per contract; inside functions and under TYPE_CHECKING too.
    "snippets/mesh_plugin_02_create.py": "import guidetools.project\n",
    "snippets/unified_path_02_canonical.py": "from claimcheck._marks import LABELS\n",
    "claimcheck/pytest_plugin.py": "def _again():\n    from guidetools import claims\n",
    "agentkit/_tokens.py": "def _checker():\n    import claimcheck\n",
    "agentkit/_paths.py": ("def _guide():\n    from agentkit.guide import workspace\n"
                           "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from agentkit._mesh import Mesh\n"),
    "mcp_server/server.py": "def _plants():\n    from tests import planted_server\n",
    "guidetools/review.py": "def _snippet():\n    import snippets.support.node_rule\n",
    "conformance/suite.py": "def _model():\n    import agentkit\n",
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("planted")
    shutil.copy(REPO_ROOT / "pyproject.toml", root)
    for package in PACKAGES:
        shutil.copytree(REPO_ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__", "*.md", "output"))
    for relative, source in PLANTS.items():
        with (root / relative).open("a", encoding="utf-8") as file:
            file.write("\n" + source)
    run = lint_imports(root)
    assert run.returncode == 1, run.stdout + run.stderr
    return run.stdout


def test_each_contract_fails_on_its_planted_import(planted: str):
    assert len(judged(planted)) == 9 and set(judged(planted).values()) == {"BROKEN"}, planted
    for caught in ("snippets.mesh_plugin_02_create -> guidetools.project",
                   "snippets.unified_path_02_canonical -> claimcheck._marks",
                   "claimcheck.pytest_plugin -> guidetools.claims",
                   "agentkit._tokens -> claimcheck",
                   "agentkit._paths -> agentkit.guide",
                   "mcp_server.server -> tests.planted_server",
                   "guidetools.review -> snippets.support.node_rule",
                   "conformance.suite -> agentkit"):
        assert caught in planted, caught


def test_claimcheck_declares_every_distribution_it_imports():
    """Exactly those whose modules it imports anywhere, so `pip install ./claimcheck` brings what it needs."""
    providers = metadata.packages_distributions()
    imported = set()
    for path in (REPO_ROOT / "claimcheck").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            imported |= {name.split(".")[0] for name in names}
    outside = imported - set(sys.stdlib_module_names) - {"claimcheck"}
    distributions = {providers[name][0].lower() for name in outside}
    declared = tomllib.loads((REPO_ROOT / "claimcheck" / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert {re.split(r"[<>=!~ ]", requirement)[0].lower() for requirement in declared} == distributions
