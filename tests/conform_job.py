"""The conformance runs of test_conformance.py, in one background job of the gate (guidetools/gate.py):

    python tests/conform_job.py WORKDIR NAME=RUN [NAME=RUN ...]

    RUN  http                                          the server on a free port, conform --url, SIGTERM
         stdio [SERVER_OPTION ...] [-- CONFORM_OPTION ...]   conform --command "<the server> --stdio ..."
                                                   (with --plant NAME, the server is tests/planted_server.py)

The runs go one after another in this process, which imports the conformance client once for all of
them; each server is a process of its own. Each run prints `=== conformance run NAME`, conform's
output, then `conform exit: N` (and, over HTTP, `server exit: N`, with the server's log in
WORKDIR/NAME/server.log); its reports go to WORKDIR/NAME/junit.xml and WORKDIR/NAME/report.md. The job
exits 0 once every run is done, whatever conform answered: the tests judge the answers (a planted
divergence must exit 1), and the gate reports a job that exits non-zero as broken.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conformance.__main__ import main as conform_main

REPO_ROOT = Path(__file__).resolve().parents[1]
STOP_TIMEOUT_SECONDS = 30
SERVER = [sys.executable, "-m", "mcp_server"]
# The same server with test-only divergences (`--plant NAME`), which the server package does not ship.
PLANTED_SERVER = [sys.executable, str(REPO_ROOT / "tests" / "planted_server.py")]
RUN_HEADING = "=== conformance run "


def conform(workdir: Path, *arguments: str) -> int:
    reports = ["--junit", str(workdir / "junit.xml"), "--report", str(workdir / "report.md")]
    code = conform_main([*arguments, *reports])
    print(f"conform exit: {code}", flush=True)
    return code


@contextmanager
def serving(workdir: Path) -> Iterator[str | None]:
    """agentkit's MCP server over HTTP on a free port, as a process of its own: yields its URL (None when it stopped
    before serving), then stops it with SIGTERM, writes its log to WORKDIR/server.log and prints its exit code."""
    server = subprocess.Popen([*SERVER, "--port", "0"], cwd=REPO_ROOT, stderr=subprocess.PIPE, text=True)
    log: list[str] = []
    url = None
    for line in server.stderr:
        log.append(line.rstrip("\n"))
        if " at http://" in line:
            url = line.split(" at ", 1)[1].split()[0]
            break
    # Keep reading the server's log, so a full pipe never blocks it.
    reader = threading.Thread(target=lambda: log.extend(line.rstrip("\n") for line in server.stderr), daemon=True)
    reader.start()
    try:
        if url is None:
            print("the MCP server stopped before serving", flush=True)
        yield url
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        stopped = server.wait(timeout=STOP_TIMEOUT_SECONDS)
        reader.join(timeout=STOP_TIMEOUT_SECONDS)
        (workdir / "server.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        print(f"server exit: {stopped}", flush=True)


def over_http(workdir: Path) -> None:
    with serving(workdir) as url:
        if url is not None:
            conform(workdir, "--url", url)


def over_stdio(workdir: Path, options: list[str]) -> None:
    split = options.index("--") if "--" in options else len(options)
    server_options, conform_options = options[:split], options[split + 1:]
    server = PLANTED_SERVER if "--plant" in server_options else SERVER
    conform(workdir, "--command", shlex.join([*server, "--stdio", *server_options]), *conform_options)


def run(workdir: Path, name: str, spec: str) -> None:
    mode, *options = shlex.split(spec)
    folder = workdir / name
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{RUN_HEADING}{name}", flush=True)
    if mode == "http":
        over_http(folder)
    else:
        over_stdio(folder, options)


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


if __name__ == "__main__":
    folder, *runs = sys.argv[1:]
    for named in runs:
        run_name, _, run_spec = named.partition("=")
        run(Path(folder), run_name, run_spec)
