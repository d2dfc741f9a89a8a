"""On a notebook page, fold the code that only draws a figure.

The figure is what a reader of the cost explorer came for; the matplotlib code
that draws it filled a phone's screen several times over. A code cell that
calls `plt.` gets its input inside a closed `<details>`, summary "Plotting
code"; its output (the figure) stays in view. Cells that compute or check
something stay open. The notebook's source is untouched.
"""

from __future__ import annotations

import re

from claimcheck._html import elements

SUMMARY = "Plotting code"
_PLOTS = re.compile(r"\bplt\.")


def fold_plotting_code(html: str) -> str:
    """A notebook page's HTML with each code cell that calls `plt.` folded."""
    pieces: list[str] = []
    position = 0
    for cell in elements(html, _is_cell_input):
        if cell.start < position:
            continue  # inside a cell already folded
        if _PLOTS.search("".join(cell.text)):
            pieces += [html[position:cell.start], f'<details class="notebook-code"><summary>{SUMMARY}</summary>',
                       html[cell.start:cell.end], "</details>"]
            position = cell.end
    pieces.append(html[position:])
    return "".join(pieces)


def _is_cell_input(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    return tag == "div" and dict(attrs).get("class") == "jp-Cell-inputWrapper"
