"""One conformance run over HTTP, as test_conformance.py's background job runs it:

    python tests/mcp_http_run.py WORKDIR

starts agentkit's MCP server as a subprocess on a free port, runs the whole conformance suite against
its URL (`python -m conformance --url …`, output here), then stops the server with SIGTERM. It writes
the server's log to WORKDIR/server.log, the reports to WORKDIR/junit.xml and WORKDIR/report.md, prints
`server exit: N` last, and exits with conform's status.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
STOP_TIMEOUT_SECONDS = 30


def main(workdir: Path) -> int:
    server = subprocess.Popen([sys.executable, "-m", "mcp_server", "--port", "0"], cwd=REPO_ROOT,
                              stderr=subprocess.PIPE, text=True)
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
    code = 2
    try:
        if url is None:
            print("the MCP server stopped before serving", flush=True)
        else:
            code = subprocess.run([sys.executable, "-m", "conformance", "--url", url, "--junit", str(workdir / "junit.xml"),
                                   "--report", str(workdir / "report.md")], cwd=REPO_ROOT).returncode
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        stopped = server.wait(timeout=STOP_TIMEOUT_SECONDS)
        reader.join(timeout=STOP_TIMEOUT_SECONDS)
        (workdir / "server.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        print(f"server exit: {stopped}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
