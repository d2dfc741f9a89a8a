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
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import PurePosixPath

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
