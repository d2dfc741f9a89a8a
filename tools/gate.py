"""The gate's running order and its background jobs: a pytest plugin (the root conftest.py loads it).

Order: the cheap checks first, so a cheap failure surfaces in seconds:

    0  the docs contracts (tests/test_docs_*.py): static, a few seconds
    1  the snippets and the pages' pycon examples
    2  agentkit's unit tests and everything not named below
    3  tests that wait for a background job (the strict build and what reads the built site)
    4  the browser suite (tests/test_browser.py): reported last, it is the slowest. Run with other
       tests, it runs in a second pytest process that starts as soon as the site is built, so
       Chromium works beside the cheap tiers (tools/remote_suite.py); its results appear here
       under their own test ids.

A background job is a slow command (`mkdocs build --strict`, a second build, a conformance run)
that starts when collection ends, if any collected test needs it, and runs on the second core
while tiers 0-2 run here. The plain gate (no paths, -k or -m) starts the jobs its conftests declare
(the strict build) before collection, on the core collection leaves idle. Declare one in tests/conftest.py:

    site_build = background_fixture("site_build", lambda workdir: [sys.executable, "-m", "mkdocs", ...])

A test that asks for the fixture waits for the job and gets its `JobResult` (or what `wrap` makes
of it). Its tests are marked `build`, so `pytest -m "not build and not browser"` runs without any.

A failed job is reported once: the first test that ran with its result shows its log when it fails
(or expected the failure when it passes); tests that merely depend on its success skip with a
one-line pointer (`require_success`); and if no test dealt with it, the session still fails and
the summary prints the log.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tools import remote_suite
from tools.background import Jobs, JobResult
from tools.project import REPO_ROOT

JOBS = pytest.StashKey[Jobs]()
# fixture name -> (command from the job's folder, extra environment)
COMMANDS: dict[str, tuple[Callable[[Path], list[str]], dict[str, str]]] = {}
BROWSER_SUITE = REPO_ROOT / "tests" / "test_browser.py"
DOCS_CONTRACTS = "test_docs_"
TIERS = {"contracts": 0, "examples": 1, "unit": 2, "build": 3, "browser": 4}


def background_fixture(name: str, argv_in: Callable[[Path], list[str]], *, env: dict[str, str] | None = None,
                       wrap: Callable[[JobResult], object] | None = None):
    """A session fixture named `name` whose value is the result of a command run in the background."""
    COMMANDS[name] = (argv_in, env or {})

    @pytest.fixture(scope="session", name=name)
    def fixture(request: pytest.FixtureRequest):
        result = remote_suite.reused_result(name) or job(request.config, name).result()
        return wrap(result) if wrap else result

    return fixture


def job(config: pytest.Config, name: str):
    argv_in, env = COMMANDS[name]
    return config.stash[JOBS].define(name, argv_in, env)


def require_success(result: JobResult, what: str) -> None:
    """Skip a test that needs a job's output when the job failed; the failure itself is reported once."""
    if not result.ok:
        where = result.reported_by or "the summary at the end of this run"
        pytest.skip(f"{what} failed (exit {result.returncode}); its log is shown once, by {where}")


def tier(item: pytest.Item) -> int:
    path = Path(str(item.path))
    if path == BROWSER_SUITE:
        return TIERS["browser"]
    if COMMANDS.keys() & set(getattr(item, "fixturenames", ())):
        return TIERS["build"]
    if path.name.startswith(DOCS_CONTRACTS):
        return TIERS["contracts"]
    if path.suffix == ".md" or path.parent == REPO_ROOT / "snippets":
        return TIERS["examples"]
    return TIERS["unit"]


# --- the plugin's hooks ------------------------------------------------------------------------------------

_UNREPORTED = pytest.StashKey[list]()
_TIER_SECONDS = pytest.StashKey[dict]()
TIER_NAMES = {number: name for name, number in TIERS.items()}


def pytest_configure(config: pytest.Config) -> None:
    config.stash[JOBS] = Jobs()
    config.stash[_TIER_SECONDS] = {}
    # Set from what a test needs (pytest_collection_modifyitems); `python3 dev.py check` runs neither.
    config.addinivalue_line("markers", "build: waits for a background job such as the strict build (tools/gate.py)")
    config.addinivalue_line("markers", "browser: the browser suite, tests/test_browser.py")


_EARLY = pytest.StashKey[list]()


def pytest_sessionstart(session: pytest.Session) -> None:
    """The plain gate (no paths, no -k, no -m) needs every job: start those declared by now (the strict build,
    in tests/conftest.py) at once, on the core that collection leaves idle. Collection stops any it finds unneeded."""
    config = session.config
    # Not in a child process (tools/remote_suite.py): the parent ran its jobs.
    plain = (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.option.keyword
             and not config.option.markexpr and not config.option.collectonly and not os.environ.get(remote_suite.CHILD))
    early = list(COMMANDS) if plain else []
    config.stash[_EARLY] = early
    for name in early:
        job(config, name)
    if early:
        config.stash[JOBS].start_in_order(early)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Sort the items by tier (stable: files keep their order inside a tier) and mark build and browser tests."""
    items.sort(key=tier)
    for item in items:
        level = tier(item)
        if level == TIERS["build"]:
            item.add_marker(pytest.mark.build)
        elif level == TIERS["browser"]:
            item.add_marker(pytest.mark.browser)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start every job a selected test needs, now, so it runs while the cheap tiers do."""
    if session.config.option.collectonly:
        return
    # In the order the tests will need them; a job the parent gate process ran is not run again.
    needed = list(dict.fromkeys(
        name for item in session.items for name in getattr(item, "fixturenames", ())
        if name in COMMANDS and remote_suite.reused_result(name) is None
    ))
    for name in needed:
        job(session.config, name)
    for name in session.config.stash.get(_EARLY, []):
        if name not in needed:
            session.config.stash[JOBS].jobs[name].stop()
    waited_for = run_browser_suite_beside(session)
    # What the browser suite waits for goes first: the site build and then the browser are the longest chain.
    session.config.stash[JOBS].start_in_order(sorted(needed, key=lambda name: name not in waited_for))


def run_browser_suite_beside(session: pytest.Session) -> list[str]:
    """When the browser suite runs with other tests, a second pytest process runs it as soon as the
    site is built, beside the cheap tiers; its results are reported here, in the browser tier.
    Run alone (`dev.py test tests/test_browser.py`), or in that child process, it runs in this process."""
    browser = [item for item in session.items if tier(item) == TIERS["browser"]]
    if not browser or len(browser) == len(session.items) or os.environ.get(remote_suite.CHILD):
        return []
    needs = sorted({name for item in browser for name in getattr(item, "fixturenames", ()) if name in COMMANDS})
    suite = remote_suite.RemoteSuite(
        session.config.stash[JOBS], "browser_suite", [_absolute(session, item.nodeid) for item in browser], needs,
        require_success, session.config.rootpath,
    )
    remote = {
        item.nodeid: remote_suite.RemoteItem.from_parent(item.parent, name=item.name, suite=suite, origin=item.reportinfo())
        for item in browser
    }
    for item in remote.values():
        item.add_marker(pytest.mark.browser)
    session.items[:] = [remote.get(item.nodeid, item) for item in session.items]
    suite.start_when_ready()
    return needs


def _absolute(session: pytest.Session, nodeid: str) -> str:
    # The child runs from the repository root; a node id is relative to the session's rootdir.
    path, _, rest = nodeid.partition("::")
    return f"{session.config.rootpath / path}::{rest}" if rest else str(session.config.rootpath / path)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    """Time each tier (setup, call and teardown of its tests): the summary says where the gate's time goes."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        return (yield)
    finally:
        seconds = item.config.stash[_TIER_SECONDS]
        level = tier(item)
        wall, used = seconds.get(level, (0.0, 0.0))
        seconds[level] = (wall + time.perf_counter() - started, used + time.process_time() - cpu)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A test that ran with a failed job's result has dealt with it: a failing one showed its log, a passing
    one expected the failure (a planted defect, say). Later tests only point at it."""
    report = yield
    if report.failed or (report.when == "call" and report.passed):
        jobs = item.config.stash[JOBS].jobs
        # A remote item reports its suite's child process, which fails whenever one of its tests does.
        names = [*getattr(item, "fixturenames", ()), *([item.suite.name] if isinstance(item, remote_suite.RemoteItem) else [])]
        for name in names:
            result = jobs[name].finished if name in jobs else None
            if result is not None and not result.ok and result.reported_by is None:
                result.reported_by = item.nodeid
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop jobs nobody waited for; a failure no test reported fails the session (and the summary shows it)."""
    jobs = session.config.stash[JOBS]
    jobs.stop_all()
    unreported = jobs.unreported_failures()
    session.config.stash[_UNREPORTED] = unreported
    if unreported and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    seconds = config.stash.get(_TIER_SECONDS, {})
    if seconds:
        # CPU is this process's own: the browser's and the jobs' processes are not in it.
        tiers = ", ".join(f"{TIER_NAMES[level]} {seconds[level][0]:.1f} s ({seconds[level][1]:.1f} s CPU)" for level in sorted(seconds))
        jobs = [job.finished for job in config.stash[JOBS].jobs.values() if job.finished is not None]
        background = ", ".join(
            f"{result.name} ran {result.seconds:.1f} s" + (f" ({result.cpu_seconds:.1f} s CPU)" if result.cpu_seconds is not None else "")
            for result in jobs
        )
        terminalreporter.write_line(f"gate time by tier: {tiers}; in the background: {background or 'nothing'}")
        for result in jobs:
            # A remote suite's own summary line (the browser suite's time after the build).
            for line in result.output.splitlines():
                if line.startswith("browser suite:"):
                    terminalreporter.write_line(f"{line} (in the background job {result.name!r})")
        terminalreporter.write_line(_cpu_line(jobs))
    for result in config.stash.get(_UNREPORTED, []):
        terminalreporter.write_sep("=", f"background job {result.name!r} failed (exit {result.returncode})", red=True)
        terminalreporter.write_line(result.output.rstrip())


def _cpu_line(jobs: list[JobResult]) -> str:
    """The run's CPU time, as far as the OS reports it: this process, the background jobs, and the other child
    processes that have ended. A lower bound: processes nobody here waited for (Chromium's renderers, reaped
    by Chromium) are missing; the browser suite's own line, read from /proc, gives the browser's share."""
    mine = time.process_time()
    background = sum(result.cpu_seconds or 0.0 for result in jobs)
    try:
        import resource

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        others = max(0.0, usage.ru_utime + usage.ru_stime - background)
    except ImportError:  # not on Windows
        return f"gate CPU: this process {mine:.1f} s, background jobs {background:.1f} s"
    total = mine + background + others
    return (f"gate CPU, at least: {total:.1f} s = this process {mine:.1f} s + background jobs {background:.1f} s"
            f" + other processes that ended {others:.1f} s (Chromium's renderers are not among them)")


def pytest_unconfigure(config: pytest.Config) -> None:
    if JOBS in config.stash:
        config.stash[JOBS].stop_all()
        config.stash[JOBS].remove_files()
