"""A package's wheel built offline and installed on its own, for tests/conform_job.py (the conformance client) and
tests/claimcheck_alone.py (claimcheck, with its `test` extra)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import importlib.metadata as metadata
import os
import shutil
import subprocess
import sys
import time
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

from filelock import FileLock, ReadWriteLock, Timeout
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# None of the guide's toolchain may be importable beside the client (pytest, which runs the checks, is; its plugins not)
DOCS_TOOLCHAIN = ("agentkit", "claimcheck", "guidetools", "mkdocs", "material", "xdist", "matplotlib", "jupytext", "openpyxl")


def closure(requires: list[str], extras: frozenset[str]) -> list[metadata.Distribution]:
    """The installed distributions `requires` needs with `extras`, transitively (environment markers evaluated)."""
    found: dict[str, metadata.Distribution] = {}
    done: set[tuple[str, frozenset[str]]] = set()
    todo = [(requires, extras)]
    while todo:
        requires, extras = todo.pop()
        for r in map(Requirement, requires):
            key = (canonicalize_name(r.name), frozenset(r.extras))
            if key not in done and (r.marker is None or any(r.marker.evaluate({"extra": e}) for e in {"", *extras})):
                done.add(key)
                todo.append((found.setdefault(key[0], metadata.distribution(r.name)).requires or [], key[1]))
    return list(found.values())


def repack(dist: metadata.Distribution, wheelhouse: Path) -> Path:
    """An installed distribution as the wheel it was installed from (not its scripts: pip writes them again)."""
    site = Path(str(dist.locate_file("")))
    info = next(f for f in dist.files if f.name == "WHEEL")
    # Every tag the wheel declares, compressed as its file name writes them (py2-none-any and py3-none-any: py2.py3-none-any).
    tags = [line.split(":", 1)[1].strip().split("-") for line in (site / info).read_text().splitlines() if line.startswith("Tag:")]
    tag = "-".join(".".join(dict.fromkeys(parts)) for parts in zip(*tags))
    dist_info = info.parent.as_posix()
    skipped = {f"{dist_info}/{name}" for name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")}
    entries = [(file.as_posix(), (site / file).read_bytes()) for file in dist.files
               if not file.as_posix().startswith("..") and "__pycache__" not in file.parts and file.as_posix() not in skipped]
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


# What setuptools and Python leave in a package's folder: never built into the wheel, never in its environment's key.
NOT_THE_PACKAGE = ("__pycache__", "build", "*.egg-info")


def venv_python(environment: Path) -> Path:
    return environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def build_wheel(package: Path, workdir: Path) -> Path:
    """`package`'s wheel, built from a copy (setuptools litters its sources) by its PEP 517 hook, offline and in this
    process (pip's hook processes cost about 3 s of CPU), logging to WORKDIR/build.log."""
    shutil.rmtree(workdir / "source", ignore_errors=True)  # a WORKDIR used before: its copy is made again
    source = shutil.copytree(package, workdir / "source", ignore=shutil.ignore_patterns(*NOT_THE_PACKAGE))
    wheelhouse = workdir / "wheelhouse"
    wheelhouse.mkdir(parents=True, exist_ok=True)
    backend = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]
    argv = sys.argv[:]
    try:
        with (workdir / "build.log").open("w", encoding="utf-8") as log, contextlib.redirect_stdout(log), \
                contextlib.redirect_stderr(log), contextlib.chdir(source):  # a PEP 517 hook runs in the project's folder
            name = importlib.import_module(backend).build_wheel(str(wheelhouse))
    finally:
        sys.argv[:] = argv  # setuptools' hook leaves it set to its own command line
    return wheelhouse / name


def install_alone(wheel: Path, environment: Path, extras: frozenset[str] = frozenset()) -> Path:
    """The python of a fresh environment (no system site-packages) where our pip installed `wheel[extras]` offline."""
    info = next(entry for entry in zipfile.Path(wheel).iterdir() if entry.name.endswith(".dist-info"))
    for dist in closure(metadata.PathDistribution(info).requires or [], extras):
        repack(dist, wheel.parent)
    venv.create(environment, with_pip=False, system_site_packages=False, clear=True)
    python = venv_python(environment)
    wanted = f"{wheel}[{','.join(sorted(extras))}]" if extras else str(wheel)
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q", "--python", str(python),
                    "install", "--no-index", "--find-links", str(wheel.parent), "--no-cache-dir", "--no-compile", wanted],
                   check=True, env=clean_environment())
    return python


def environment_key(package: Path) -> str:
    """A digest of everything that goes into `package`'s environment: its files, the name and version of each
    distribution repacked beside it and of its build backend's, this module (how it is built), and the Python and
    pip that install it."""
    project = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        inside = path.relative_to(package).parts  # copytree's ignore_patterns, as build_wheel copies the package
        if path.is_file() and not any(fnmatch(part, pattern) for part in inside for pattern in NOT_THE_PACKAGE):
            digest.update(f"{'/'.join(inside)}\0".encode() + path.read_bytes() + b"\0")
    backend = [Requirement(entry).name for entry in project["build-system"]["requires"]]
    versions = [f"{dist.metadata['Name']}=={dist.version}" for dist in closure(project["project"]["dependencies"], frozenset())]
    versions += [f"{name}=={metadata.version(name)}" for name in [*backend, "pip"]]
    digest.update(" ".join([*sorted(versions), sys.version]).encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def installed_once(package: Path, cache: Path, workdir: Path) -> Iterator[tuple[Path, str]]:
    """The python of `package` installed alone in CACHE/KEY, and `built now` or `reused`, held for reading while
    the caller uses it. An environment is reused only while its key is unchanged; any change builds and installs
    afresh, and removes each older environment that no run is using."""
    environment = cache / environment_key(package)
    python = venv_python(environment)
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(cache / "lock"):  # one process at a time builds, removes or starts using an environment
        how = "reused"
        if not (environment / "installed").exists():
            for older in (entry for entry in cache.iterdir() if entry.is_dir()):
                try:
                    with ReadWriteLock(older / "in-use", is_singleton=False).write_lock(blocking=False):
                        (older / "installed").unlink(missing_ok=True)  # first: a removal cut short is never reused
                        shutil.rmtree(older)
                except Timeout:  # a run elsewhere (another checkout sharing this venv) is using it
                    pass
            install_alone(build_wheel(package, workdir), environment)
            (environment / "installed").touch()  # last: an install that broke off is never reused
            how = "built now"
        in_use = ReadWriteLock(environment / "in-use", is_singleton=False)
        in_use.acquire_read()
    try:
        yield python, how
    finally:
        in_use.release()
        in_use.close()


def clean_environment() -> dict[str, str]:
    """This process's environment with no path of ours, for a fresh environment seen from inside it."""
    return {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONPYCACHEPREFIX")}


def print_seen(python: Path, workdir: Path, package: str, absent: tuple[str, ...], label: str) -> None:
    """Prints, asked inside a fresh environment: `installed: NAME==VERSION ...`, `LABEL: PATH` of `package`, `absent: …`."""
    probe = ("import importlib, importlib.metadata as m, importlib.util as u, sys; package, label, *absent = sys.argv[1:]; "
             "print('installed:', *sorted(f\"{d.metadata['Name']}=={d.version}\" for d in m.distributions())); "
             "print(f'{label}:', importlib.import_module(package).__file__); "
             "print('absent:', *[n for n in absent if u.find_spec(n) is None])")
    print(subprocess.run([str(python), "-c", probe, package, label, *absent], cwd=workdir, env=clean_environment(),
                         check=True, capture_output=True, text=True).stdout, end="", flush=True)
