"""Print how long the browser suite takes after the site is built (tests/test_browser.py), and its CPU time.

    python bench/bench_browser.py [runs] [--write]   (from the repository root; 3 runs unless told)

Target: under 60 s after the build (the gate's own budget; aim for 12 s). The figures are the
suite's own line from pytest's summary (measured from serving the built site to closing Chromium):
wall time, CPU of the pytest process (tests and the local web server) and of the browser (Chromium
and Playwright's driver). Each run prints its line; the medians follow, since other processes on
the machine make single runs noisy. Printed, never asserted; --write records the medians in bench/README.md.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _figures import Figures

REPO_ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"
SUITE_LINE = re.compile(
    r"browser suite: .* in (?P<wall>[\d.]+) s after the build.*CPU: tests and server (?P<own>[\d.]+) s, browser (?P<browser>[\d.]+) s"
)


def run_once(python: Path) -> dict[str, float] | None:
    started = time.perf_counter()
    result = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_browser.py"],
        cwd=REPO_ROOT, capture_output=True, text=True,
    )
    total = time.perf_counter() - started
    lines = result.stdout.splitlines()
    suite = [line for line in lines if line.startswith("browser suite:")]
    print(*(suite or ["browser suite: no timing line (skipped, or the site failed to build)"]), sep="\n")
    print(f"  whole run, build included: {total:.1f} s; pytest says: {lines[-1] if lines else result.stderr.strip()}")
    found = SUITE_LINE.search(suite[0]) if suite and result.returncode == 0 else None
    return {name: float(value) for name, value in found.groupdict().items()} if found else None


def main() -> int:
    figures = Figures("bench_browser.py")
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    python = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    measured = [run_once(python) for _ in range(runs)]
    if not all(measured):
        return 1
    median = {name: statistics.median(run[name] for run in measured) for name in measured[0]}
    figures.say(
        f"median of {runs}: {median['wall']:.1f} s after the build; CPU {median['own'] + median['browser']:.1f} s "
        f"(tests and server {median['own']:.1f} s, browser {median['browser']:.1f} s)"
    )
    figures.record()
    return 0


if __name__ == "__main__":
    sys.exit(main())
