"""The conformance client's wheel installed on its own, for the conformance job (tests/conform_job.py); claimcheck's
install (tests/claimcheck_alone.py, with claimcheck's `test` extra) uses the same functions.

1. `build_wheel`: conformance/'s wheel, built from a copy of the folder by its build backend's PEP 517 hook, with
   the setuptools pinned in requirements.txt (no index, no build isolation), so nothing is fetched;
2. `install_alone`: a fresh virtual environment (no system site-packages, no pip of its own) into which pip
   installs that wheel from a wheelhouse holding only what it requires, repacked from this environment's
   installed pins: pip resolves the wheel's declared requirements, as a deployment team's install does.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import importlib.metadata as metadata
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
import venv
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# What the guide's own checkout needs beside the client: none of it may be importable in the client's environment.
# (pytest runs the checks: the client requires it, but none of the gate's pytest plugins, such as xdist.)
DOCS_TOOLCHAIN = ("agentkit", "claimcheck", "guidetools", "mkdocs", "material", "xdist", "matplotlib", "jupytext", "openpyxl")


def requirements_of(requires: list[str], extras: frozenset[str] = frozenset()) -> list[tuple[str, frozenset[str]]]:
    """The requirements (name, extras asked for) that apply here with `extras` (environment markers evaluated)."""
    requirements = [Requirement(text) for text in requires]
    return [(r.name, frozenset(r.extras)) for r in requirements
            if r.marker is None or any(r.marker.evaluate({"extra": extra}) for extra in {"", *extras})]


def wheel_requires(wheel: Path) -> list[str]:
    info = next(entry for entry in zipfile.Path(wheel).iterdir() if entry.name.endswith(".dist-info"))
    return metadata.PathDistribution(info).requires or []


def closure(requirements: list[tuple[str, frozenset[str]]]) -> list[metadata.Distribution]:
    """The installed distributions `requirements` need, transitively, extras included."""
    found: dict[str, metadata.Distribution] = {}
    done: set[tuple[str, frozenset[str]]] = set()
    todo = list(requirements)
    while todo:
        name, extras = todo.pop()
        key = (canonicalize_name(name), extras)
        if key in done:
            continue
        done.add(key)
        dist = found.setdefault(key[0], metadata.distribution(name))
        todo += requirements_of(dist.requires or [], extras)
    return list(found.values())


def repack(dist: metadata.Distribution, wheelhouse: Path) -> Path:
    """An installed distribution as the wheel it was installed from: its files in site-packages and its dist-info
    (the scripts pip wrote elsewhere are left out: pip writes them again from entry_points.txt)."""
    site = Path(str(dist.locate_file("")))
    info = next(f for f in dist.files if f.name == "WHEEL")
    # Every tag the wheel declares, compressed as its file name writes them (py2-none-any and py3-none-any: py2.py3-none-any).
    tags = [line.split(":", 1)[1].strip().split("-") for line in (site / info).read_text().splitlines() if line.startswith("Tag:")]
    tag = "-".join(".".join(dict.fromkeys(parts)) for parts in zip(*tags))
    dist_info = info.parent.as_posix()
    skipped = {f"{dist_info}/{name}" for name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")}
    entries = []
    for file in dist.files:
        name = file.as_posix()
        if name.startswith("..") or "__pycache__" in file.parts or name in skipped:
            continue
        entries.append((name, (site / file).read_bytes()))
    record = [f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
              for name, data in entries] + [f"{dist_info}/RECORD,,"]
    wheel = wheelhouse / f"{canonicalize_name(dist.metadata['Name']).replace('-', '_')}-{dist.version}-{tag}.whl"
    # Stored, not deflated: the wheel is read once, a few lines below, and compressing it would cost more.
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return wheel


def step(what: str, started: float) -> None:
    print(f"{what} in {time.perf_counter() - started:.2f} s", flush=True)


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]


def build_wheel(package: Path, workdir: Path) -> Path:
    """The wheel of `package`, built from a copy: setuptools leaves build/ and *.egg-info beside the sources it builds,
    and the checkout's folder must hold only its sources (the claim checker reads every .py file there).

    The copy's build backend (its pyproject.toml's `build-backend`) builds it through PEP 517's `build_wheel` hook,
    the hook `pip wheel --no-build-isolation` calls: the setuptools pinned in requirements.txt builds it, and
    nothing is fetched. It is called in this process, not by pip and the two hook processes it starts, which cost every
    gate run about 3 s of CPU. What the backend prints goes to WORKDIR/build.log."""
    shutil.rmtree(workdir / "source", ignore_errors=True)  # a WORKDIR used before: its copy is made again
    source = shutil.copytree(package, workdir / "source", ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    wheelhouse = workdir / "wheelhouse"
    wheelhouse.mkdir(parents=True, exist_ok=True)
    backend = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]
    here, argv = os.getcwd(), sys.argv[:]
    with (workdir / "build.log").open("w", encoding="utf-8") as log, \
            contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        os.chdir(source)  # a PEP 517 hook runs in the project's folder
        try:
            name = importlib.import_module(backend).build_wheel(str(wheelhouse))
        finally:  # setuptools' hook leaves sys.argv set to its own command line
            os.chdir(here)
            sys.argv[:] = argv
    return wheelhouse / name


def install_alone(wheel: Path, environment: Path, extras: frozenset[str] = frozenset()) -> Path:
    """A fresh virtual environment (no system site-packages, no pip of its own) holding `wheel` (with `extras`) and
    what it requires, and nothing else, installed as a deployment team installs it: by pip, which resolves the wheel's
    declared requirements from a wheelhouse of this environment's installed pins (repacked, so nothing is
    fetched). Returns its python."""
    wheelhouse = wheel.parent
    for dist in closure(requirements_of(wheel_requires(wheel), extras)):
        repack(dist, wheelhouse)
    venv.create(environment, with_pip=False, system_site_packages=False, clear=True)
    python = environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # This environment's pip installs into the fresh one (--python), seeing no path of ours; the client compiles
    # what it imports.
    wanted = f"{wheel}[{','.join(sorted(extras))}]" if extras else str(wheel)
    subprocess.run([*PIP, "--python", str(python), "install", "--no-index", "--find-links", str(wheelhouse),
                    "--no-cache-dir", "--no-compile", wanted], check=True, env=clean_environment())
    return python


def clean_environment() -> dict[str, str]:
    """This process's environment with no path of ours, for a fresh environment seen from inside it."""
    return {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONPYCACHEPREFIX")}


def seen_from(python: Path, workdir: Path, package: str, absent: tuple[str, ...]) -> dict:
    """What a fresh environment holds (`installed`), where it imports `package` from (`file`), and which of
    `absent` it cannot import, asked from inside it in a folder outside the checkout."""
    probe = ("import importlib, importlib.metadata as m, importlib.util as u, json, sys; "
             "print(json.dumps({'installed': sorted(f\"{d.metadata['Name']}=={d.version}\" for d in m.distributions()), "
             "'file': importlib.import_module(sys.argv[1]).__file__, "
             "'absent': [n for n in sys.argv[2:] if u.find_spec(n) is None]}))")
    return json.loads(subprocess.run([str(python), "-c", probe, package, *absent], cwd=workdir, env=clean_environment(),
                                     check=True, capture_output=True, text=True).stdout)
