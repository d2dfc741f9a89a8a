"""Run the ```pycon blocks of the pages as doctests, one test per example.

Only pycon fences are read: a ```python fence holds `--8<--` include lines,
which are valid Python that would crash when run, so it is never parsed here.
A failure names the page and line, with the expected and the actual output.
"""

from __future__ import annotations

from collections.abc import Iterable
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Document, Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import CodeBlockParser

OPTIONFLAGS = ELLIPSIS | NORMALIZE_WHITESPACE


class PyconParser:
    """Turn each ```pycon block into one Sybil region per `>>>` example."""

    def __init__(self) -> None:
        self.blocks = CodeBlockParser(language="pycon", evaluator=lambda example: None)
        self.examples = DocTestStringParser(DocTestEvaluator(OPTIONFLAGS))

    def __call__(self, document: Document) -> Iterable[Region]:
        for block in self.blocks(document):
            source = block.parsed
            for example in self.examples(source, document.path):
                example.adjust(block, source)
                yield example


def make_sybil(**options) -> Sybil:
    return Sybil(parsers=[PyconParser()], **options)
