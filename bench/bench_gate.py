"""Time the whole gate (`python3 dev.py test`) and the fast loop (`python3 dev.py check`), several runs each.

    python bench/bench_gate.py [RUNS] [--write]   (from the repository root; default 3 runs)

Prints every run's wall and CPU time, the medians, and where the time went in the median gate run (the
gate's own lines: its "gate time by part" (the snippets and pages, the unit tests, the tests that wait for a
background job, the browser suite, each added over the two workers; and each background job's run), and the
browser suite's line, with Chromium's CPU). CPU is that of every process the command waited for, read with
getrusage: Chromium's renderers are not among them (the browser suite's line gives the browser's CPU).
Printed, never asserted: the machine's other load moves these figures. Targets: the gate at most 30 s,
check at most 3 s (issue 21). --write records the medians in bench/README.md.
"""

from __future__ import annotations

import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _figures import Figures

REPO_ROOT = Path(__file__).resolve().parents[1]


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float, str, int]:
    started, cpu = time.perf_counter(), cpu_of_children()
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    return time.perf_counter() - started, cpu_of_children() - cpu, result.stdout, result.returncode


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
            seconds, cpu, output, code = timed(command)
            lines = output.splitlines()
            parts = "; ".join(line for line in lines if line.startswith(("gate time by part:", "browser suite:")))
            outcome = "; ".join(line.strip("= ") for line in lines if re.search(r"\d+ (passed|failed)", line) and " in " in line)
            results.append((seconds, cpu, parts, outcome))
            failed |= code
            print(f"{name} run {run}: {seconds:.1f} s, {cpu:.1f} s CPU ({outcome or 'no result line'})", flush=True)
        median = statistics.median(seconds for seconds, *_ in results)
        closest = min(results, key=lambda result: abs(result[0] - median))
        figures.say(f"{name}: median {median:.1f} s of {runs} runs ({min(r[0] for r in results):.1f}-"
                    f"{max(r[0] for r in results):.1f} s), median CPU {statistics.median(r[1] for r in results):.1f} s; "
                    f"the median run: {closest[3] or 'no result line'}")
        figures.say(f"  {closest[2] or 'no time-by-part line'}")
    if not failed:
        figures.record()
    return failed


if __name__ == "__main__":
    sys.exit(main())
