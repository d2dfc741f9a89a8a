"""Captured output: tables and figures that snippets render for the pages.

A snippet defines `CAPTURES = {"name.md": function}`; each function returns the
text of snippets/output/name.md. The snippet's test compares the committed file
with a fresh rendering, and `dev.py regen` rewrites it.
"""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path

from tools.project import CAPTURED_OUTPUT, REPO_ROOT


def run_snippet(path: Path) -> tuple[dict, str]:
    """Run a snippet file as a script (its asserts are its checks); return its namespace and what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        namespace = runpy.run_path(str(path), run_name="__main__")
    return namespace, printed.getvalue()


def render(namespace: dict, root: Path = REPO_ROOT) -> dict[Path, str]:
    """The captured files a snippet's namespace declares, keyed by their path under the root."""
    captures = namespace.get("CAPTURES", {})
    rendered = {}
    for name, produce in captures.items():
        text = produce()
        if not isinstance(text, str):
            raise TypeError(f"CAPTURES[{name!r}] returned {type(text).__name__}, not the text of the file")
        rendered[root / CAPTURED_OUTPUT / name] = text if text.endswith("\n") else text + "\n"
    return rendered


def stale(rendered: dict[Path, str]) -> list[Path]:
    """The captured files whose committed text differs from a fresh rendering."""
    return [
        path for path, text in rendered.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
