"""Run every bench/bench_*.py script in turn; each prints its own figures.

    python3 dev.py bench
"""

from __future__ import annotations

import subprocess
import sys

from tools.project import REPO_ROOT


def main() -> int:
    failed = 0
    for script in sorted((REPO_ROOT / "bench").glob("bench_*.py")):
        print(f"== {script.relative_to(REPO_ROOT)}", flush=True)
        failed |= subprocess.run([sys.executable, str(script)], cwd=REPO_ROOT).returncode
    return failed


if __name__ == "__main__":
    sys.exit(main())
