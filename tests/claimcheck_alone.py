"""claimcheck installed on its own, and its tests (tests/claimcheck/) run against that install:

    python tests/claimcheck_alone.py WORKDIR [PYTEST_OPTION ...]

1. builds the wheel of claimcheck/ (claimcheck/pyproject.toml) from a copy, by its build backend (PEP 517, no
   build isolation);
2. fills a wheelhouse with the distributions the wheel requires with its `test` extra, repacked from this
   environment's installed ones (the pins of requirements.txt), so nothing is fetched;
3. makes a fresh virtual environment (no system site-packages) and installs `claimcheck[test]` into it with
   `pip install --no-index --find-links WHEELHOUSE`: pip resolves the wheel's declared requirements, and only those;
4. copies tests/claimcheck/ and the fixture site it builds (tests/fixtures/claimcheck_site/) to WORKDIR/tests/,
   outside the checkout, and runs that environment's pytest there, with no path of the checkout's.

It prints `installed: NAME==VERSION ...` (what the fresh environment holds), `claimcheck: PATH` (where it imports
claimcheck from), `absent: NAME ...` (the checkout's
packages and the guide's toolchain, none importable there), pytest's output and `pytest exit: N`; it exits with
pytest's code. The same functions build the conformance client's environment (tests/conform_package_job.py).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from conform_package_job import build_wheel, clean_environment, install_alone, seen_from, step

REPO_ROOT = Path(__file__).resolve().parents[1]
# What the guide's checkout has beside claimcheck: none of it may be importable in claimcheck's environment.
ABSENT = ("agentkit", "guidetools", "conformance", "mcp_server", "snippets", "material", "pymdownx", "matplotlib",
          "jupytext", "mcp")


def main(workdir: Path, pytest_options: list[str]) -> int:
    started = time.perf_counter()
    built = build_wheel(REPO_ROOT / "claimcheck", workdir)
    print(f"built: {built.name}", flush=True)
    python = install_alone(built, workdir / "venv", frozenset({"test"}))
    step("built and installed", started)

    tests = workdir / "tests"
    shutil.copytree(REPO_ROOT / "tests" / "claimcheck", tests / "claimcheck", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "claimcheck_site", tests / "fixtures" / "claimcheck_site")
    # The rootdir's settings: the tests' own folder, and nothing of the guide's pyproject.toml.
    (workdir / "pytest.ini").write_text("[pytest]\ntestpaths = tests/claimcheck\n", encoding="utf-8")
    seen = seen_from(python, workdir, "claimcheck", ABSENT)
    print(f"installed: {' '.join(seen['installed'])}", flush=True)
    print(f"claimcheck: {seen['file']}", flush=True)
    print(f"absent: {' '.join(seen['absent'])}", flush=True)
    started = time.perf_counter()
    code = subprocess.run([str(python), "-m", "pytest", "-p", "no:cacheprovider", *pytest_options], cwd=workdir,
                          env=clean_environment()).returncode
    print(f"pytest exit: {code}", flush=True)
    step("tests ran", started)
    return code


if __name__ == "__main__":
    folder, *options = sys.argv[1:]
    sys.exit(main(Path(folder), options))
