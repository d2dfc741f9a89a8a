"""The package's PEP 517 build backend: it zips the client's modules into a wheel and needs nothing installed.

The client is pure Python, so its wheel is its modules plus the metadata of pyproject.toml's [project]
table. Building it this way needs no setuptools or wheel package: `pip install ./conformance` fetches the
MCP SDK and nothing else, and the guide's gate builds the wheel offline (tests/conform_package_job.py).
"""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the folder that is the package `conformance`
PACKAGE = "conformance"
TAG = "py3-none-any"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _dist_name(project: dict) -> str:
    return project["name"].replace("-", "_")


def _modules() -> list[tuple[str, Path]]:
    """(name in the wheel, file) of every module of the package: this folder's .py files and its subpackages'."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(("_backend", "build", ".")) or "__pycache__" in relative.parts:
            continue
        if not all((ROOT / Path(*relative.parts[:depth]) / "__init__.py").exists() for depth in range(len(relative.parts))):
            continue  # not inside a package
        found.append((f"{PACKAGE}/{relative.as_posix()}", path))
    return found


def _metadata(project: dict) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    readme = project.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n"


def _entry_points(project: dict) -> str:
    scripts = project.get("scripts", {})
    return "[console_scripts]\n" + "".join(f"{name} = {target}\n" for name, target in scripts.items()) if scripts else ""


def _dist_info_files(project: dict) -> dict[str, str]:
    files = {
        "METADATA": _metadata(project),
        "WHEEL": f"Wheel-Version: 1.0\nGenerator: meshweaver-conform wheelbuild\nRoot-Is-Purelib: true\nTag: {TAG}\n",
    }
    entry_points = _entry_points(project)
    if entry_points:
        files["entry_points.txt"] = entry_points
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings=None) -> str:
    project = _project()
    dist_info = Path(metadata_directory) / f"{_dist_name(project)}-{project['version']}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    for name, text in _dist_info_files(project).items():
        (dist_info / name).write_text(text, encoding="utf-8")
    return dist_info.name


def build_wheel(wheel_directory: str, config_settings=None, metadata_directory: str | None = None) -> str:
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    wheel_name = f"{base}-{TAG}.whl"
    dist_info = f"{base}.dist-info"
    entries = [(name, path.read_bytes()) for name, path in _modules()]
    entries += [(f"{dist_info}/{name}", text.encode("utf-8")) for name, text in _dist_info_files(project).items()]
    record = [_record_line(name, data) for name, data in entries] + [f"{dist_info}/RECORD,,"]
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in entries:
            wheel.writestr(name, data)
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return wheel_name


def build_sdist(sdist_directory: str, config_settings=None) -> str:
    import tarfile

    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    files = [path for path in sorted(ROOT.rglob("*")) if path.is_file() and "__pycache__" not in path.parts
             and path.suffix in (".py", ".toml", ".md") and path.name != "coverage.toml"]
    with tarfile.open(Path(sdist_directory) / f"{base}.tar.gz", "w:gz") as sdist:
        for path in files:
            sdist.add(path, arcname=f"{base}/{path.relative_to(ROOT).as_posix()}")
        info = _metadata(project).encode("utf-8")
        import io
        member = tarfile.TarInfo(f"{base}/PKG-INFO")
        member.size = len(info)
        sdist.addfile(member, io.BytesIO(info))
    return f"{base}.tar.gz"
