"""The gate's background jobs and its summary: a pytest plugin (the root conftest.py loads it).

`python3 dev.py test` runs pytest on two pytest-xdist workers (`-n 2 --dist loadscope`): each test module runs
on one worker. The browser suite is one module (tests/test_browser.py), so one worker runs all of it, from the
moment the site is built, while the other runs everything else; `-n 0`, or plain `pytest`, runs the same tests
in one process.

A background job is a slow command that tests need (the strict build, the ProperDocs build, a conformance
run). Declare it once, as a session fixture (tests/conftest.py):

    site_build = background_fixture("site_build", lambda workdir: [sys.executable, "-m", "mkdocs", ...])

It runs once per test run, in whichever process asks first: the processes share one folder, with a lock per
job (pytest-xdist's "Making session-scoped fixtures execute only once"). A test that asks for the fixture
waits for the job and gets its `JobResult` (or what `wrap` makes of it). When collection ends, each process
starts the jobs its tests need, one at a time, in a thread, so they overlap the cheap tests; the plain gate
(no paths, -k, -m, --lf or --sw) starts the jobs the conftests declare (the strict build) before collection.
Tests that ask for a job are marked `build` and run after the others: in one process after every other test,
on the gate's workers after the other tests of their module (a worker takes a whole module, the largest first).
`-m "not build and not browser"` runs neither the jobs nor the browser.

A failed job is reported once: the first test that ran with its result shows its log when it fails (or
expected the failure when it passes); tests that merely depend on its success skip with a one-line pointer
(`require_success`); and if no test dealt with it, the run still fails and the summary prints the log.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from shutil import rmtree

import pytest
from filelock import FileLock

from guidetools.project import REPO_ROOT


@dataclass(frozen=True)
class Job:
    name: str
    argv_in: Callable[[Path], list[str]]  # the command, given the job's own folder
    env: dict[str, str]


# fixture name -> its job: filled as conftests and test modules are imported, never changed after.
JOBS: dict[str, Job] = {}
STOP_GRACE_SECONDS = 5


@dataclass(frozen=True)
class JobResult:
    """How a background command ended: its exit code, its whole output, and the folder it worked in."""

    name: str
    returncode: int
    output: str = field(repr=False)
    seconds: float
    workdir: Path
    cpu_seconds: float | None = None  # the command's and its children's CPU time, where the OS reports it

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def background_fixture(name: str, argv_in: Callable[[Path], list[str]], *, env: dict[str, str] | None = None,
                       wrap: Callable[[JobResult], object] | None = None):
    """A session fixture named `name` whose value is the result of a command run in the background."""
    JOBS[name] = Job(name, argv_in, env or {})

    @pytest.fixture(scope="session", name=name)
    def fixture(request: pytest.FixtureRequest):
        result = run_once(request.config, name)
        return wrap(result) if wrap else result

    return fixture


def require_success(result: JobResult, what: str) -> None:
    """Skip a test that needs a job's output when the job failed; the failure itself is reported once."""
    if not result.ok:
        where = _reporter(result.workdir) or "the summary at the end of this run"
        pytest.skip(f"{what} failed (exit {result.returncode}); its log is shown once, by {where}")


# --- running a job once for all processes ----------------------------------------------------------------

class Jobs:
    """This process's view of the run's jobs: the shared folder, and the commands it runs itself."""

    def __init__(self, root: Path, owned: bool) -> None:
        self.root, self.owned = root, owned  # the process that made the folder removes it
        self.running: list[subprocess.Popen] = []
        self.threads: list[threading.Thread] = []
        self.closed = False  # set when the run stops early: no queued job starts after it

    def result(self, name: str) -> JobResult | None:
        """The job's result once some process has run it; None before."""
        workdir = self.root / name
        try:
            ran = json.loads((workdir / "result.json").read_text())
        except FileNotFoundError:
            return None
        output = (workdir / "output.log").read_text(encoding="utf-8", errors="replace")
        return JobResult(name, ran["returncode"], output, ran["seconds"], workdir, ran["cpu_seconds"])

    def run(self, job: Job) -> None:
        workdir = self.root / job.name
        started = time.perf_counter()
        with (workdir / "output.log").open("wb") as log:
            process = subprocess.Popen(job.argv_in(workdir), cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, env={**os.environ, **job.env})
        self.running.append(process)
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode, cpu = os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime
        else:
            process.wait()
            cpu = None
        self.running.remove(process)
        ran = {"returncode": process.returncode, "seconds": time.perf_counter() - started, "cpu_seconds": cpu}
        (workdir / "result.json").write_text(json.dumps(ran))

    def start_in_background(self, names: list[str]) -> None:
        """Run the named jobs one after another in a thread; those another process runs are only waited for."""

        def run_in_order() -> None:
            for name in names:
                if self.closed:
                    return
                self.once(name)

        thread = threading.Thread(target=run_in_order, name="gate-jobs", daemon=True)
        self.threads.append(thread)
        thread.start()

    def once(self, name: str) -> JobResult:
        """The job's result: run here unless some process has run it (the lock makes the others wait)."""
        workdir = self.root / name
        workdir.mkdir(exist_ok=True)
        with FileLock(workdir / "lock"):
            if self.result(name) is None:
                self.run(JOBS[name])
        result = self.result(name)
        assert result is not None
        return result

    def finish(self, stop: bool) -> None:
        """Wait for the jobs this process runs (another may still need them), or stop them when the run stops."""
        self.closed = self.closed or stop
        if stop:
            for process in list(self.running):
                # SIGINT first: a build or a server ends cleanly; a command that ignores it is killed.
                process.send_signal(signal.SIGINT)
        for thread in self.threads:
            thread.join(timeout=STOP_GRACE_SECONDS if stop else None)
        for process in list(self.running):
            process.kill()

    def results(self) -> list[JobResult]:
        """The jobs that ran, whichever process ran them."""
        found = [self.result(folder.name) for folder in sorted(self.root.iterdir())]
        return [result for result in found if result is not None]

    def unreported_failures(self) -> list[JobResult]:
        """Jobs that failed while no test showed their log: the run must still fail."""
        return [result for result in self.results() if not result.ok and not _reporter(result.workdir)]


def run_once(config: pytest.Config, name: str) -> JobResult:
    return config.stash[JOBS_KEY].once(name)


def _reporter(workdir: Path) -> str:
    path = workdir / "reported-by"
    return path.read_text() if path.exists() else ""


def _report(workdir: Path, nodeid: str) -> None:
    try:
        with (workdir / "reported-by").open("x") as file:  # the first test to deal with it, in any process
            file.write(nodeid)
    except FileExistsError:
        pass


def summary_line(config: pytest.Config, line: str) -> None:
    """A line for the run's summary; from an xdist worker it travels in the worker's `workeroutput`."""
    if hasattr(config, "workeroutput"):
        config.workeroutput.setdefault("gate_summary", []).append(line)
    else:
        config.stash[SUMMARY].append(line)


# --- the plugin's hooks ------------------------------------------------------------------------------------

JOBS_KEY = pytest.StashKey[Jobs]()
SUMMARY = pytest.StashKey[list]()


def pytest_configure(config: pytest.Config) -> None:
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        jobs = Jobs(Path(worker["gate_jobs"]), owned=False)
    else:
        jobs = Jobs(Path(tempfile.mkdtemp(prefix="gate-jobs-")), owned=True)
    config.stash[JOBS_KEY], config.stash[SUMMARY] = jobs, []
    config.pluginmanager.register(PartTimes(), "gate-part-times")
    config.addinivalue_line("markers", "build: waits for a background job such as the strict build (guidetools/gate.py)")
    config.addinivalue_line("markers", "browser: the browser suite, tests/test_browser.py")
    # pytest-xdist's own marker, named here too for runs without xdist (-p no:xdist) under --strict-markers.
    config.addinivalue_line("markers", "xdist_group(name): run these tests in one xdist worker (--dist loadgroup)")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Each xdist worker shares this process's job folder."""
    node.workerinput["gate_jobs"] = str(node.config.stash[JOBS_KEY].root)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The plain gate needs every job: start those declared by now (the strict build) on the idle core."""
    config, option = session.config, session.config.option
    plain = (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not hasattr(config, "workerinput")
             and not (option.keyword or option.markexpr or option.collectonly)
             and not (config.getoption("lf", False) or config.getoption("stepwise", False)))
    if plain:
        config.stash[JOBS_KEY].start_in_background(list(JOBS))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that wait for a job `build`, and run them after the others (a stable sort)."""
    for item in items:
        if JOBS.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.build)
    items.sort(key=lambda item: item.get_closest_marker("build") is not None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start every job a selected test needs, in the order the tests need them."""
    if not session.config.option.collectonly:
        needed = dict.fromkeys(name for item in session.items for name in getattr(item, "fixturenames", ()) if name in JOBS)
        session.config.stash[JOBS_KEY].start_in_background(list(needed))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A test that ran with a failed job's result has dealt with it: a failing one showed its log, a passing
    one expected the failure (a planted defect, say). Later tests only point at it."""
    report = yield
    if report.failed or (report.when == "call" and report.passed):
        root = item.config.stash[JOBS_KEY].root
        for name in JOBS.keys() & set(getattr(item, "fixturenames", ())):
            ran = root / name / "result.json"
            if ran.exists() and json.loads(ran.read_text())["returncode"] != 0:
                _report(root / name, item.nodeid)
    return report


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    node.config.stash[SUMMARY].extend(getattr(node, "workeroutput", {}).get("gate_summary", []))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Finish the jobs; in the process that reports the run, a failure no test reported fails it."""
    jobs = session.config.stash[JOBS_KEY]
    jobs.finish(stop=bool(session.shouldfail or session.shouldstop or exitstatus == pytest.ExitCode.INTERRUPTED))
    if jobs.owned and jobs.unreported_failures() and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class PartTimes:
    """Each part's test time, from the reports (an xdist controller receives its workers' reports)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        part = next((mark for mark in ("browser", "build") if mark in report.keywords), None)
        part = part or ("examples" if report.nodeid.startswith(("snippets/", "docs/")) else "unit")
        self.seconds[part] = self.seconds.get(part, 0.0) + report.duration

    def line(self, jobs: list[JobResult]) -> str:
        parts = ", ".join(f"{part} {self.seconds[part]:.1f} s" for part in PARTS if part in self.seconds)
        background = ", ".join(
            f"{result.name} ran {result.seconds:.1f} s" + (f" ({result.cpu_seconds:.1f} s CPU)" if result.cpu_seconds is not None else "")
            for result in jobs
        )
        return f"gate time by part: {parts} (setup, call and teardown, added over the workers); background jobs: {background or 'none'}"


PARTS = ("examples", "unit", "build", "browser")


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    jobs = config.stash[JOBS_KEY]
    times = config.pluginmanager.get_plugin("gate-part-times")
    if times.seconds:
        terminalreporter.write_line(times.line(jobs.results()))
    for line in config.stash[SUMMARY]:
        terminalreporter.write_line(line)
    for result in jobs.unreported_failures():
        terminalreporter.write_sep("=", f"background job {result.name!r} failed (exit {result.returncode})", red=True)
        terminalreporter.write_line(result.output.rstrip())


def pytest_unconfigure(config: pytest.Config) -> None:
    jobs = config.stash.get(JOBS_KEY, None)
    if jobs is not None and jobs.owned:
        jobs.finish(stop=True)
        rmtree(jobs.root, ignore_errors=True)
