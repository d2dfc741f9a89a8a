"""The conformance runs of test_conformance.py, each a background job of the gate (tools/gate.py):

    python tests/conform_job.py http WORKDIR                      the server on a free port, conform --url, SIGTERM
    python tests/conform_job.py stdio WORKDIR [SERVER_OPTION ...] [-- CONFORM_OPTION ...]

conform's output comes first, then `conform exit: N` (and, over HTTP, `server exit: N`, with the
server's log in WORKDIR/server.log); the reports go to WORKDIR/junit.xml and WORKDIR/report.md. The
job itself exits 0 once the run is done, whatever conform answered: the tests judge the answer (a
planted divergence must exit 1), and the gate reports a job that exits non-zero as broken.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
STOP_TIMEOUT_SECONDS = 30
SERVER = [sys.executable, "-m", "mcp_server"]


def conform(workdir: Path, *arguments: str) -> int:
    reports = ["--junit", str(workdir / "junit.xml"), "--report", str(workdir / "report.md")]
    code = subprocess.run([sys.executable, "-m", "conformance", *arguments, *reports], cwd=REPO_ROOT).returncode
    print(f"conform exit: {code}", flush=True)
    return code


def over_http(workdir: Path) -> None:
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
        else:
            conform(workdir, "--url", url)
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        stopped = server.wait(timeout=STOP_TIMEOUT_SECONDS)
        reader.join(timeout=STOP_TIMEOUT_SECONDS)
        (workdir / "server.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        print(f"server exit: {stopped}", flush=True)


def over_stdio(workdir: Path, options: list[str]) -> None:
    split = options.index("--") if "--" in options else len(options)
    server_options, conform_options = options[:split], options[split + 1:]
    conform(workdir, "--command", shlex.join([*SERVER, "--stdio", *server_options]), *conform_options)


if __name__ == "__main__":
    mode, folder, *rest = sys.argv[1:]
    if mode == "http":
        over_http(Path(folder))
    else:
        over_stdio(Path(folder), rest)
