"""claimcheck installed on its own, and its tests (tests/claimcheck/) run against that install:

    python tests/claimcheck_alone.py WORKDIR [PYTEST_OPTION ...]

`claimcheck[test]` installed alone and offline (tests/conform_package_job.py); its tests and their fixture site run
from WORKDIR/tests/, outside the checkout. It prints what the environment holds, lacks and imports claimcheck from,
then pytest's output and `pytest exit: N`, and exits with pytest's code.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from conform_package_job import build_wheel, clean_environment, install_alone, print_seen, step

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
    print_seen(python, workdir, "claimcheck", ABSENT, "claimcheck")
    started = time.perf_counter()
    code = subprocess.run([str(python), "-m", "pytest", "-p", "no:cacheprovider", *pytest_options], cwd=workdir,
                          env=clean_environment()).returncode
    print(f"pytest exit: {code}", flush=True)
    step("tests ran", started)
    return code


if __name__ == "__main__":
    folder, *options = sys.argv[1:]
    sys.exit(main(Path(folder), options))
