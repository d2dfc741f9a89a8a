"""Time `mkdocs serve`'s rebuild after an edit to a page that is not the notebook, several edits.

    python bench/bench_serve.py [EDITS] [--write]   (from the repository root; default 5 edits)

Starts `mkdocs serve` on a spare port, waits for its first build (which executes the notebook), then
appends a blank line to docs/index.md and takes it away again, EDITS times, and times each edit until
MkDocs tells the browsers to reload (the page is rebuilt then), file watcher included. The page is
restored afterwards. Printed, never asserted; --write records them in bench/README.md. Target: within 1.5 s.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _figures import Figures

REPO_ROOT = Path(__file__).resolve().parents[1]
MKDOCS = REPO_ROOT / ".venv" / "bin" / "mkdocs"
PAGE = REPO_ROOT / "docs" / "index.md"
BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")
RELOADED = "Reloading browsers"


def main() -> int:
    figures = Figures("bench_serve.py")
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    log = REPO_ROOT / "build" / "bench_serve.log"
    log.parent.mkdir(exist_ok=True)
    original = PAGE.read_bytes()
    with log.open("w") as sink:
        server = subprocess.Popen([str(MKDOCS), "serve", "--dev-addr", "127.0.0.1:8127"], cwd=REPO_ROOT,
                                  stdout=sink, stderr=subprocess.STDOUT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    try:
        builds = wait_for_builds(log, 1, limit=120)
        wait_for(log, "Serving on", limit=30)  # the file watcher starts after the first build
        figures.say(f"first build (notebook executed): {builds[0]:.2f} s")
        wall = []
        for edit in range(1, edits + 1):
            reloads = log.read_text(errors="replace").count(RELOADED)
            PAGE.write_bytes(original + b"\n" if edit % 2 else original)
            started = time.perf_counter()
            wait_for(log, RELOADED, limit=60, count=reloads + 1)
            wall.append(time.perf_counter() - started)
            print(f"edit {edit}: rebuilt and reloading {wall[-1]:.2f} s after the edit", flush=True)
            time.sleep(1)
        figures.say(f"rebuild: median {statistics.median(wall):.2f} s from the edit to the reload (file watcher included), "
                    f"{edits} edits")
    finally:
        PAGE.write_bytes(original)
        server.terminate()
        server.wait(timeout=30)
    figures.record()
    return 0


def wait_for(log: Path, text: str, limit: float, count: int = 1) -> None:
    deadline = time.perf_counter() + limit
    while log.read_text(errors="replace").count(text) < count:
        if time.perf_counter() > deadline:
            raise SystemExit(f"bench_serve: no {text!r} within {limit:.0f} s; see {log}")
        time.sleep(0.05)


def wait_for_builds(log: Path, count: int, limit: float) -> list[float]:
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        builds = [float(seconds) for seconds in BUILT.findall(log.read_text(errors="replace"))]
        if len(builds) >= count:
            return builds
        time.sleep(0.05)
    raise SystemExit(f"bench_serve: no build {count} within {limit:.0f} s; see {log}")


if __name__ == "__main__":
    sys.exit(main())
