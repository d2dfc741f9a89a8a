"""Run docs mutation testing over every page and print its score and how long it took.

    python bench/bench_mutate.py [--write]   (from the repository root)

`python3 dev.py mutate` changes each number and each tool or field name of the checked claims, one
at a time, and runs only that claim's checks. It takes minutes, so the gate keeps the static claim
contract (tests/test_docs_contracts.py), which catches in a second what mutation testing finds
about numbers no check compares and names agentkit does not know. Printed, never asserted; --write
records the score in bench/README.md.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from _figures import Figures

REPO_ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"


def main() -> int:
    figures = Figures("bench_mutate.py")
    python = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    started = time.perf_counter()
    result = subprocess.run([str(python), "-m", "guidetools.mutate"], cwd=REPO_ROOT, capture_output=True, text=True)
    lines = result.stdout.splitlines()
    score = next((line for line in lines if line.startswith("mutation score:")), result.stderr.strip()[-300:])
    survivors = next((line for line in lines if line.startswith("== survivors")), "")
    figures.say(f"{score}\n{survivors}\nwhole run: {time.perf_counter() - started:.0f} s")
    # Survivors are findings for the pages, not a failure of the bench.
    if result.returncode in (0, 1):
        figures.record()
    return 0 if result.returncode in (0, 1) else result.returncode


if __name__ == "__main__":
    sys.exit(main())
