"""Print how long the browser suite takes after the site is built (tests/test_browser.py).

    python bench/bench_browser.py        (from the repository root)

Target: under 60 s after the build. The figure is the suite's own line from
pytest's summary (measured from serving the built site to closing Chromium);
it is printed, never asserted.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"


def main() -> int:
    python = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    started = time.perf_counter()
    result = subprocess.run(
        [str(python), "-m", "pytest", "-q", "tests/test_browser.py"],
        cwd=REPO_ROOT, capture_output=True, text=True,
    )
    total = time.perf_counter() - started
    lines = result.stdout.splitlines()
    suite = [line for line in lines if line.startswith("browser suite:")]
    print(*(suite or ["browser suite: no timing line (skipped, or the site failed to build)"]), sep="\n")
    print(f"whole run, build included: {total:.1f} s; pytest says: {lines[-1] if lines else result.stderr.strip()}")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
