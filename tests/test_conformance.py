"""The conformance suite against agentkit's MCP server, each server a real subprocess (one background job,
tests/conform_job.py): over HTTP by the client's wheel installed on its own, and over stdio by the checkout's client
against a server with one planted divergence. In this process: the security probes against their planted unsafe
variants, and targets the suite cannot check or that are wrong in one known way, each served in a thread."""

from __future__ import annotations

import ast
import http.server
import inspect
import json
import pkgutil
import re
import shlex
import socket
import sys
import threading
import time
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path

import anyio
import pytest

from conformance import checks
from conformance.__main__ import main as conform
from conformance.checks import collect_checks
from conformance.checks.paths import NOTE, SENTINEL
from guidetools.gate import JobResult, background_fixture
from guidetools.project import REPO_ROOT
from mcp_server import build_server
from mcp_server.__main__ import ENDPOINT, http_server, seeded_workspace
from mcp_server.__main__ import refused as framework_refusal
from tests import conform_job
from tests.planted_server import plant
from tests.test_mcp_server import stand_in as tool_answering

CHECKS = collect_checks()
PLANTED_CLAIM = next(check.claim for check in CHECKS if check.__name__ == "navigate_to_url")
DOT_DOT_CLAIM = "unified-path.dot-dot-in-tool-paths"

# Both runs in one background job, so they overlap the gate's cheap tiers. Both servers keep the collections' files in
# the framework's default store, FileSystem, where a read resolves '..': the dot-dot probe must find the hazard on
# both. (The suite's checks assume that store: on AzureBlob a missing folder lists as [], S1, and a file read resolves
# '..' too, N9: tests/test_mesh.py.)
conformance_runs = background_fixture(
    "conformance_runs", lambda workdir: [sys.executable, str(REPO_ROOT / "tests" / "conform_job.py"), str(workdir)])


@pytest.fixture(scope="session")
def runs(conformance_runs: JobResult) -> dict[str, JobResult]:
    """Each run of the job by its name: its part of the output and its own folder (reports, server log)."""
    found = conform_job.sections(conformance_runs.output)
    assert set(found) == set(conform_job.RUNS), f"the conformance job printed the runs {sorted(found)}:\n{conformance_runs.output}"
    return {name: replace(conformance_runs, name=f"{conformance_runs.name}/{name}", output=output,
                          workdir=conformance_runs.workdir / name) for name, output in found.items()}


def conform_args(tmp_path: Path, *target: str) -> list[str]:
    return [*target, *conform_job.reports(tmp_path)]


def lines_of(output: str, start: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(start)]


def printed(result: JobResult, label: str) -> str:
    found = lines_of(result.output, f"{label}: ")
    assert len(found) == 1, result.output
    return found[0].split(": ", 1)[1]


def every_claim_judged(result: JobResult, failed: frozenset[str] = frozenset()) -> None:
    """Every claim of the suite passed except `failed`, which failed; the printout, pytest's JUnit XML (a testcase per
    check, with its claim as a property) and the report agree."""
    claims = {check.claim for check in CHECKS}
    passed = claims - failed
    assert f"conform exit: {1 if failed else 0}" in result.output, result.output
    judged = {label: {line.split()[1].rstrip(":") for line in lines_of(result.output, f"{label} ")} for label in ("PASS", "FAIL")}
    assert judged == {"PASS": passed, "FAIL": failed}, result.output
    assert f"{len(passed)} passed, {len(failed)} failed, 0 skipped" in result.output
    junit = ElementTree.parse(result.workdir / "junit.xml").getroot().find("testsuite")
    # Every testcase, not one per claim: a claim with two checks fails when either does.
    cases = [(case.find("properties/property[@name='claim']").get("value"), case) for case in junit.iter("testcase")]
    failing = {claim for claim, case in cases if case.find("failure") is not None}
    assert (junit.get("name"), junit.get("tests"), junit.get("skipped")) == ("conformance", str(len(CHECKS)), "0")
    assert {claim for claim, _ in cases} == claims and failing == failed and junit.get("failures") == str(len(failed)), failing
    report = (result.workdir / "report.md").read_text()
    assert report.startswith("# Conformance over MCP")
    assert all(f"| PASS | `{claim}` |" in report for claim in passed) and all(f"| FAIL | `{claim}` |" in report for claim in failed)


def test_the_installed_wheel_passes_the_whole_suite_over_http_with_a_header_and_the_server_stops_cleanly(runs):
    http = runs["http"]
    every_claim_judged(http)
    command = printed(http, "command")
    assert "/venv/bin/meshweaver-conform --url http://127.0.0.1:" in command
    assert "--header 'Authorization: Bearer conformance-test-token'" in command
    # Files cannot be deleted over MCP: the suite names each one it leaves; the nodes it created are gone.
    left = lines_of(http.output, "left behind: ")
    assert "left behind: Meridian/content/conformance/windows.md (no MCP tool deletes a file; the next run overwrites it)" in left
    assert all(line.endswith("(no MCP tool deletes a file; the next run overwrites it)") for line in left), left
    # SIGTERM (like Ctrl-C) stops the server cleanly; it logged one line per tool call.
    log = (http.workdir / "server.log").read_text().splitlines()
    assert http.output.rstrip().endswith("server exit: 0") and log[-1] == "stopped", log[-3:]
    calls = [line for line in log if line.startswith("call ")]
    tool_calls = int(http.output.split(" tool calls in ")[0].rsplit(" ", 1)[1])
    assert len(calls) == tool_calls and all(" chars in " in line for line in calls), calls[:3]


def test_the_installed_client_holds_the_mcp_sdk_and_no_docs_toolchain(runs):
    http = runs["http"]
    installed = {entry.split("==")[0].lower().replace("_", "-") for entry in printed(http, "installed").split()}
    assert {"meshweaver-conform", "mcp", "mcp-types", "httpx2", "anyio", "pytest"} <= installed
    # Nothing of the guide's own stack came along: no site generator, notebook, pytest plugin or document readers.
    assert not installed & {"agent-design-guide", "mkdocs", "mkdocs-material", "pytest-xdist", "pytest-timeout", "jupytext",
                            "matplotlib", "openpyxl", "pypdf", "ipykernel", "playwright"}, installed
    assert printed(http, "client").startswith(str(http.workdir / "venv")), http.output
    assert printed(http, "absent").split() == ["agentkit", "claimcheck", "guidetools", "mkdocs", "material", "xdist",
                                               "matplotlib", "jupytext", "openpyxl"]


def test_the_client_declares_the_mcp_sdk_and_imports_only_what_it_declares():
    """The contracts in pyproject.toml keep the checkout's packages out of conformance/; this keeps any other
    distribution out: its modules import the standard library, their declared requirements (pytest runs the checks)
    and each other."""
    project = tomllib.loads((REPO_ROOT / "conformance" / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"meshweaver-conform": "conformance.__main__:main"}
    names = {re.split("[<>=]", requirement)[0].strip() for requirement in project["dependencies"]}
    assert names == {"mcp", "mcp-types", "httpx2", "anyio", "pytest"}
    allowed = {name.replace("-", "_") for name in names} | {"conformance"} | set(sys.stdlib_module_names)
    for path in sorted((REPO_ROOT / "conformance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            imported = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            assert all(name.split(".")[0] in allowed for name in imported), f"{path.relative_to(REPO_ROOT)} imports {imported}"


def test_over_stdio_every_claim_passes_but_the_planted_divergence_which_is_named(runs):
    every_claim_judged(runs["stdio"], failed=frozenset({PLANTED_CLAIM}))
    planted = lines_of(runs["stdio"].output, f"FAIL {PLANTED_CLAIM}:")
    assert len(planted) == 1 and "navigate_to answered " in planted[0] and "not a URL" in planted[0], planted


# -- the security probes ------------------------------------------------------------------------------------

# Each plant of tests/planted_server.py that a probe must find: get decodes percent-escapes, create answers its refusals
# with the traceback, get_diagnostics (read-only) creates what it is asked about. The claim each probe checks, and
# what it reports on agentkit's server (PASS) and on that unsafe variant (FAIL).
PROBE_FINDINGS = {
    "decode-paths": ("unified-path.no-decoding",
        "encoded_separators_reach_the_store_as_typed: the store received conformance/%2e%2e/conformance/encoded-sentinel.md, "
        "conformance/%2E%2E%2Fconformance/encoded-sentinel.md, conformance%2fencoded-sentinel.md, "
        "conformance%5Cencoded-sentinel.md as typed (nothing decoded them)",
        "encoded_separators_reach_the_store_as_typed: get Meridian/content/conformance/%2e%2e/conformance/encoded-sentinel.md "
        "was decoded on its way to the store (to 'conformance/../conformance/encoded-sentinel.md')"),
    "error-details": ("mesh.errors-are-text",
        "error_answers_show_no_internals: 6 refused or failed calls answered no stack trace, exception type or "
        "server-side path",
        "error_answers_show_no_internals: create({\"node\": \"{not JSON\"}) answered a stack trace "
        "('Traceback (most recent call last)')"),
    "read-only-writes": ("mesh.tool-table",
        "read_only_tools_write_nothing: the read-only tools (get, get_chunk, get_diagnostics, navigate_to, search, "
        "search_chunks) wrote nothing at a path they were all given",
        "read_only_tools_write_nothing: get_diagnostics, annotated read-only, wrote: after get_diagnostics("),
}


def test_the_probes_on_agentkits_server(runs):
    """Over HTTP and over stdio, the security probes find agentkit's server safe. The FileSystem store resolves '..'
    when it reads a file: the dot-dot probe climbs out of the collection's folder and reads its sentinel back."""
    for run in runs.values():
        for claim, safe, _ in PROBE_FINDINGS.values():
            line = next(line for line in run.output.splitlines() if line.startswith(f"PASS {claim}"))
            # verifies: unified-path.no-decoding, mesh.errors-are-text, mesh.tool-table
            assert safe in line, line
        found = lines_of(run.output, f"PASS {DOT_DOT_CLAIM}: ")
        # verifies: unified-path.dot-dot-in-tool-paths
        assert len(found) == 1 and "HAZARD: Get leaves the collection's folder here: Meridian/content/../content/" in found[0], \
            run.output
        report = (run.workdir / "report.md").read_text()
        assert f"| PASS | `{DOT_DOT_CLAIM}` | dot_dot_reaches_the_store: HAZARD: Get leaves" in report, report


@contextmanager
def served_in_thread(tools: list, **options) -> Iterator[str]:
    """An MCP server over HTTP for `tools`, in a thread of this process (build_server's `options`): yields its URL."""
    web, listener = http_server(build_server(tools, log=lambda line: None, **options), "127.0.0.1", 0)
    thread = threading.Thread(target=anyio.run, args=(partial(web.serve, sockets=[listener]),), name="stand-in", daemon=True)
    thread.start()
    try:
        while not web.started:
            assert thread.is_alive(), "the stand-in server stopped before serving"
            time.sleep(0.005)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}{ENDPOINT}"
    finally:
        web.should_exit = True
        thread.join()


def test_each_security_probe_fails_its_planted_unsafe_variant(tmp_path, capsys):
    """agentkit's own tools with the probes' unsafe variants planted (tests/planted_server.py), behind the framework's
    argument filter, served in a thread of this process: the security probes alone must each FAIL, naming what they found."""
    _, tools = seeded_workspace()
    for name in PROBE_FINDINGS:
        tools = plant(name, tools)
    claims = [word for claim, _, _ in PROBE_FINDINGS.values() for word in ("--claim", claim)]
    with served_in_thread(tools, refuse=framework_refusal) as url:
        code = conform(conform_args(tmp_path, "--url", url, *claims))
    output = capsys.readouterr().out
    assert code == 1 and "0 passed, 3 failed, 0 skipped" in output, output
    for claim, _, unsafe in PROBE_FINDINGS.values():
        found = lines_of(output, f"FAIL {claim}: ")
        # verifies: unified-path.no-decoding, mesh.errors-are-text, mesh.tool-table
        assert len(found) == 1 and unsafe in found[0], output
    # The node the read-only tool wrote is deleted again by the run's clean-up.
    assert not lines_of(output, "left behind: Meridian/conformance-read-only-"), output


def stand_in(answers: dict[str, str | Callable[[dict], str]]):
    """An MCP server in a thread of this process whose tools answer fixed texts, or what a function of the arguments
    returns: a target that is wrong in one known way. A context manager that yields its URL."""
    return served_in_thread([tool_answering(name, answer) for name, answer in answers.items()])


def file_miss(arguments: dict) -> str:
    """A store that keeps '..' as part of a file's name (none at the pin): Get stays in the collection's folder."""
    return "Error: File '{}' not found in collection 'content'".format(arguments["path"].removeprefix("Meridian/content/"))


def inside_only(arguments: dict) -> str:
    """A store that resolves '..' inside the collection, but whose folder the probe cannot name from outside it."""
    inside = arguments["path"] == "Meridian/content/conformance/../conformance/dot-dot-sentinel.md"
    return json.dumps(SENTINEL) if inside else "Error: File 'x' not found in collection 'content'"


def percent_as_typed(arguments: dict) -> str:
    """A store that lists a missing folder as empty ([]) for every path, so no answer shows which name reached it;
    the claim's other check (a name with %20 read as typed) passes."""
    path = arguments["path"]
    return json.dumps(NOTE) if path.endswith("/two%20words.md") else \
        "Error: File 'conformance/two words.md' not found in collection 'content'" if path.endswith("/two words.md") else "[]"


UPLOADED = '{"status":"Uploaded","path":"Meridian/content/conformance/x.md","bytes":41}'


@pytest.mark.parametrize("claim, answers, code, finding", [
    (DOT_DOT_CLAIM, {"get": inside_only}, 0,
     f"PASS {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: cannot tell whether Get leaves"),
    (DOT_DOT_CLAIM, {"get": file_miss}, 0,
     f"PASS {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: Get stays in the collection's folder"),
    (DOT_DOT_CLAIM, {"get": lambda arguments: "Error: a path must not contain '..'"}, 1,  # refused before the store
     f"FAIL {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: get Meridian/content/conformance/../"),
    ("unified-path.no-decoding", {"get": percent_as_typed}, 0,
     "SKIP unified-path.no-decoding: encoded_separators_reach_the_store_as_typed: cannot tell on this host: "
     "no answer named the file as sent"),
    # a host that answers every malformed call as if it were fine shows no error text to inspect
    ("mesh.errors-are-text", dict.fromkeys(("get", "create", "update", "patch", "search", "get_chunk"), "ok"), 0,
     "error_answers_show_no_internals: cannot tell on this host: it answered none of the probe's malformed calls"),
], ids=["dot-dot: cannot tell", "dot-dot as a name", "dot-dot refused before the store", "encoded: cannot tell",
        "error details: cannot tell"])
def test_probes_on_hosts_unlike_agentkits(tmp_path, capsys, claim, answers, code, finding):
    with stand_in({"upload": UPLOADED, "delete": "ok", **answers}) as url:
        exit_code = conform(conform_args(tmp_path, "--url", url, "--claim", claim))
    out = capsys.readouterr().out
    # verifies: unified-path.dot-dot-in-tool-paths, unified-path.no-decoding, mesh.errors-are-text
    assert exit_code == code and finding in out, out


# -- targets the suite cannot check: one line, exit 2 ---------------------------------------------------


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound and never listened on, held for the test: a connection to it is refused, and no server the gate
    starts meanwhile can take it (a port found free and let go could be)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture(scope="module")
def plain_http() -> Iterator[str]:
    """A web server that is not MCP: 401 on /private, a page everywhere else."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the stdlib's name)
            status, body = (401, b"no") if self.path == "/private" else (200, b"<html>hello</html>")
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def refused(arguments: list[str], capsys) -> str:
    code = conform(arguments)
    captured = capsys.readouterr()
    assert code == 2, captured.out + captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("conform: ") and "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize("target, expected", [
    (lambda web, port: ["--url", f"http://127.0.0.1:{port}/mcp"], lambda web: "cannot reach http://127.0.0.1:"),
    (lambda web, port: ["--url", f"{web}/mcp"],
     lambda web: "is not an MCP endpoint: it answered an MCP initialize request with text/html, not JSON-RPC"),
    (lambda web, port: ["--url", f"{web}/private", "--header", "Authorization: Bearer wrong"],
     lambda web: f"conform: authentication failed at {web}/private (HTTP 401): the credentials were refused"),
], ids=["unreachable", "not MCP", "auth failure"])
def test_an_unreachable_non_mcp_or_refusing_url_is_one_line(plain_http, closed_port, tmp_path, capsys, target, expected):
    assert expected(plain_http) in refused(conform_args(tmp_path, *target(plain_http, closed_port)), capsys)


def test_missing_tool(tmp_path, capsys):
    with stand_in({"get": "Not found: x"}) as url:
        line = refused(conform_args(tmp_path, "--url", url), capsys)
    assert "lacks tool(s) the suite needs: " in line and "get_chunk" in line and "(it offers: get)" in line


def test_answer_of_unexpected_shape(tmp_path, capsys):
    needed = set().union(*(check.needs for check in CHECKS)) | {"delete"}
    answers = {name: "plain text, not JSON" for name in needed}
    answers["upload"] = '{"status":"Uploaded","path":"x","bytes":1}'
    answers["get_chunk"] = '{"found":true,"totalChunks":3}'
    claim = next(check.claim for check in CHECKS if check.__name__ == "search_chunks_shape")
    with stand_in(answers) as url:
        line = refused(conform_args(tmp_path, "--url", url, "--claim", claim), capsys)
    assert line.startswith("conform: search_chunks(") and line.endswith("answered text where JSON was expected: plain text, not JSON")


def test_a_stdio_server_that_dies_is_named_with_its_last_words(tmp_path, capsys):
    command = shlex.join([sys.executable, "-c", "import sys; sys.exit('no workspace here')"])
    line = refused(conform_args(tmp_path, "--command", command), capsys)
    assert line.startswith("conform: cannot talk MCP with stdio: ") and line.endswith("(the server said: no workspace here)")


def test_every_check_names_its_claim_in_its_verifies_comments():
    """A check's asserts carry `# verifies: <its claim>`, so the claims page counts exactly what conform reports."""
    for check in CHECKS:
        named = set(re.findall(r"# verifies: (\S+)", inspect.getsource(check)))
        assert named == {check.claim}, f"{check.__module__}.{check.__name__} is marked for {check.claim} but verifies {named}"


def test_the_checks_are_collected_from_every_module_of_the_package_in_its_order():
    """A module of checks left out of MODULES would never run; each module gives its checks in the order it defines them."""
    assert {module.__name__ for module in checks.MODULES} == {
        f"{checks.__name__}.{found.name}" for found in pkgutil.iter_modules(checks.__path__)}
    for module in checks.MODULES:
        defined = [check for check in CHECKS if check.__module__ == module.__name__]
        assert defined, f"{module.__name__} defines no check"
        # Counted in the source too: a second check under a name already taken would replace the first unseen.
        decorated = inspect.getsource(module).count("\n@check(")
        assert len(defined) == decorated, f"{module.__name__} decorates {decorated} checks, {len(defined)} are collected"
        lines = [inspect.getsourcelines(check)[1] for check in defined]
        assert lines == sorted(lines), f"{module.__name__}'s checks are not collected in the order it defines them"
    order = [module.__name__ for module in checks.MODULES]
    assert [check.__module__ for check in CHECKS] == sorted((check.__module__ for check in CHECKS), key=order.index)
    assert collect_checks() == CHECKS, "a second collection gives the same checks"
