"""Captured output: tables and figures that snippets render for the pages.

A snippet defines `CAPTURES = {"name.md": function}`; each function returns the
text of snippets/output/name.md. The snippet's test compares the committed file
with a fresh rendering, and `dev.py regen` rewrites it.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable
from pathlib import Path

from claimcheck.outputs import LineRecorder
from tools.project import CAPTURED_OUTPUT, REPO_ROOT


def run_snippet(path: Path, execute: Callable[[types.ModuleType], None] | None = None) -> tuple[dict, str]:
    """Run a snippet file as a script (its asserts are its checks); return its namespace and what it printed.

    `execute` may run the file's code in the module instead: the test runner loads it through
    pytest's assertion rewriting, so a failing check shows its values.
    """
    namespace, recorder = run_snippet_recorded(path, execute)
    return namespace, recorder.getvalue()


def run_snippet_recorded(path: Path, execute: Callable[[types.ModuleType], None] | None = None) -> tuple[dict, LineRecorder]:
    """Like run_snippet, but what it printed comes with the snippet line that printed each piece."""
    # Run as __main__ in a module of its own, as `python snippets/x.py` would.
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    printed = LineRecorder(path)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        with contextlib.redirect_stdout(printed):
            (execute or _execute)(module)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved
    return module.__dict__, printed


def _execute(module: types.ModuleType) -> None:
    path = module.__file__
    exec(compile(Path(path).read_bytes(), path, "exec"), module.__dict__)


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
