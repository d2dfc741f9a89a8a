"""Run a slow test file in a second pytest process, in the background, and report each of its results
here under the test's own id.

The gate uses this for the browser suite: Chromium and the cheap tiers then share the two cores,
instead of the browser running alone after everything else. The selected items of the file are
replaced, after collection and selection, by `RemoteItem`s with the same ids; the child process runs
the original tests and writes a JUnit file; each `RemoteItem` waits for it and passes, fails with the
child's own failure text, or skips with the child's reason.

The background jobs the file's tests need (the strict build) still run once, here: the child is told
their folders (`GATE_REUSE_<name>`) and its fixtures take the finished result instead of running the
command again.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

import pytest

from tools.background import BackgroundJob, JobResult, Jobs

# Set in the child: it runs its tests itself.
CHILD = "GATE_REMOTE_CHILD"
REUSE = "GATE_REUSE_"


def reused_result(name: str) -> JobResult | None:
    """In a child, the result of a job the parent ran (its log and folder); None when it must run here."""
    folder = os.environ.get(REUSE + name)
    if not folder:
        return None
    workdir = Path(folder)
    log = workdir / f"{name}.log"
    return JobResult(name, 0, log.read_text(encoding="utf-8", errors="replace") if log.exists() else "", 0.0, workdir)


def junit_key(nodeid: str) -> tuple[str, str]:
    """The (classname, name) pytest's JUnit XML gives the test with this node id."""
    path, *scopes, name = nodeid.split("::")
    module = path.removesuffix(".py").replace("/", ".")
    return ".".join([module, *scopes]), name


@dataclass(frozen=True)
class Outcome:
    kind: str  # passed, failed, skipped, xfailed
    text: str = ""


def read_outcomes(junit: Path) -> dict[tuple[str, str], Outcome]:
    outcomes: dict[tuple[str, str], Outcome] = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        key = (case.get("classname", ""), case.get("name", ""))
        failures = [child for child in case if child.tag in {"failure", "error"}]
        skipped = case.find("skipped")
        if failures:
            # A test that passed and then failed in teardown has both; every failure text is shown.
            outcomes[key] = Outcome("failed", "\n\n".join((child.text or child.get("message", "")).rstrip() for child in failures))
        elif skipped is not None:
            kind = "xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"
            outcomes[key] = Outcome(kind, skipped.get("message", ""))
        else:
            outcomes[key] = Outcome("passed")
    return outcomes


class RemoteFailure(Exception):
    """A test that failed in the child: its text is the child's own failure report."""


class RemoteSuite:
    """One child pytest process running `nodeids`, after the jobs it needs have finished here."""

    def __init__(self, jobs: Jobs, name: str, nodeids: list[str], needs: list[str],
                 require: Callable[[JobResult, str], None], rootdir: Path) -> None:
        self.name = name
        self.needs = needs
        self.jobs = jobs
        self.require = require  # skips a test whose job failed, pointing at the test that showed its log
        folders = {need: str(jobs.jobs[need].workdir) for need in needs}
        self.job: BackgroundJob = jobs.define(
            name,
            # The parent's rootdir, named: node ids (and the JUnit names made from them) must be the same
            # in both processes, and pytest would otherwise choose one from the arguments and the cwd.
            lambda workdir: [sys.executable, "-m", "pytest", "-q", "-p", "tools.gate", "-p", "no:cacheprovider",
                             "--rootdir", str(rootdir), "--junitxml", str(workdir / "junit.xml"), *nodeids],
            {CHILD: "1", **{REUSE + need: folder for need, folder in folders.items()}},
        )
        self._outcomes: dict[tuple[str, str], Outcome] | None = None
        self._lock = threading.Lock()

    def start_when_ready(self) -> None:
        """Start the child once every job it needs has ended well; after a failed one it never starts."""

        def wait_then_start() -> None:
            ready = all(self.jobs.jobs[need].wait() == 0 for need in self.needs)
            if ready and not self.jobs.closed:
                self.job.start()

        threading.Thread(target=wait_then_start, name=f"start-{self.name}", daemon=True).start()

    def outcome(self, nodeid: str) -> Outcome:
        for need in self.needs:
            # A failed build is reported once, by the test that checks it; this points at it.
            self.require(self.jobs.jobs[need].result(), f"the background job {need!r}")
        with self._lock:
            if self._outcomes is None:
                result = self.job.result()
                junit = result.workdir / "junit.xml"
                self._outcomes = read_outcomes(junit) if junit.exists() else {}
        found = self._outcomes.get(junit_key(nodeid))
        if found is None:
            tail = "\n".join(self.job.result().output.splitlines()[-40:])
            return Outcome("failed", f"the child pytest process ({self.name}) reported nothing for this test; its output ended:\n{tail}")
        return found


class RemoteItem(pytest.Item):
    """Stands for a test the child process runs: its result, under the same id."""

    def __init__(self, *, suite: RemoteSuite, origin: tuple, **kwargs) -> None:
        super().__init__(**kwargs)
        self.suite = suite
        self.origin = origin  # the original test's reportinfo(): its file, line and name

    def runtest(self) -> None:
        outcome = self.suite.outcome(self.nodeid)
        if outcome.kind == "failed":
            raise RemoteFailure(outcome.text)
        if outcome.kind == "skipped":
            # Reported at the test's own location (what a skip mark does), not at this line.
            raise pytest.skip.Exception(outcome.text, _use_item_location=True)
        if outcome.kind == "xfailed":
            pytest.xfail(outcome.text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RemoteFailure):
            return f"(run in the background by {self.suite.name})\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.origin
