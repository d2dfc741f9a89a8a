"""Slow commands the gate needs (the strict build, a second build, a conformance run), started in the
background as soon as pytest knows it will need them, so they overlap the cheap checks on a second core.

A job writes its output to a file, never to a pipe: a chatty build cannot fill a pipe and stall.
The gate asks for a job's result only when a test needs it; by then the job has usually finished.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tools.project import REPO_ROOT

STOP_GRACE_SECONDS = 5


@dataclass
class JobResult:
    """How a background command ended: its exit code, its whole output, and the folder it worked in."""

    name: str
    returncode: int
    output: str = field(repr=False)
    seconds: float
    workdir: Path
    # The test that showed this job's failure with its log; later tests point at it in one line.
    reported_by: str | None = None
    cpu_seconds: float | None = None  # the command's and its children's CPU time, where the OS reports it

    @property
    def ok(self) -> bool:
        return self.returncode == 0


@dataclass
class BackgroundJob:
    """One command run once per test session, from the repository root, output to a file."""

    name: str
    argv: list[str]
    workdir: Path
    env: dict[str, str] = field(default_factory=dict)
    _process: subprocess.Popen | None = None
    _log: Path | None = None
    _started: float = 0.0
    _result: JobResult | None = None
    _watcher: threading.Thread | None = None
    # Set by the watcher when the command exits: how long it ran, and the CPU time it and its children used.
    _ran: tuple[float, float | None] = (0.0, None)
    _on_exit: Callable[[], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ended: threading.Event = field(default_factory=threading.Event)

    def start(self, on_exit: Callable[[], None] | None = None) -> bool:
        """Start the command unless it already runs; False when it did. `on_exit` runs when it ends."""
        with self._lock:
            if self._process is not None or self._result is not None:
                return False
            self._on_exit = on_exit
            self._spawn()
        return True

    def _spawn(self) -> None:
        self._log = self.workdir / f"{self.name}.log"
        self._started = time.perf_counter()
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(
                self.argv, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, **self.env},
            )
        # A thread reaps the command as soon as it ends, so the summary can say how long it really ran.
        self._watcher = threading.Thread(target=self._watch, name=f"job-{self.name}", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        assert self._process is not None
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(self._process.pid, 0)
            # Tell Popen the process is gone, so it never waits for (or signals) a reused pid.
            self._process.returncode = os.waitstatus_to_exitcode(status)
            self._ran = (time.perf_counter() - self._started, usage.ru_utime + usage.ru_stime)
        else:
            self._process.wait()
            self._ran = (time.perf_counter() - self._started, None)
        self._ended.set()
        if self._on_exit is not None:
            self._on_exit()

    def wait(self) -> int:
        """Wait until the command has ended (without starting it) and return its exit code."""
        self._ended.wait()
        assert self._process is not None and self._process.returncode is not None
        return self._process.returncode

    def result(self) -> JobResult:
        """Wait for the job (starting it first if nobody has) and return how it ended."""
        if self._result is None:
            self.start()
            assert self._process is not None and self._log is not None and self._watcher is not None
            self._watcher.join()
            seconds, cpu = self._ran
            self._result = JobResult(
                self.name, self._process.returncode, self._log.read_text(encoding="utf-8", errors="replace"),
                seconds, self.workdir, cpu_seconds=cpu,
            )
        return self._result

    @property
    def finished(self) -> JobResult | None:
        """The result, once somebody has waited for it; None before."""
        return self._result

    def stop(self) -> None:
        """End a job nobody waited for (an interrupted session), so no build outlives its test run."""
        if self._watcher is not None and self._watcher.is_alive():
            assert self._process is not None
            # SIGINT first: a pytest child then closes its browser; a command that ignores it is killed.
            self._process.send_signal(signal.SIGINT)
            self._watcher.join(timeout=STOP_GRACE_SECONDS)
            if self._watcher.is_alive():
                self._process.kill()
                self._watcher.join()


class Jobs:
    """The session's background jobs by name; each gets a fresh folder under one temporary root.

    `start_in_order` runs them one after another on the cores the test process leaves free (one on
    a 2-core machine), so the cheap checks keep a core of their own; a test that needs a job that
    has not started yet starts it at once.
    """

    def __init__(self, root: Path | None = None, parallel: int | None = None) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="gate-jobs-"))
        self.jobs: dict[str, BackgroundJob] = {}
        self.parallel = parallel or max(1, (os.cpu_count() or 2) - 1)
        self.closed = False  # set at the session's end: no queued job starts after it
        # Shared by every start_in_order call, so jobs queued early and later still run `parallel` at a time.
        self._free = threading.Semaphore(self.parallel)

    def define(self, name: str, argv_in: Callable[[Path], list[str]], env: dict[str, str] | None = None) -> BackgroundJob:
        if name not in self.jobs:
            workdir = self.root / name
            workdir.mkdir(parents=True, exist_ok=True)
            self.jobs[name] = BackgroundJob(name, argv_in(workdir), workdir, env or {})
        return self.jobs[name]

    def start_in_order(self, names: list[str]) -> None:
        """Start the named (defined) jobs in this order, at most `parallel` at a time with those queued earlier."""

        def dispatch() -> None:
            for name in names:
                self._free.acquire()
                if self.closed or not self.jobs[name].start(on_exit=self._free.release):
                    self._free.release()  # a test or an earlier queue started it already

        threading.Thread(target=dispatch, name="background-jobs", daemon=True).start()

    def unreported_failures(self) -> list[JobResult]:
        """Jobs that failed while no test showed their log: the session must still fail."""
        return [
            job.finished for job in self.jobs.values()
            if job.finished is not None and not job.finished.ok and job.finished.reported_by is None
        ]

    def stop_all(self) -> None:
        self.closed = True
        for job in self.jobs.values():
            job.stop()

    def remove_files(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
