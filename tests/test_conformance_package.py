"""The conformance client as a tool of its own (conformance/pyproject.toml): its wheel, installed into a fresh
virtual environment from a wheelhouse of the pins this checkout already has, runs `meshweaver-conform` against
agentkit's MCP server with none of the guide's docs toolchain installed. One background job
(tests/conform_package_job.py) builds, installs and runs; these tests read what it printed."""

from __future__ import annotations

import sys
import tomllib
import xml.etree.ElementTree as ElementTree

import pytest

from guidetools.gate import JobResult, background_fixture
from guidetools.project import REPO_ROOT

# A few claims are enough to show the installed client works end to end (the whole suite runs in test_conformance.py):
# the tool table (tools/list and annotations) and a probe that uploads, reads and reports a finding.
CLAIMS = ("mesh.tool-table", "unified-path.dot-dot-in-tool-paths")

conformance_package = background_fixture(
    "conformance_package",
    lambda workdir: [sys.executable, str(REPO_ROOT / "tests" / "conform_package_job.py"), str(workdir),
                     *(option for claim in CLAIMS for option in ("--claim", claim))],
)


def printed(result: JobResult, label: str) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith(f"{label}: ")]
    assert len(lines) == 1, result.output
    return lines[0].split(": ", 1)[1]


@pytest.fixture(scope="session")
def package_run(conformance_package: JobResult) -> JobResult:
    assert conformance_package.ok, conformance_package.output
    return conformance_package


def test_the_client_declares_the_mcp_sdk_and_imports_only_what_it_declares():
    """The contracts in pyproject.toml keep the checkout's packages out of conformance/; this keeps any other
    distribution out: its modules import the standard library, their declared requirements and each other."""
    import ast

    project = tomllib.loads((REPO_ROOT / "conformance" / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"meshweaver-conform": "conformance.__main__:main"}
    names = {requirement.split(">")[0].split("=")[0].split("<")[0].strip() for requirement in project["dependencies"]}
    assert names == {"mcp", "mcp-types", "httpx2", "anyio"}
    allowed = {name.replace("-", "_") for name in names} | {"conformance"} | set(sys.stdlib_module_names)
    for path in sorted((REPO_ROOT / "conformance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            imported = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            assert all(name.split(".")[0] in allowed for name in imported), f"{path.relative_to(REPO_ROOT)} imports {imported}"


def test_the_installed_client_holds_the_mcp_sdk_and_no_docs_toolchain(package_run: JobResult):
    installed = {entry.split("==")[0].lower().replace("_", "-") for entry in printed(package_run, "installed").split()}
    assert {"meshweaver-conform", "mcp", "mcp-types", "httpx2", "anyio"} <= installed
    # Nothing of the guide's own stack came along: no site generator, notebook, test runner or document readers.
    assert not installed & {"agent-design-guide", "mkdocs", "mkdocs-material", "pytest", "jupytext", "matplotlib",
                            "openpyxl", "pypdf", "ipykernel", "playwright"}, installed
    assert printed(package_run, "client").startswith(str(package_run.workdir / "venv")), package_run.output
    assert printed(package_run, "absent").split() == ["agentkit", "claimcheck", "guidetools", "mkdocs", "material", "pytest",
                                                      "matplotlib", "jupytext", "openpyxl"]


def test_meshweaver_conform_runs_with_a_header_and_writes_its_reports(package_run: JobResult):
    output = package_run.output
    assert "/venv/bin/meshweaver-conform --url http://127.0.0.1:" in printed(package_run, "command")
    assert "--header 'Authorization: Bearer conformance-test-token'" in printed(package_run, "command")
    assert "conform exit: 0" in output and f"{len(CLAIMS)} passed, 0 failed, 0 skipped" in output, output
    junit = ElementTree.parse(package_run.workdir / "junit.xml").getroot()
    assert {case.get("name") for case in junit.iter("testcase")} == set(CLAIMS)
    assert output.rstrip().endswith("server exit: 0")
