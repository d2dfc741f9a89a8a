"""Captured output: a snippet records a file of `snippets/output/` at the line where its listing runs.

    answers = [create.call(arguments) for _, arguments in BAD_INPUTS]
    assert answers[6] == "Error creating node: NodeType 'Facts' is not registered"
    capture("create_errors.md", error_table(answers))

The text is taken there, from the values the asserts beside it check, and the committed file is
compared with it (`dev.py regen` rewrites the file from it). Nothing is rendered later: a function
given instead of text is refused, since it would run after the snippet's state had moved on and could
show what no assert checked. Run as a plain script, a snippet checks its captures and drops them.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from claimcheck.outputs import LineRecorder
from claimcheck.site import Site, running_in

# The captures of the snippet that runs now; None outside a recorded run.
_RECORDED: ContextVar[dict[str, str] | None] = ContextVar("claimcheck_captures", default=None)


class CaptureError(ValueError):
    """A capture that cannot be recorded as it is written: it names the capture and says what to do."""


def capture(name: str, text: str) -> None:
    """Record `text` as the captured file `name` (a bare file name such as "create_errors.md")."""
    if not isinstance(name, str) or not name or PurePosixPath(name).name != name or "\\" in name or name.startswith("."):
        raise CaptureError(f"capture name {name!r} is not a bare file name such as 'create_errors.md'")
    if callable(text):
        raise CaptureError(f"capture {name!r} is given a function, which would render it later, after the snippet's "
                           "state has moved on; pass the text it renders at this line")
    if not isinstance(text, str):
        raise CaptureError(f"capture {name!r} is given {type(text).__name__}, not the text of the file")
    recorded = _RECORDED.get()
    if recorded is None:
        return
    if name in recorded:
        raise CaptureError(f"capture {name!r} is recorded twice; each captured file has one place in the snippet")
    recorded[name] = text if text.endswith("\n") else text + "\n"


@contextlib.contextmanager
def recording() -> Iterator[dict[str, str]]:
    """The captures made while the block runs, by name, in the order they were made."""
    recorded: dict[str, str] = {}
    token = _RECORDED.set(recorded)
    try:
        yield recorded
    finally:
        _RECORDED.reset(token)


# --- running a snippet: its namespace, what it printed, and the captured output it recorded -----------------


@dataclass(frozen=True)
class SnippetResult:
    namespace: dict
    printed: LineRecorder          # what it printed, with the top-level statement that printed each piece
    captured: dict[str, str]       # captured file name -> its text, as recorded where the listing ran


def run_snippet(path: Path, execute: Callable[[types.ModuleType], None] | None = None, site: Site | None = None) -> SnippetResult:
    """Run a snippet file as a script (its asserts are its checks), recording what it prints and captures.

    `execute` may run the file's code in the module instead: the test runner loads it through
    pytest's assertion rewriting, so a failing check shows its values. `site` is the project the snippet
    belongs to (what `claimcheck.stated` reads); by default the one whose pyproject.toml is above it.
    """
    if site is None:
        with contextlib.suppress(LookupError):
            site = Site.enclosing(path.resolve().parent)
    # Run as __main__ in a module of its own, as `python snippets/x.py` would.
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    printed = LineRecorder(path)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        with running_in(site), contextlib.redirect_stdout(printed), recording() as captured:
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


def render(captured: dict[str, str], site: Site) -> dict[Path, str]:
    """The captured files, keyed by their path in the site's output folder."""
    return {site.root / site.output_folder / name: text for name, text in captured.items()}


def stale(rendered: dict[Path, str]) -> list[Path]:
    """The captured files whose committed text differs from a fresh rendering."""
    return [
        path for path, text in rendered.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
