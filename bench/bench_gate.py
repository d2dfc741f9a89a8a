"""Time the whole gate (`python3 dev.py test`) and the fast loop (`python3 dev.py check`), several runs each.

    python bench/bench_gate.py [RUNS] [--write]   (from the repository root; default 3 runs)

Prints every run, the median, and where the time went in the median gate run (the gate's own
"gate time by tier" line: the cheap tiers, the tests that wait for the strict build, the browser
suite, and how long the strict build ran in the background). Printed, never asserted: the
machine's other load moves these figures. Targets: the gate at most 30 s, check under 10 s.
--write records the medians in bench/README.md.
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


def timed(command: list[str]) -> tuple[float, str, int]:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    return time.perf_counter() - started, result.stdout, result.returncode


def main() -> int:
    figures = Figures("bench_gate.py")
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    failed = 0
    for name, command in (
        ("check", [sys.executable, "dev.py", "check"]),
        ("gate", [sys.executable, "dev.py", "test", "-q"]),
    ):
        results = []
        for run in range(1, runs + 1):
            seconds, output, code = timed(command)
            lines = output.splitlines()
            # `check` runs two pytest processes: each prints its own tier, CPU and result lines.
            tiers = "; ".join(line for line in lines if line.startswith(("gate time by tier:", "gate CPU", "browser suite:")))
            outcome = "; ".join(line.strip("= ") for line in lines if re.search(r"\d+ (passed|failed)", line) and " in " in line)
            results.append((seconds, tiers, outcome))
            failed |= code
            print(f"{name} run {run}: {seconds:.1f} s ({outcome or 'no result line'})", flush=True)
        median = statistics.median(seconds for seconds, _, _ in results)
        closest = min(results, key=lambda result: abs(result[0] - median))
        figures.say(f"{name}: median {median:.1f} s of {runs} runs ({min(r[0] for r in results):.1f}-"
                    f"{max(r[0] for r in results):.1f} s); the median run: {closest[2] or 'no result line'}")
        figures.say(f"  {closest[1] or 'no tier line'}")
    if not failed:
        figures.record()
    return failed


if __name__ == "__main__":
    sys.exit(main())
