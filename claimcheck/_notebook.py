"""On a notebook page, fold the code that only draws a figure.

The figure is what a reader of the cost explorer came for; the matplotlib code
that draws it filled a phone's screen several times over. A code cell that
calls `plt.` gets its input inside a closed `<details>`, summary "Plotting
code"; its output (the figure) stays in view. Cells that compute or check
something stay open. The notebook's source is untouched.
"""

from __future__ import annotations

import html as html_lib
import re

SUMMARY = "Plotting code"
_INPUT_WRAPPER = re.compile(r'<div class="jp-Cell-inputWrapper"[^>]*>')
_DIV_TAG = re.compile(r"<div\b|</div>")
_TAG = re.compile(r"<[^>]+>")
_PLOTS = re.compile(r"\bplt\.")


def fold_plotting_code(html: str) -> str:
    """A notebook page's HTML with each code cell that calls `plt.` folded."""
    pieces: list[str] = []
    position = 0
    for wrapper in _INPUT_WRAPPER.finditer(html):
        if wrapper.start() < position:
            continue
        end = _div_end(html, wrapper.end())
        cell_input = html[wrapper.start():end]
        if _PLOTS.search(html_lib.unescape(_TAG.sub("", cell_input))):
            pieces += [html[position:wrapper.start()], f'<details class="notebook-code"><summary>{SUMMARY}</summary>', cell_input, "</details>"]
            position = end
    pieces.append(html[position:])
    return "".join(pieces)


def _div_end(html: str, start: int) -> int:
    """The index just past the </div> that closes the <div> opened right before `start`."""
    depth = 1
    for tag in _DIV_TAG.finditer(html, start):
        depth += 1 if tag.group() == "<div" else -1
        if depth == 0:
            return tag.end()
    return len(html)
