"""Print how long the conformance suite takes against agentkit's local MCP server.

    python bench/bench_conformance.py [--write]   (from the repository root)

Starts `python -m mcp_server --port 0` once, then runs `python -m conformance --url …` five times as
a user would (a fresh process each time: start-up, connect, every check, clean-up). Target: under
10 s. The figures are printed, never asserted; --write records them in bench/README.md.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _figures import Figures
from _venv import REPO_ROOT, use_venv

use_venv("mcp")

RUNS = 5
TARGET_SECONDS = 10.0


def start_server(log: Path) -> tuple[subprocess.Popen, str, float]:
    """Start the server with its log in a file (a pipe nobody reads fills up and stalls it)."""
    started = time.perf_counter()
    with log.open("w") as sink:
        server = subprocess.Popen([sys.executable, "-m", "mcp_server", "--port", "0"], cwd=REPO_ROOT, stderr=sink)
    while server.poll() is None:
        serving = [line for line in log.read_text().splitlines() if " at http://" in line]
        if serving:
            return server, serving[0].split(" at ", 1)[1].split()[0], time.perf_counter() - started
        time.sleep(0.05)
    raise SystemExit(f"the MCP server did not start:\n{log.read_text()}")


def one_run(url: str, folder: Path) -> tuple[float, float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "conformance", "--url", url, f"--junitxml={folder / 'junit.xml'}",
                           f"--report={folder / 'report.md'}"], cwd=REPO_ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"conform exited {done.returncode}:\n{done.stdout}{done.stderr}")
    checks = float(re.search(r" tool calls in ([0-9.]+) s", done.stdout).group(1))
    return wall, checks, re.search(r"^\d+ passed, \d+ failed, \d+ skipped$", done.stdout, re.MULTILINE).group(0)


def main() -> None:
    figures = Figures("bench_conformance.py")
    with tempfile.TemporaryDirectory() as folder:
        server, url, start_s = start_server(Path(folder) / "server.log")
        try:
            runs = [one_run(url, Path(folder)) for _ in range(RUNS)]
        finally:
            server.terminate()
            server.wait()
    walls, checks = [run[0] for run in runs], [run[1] for run in runs]
    figures.say(f"server start (import, seed the workspace, listen): {start_s:.2f} s")
    figures.say(f"{RUNS} runs of `conform --url {url}`: {runs[-1][2]}; median (best) in seconds:")
    figures.say(f"  whole command  {statistics.median(walls):6.2f}  ({min(walls):.2f})")
    figures.say(f"  the checks     {statistics.median(checks):6.2f}  ({min(checks):.2f})")
    verdict = "under" if statistics.median(walls) < TARGET_SECONDS else "OVER"
    figures.say(f"conformance against the local server: {verdict} the {TARGET_SECONDS:.0f} s target")
    figures.record()


if __name__ == "__main__":
    main()
