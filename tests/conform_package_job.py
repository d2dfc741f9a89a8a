"""The conformance client installed on its own, in one background job of the gate (guidetools/gate.py):

    python tests/conform_package_job.py WORKDIR [CONFORM_OPTION ...]

1. builds the wheel of conformance/ with `pip wheel --no-deps --no-build-isolation` (setuptools, pinned in
   requirements.txt, so nothing is fetched);
2. fills a wheelhouse with the distributions that wheel requires, repacked from this environment's installed
   ones (the pins requirements.txt already downloaded), so nothing is fetched;
3. makes a fresh virtual environment (no system site-packages, no pip of its own) and installs the client
   into it with `pip install --no-index --find-links WHEELHOUSE meshweaver-conform`: pip resolves the
   wheel's declared requirements, and only those, from the wheelhouse;
4. runs that environment's `meshweaver-conform --url … --header …` against agentkit's MCP server, from a
   folder outside the checkout.

It prints `built: WHEEL`, `wheelhouse: N wheels`, `installed: NAME==VERSION ...` (what the fresh environment
holds), `client: PATH` (where its `conformance` package was imported from), `absent: NAME ...` (modules of
the docs toolchain it cannot import), then conform's output and `conform exit: N`, with each step's seconds.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

from conform_job import REPO_ROOT, serving

PACKAGE = REPO_ROOT / "conformance"
DISTRIBUTION = "meshweaver-conform"
# What the guide's own checkout needs beside the client: none of it may be importable in the client's environment.
DOCS_TOOLCHAIN = ("agentkit", "claimcheck", "guidetools", "mkdocs", "material", "pytest", "matplotlib", "jupytext", "openpyxl")
_SEPARATORS = re.compile(r"[-_.]+")


def canonical(name: str) -> str:
    return _SEPARATORS.sub("-", name).lower()


def requirements_of(requires: list[str], extras: frozenset[str] = frozenset()) -> list[tuple[str, frozenset[str]]]:
    """The requirements (name, extras asked for) that apply here with `extras` (environment markers evaluated)."""
    from packaging.requirements import Requirement

    found = []
    for text in requires:
        requirement = Requirement(text)
        if requirement.marker is None or any(requirement.marker.evaluate({"extra": extra}) for extra in {"", *extras}):
            found.append((requirement.name, frozenset(requirement.extras)))
    return found


def wheel_requires(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(name).decode("utf-8")
    return [line.split(":", 1)[1].strip() for line in text.split("\n\n", 1)[0].splitlines() if line.startswith("Requires-Dist:")]


def closure(requirements: list[tuple[str, frozenset[str]]]) -> list[metadata.Distribution]:
    """The installed distributions `requirements` need, transitively, extras included."""
    found: dict[str, metadata.Distribution] = {}
    done: set[tuple[str, frozenset[str]]] = set()
    todo = list(requirements)
    while todo:
        name, extras = todo.pop()
        key = (canonical(name), extras)
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
    wheel = wheelhouse / f"{canonical(dist.metadata['Name']).replace('-', '_')}-{dist.version}-{tag}.whl"
    # Stored, not deflated: the wheel is read once, a few lines below, and compressing it would cost more.
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return wheel


def step(what: str, started: float) -> None:
    print(f"{what} in {time.perf_counter() - started:.2f} s", flush=True)


def main(workdir: Path, conform_options: list[str]) -> None:
    wheelhouse, environment = workdir / "wheelhouse", workdir / "venv"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    started = time.perf_counter()
    # Built from a copy: setuptools leaves build/ and *.egg-info beside the sources it builds, and the checkout's
    # conformance/ must hold only the suite (the claim checker reads every .py file under it).
    source = shutil.copytree(PACKAGE, workdir / "source", ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    subprocess.run([*pip, "wheel", "--no-deps", "--no-index", "--no-build-isolation", "--wheel-dir", str(wheelhouse), str(source)], check=True)
    built = next(wheelhouse.glob("meshweaver_conform-*.whl"))
    print(f"built: {built.name}", flush=True)
    step("wheel built", started)

    started = time.perf_counter()
    dists = closure(requirements_of(wheel_requires(built)))
    wheels = [repack(dist, wheelhouse) for dist in dists]
    print(f"wheelhouse: {len(wheels)} wheels", flush=True)
    step("wheelhouse filled", started)

    started = time.perf_counter()
    venv.create(environment, with_pip=False, system_site_packages=False, clear=True)
    python = environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # This environment's pip installs into the fresh one (--python), which has no pip of its own; without
    # compiling bytecode (the client compiles what it imports when it runs). The MCP server starts meanwhile.
    installing = subprocess.Popen([*pip, "--python", str(python), "install", "--no-index", "--find-links", str(wheelhouse),
                                   "--no-cache-dir", "--no-compile", DISTRIBUTION])
    with serving(workdir) as url:
        if installing.wait() != 0:
            raise SystemExit(f"pip install exited {installing.returncode}")
        step("installed", started)
        if url is not None:
            run_client(workdir, python, environment, url, conform_options)


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


def run_client(workdir: Path, python: Path, environment: Path, url: str, conform_options: list[str]) -> None:
    # The client's environment, seen from inside it, from a folder outside the checkout and with no path of ours.
    clean = clean_environment()
    seen = seen_from(python, workdir, "conformance", DOCS_TOOLCHAIN)
    print(f"installed: {' '.join(seen['installed'])}", flush=True)
    print(f"client: {seen['file']}", flush=True)
    print(f"absent: {' '.join(seen['absent'])}", flush=True)

    script = environment / ("Scripts/meshweaver-conform.exe" if os.name == "nt" else "bin/meshweaver-conform")
    command = [str(script), "--url", url, "--header", "Authorization: Bearer conformance-test-token",
               "--junit", str(workdir / "junit.xml"), "--report", str(workdir / "report.md"), *conform_options]
    print(f"command: {shlex.join(command)}", flush=True)
    started = time.perf_counter()
    code = subprocess.run(command, cwd=workdir, env=clean).returncode
    print(f"conform exit: {code}", flush=True)
    step("conform ran", started)


if __name__ == "__main__":
    folder, *options = sys.argv[1:]
    main(Path(folder), options)
