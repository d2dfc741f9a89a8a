"""The conformance suite against agentkit's MCP server in subprocesses: over HTTP by the installed client in a background
job (tests/conform_job.py), over stdio by the checkout's client in this process; and, in this process, against planted
unsafe variants and targets it cannot check or that are wrong in one known way."""

from __future__ import annotations

import ast
import http.server
import inspect
import io
import json
import pkgutil
import re
import runpy
import shlex
import shutil
import sys
import threading
import time
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, redirect_stderr, redirect_stdout
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest

from conformance import checks
from conformance.__main__ import main as conform
from conformance.checks.paths import NOTE, SENTINEL
from guidetools.gate import JobResult, background_fixture
from guidetools.project import REPO_ROOT
from mcp_server import build_server
from mcp_server.__main__ import ENDPOINT, http_server, seeded_workspace
from mcp_server.__main__ import refused as framework_refusal
from tests import conform_job
from tests.conform_package_job import NOT_THE_PACKAGE
from tests.planted_server import plant
from tests.test_mcp_server import stand_in as tool_answering

CHECKS = checks.collect_checks()
PLANTED_CLAIM = next(check.claim for check in CHECKS if check.__name__ == "navigate_to_url")
DOT_DOT_CLAIM = "unified-path.dot-dot-in-tool-paths"

# One background job, overlapping the gate's cheap tiers. Both servers use the default store, FileSystem (the suite's
# checks assume it: on AzureBlob a missing folder lists as [], S1: tests/test_mesh.py).
conformance_runs = background_fixture(
    "conformance_runs", lambda workdir: [sys.executable, str(REPO_ROOT / "tests" / "conform_job.py"), str(workdir)])


@pytest.fixture(scope="session")
def stdio_run(tmp_path_factory: pytest.TempPathFactory) -> JobResult:
    """The checkout's client over stdio against a server whose navigate_to answers the node's path, not its URL."""
    workdir = tmp_path_factory.mktemp("stdio")
    server = [sys.executable, str(REPO_ROOT / "tests" / "planted_server.py"), "--stdio", "--plant", "navigate-to-path"]
    started = time.perf_counter()
    with redirect_stdout(io.StringIO()) as out, redirect_stderr(out):
        code = conform(conform_args(workdir, "--command", shlex.join(server)))
    return JobResult("stdio", code, f"{out.getvalue()}conform exit: {code}\n", time.perf_counter() - started, workdir)


def conform_args(tmp_path: Path, *target: str) -> list[str]:
    return [*target, *conform_job.reports(tmp_path)]


def lines_of(output: str, start: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(start)]


def printed(result: JobResult, label: str) -> str:
    found = lines_of(result.output, f"{label}: ")
    assert len(found) == 1, result.output
    return found[0].split(": ", 1)[1]


def every_claim_judged(result: JobResult, failed: frozenset[str] = frozenset()) -> None:
    """Every claim passed but `failed`, which failed, in the printout, the JUnit XML and the report alike."""
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


def test_over_stdio_every_claim_passes_but_the_planted_divergence_which_is_named(stdio_run):
    every_claim_judged(stdio_run, failed=frozenset({PLANTED_CLAIM}))
    planted = lines_of(stdio_run.output, f"FAIL {PLANTED_CLAIM}:")
    assert len(planted) == 1 and "navigate_to answered " in planted[0] and "not a URL" in planted[0], planted


def test_the_installed_wheel_passes_the_whole_suite_over_http_with_a_header_and_the_server_stops_cleanly(conformance_runs):
    http = conformance_runs
    every_claim_judged(http)
    # The client's own environment, built from this tree's conformance/ or reused where nothing it holds changed.
    environment = re.fullmatch(r"client (?:built now|reused): (\S+) in \d+\.\d\d s", lines_of(http.output, "client ")[0])[1]
    assert Path(environment).parent == Path(sys.prefix) / "conformance-client", environment
    command = printed(http, "command")
    assert command.startswith(f"{environment}/bin/meshweaver-conform --url http://127.0.0.1:"), command
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
    # The installed client holds the MCP SDK and nothing of the guide's own stack.
    installed = {entry.split("==")[0].lower().replace("_", "-") for entry in printed(http, "installed").split()}
    assert {"meshweaver-conform", "mcp", "mcp-types", "httpx2", "anyio", "pytest"} <= installed
    assert not installed & {"agent-design-guide", "mkdocs", "mkdocs-material", "pytest-xdist", "pytest-timeout", "jupytext",
                            "matplotlib", "openpyxl", "pypdf", "ipykernel", "playwright"}, installed
    assert printed(http, "client").startswith(f"{environment}/lib/"), http.output
    assert printed(http, "absent").split() == ["agentkit", "claimcheck", "guidetools", "mkdocs", "material", "xdist",
                                               "matplotlib", "jupytext", "openpyxl"]


def package_copy(tmp_path: Path) -> Path:
    # Under a folder named build: the key leaves out build output inside the package, never the path above it.
    return shutil.copytree(REPO_ROOT / "conformance", tmp_path / "build" / "conformance",
                           ignore=shutil.ignore_patterns(*NOT_THE_PACKAGE))


@pytest.fixture
def job(monkeypatch: pytest.MonkeyPatch):
    """tests/conform_package_job.py with the client's distributions found once: each key reads them all again."""
    from tests import conform_package_job as job

    requires = tomllib.loads((REPO_ROOT / "conformance" / "pyproject.toml").read_text())["project"]["dependencies"]
    found = [SimpleNamespace(metadata={"Name": dist.metadata["Name"]}, version=dist.version)
             for dist in job.closure(requires, frozenset())]

    def found_once(*arguments):
        assert arguments == (requires, frozenset()), f"the key reads the distributions of {arguments}"
        return found

    monkeypatch.setattr(job, "closure", found_once)
    return job


def test_the_client_environment_key_moves_with_every_file_and_every_version_that_goes_into_it(tmp_path, monkeypatch, job):
    """The gate reuses the client's environment while its key holds (tests/conform_package_job.py): a changed byte in
    any file of conformance/, a file added, or the version of a repacked distribution, the build backend or pip moves
    the key; bytecode and build output do not."""
    package = package_copy(tmp_path)
    keys = {job.environment_key(package)}
    litter = [package / "__pycache__" / "suite.cpython-311.pyc", package / "build" / "lib" / "suite.py",
              package / "meshweaver_conform.egg-info" / "PKG-INFO"]  # left by Python and by pip install ./conformance
    for path in litter:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("stale")
    assert job.environment_key(package) in keys, "bytecode or build output moved the key"
    sources = sorted(path for path in package.rglob("*") if path.is_file() and path.parent not in {p.parent for p in litter})
    assert {path.name for path in sources} >= {"README.md", "coverage.toml", "pyproject.toml", "suite.py"}
    for path in sources:
        original = path.read_bytes()
        path.write_bytes(original + b" ")
        keys.add(job.environment_key(package))
        path.write_bytes(original)
    (package / "checks" / "new_module.py").write_text("")
    keys.add(job.environment_key(package))
    (package / "checks" / "new_module.py").unlink()
    assert len(keys) == 1 + len(sources) + 1, f"{len(keys)} keys for {len(sources)} edited files and a new one"
    real_version, found_once = job.metadata.version, job.closure
    for name in ("setuptools", "pip"):  # the build backend, the installer
        with monkeypatch.context() as patched:
            patched.setattr(job.metadata, "version", lambda asked, name=name: "0.0" if asked == name else real_version(asked))
            keys.add(job.environment_key(package))
    monkeypatch.setattr(job, "closure", lambda *args: [  # a repacked distribution
        SimpleNamespace(metadata=dist.metadata, version="0.0" if dist.metadata["Name"] == "anyio" else dist.version)
        for dist in found_once(*args)])
    keys.add(job.environment_key(package))
    assert len(keys) == 1 + len(sources) + 1 + 3, "a version that goes into the environment did not move the key"


def test_the_client_environment_is_reused_only_once_installed_and_an_older_one_goes_unless_in_use(tmp_path, monkeypatch, job):
    """installed_once (tests/conform_package_job.py) with the wheel's build and install stood in for: the first call
    builds, the next reuses; an install that broke off is built again; a changed key removes the older environment,
    except one a run elsewhere holds."""
    from filelock import FileLock, ReadWriteLock

    installs: list[Path] = []

    def install(wheel: Path, environment: Path) -> Path:
        installs.append(environment)
        environment.mkdir(parents=True)
        if (tmp_path / "break").exists():
            raise OSError("the install broke off")
        return environment / "bin" / "python"

    monkeypatch.setattr(job, "build_wheel", lambda package, workdir: workdir / "client.whl")
    monkeypatch.setattr(job, "install_alone", install)
    package, cache = package_copy(tmp_path), tmp_path / "cache"

    def use() -> str:
        with job.installed_once(package, cache, tmp_path) as (python, how):
            assert python.parents[1] == cache / job.environment_key(package)
            return how

    (tmp_path / "break").touch()
    with pytest.raises(OSError, match="broke off"):
        use()
    (tmp_path / "break").unlink()
    assert [use(), use()] == ["built now", "reused"] and len(installs) == 2, installs
    first = installs[-1]
    (package / "suite.py").write_text((package / "suite.py").read_text() + "\n")
    assert use() == "built now" and not first.exists(), "the older environment stayed"
    second = installs[-1]
    with ReadWriteLock(second / "in-use", is_singleton=False).read_lock():  # a run in another checkout uses it
        (package / "suite.py").write_text((package / "suite.py").read_text() + "\n")
        assert use() == "built now" and second.exists(), "an environment in use was removed"
    assert sorted(path.name for path in cache.iterdir() if path.is_dir()) == sorted([second.name, installs[-1].name])
    # installed_once holds what it yields, and only until its caller is done; the build lock is free meanwhile.
    with job.installed_once(package, cache, tmp_path) as (python, _):
        held = python.parents[1]
        with FileLock(cache / "lock", timeout=0, is_singleton=False):
            pass  # another gate is not kept waiting for this one's whole run
        (package / "suite.py").write_text((package / "suite.py").read_text() + "\n")
        assert use() == "built now" and held.exists(), "the environment a run was using was removed"
    (package / "suite.py").write_text((package / "suite.py").read_text() + "\n")
    assert use() == "built now" and not held.exists(), "an environment stayed held after its run"


def test_the_client_declares_the_mcp_sdk_and_imports_only_what_it_declares():
    """Beyond the import contracts: conformance/ imports the standard library, its declared requirements and itself."""
    project = tomllib.loads((REPO_ROOT / "conformance" / "pyproject.toml").read_text())["project"]
    names = {re.split("[<>=]", requirement)[0].strip() for requirement in project["dependencies"]}
    assert names == {"mcp", "mcp-types", "httpx2", "anyio", "pytest"}
    allowed = {name.replace("-", "_") for name in names} | {"conformance"} | set(sys.stdlib_module_names)
    for path in sorted((REPO_ROOT / "conformance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            imported = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            assert all(name.split(".")[0] in allowed for name in imported), f"{path.relative_to(REPO_ROOT)} imports {imported}"


# -- the security probes ------------------------------------------------------------------------------------

# Each plant of tests/planted_server.py a probe must find: its claim, the probe's report on agentkit's server (PASS)
# and on that unsafe variant (FAIL).
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


def test_the_probes_on_agentkits_server(stdio_run, conformance_runs):
    """Both runs find agentkit's server safe; its FileSystem store resolves '..', so the dot-dot probe finds the hazard."""
    for run in (stdio_run, conformance_runs):
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
    """agentkit's tools with the unsafe variants planted, behind the framework's argument filter: each probe FAILs."""
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
    """A target that is wrong in one known way: tools that answer a text, or what a function of the arguments returns."""
    return served_in_thread([tool_answering(name, answer) for name, answer in answers.items()])


MISS = "Error: File '{}' not found in collection 'content'"
UPLOADED = '{"status":"Uploaded","path":"Meridian/content/conformance/x.md","bytes":41}'


@pytest.mark.parametrize("claim, answers, code, finding", [
    # a store that resolves '..' inside the collection, but whose folder the probe cannot name from outside it
    (DOT_DOT_CLAIM, {"get": lambda arguments: json.dumps(SENTINEL) if arguments["path"] ==
                     "Meridian/content/conformance/../conformance/dot-dot-sentinel.md" else MISS.format("x")}, 0,
     f"PASS {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: cannot tell whether Get leaves"),
    # a store that keeps '..' as part of a file's name (none at the pin)
    (DOT_DOT_CLAIM, {"get": lambda arguments: MISS.format(arguments["path"].removeprefix("Meridian/content/"))}, 0,
     f"PASS {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: Get stays in the collection's folder"),
    (DOT_DOT_CLAIM, {"get": lambda arguments: "Error: a path must not contain '..'"}, 1,  # refused before the store
     f"FAIL {DOT_DOT_CLAIM}: dot_dot_reaches_the_store: get Meridian/content/conformance/../"),
    # a store that lists every missing folder as []; the claim's other check (a name with %20 read as typed) passes
    ("unified-path.no-decoding", {"get": lambda arguments: json.dumps(NOTE) if arguments["path"].endswith("/two%20words.md")
                                  else MISS.format("conformance/two words.md") if arguments["path"].endswith("/two words.md")
                                  else "[]"}, 0,
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


@pytest.fixture(scope="module")
def plain_http() -> Iterator[str]:
    """A web server that is not MCP: 401 on /private, a page everywhere else."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the stdlib's name)
            self.send_error(401 if self.path == "/private" else 200)  # an HTML page either way

        log_message = lambda self, *args: None  # noqa: E731 (a logged request would be a second line on stderr)

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}"
        server.shutdown()


# Every tool the suite needs answers text where JSON is expected, but those its fixtures read first.
NO_JSON = {**dict.fromkeys(set().union(*(check.needs for check in CHECKS)) | {"delete"}, "plain text, not JSON"),
           "upload": '{"status":"Uploaded","path":"x","bytes":1}', "get_chunk": '{"found":true,"totalChunks":3}'}


@pytest.mark.parametrize("answers, target, expected", [
    # port 0: no server can listen there
    (None, lambda web, url: ["--url", "http://127.0.0.1:0/mcp"], r"^conform: cannot reach http://127\.0\.0\.1:0/mcp"),
    (None, lambda web, url: ["--url", f"{web}/mcp"],
     r"is not an MCP endpoint: it answered an MCP initialize request with text/html, not JSON-RPC"),
    (None, lambda web, url: ["--url", f"{web}/private", "--header", "Authorization: Bearer wrong"],
     r"^conform: authentication failed at {web}/private \(HTTP 401\): the credentials were refused"),
    ({"get": "Not found: x"}, lambda web, url: ["--url", url],
     r"lacks tool\(s\) the suite needs: .*get_chunk.*\(it offers: get\)"),
    (NO_JSON, lambda web, url: ["--url", url, "--claim", "chunks.search-chunks-shape"],
     r"^conform: search_chunks\(.*answered text where JSON was expected: plain text, not JSON$"),
    (None, lambda web, url: ["--command", shlex.join([sys.executable, "-c", "import sys; sys.exit('no workspace here')"])],
     r"^conform: cannot talk MCP with stdio: .*\(the server said: no workspace here\)$"),
], ids=["unreachable", "not MCP", "auth failure", "missing tool", "answer of unexpected shape", "stdio server dies"])
def test_a_target_the_suite_cannot_check_is_one_line_and_exit_2(plain_http, tmp_path, capsys, answers, target, expected):
    with nullcontext() if answers is None else stand_in(answers) as url:
        code = conform(conform_args(tmp_path, *target(plain_http, url)))
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("conform: ") and "Traceback" not in captured.err, \
        captured.out + captured.err
    assert re.search(expected.replace("{web}", re.escape(plain_http)), lines[0]), lines[0]


def test_python_m_conformance_exits_with_mains_code(tmp_path, monkeypatch, capsys):
    """`python -m conformance` (what dev.py conform runs) is main() with the command line, its code the exit status."""
    monkeypatch.setattr(sys, "argv", ["conformance", *conform_args(tmp_path, "--url", "http://127.0.0.1:0/mcp")])
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(REPO_ROOT / "conformance" / "__main__.py"), run_name="__main__")
    assert exited.value.code == 2 and "conform: cannot reach http://127.0.0.1:0/mcp" in capsys.readouterr().err


def test_the_checks_are_collected_from_every_module_of_the_package_in_its_order():
    """A module of checks left out of MODULES would never run; each module gives its checks in the order it defines them,
    and a check's asserts carry `# verifies: <its claim>`, so the claims page counts exactly what conform reports."""
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
        for check in defined:
            named = set(re.findall(r"# verifies: (\S+)", inspect.getsource(check)))
            assert named == {check.claim}, f"{module.__name__}.{check.__name__} is marked for {check.claim} but verifies {named}"
    order = [module.__name__ for module in checks.MODULES]
    assert [check.__module__ for check in CHECKS] == sorted((check.__module__ for check in CHECKS), key=order.index)
    assert checks.collect_checks() == CHECKS, "a second collection gives the same checks"
