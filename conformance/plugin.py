"""The pytest plugin that runs conformance/checks/ against one MCP target (`-p conformance.plugin`).

It adds the target's options, collects each `@check` function as a test marked with its claim (a `claim`
property in the JUnit XML), and opens one connection per run: the session fixture `fx`, whose clean-up at the end
deletes what the run created. A target that cannot be checked at all (`BadTarget`) stops the run with exit
status 2 and one line on stderr. The terminal summary gives PASS, FAIL or SKIP per claim, with the reason (a
PASS with what the check noted), the fixtures left behind and the run's tool calls; `--report` writes it as
Markdown for a CI job summary.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conformance.session import BadTarget, Connection, Target, parse_header
from conformance.suite import Fixtures, is_check

LABELS = {"failed": "FAIL", "skipped": "SKIP", "passed": "PASS"}  # in the order the claims are shown


@dataclass
class Run:
    """What the terminal summary and the Markdown report show: each claim's outcomes, by check, and the run's figures."""

    target: str = ""
    namespace: str = ""
    mcp: Connection | None = None
    started: float = 0.0
    seconds: float = 0.0
    outcomes: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # claim -> (outcome, check, reason)
    leftovers: list[tuple[str, str]] = field(default_factory=list)

    def claims(self) -> list[tuple[str, str, str]]:
        """(outcome, claim, reason) per claim, failures first, then skips: one failing check fails its claim, one
        skipped check leaves it unconfirmed; the reason joins those of the checks that decided it."""
        found = []
        for claim, outcomes in self.outcomes.items():
            outcome = next(o for o in LABELS if o in {done for done, _, _ in outcomes})
            found.append((outcome, claim, "; ".join(f"{name}: {why}" for done, name, why in outcomes if done == outcome and why)))
        return sorted(found, key=lambda row: (list(LABELS).index(row[0]), row[1]))

    def count(self, outcome: str) -> int:
        return sum(1 for done, _, _ in self.claims() if done == outcome)


RUN = pytest.StashKey[Run]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "the MCP target the conformance checks run against")
    group.addoption("--url", help="the streamable HTTP endpoint, e.g. http://127.0.0.1:8765/mcp")
    group.addoption("--command", help="a command that serves MCP on stdin/stdout")
    group.addoption("--header", action="append", default=[], metavar="'NAME: VALUE'",
                    help="an HTTP header for every request, e.g. 'Authorization: Bearer …' (repeatable)")
    group.addoption("--namespace", default="Meridian",
                    help="a node with an editable 'content' collection where the checks may write (default Meridian)")
    group.addoption("--claim", action="append", default=[], metavar="ID", help="check only this claim (repeatable)")
    group.addoption("--report", metavar="PATH", help="write the run per claim as Markdown (a CI job summary)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "claim(id): the guide's claim a conformance check confirms")
    if not __debug__:  # python -O strips asserts: every check would pass without checking anything
        raise pytest.UsageError("the checks are assert statements, which python -O removes; run conform without -O")
    if bool(config.option.url) == bool(config.option.command):
        raise pytest.UsageError("name the target with one of --url URL and --command COMMAND")
    config.stash[RUN] = Run()


def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> pytest.Function | None:
    """A `@check` function of the module is a test, whatever its name, marked with its claim."""
    if not is_check(obj, collector.obj.__name__):
        return None
    item = pytest.Function.from_parent(collector, name=name)
    item.add_marker(pytest.mark.claim(obj.claim))
    return item


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(config.option.claim)
    unknown = sorted(wanted - {item.function.claim for item in items})
    if unknown:
        pytest.exit(f"no conformance check for claim(s): {', '.join(unknown)}", returncode=2)
    if wanted:
        config.hook.pytest_deselected(items=[item for item in items if item.function.claim not in wanted])
        items[:] = [item for item in items if item.function.claim in wanted]
    for item in items:
        item.user_properties.append(("claim", item.function.claim))


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """One event loop for the whole run, so the connection `fx` holds outlives each check."""
    return "asyncio"


@pytest.fixture(scope="session")
async def fx(request: pytest.FixtureRequest, anyio_backend: str, record_testsuite_property):
    """The run's one connection and the fixtures its checks share; at the end, clean-up deletes what the run made."""
    option, run = request.config.option, request.config.stash[RUN]
    target = Target(url=option.url, headers=dict(parse_header(text) for text in option.header), command=option.command)
    run.target, run.namespace = target.describe(), option.namespace.strip("/")
    for name, value in (("target", run.target), ("namespace", run.namespace)):
        record_testsuite_property(name, value)
    async with Connection(target) as mcp:
        mcp.require(set().union(*(item.function.needs for item in request.session.items)) | {"delete"})
        fixtures = Fixtures(mcp, run.namespace)
        run.mcp, run.started = mcp, time.perf_counter()
        try:
            yield fixtures
        finally:
            run.leftovers = await fixtures.clean_up()
            run.seconds = time.perf_counter() - run.started
            for path, why in run.leftovers:
                record_testsuite_property("left behind", f"{path} ({why})")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Function, call: pytest.CallInfo):
    error = call.excinfo.value if call.excinfo else None
    if isinstance(error, BadTarget):  # before pytest renders the failure's traceback, which nobody reads
        pytest.exit(str(error), returncode=2)
    report = yield
    if call.when == "call" or (call.when == "setup" and not report.passed):
        fx = item.funcargs.get("fx")
        notes = list(fx.notes) if fx and call.when == "call" else []
        if fx:
            fx.notes.clear()
        item.user_properties += [("note", note) for note in notes]
        item.config.stash[RUN].outcomes.setdefault(item.function.claim, []).append(
            (report.outcome, item.name, "; ".join(notes) if error is None else _reason(call.excinfo)))
    return report


def _reason(excinfo: pytest.ExceptionInfo) -> str:
    """Why a check skipped or failed, on one line: the skip's reason, the assert's message, or the exception."""
    if excinfo.errisinstance(pytest.skip.Exception):
        return excinfo.value.msg
    text = str(excinfo.value) if excinfo.errisinstance(AssertionError) else excinfo.exconly()
    if text.strip():
        return " ".join(text.split())
    entry = excinfo.traceback[-1]  # a bare assert: name its line, so the reader finds the expectation that broke
    return f"assertion failed at {entry.path.parent.name}/{entry.path.name}:{entry.lineno + 1}: {str(entry.statement).strip()}"


@pytest.hookimpl(tryfirst=True)
def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo) -> None:
    """A run that stopped (a target that cannot be checked, Ctrl-C) says why in one line on stderr.

    The terminal then renders the stop's traceback, reading the source of every pytest frame it passed (most of
    a refused run's time), to print its last line: the entries from the innermost shown one are all it needs."""
    shown = [index for index, entry in enumerate(excinfo.traceback) if not entry.ishidden(excinfo)]
    if shown:
        excinfo.traceback = excinfo.traceback[shown[-1]:]
    print(f"conform: {getattr(excinfo.value, 'msg', None) or 'interrupted'}", file=sys.stderr)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    run = config.stash.get(RUN, None)
    if run is None or run.mcp is None:
        return
    claims = run.claims()
    lines = [f"{LABELS[outcome]} {claim}" + (f": {reason}" if reason else "") for outcome, claim, reason in claims
             if outcome != "passed" or config.get_verbosity() > -2]
    lines += [f"left behind: {path} ({why})" for path, why in run.leftovers]
    lines.append(f"conformance of {run.target}: {len(claims)} claims, {run.mcp.calls} tool calls in {run.seconds:.2f} s")
    lines.append(_counts(run))
    terminalreporter.section("conformance", sep="-")
    for line in lines:
        terminalreporter.write_line(line)
    if config.option.report:
        path = Path(config.option.report)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown(run), encoding="utf-8")
        terminalreporter.write_line(f"wrote {path}")


def _counts(run: Run) -> str:
    return f"{run.count('passed')} passed, {run.count('failed')} failed, {run.count('skipped')} skipped"


def markdown(run: Run) -> str:
    claims = run.claims()
    lines = ["# Conformance over MCP", "",
             (f"Target `{run.target}`, namespace `{run.namespace}`: **{_counts(run)}** "
              f"({len(claims)} claims, {run.mcp.calls if run.mcp else 0} tool calls, {run.seconds:.2f} s)."), "",
             "| result | claim | reason |", "| --- | --- | --- |"]
    for outcome, claim, reason in claims:
        escaped = reason.replace("|", "\\|")
        lines.append(f"| {LABELS[outcome]} | `{claim}` | {escaped} |")
    if run.leftovers:
        lines += ["", "Fixtures left behind:", ""] + [f"- `{path}` ({why})" for path, why in run.leftovers]
    return "\n".join(lines) + "\n"
