"""The conformance run over HTTP of test_conformance.py, one background job of the gate (conformance/README.md, "In the gate"):

    python tests/conform_job.py WORKDIR

It prints `client built now|reused: …`, `installed: …`, `client: PATH`, `absent: …` and `command: …`, the run's lines,
`conform exit: N` and `server exit: N`. The reports and the server's log (server.log) go to WORKDIR.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
TOKEN_HEADER = "Authorization: Bearer conformance-test-token"


def reports(workdir: Path) -> list[str]:
    return [f"--junitxml={workdir / 'junit.xml'}", f"--report={workdir / 'report.md'}"]


@contextmanager
def serving(workdir: Path) -> Iterator[Callable[[], str | None]]:
    """agentkit's MCP server logging to WORKDIR/server.log: yields a wait for its URL (None if it stopped), then SIGTERM."""
    log = workdir / "server.log"
    with log.open("w", encoding="utf-8") as stderr:  # a file, not a pipe: the server never waits for a reader
        server = subprocess.Popen([sys.executable, "-m", "mcp_server", "--port", "0"], cwd=REPO_ROOT, stderr=stderr)

    def url() -> str | None:
        while not (found := re.search(r" at (http://\S+).*\n", log.read_text(encoding="utf-8"))):
            if server.poll() is not None:
                print("the MCP server stopped before serving", flush=True)
                return None
            time.sleep(0.05)
        return found[1]

    try:
        yield url
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        print(f"server exit: {server.wait(timeout=30)}", flush=True)


def installed_over_http(workdir: Path) -> None:
    # Imported here, where the job runs as a script beside it: the tests import this module.
    from conform_package_job import DOCS_TOOLCHAIN, clean_environment, installed_once, print_seen, step

    with serving(workdir) as url:  # the server starts while the wheel is built and installed
        started = time.perf_counter()
        # Kept in the gate's own venv, which holds the distributions repacked into it (a clean clone builds it once).
        with installed_once(REPO_ROOT / "conformance", Path(sys.prefix) / "conformance-client", workdir) as (python, how):
            step(f"client {how}: {python.parents[1]}", started)
            print_seen(python, workdir, "conformance", DOCS_TOOLCHAIN, "client")
            if url() is None:
                return
            command = [str(python.with_name("meshweaver-conform")), "--url", url(), "--header", TOKEN_HEADER,
                       *reports(workdir)]
            print(f"command: {shlex.join(command)}", flush=True)
            code = subprocess.run(command, cwd=workdir, env=clean_environment()).returncode
            print(f"conform exit: {code}", flush=True)


if __name__ == "__main__":
    installed_over_http(Path(sys.argv[1]))
