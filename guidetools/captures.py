"""Running a snippet: its namespace, what it printed, and the captured output it recorded.

A snippet records each file of snippets/output/ with `claimcheck.capture(name, text)` at the line
where its listing runs (claimcheck/captures.py). The snippet's test compares the committed files with
those captures, and `dev.py regen` rewrites them.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from claimcheck.captures import CaptureError, recording
from claimcheck.outputs import LineRecorder
from guidetools.project import CAPTURED_OUTPUT, REPO_ROOT


@dataclass(frozen=True)
class SnippetResult:
    namespace: dict
    printed: LineRecorder          # what it printed, with the top-level statement that printed each piece
    captured: dict[str, str]       # captured file name -> its text, as recorded where the listing ran


def run_snippet(path: Path, execute: Callable[[types.ModuleType], None] | None = None) -> SnippetResult:
    """Run a snippet file as a script (its asserts are its checks), recording what it prints and captures.

    `execute` may run the file's code in the module instead: the test runner loads it through
    pytest's assertion rewriting, so a failing check shows its values.
    """
    # Run as __main__ in a module of its own, as `python snippets/x.py` would.
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    printed = LineRecorder(path)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        with contextlib.redirect_stdout(printed), recording() as captured:
            execute(module) if execute else printed.run(module.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved
    if "CAPTURES" in module.__dict__:
        # The old form: functions run after the snippet's last line, from a state its asserts no longer check.
        names = ", ".join(repr(name) for name in module.__dict__["CAPTURES"])
        raise CaptureError(f"{path.name}: CAPTURES ({names}) is not read: its functions would render after the "
                           "snippet's state has moved on; call capture(name, text) where each listing runs")
    return SnippetResult(module.__dict__, printed, captured)


def render(captured: dict[str, str], root: Path = REPO_ROOT) -> dict[Path, str]:
    """The captured files, keyed by their path under the root."""
    return {root / CAPTURED_OUTPUT / name: text for name, text in captured.items()}


def stale(rendered: dict[Path, str]) -> list[Path]:
    """The captured files whose committed text differs from a fresh rendering."""
    return [
        path for path, text in rendered.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
