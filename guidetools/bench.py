"""Run the bench/bench_*.py scripts in turn; each prints its own figures.

    python3 dev.py bench                      every bench
    python3 dev.py bench gate serve           bench/bench_gate.py and bench/bench_serve.py only
    python3 dev.py bench --write [NAME ...]   and record each bench's figures in bench/README.md

With --write each bench rewrites its own generated section of bench/README.md (the date, nproc and
the figures it just measured); a bench that fails writes nothing.
"""

from __future__ import annotations

import subprocess
import sys

from guidetools.project import REPO_ROOT


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    write = ["--write"] if "--write" in arguments else []
    names = [argument for argument in arguments if argument != "--write"]
    scripts = sorted((REPO_ROOT / "bench").glob("bench_*.py"))
    unknown = [name for name in names if not (REPO_ROOT / "bench" / f"bench_{name}.py").exists()]
    if unknown:
        known = " ".join(script.stem.removeprefix("bench_") for script in scripts)
        print(f"dev.py bench: no bench named {' '.join(unknown)} (there are: {known})", file=sys.stderr)
        return 2
    failed = 0
    for script in scripts:
        if names and script.stem.removeprefix("bench_") not in names:
            continue
        print(f"== {script.relative_to(REPO_ROOT)}", flush=True)
        failed |= subprocess.run([sys.executable, str(script), *write], cwd=REPO_ROOT).returncode
    return failed


if __name__ == "__main__":
    sys.exit(main())
