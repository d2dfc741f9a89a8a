"""Shown output: what a snippet prints must be what the snippet file shows.

A listing shows a print's output on `#>` lines right below it, the way a
reader would see it in a terminal:

    print(envelope["count"], envelope["truncated"])
    #> 2 True

The snippet's test compares everything the file prints, in order, with its
`#>` lines, using doctest's rules (`...` stands for any text), so an output
shown on a page can never drift from the output the code produces.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

SHOWN_LINE = re.compile(r"^\s*#>(?: (?P<text>.*))?$")
_CHECKER = doctest.OutputChecker()
_OPTIONS = doctest.ELLIPSIS


def shown_output(path: Path) -> str:
    """The `#>` lines of a file, joined as the text they promise the file prints."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = SHOWN_LINE.match(line)
        if match:
            lines.append(match["text"] or "")
    return "\n".join(lines) + "\n" if lines else ""


def output_mismatch(path: Path, printed: str) -> str | None:
    """None when the printed text matches the shown output, else a diff a reviewer can act on."""
    shown = shown_output(path)
    if _CHECKER.check_output(shown, printed, _OPTIONS):
        return None
    example = doctest.Example(source="", want=shown)
    return _CHECKER.output_difference(example, printed, _OPTIONS | doctest.REPORT_UDIFF)
