"""Time `check` in this checkout against `check` at another commit, the two alternated.

    python bench/bench_check.py [REV] [PAIRS] [--write]   (from the repository root; REV defaults to HEAD, PAIRS to 5)

This machine's speed moves by half within an hour, so a figure from one hour cannot be compared with a figure
from another. Alternating the two trees puts the same load on both, and each pair swaps which runs first. REV is
checked out into a temporary git worktree, and both trees run `python -m guidetools.check` with this checkout's
.venv, each tree first on the path. With the default REV the working tree is measured against its last commit;
on a clean tree that measures the noise, and the ratio should be near 1. Both trees must pin the same
requirements (requirements.txt and pyproject.toml's [project]). Each pair gives the ratio of this tree's wall time
to REV's; the bench prints the median ratio, with the median wall and CPU of each. --write records the figures in
bench/README.md.
"""

from __future__ import annotations

import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from _figures import Figures
from _venv import REPO_ROOT, VENV_PYTHON

USAGE = "usage: python bench/bench_check.py [REV] [PAIRS] [--write]   (PAIRS: a whole number from 1)"


def git(*arguments: str) -> str:
    result = subprocess.run(["git", *arguments], cwd=REPO_ROOT, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"bench_check: git {' '.join(arguments)}: {result.stderr.strip()}")
    return result.stdout.strip()


def pins(text_of) -> tuple[str, dict]:
    """What one .venv must hold for a tree: its requirements.txt and its pyproject.toml's [project] table."""
    return text_of("requirements.txt"), tomllib.loads(text_of("pyproject.toml")).get("project", {})


def timed_check(tree: Path) -> tuple[float, float]:
    """One `check` of `tree`: its wall time and the CPU of every process it waited for."""
    # dev.py's bytecode setting (dev.keep_bytecode): without it, a machine that sets PYTHONDONTWRITEBYTECODE
    # times the compiling of every module too, which `dev.py check` never pays twice.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(tree)
    environment.setdefault("PYTHONPYCACHEPREFIX", str(VENV_PYTHON.parents[1] / "pycache"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([str(VENV_PYTHON), "-m", "guidetools.check"], cwd=tree, env=environment,
                            capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode:
        raise SystemExit(f"bench_check: check failed in {tree} (exit {result.returncode}):\n"
                         f"{(result.stdout + result.stderr)[-3000:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> int:
    figures = Figures("bench_check.py")
    arguments = sys.argv[1:]
    if len(arguments) > 2 or (len(arguments) == 2 and not (arguments[1].isdigit() and int(arguments[1]) >= 1)):
        raise SystemExit(USAGE)
    revision = arguments[0] if arguments else "HEAD"
    pairs = int(arguments[1]) if len(arguments) == 2 else 5
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], cwd=REPO_ROOT,
                           capture_output=True, text=True)
    if found.returncode:
        raise SystemExit(f"bench_check: no commit named {revision!r} in this repository\n{USAGE}")
    commit = found.stdout.strip()
    at_commit = lambda name: subprocess.run(["git", "show", f"{commit}:{name}"], cwd=REPO_ROOT, check=True,  # noqa: E731
                                            capture_output=True, text=True).stdout
    if pins(at_commit) != pins(lambda name: (REPO_ROOT / name).read_text(encoding="utf-8")):
        raise SystemExit(f"bench_check: {revision} pins other requirements than this checkout; one .venv cannot run both")
    # A SIGTERM ends the run as Ctrl-C does, through the clean-up below.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    try:
        with tempfile.TemporaryDirectory(prefix="bench-check-") as folder:
            other = Path(folder) / "tree"
            git("worktree", "add", "--detach", str(other), commit)
            try:
                for tree in (other, REPO_ROOT):  # a warm-up of each, unrecorded
                    timed_check(tree)
                runs: dict[Path, list[tuple[float, float]]] = {other: [], REPO_ROOT: []}
                for pair in range(1, pairs + 1):
                    for tree in (other, REPO_ROOT) if pair % 2 else (REPO_ROOT, other):
                        runs[tree].append(timed_check(tree))
                    (base, _), (here, _) = runs[other][-1], runs[REPO_ROOT][-1]
                    print(f"pair {pair}: {revision} {base:.2f} s, this tree {here:.2f} s: {here / base:.2f}", flush=True)
            finally:  # never hides what ended the run; what git cannot remove, prune drops once the folder is gone
                subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=REPO_ROOT, capture_output=True)
    finally:
        subprocess.run(["git", "worktree", "prune"], cwd=REPO_ROOT, capture_output=True)
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
