"""Time the whole gate (`python3 dev.py test -q`) against a plain `mkdocs build` of the same site, and the fast loop
(`python3 dev.py check`).

    python bench/bench_gate.py [PAIRS] [--write]   (from the repository root; default 3)

After a warm-up of each, unrecorded, the gate and the plain build run PAIRS times in turn (gate, build, gate,
build, ...), so the machine's other load falls on both alike; each pair gives the ratio of the gate's wall time
to the build's, and the bench prints the median ratio with the median of each. The plain build is MkDocs on the
same mkdocs.yml into a temporary folder (strict, as mkdocs.yml says), with dev.py's build environment. Then
`check` runs PAIRS times. The warm-up gate is a local run: it brings tests/axe.lock.json up to date (as an
author's first run after a change does), so the pairs measure the gate of a tree whose axe-core scans are
recorded. Printed with where the time went in the median gate run (the gate's own "gate time by part",
axe-core and browser suite lines); CPU is that of every process the command waited for, read with getrusage
(Chromium's renderers are not among them; the browser suite's line gives the browser's CPU). Never asserted:
the machine's other load moves these figures. Targets (issue 30): the gate at most 4 times a plain build,
`check` at most 3 s. --write records the medians in bench/README.md.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _figures import Figures

REPO_ROOT = Path(__file__).resolve().parents[1]
# What dev.py gives every build: Material's end-of-life box switched off (dev.BUILD_ENV).
BUILD_ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float, str, int]:
    started, cpu = time.perf_counter(), cpu_of_children()
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, env=BUILD_ENV)
    return time.perf_counter() - started, cpu_of_children() - cpu, result.stdout + result.stderr, result.returncode


def gate_lines(output: str) -> tuple[str, str]:
    """The gate's time-by-part, axe-core and browser suite lines, and its pytest result line."""
    lines = output.splitlines()
    parts = "; ".join(line for line in lines if line.startswith(("gate time by part:", "axe-core:", "browser suite:")))
    outcome = "; ".join(line.strip("= ") for line in lines if re.search(r"\d+ (passed|failed)", line) and " in " in line)
    return parts, outcome


def say_failures(output: str, code: int) -> None:
    """A failed run's short test summary (pytest's FAILED and ERROR lines), so a failed bench says what failed."""
    if code:
        print("\n".join(f"  {line}" for line in output.splitlines() if line.startswith(("FAILED", "ERROR")))
              or "  (no FAILED or ERROR line)", flush=True)


def span(values: list[float], unit: str = " s", digits: int = 1) -> str:
    return f"median {statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}-{max(values):.{digits}f}{unit})"


def main() -> int:
    figures = Figures("bench_gate.py")
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    gate = [sys.executable, "dev.py", "test", "-q"]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="bench-build-") as out:
        build = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", out]
        for name, command in (("warm-up gate", gate), ("warm-up build", build)):
            seconds, _, output, code = timed(command)
            failed |= code
            print(f"{name}: {seconds:.1f} s (not counted){'' if code == 0 else f', exit {code}'}", flush=True)
            say_failures(output, code)
        runs: list[tuple[float, float, float, str, str]] = []  # gate s, gate CPU, build s, parts, outcome
        for pair in range(1, pairs + 1):
            gate_seconds, gate_cpu, output, code = timed(gate)
            build_seconds, _, _, build_code = timed(build)
            failed |= code | build_code
            parts, outcome = gate_lines(output)
            runs.append((gate_seconds, gate_cpu, build_seconds, parts, outcome))
            print(f"pair {pair}: gate {gate_seconds:.1f} s ({gate_cpu:.1f} s CPU; {outcome or 'no result line'}), "
                  f"plain build {build_seconds:.1f} s{'' if build_code == 0 else f' (exit {build_code})'}: "
                  f"{gate_seconds / build_seconds:.2f}x", flush=True)
            say_failures(output, code)
    ratios = [gate_seconds / build_seconds for gate_seconds, _, build_seconds, *_ in runs]
    median_gate = statistics.median(run[0] for run in runs)
    closest = min(runs, key=lambda run: abs(run[0] - median_gate))
    figures.say(f"gate against a plain build, {pairs} pairs after a warm-up: {span(ratios, 'x', 2)} (target at most 4x); "
                f"gate {span([run[0] for run in runs])}, median CPU {statistics.median(run[1] for run in runs):.1f} s; "
                f"plain build {span([run[2] for run in runs])}")
    figures.say(f"  the median gate run: {closest[4] or 'no result line'}")
    figures.say(f"  {closest[3] or 'no time-by-part line'}")
    checks = []
    for run in range(1, pairs + 1):
        seconds, cpu, output, code = timed([sys.executable, "dev.py", "check"])
        failed |= code
        checks.append((seconds, cpu))
        print(f"check run {run}: {seconds:.1f} s, {cpu:.1f} s CPU", flush=True)
        say_failures(output, code)
    figures.say(f"check: {span([seconds for seconds, _ in checks])} of {pairs} runs (target at most 3 s), "
                f"median CPU {statistics.median(cpu for _, cpu in checks):.1f} s")
    if not failed:
        figures.record()
    return failed


if __name__ == "__main__":
    sys.exit(main())
