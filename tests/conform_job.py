"""The conformance runs of test_conformance.py, in one background job of the gate (guidetools/gate.py):

    python tests/conform_job.py WORKDIR

- `http`: the client as a deployment team installs it. Its wheel is built from conformance/ and installed on its
  own into a fresh virtual environment (tests/conform_package_job.py: no system site-packages, only the
  distributions the wheel declares); that environment's `meshweaver-conform --url … --header …` runs the whole
  suite, from a folder outside the checkout with no path of ours, against agentkit's MCP server, a process of its
  own on a free port, which SIGTERM then stops.
- `stdio`: the checkout's client, in a child process that runs while `http` does, runs the whole suite over stdio
  against the server with one planted divergence (tests/planted_server.py --plant navigate-to-path).

The job prints, for each run, `=== conformance run NAME`, the run's lines and `conform exit: N`; the `http` run also prints
`installed: NAME==VERSION ...` (what the fresh environment holds), `client: PATH` (where it imports
`conformance` from), `absent: NAME ...` (modules of the docs toolchain it cannot import), `command: …`, and
`server exit: N`, with the server's log in WORKDIR/http/server.log. The reports go to WORKDIR/NAME/junit.xml and
WORKDIR/NAME/report.md. The job exits 0 once both runs are done, whatever conform answered: the tests judge the
answers (a planted divergence must exit 1), and the gate reports a job that exits non-zero as broken.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
STOP_TIMEOUT_SECONDS = 30
PLANT = "navigate-to-path"
RUN_HEADING = "=== conformance run "
TOKEN_HEADER = "Authorization: Bearer conformance-test-token"


def reports(workdir: Path) -> list[str]:
    return [f"--junitxml={workdir / 'junit.xml'}", f"--report={workdir / 'report.md'}"]


@contextmanager
def serving(workdir: Path) -> Iterator[Callable[[], str | None]]:
    """agentkit's MCP server over HTTP on a free port, as a process of its own: yields a function that waits for its
    URL (None when it stopped before serving), then stops it with SIGTERM, writes its log to WORKDIR/server.log and
    prints its exit code."""
    server = subprocess.Popen([sys.executable, "-m", "mcp_server", "--port", "0"], cwd=REPO_ROOT, stderr=subprocess.PIPE,
                              text=True)
    log: list[str] = []
    found: list[str] = []
    announced = threading.Event()

    def read() -> None:  # the whole log, so a full pipe never blocks the server
        for line in server.stderr:
            log.append(line.rstrip("\n"))
            if " at http://" in line and not found:
                found.append(line.split(" at ", 1)[1].split()[0])
                announced.set()
        announced.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def url() -> str | None:
        announced.wait()
        if not found:
            print("the MCP server stopped before serving", flush=True)
        return found[0] if found else None

    try:
        yield url
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        stopped = server.wait(timeout=STOP_TIMEOUT_SECONDS)
        reader.join(timeout=STOP_TIMEOUT_SECONDS)
        (workdir / "server.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        print(f"server exit: {stopped}", flush=True)


def installed_over_http(workdir: Path) -> None:
    # Imported here, where the job runs as a script beside it: the tests import this module for `sections`.
    from conform_package_job import DOCS_TOOLCHAIN, build_wheel, clean_environment, install_alone, seen_from, step

    with serving(workdir) as url:  # the server starts while the wheel is built and installed
        started = time.perf_counter()
        wheel = build_wheel(REPO_ROOT / "conformance", workdir)
        print(f"built: {wheel.name}", flush=True)
        python = install_alone(wheel, workdir / "venv")
        step("built and installed", started)
        seen = seen_from(python, workdir, "conformance", DOCS_TOOLCHAIN)
        print(f"installed: {' '.join(seen['installed'])}", flush=True)
        print(f"client: {seen['file']}", flush=True)
        print(f"absent: {' '.join(seen['absent'])}", flush=True)
        if url() is None:
            return
        command = [str(python.with_name("meshweaver-conform")), "--url", url(), "--header", TOKEN_HEADER, *reports(workdir)]
        print(f"command: {shlex.join(command)}", flush=True)
        code = subprocess.run(command, cwd=workdir, env=clean_environment()).returncode
        print(f"conform exit: {code}", flush=True)


def checkout_over_stdio(workdir: Path) -> None:
    from conformance.__main__ import main as conform

    server = [sys.executable, str(REPO_ROOT / "tests" / "planted_server.py"), "--stdio", "--plant", PLANT]
    code = conform(["--command", shlex.join(server), *reports(workdir)])
    print(f"conform exit: {code}", flush=True)


RUNS = {"http": installed_over_http, "stdio": checkout_over_stdio}


def sections(output: str) -> dict[str, str]:
    """The job's output cut into its runs' outputs, by name."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines(keepends=True):
        if line.startswith(RUN_HEADING):
            current = found.setdefault(line[len(RUN_HEADING):].strip(), [])
        elif current is not None:
            current.append(line)
    return {name: "".join(lines) for name, lines in found.items()}


def run_named(workdir: Path, name: str) -> None:
    folder = workdir / name
    folder.mkdir(parents=True, exist_ok=True)
    RUNS[name](folder)


if __name__ == "__main__":
    workdir = Path(sys.argv[1])
    if len(sys.argv) > 2:  # one run, in a process of its own
        run_named(workdir, sys.argv[2])
        sys.exit(0)
    # The stdio run in a child while the http run builds, installs and runs here: either waits on the other's
    # processes less. Their outputs are printed one after the other, in RUNS' order.
    *here, last = RUNS
    kept = tempfile.TemporaryFile()  # not a pipe: a child with much to say never waits for this process to read
    child = subprocess.Popen([sys.executable, __file__, str(workdir), last], stdout=kept, stderr=subprocess.STDOUT)

    def stop(signum, frame) -> None:  # the gate stopping the job: the child first, before the http server's own stop
        child.kill()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    try:
        for name in here:
            print(f"{RUN_HEADING}{name}", flush=True)
            run_named(workdir, name)
        child.wait()
    finally:  # a run that broke here, or the stop: the child goes too
        if child.poll() is None:
            child.kill()
            child.wait()
    kept.seek(0)
    print(f"{RUN_HEADING}{last}\n{kept.read().decode('utf-8', 'replace')}", end="", flush=True)
    sys.exit(child.returncode)  # a run that broke in the child breaks the job, as it would here
