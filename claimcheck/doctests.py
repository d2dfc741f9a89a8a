"""Run the ```pycon blocks of the pages as doctests, one test per example.

Only pycon fences are read: a ```python fence holds `--8<--` include lines,
which are valid Python that would crash when run, so it is never parsed here.
A failure names the page and line, with the expected and the actual output.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from pathlib import Path

from sybil import Document, Lexeme, Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser

from claimcheck.page import read_lines

OPTIONFLAGS = ELLIPSIS | NORMALIZE_WHITESPACE


class PyconParser:
    """Turn each ```pycon block of the page model into one Sybil region per `>>>` example."""

    def __init__(self) -> None:
        self.examples = DocTestStringParser(DocTestEvaluator(OPTIONFLAGS))

    def __call__(self, document: Document) -> Iterable[Region]:
        lines = document.text.split("\n")
        starts = [0]  # where each line starts in the document's text
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        # The lines as the claims plugin reads the page (no empty line after the last newline): one parse serves both.
        for fence in read_lines(lines[:-1] if lines[-1:] == [""] else lines, Path(document.path)).fences:
            if fence.language != "pycon":
                continue
            opening = fence.line - 1
            indent = len(lines[opening]) - len(lines[opening].lstrip())
            # The body as the reader sees it: without the indentation of the container it stands in.
            code = textwrap.dedent("".join(line[indent:] + "\n" for line in fence.body))
            source = Lexeme(code, offset=starts[opening + 1] - starts[opening], line_offset=0)
            end = min(starts[opening + 1 + len(fence.body) + 1], len(document.text))
            block = Region(starts[opening], end, lexemes={"source": source})
            for example in self.examples(source, document.path):
                example.adjust(block, source)
                yield example


def make_sybil(**options) -> Sybil:
    return Sybil(parsers=[PyconParser()], **options)
