"""Time `check` in this checkout against `check` at another commit, the two alternated.

    python bench/bench_check.py [REV] [PAIRS] [--write]   (from the repository root; REV defaults to HEAD, PAIRS to 5)

This machine's speed moves by half within an hour, so a figure from one hour cannot be compared with a figure
from another. Alternating the two trees puts the same load on both. REV is checked out into a temporary git
worktree, and both trees run `python -m guidetools.check` with this checkout's .venv, each tree first on the path.
With the default REV the working tree is measured against its last commit; on a clean tree that measures the
noise, and the ratio should be near 1. Both trees must pin the same requirements. Each pair gives the ratio of
this tree's wall time to REV's; the bench prints the median ratio, with the median wall and CPU of each.
--write records the figures in bench/README.md.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _figures import Figures
from _venv import REPO_ROOT, VENV_PYTHON


def git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=REPO_ROOT, check=True, capture_output=True, text=True).stdout.strip()


def timed_check(tree: Path) -> tuple[float, float]:
    """One `check` of `tree`: its wall time and the CPU of every process it waited for."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([str(VENV_PYTHON), "-m", "guidetools.check"], cwd=tree, env=environment,
                            capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode:
        raise SystemExit(f"check failed in {tree} (exit {result.returncode}):\n{result.stdout[-2000:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> int:
    figures = Figures("bench_check.py")
    revision = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}")
    if git("diff", commit, "--", "requirements.txt", "pyproject.toml"):
        raise SystemExit(f"bench_check: {revision} pins other requirements than this checkout; one .venv cannot run both")
    with tempfile.TemporaryDirectory(prefix="bench-check-") as folder:
        other = Path(folder) / "tree"
        git("worktree", "add", "--detach", str(other), commit)
        try:
            for tree in (other, REPO_ROOT):  # a warm-up of each, unrecorded
                timed_check(tree)
            runs: dict[Path, list[tuple[float, float]]] = {other: [], REPO_ROOT: []}
            for pair in range(1, pairs + 1):
                for tree in (other, REPO_ROOT):
                    runs[tree].append(timed_check(tree))
                (base, _), (here, _) = runs[other][-1], runs[REPO_ROOT][-1]
                print(f"pair {pair}: {revision} {base:.2f} s, this tree {here:.2f} s: {here / base:.2f}", flush=True)
        finally:
            git("worktree", "remove", "--force", str(other))
    ratios = [here / base for (base, _), (here, _) in zip(runs[other], runs[REPO_ROOT])]
    figures.say(f"check, this tree against {revision} ({commit[:7]}), {pairs} pairs alternated after a warm-up: "
                f"median ratio {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    for name, tree in ((revision, other), ("this tree", REPO_ROOT)):
        figures.say(f"  {name}: median {statistics.median(s for s, _ in runs[tree]):.2f} s, "
                    f"median CPU {statistics.median(c for _, c in runs[tree]):.1f} s")
    figures.record()
    return 0


if __name__ == "__main__":
    sys.exit(main())
