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

import ast
import doctest
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimcheck.site import Site

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


# --- where each line of output comes from, and rewriting the `#>` lines ------------------------------------


@dataclass
class ShownBlock:
    """A run of `#>` lines in a file: where it stands, its indentation and the text it promises."""

    start: int  # first `#>` line, 1-based
    end: int  # last `#>` line
    indent: str
    text: str  # joined like shown_output: each line ends with a newline


@dataclass
class Attributed:
    """What a snippet printed, line of the printing statement by line: which block each output belongs to."""

    blocks: list[ShownBlock]
    printed: dict[int, str]  # block start line -> what the statement above it printed
    # output no block stands below: the line after which a new block would go (0: the top), and the text
    orphans: list[tuple[int, str]]

    def mismatches(self) -> list[tuple[ShownBlock | None, str]]:
        """Blocks whose text differs from what their statements printed, with the printed text."""
        found: list[tuple[ShownBlock | None, str]] = []
        for block in self.blocks:
            got = self.printed.get(block.start, "")
            if not _CHECKER.check_output(block.text, got, _OPTIONS):
                found.append((block, got))
        for _, text in self.orphans:
            found.append((None, text))
        return found


def shown_blocks(path: Path) -> list[ShownBlock]:
    blocks: list[ShownBlock] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = SHOWN_LINE.match(line)
        if not match:
            continue
        text = (match["text"] or "") + "\n"
        if blocks and blocks[-1].end == number - 1:
            blocks[-1].end = number
            blocks[-1].text += text
        else:
            blocks.append(ShownBlock(number, number, line[: len(line) - len(line.lstrip())], text))
    return blocks


class LineRecorder(io.TextIOBase):
    """A stdout that notes, with every write, the top-level statement of the snippet that made it.

    `run` executes the snippet one top-level statement at a time, so the statement that prints is the one
    running: a `#>` block stands below a top-level statement, and no stack needs reading. Code run in one
    piece (the test runner's assertion rewriting loads the whole module) writes at line 0.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.line = 0  # the last line of the top-level statement that runs
        self.writes: list[tuple[int, str]] = []

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.writes.append((self.line, text))
        return len(text)

    def getvalue(self) -> str:
        return "".join(text for _, text in self.writes)

    def run(self, namespace: dict) -> None:
        """Run the snippet's statements in order in `namespace`, as the module would run them."""
        for statement in ast.parse(self.path.read_bytes(), str(self.path)).body:
            self.line = statement.end_lineno or statement.lineno
            try:
                exec(compile(ast.Module([statement], type_ignores=[]), str(self.path), "exec"), namespace)
            finally:
                self.line = 0


def attribute(path: Path, writes: list[tuple[int, str]]) -> Attributed:
    """Give each printed text to the `#>` block right below the top-level statement that printed it;
    output of a statement with no block below goes to an orphan, placed after the statement."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = shown_blocks(path)
    block_after = {}
    for block in blocks:
        # The statement a block belongs to ends on the last code line above it (comments are not statements).
        above = block.start - 1
        while above > 0 and lines[above - 1].strip().startswith("#") and not SHOWN_LINE.match(lines[above - 1]):
            above -= 1
        block_after[above] = block
    printed: dict[int, str] = {}
    orphan_text: dict[int, str] = {}
    for line, text in writes:
        target = block_after.get(line) if line else None
        if target is not None:
            printed[target.start] = printed.get(target.start, "") + text
        else:
            orphan_text[line] = orphan_text.get(line, "") + text
    return Attributed(blocks, printed, sorted(orphan_text.items()))


def rewritten(path: Path, attributed: Attributed) -> str:
    """The file with each differing `#>` block replaced by what its statement printed (and new blocks added)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    edits: list[tuple[int, int, list[str]]] = []  # replace lines [first, last] (1-based) with new lines
    for block, got in attributed.mismatches():
        if block is not None:
            edits.append((block.start, block.end, _as_shown(got, block.indent)))
    for after, text in attributed.orphans:
        edits.append((after + 1, after, _as_shown(text, "")))
    for first, last, new in sorted(edits, key=lambda edit: edit[0], reverse=True):
        lines[first - 1:last] = new
    return "\n".join(lines) + "\n"


def _as_shown(text: str, indent: str) -> list[str]:
    return [f"{indent}#> {line}".rstrip() if line else f"{indent}#>" for line in text.rstrip("\n").split("\n")] if text else []


def where_shown(site: Site, snippet: Path, line: int) -> list[str]:
    """The page lines that show `snippet:line`: each include of a section that holds the line."""
    from claimcheck.pysource import read_sections

    sections, _ = read_sections(site.root / snippet, snippet)
    holding = {name for name, section in sections.items() if section.start < line < section.end}
    return [
        f"{include.page.as_posix()}:{include.line} (section '{include.section}')"
        for page in site.pages for include in page.includes
        if include.path == snippet.as_posix() and include.section in holding
    ]


def mismatch_report(site: Site, snippet: Path, attributed: Attributed) -> str:
    """One paragraph per differing block: the snippet line, the page lines that show it, expected and got."""
    parts = []
    for block, got in attributed.mismatches():
        if block is None:
            parts.append(f"{snippet.as_posix()}: prints output that no '#>' lines show:\n{_indented(got)}")
            continue
        shown = where_shown(site, snippet, block.start)
        place = f"shown on {', '.join(shown)}" if shown else "in no section a page shows"
        example = doctest.Example(source="", want=block.text)
        parts.append(
            f"{snippet.as_posix()}:{block.start}: the '#>' lines differ from what the code above them prints ({place})\n"
            + _CHECKER.output_difference(example, got, _OPTIONS)
        )
    return "\n".join(parts)


def _indented(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.rstrip("\n").split("\n"))
