"""Where elements sit in a page's HTML, found by the standard library's HTML parser.

The page filters (`_code_breaks`, `_notebook`) rewrite a few elements and leave every other byte of the
page as Python-Markdown and mkdocs-jupyter wrote it, so they splice the source rather than re-serialise a
tree: the parser (`html.parser`, the tokenizer BeautifulSoup's default builder uses) finds each element's
start and end in the source, and knows what a regex does not: comments, attribute values and the contents
of `<script>` and `<style>` hold no tags. HTML's implied end tags (a `<p>` ended by the next `<p>`) are not
modelled: an element left open ends with the first end tag of an element around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable

# Elements that have no end tag (HTML Living Standard, "void elements").
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_NEWLINE = re.compile("\n")


@dataclass
class Element:
    """One selected element: its source span, the span of what it contains, its parent's tag, its text."""

    tag: str
    attrs: list[tuple[str, str | None]]
    parent: str | None
    start: int  # the index of its `<`
    inner_start: int  # just past its start tag
    inner_end: int = -1  # the index of its end tag's `<` (the end of the HTML for an element never closed)
    end: int = -1  # just past its end tag
    has_markup: bool = False  # a tag or a comment inside it
    text: list[str] = field(default_factory=list)  # its text, character references resolved


def elements(html: str, select: Callable[[str, list[tuple[str, str | None]]], bool]) -> list[Element]:
    """The elements whose tag and attributes `select` accepts, in the order they start."""
    parser = _Finder(html, select)
    parser.feed(html)
    parser.close()
    for element in parser.open:
        element.inner_end = element.end = len(html)
    return parser.found


class _Finder(HTMLParser):
    def __init__(self, html: str, select) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.select = select
        self.lines = [0] + [match.end() for match in _NEWLINE.finditer(html)]
        self.stack: list[tuple[str, Element | None]] = []  # the open elements, innermost last
        self.open: list[Element] = []  # the selected elements not closed yet
        self.found: list[Element] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs) -> None:
        for element in self.open:
            element.has_markup = True
        element = None
        if self.select(tag, attrs):
            start = self._offset()
            text = self.get_starttag_text() or ""
            element = Element(tag, attrs, self.stack[-1][0] if self.stack else None, start, start + len(text))
            self.found.append(element)
            self.open.append(element)
        if tag not in _VOID:
            self.stack.append((tag, element))

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)  # `<div/>` opens a div in HTML: the slash is ignored

    def handle_endtag(self, tag) -> None:
        names = [name for name, _ in self.stack]
        if tag not in names:
            return  # a stray end tag closes nothing
        start = self._offset()
        end = self.html.index(">", start) + 1
        depth = len(names) - 1 - names[::-1].index(tag)
        for _, element in self.stack[depth:]:
            if element is not None:
                element.inner_end, element.end = start, end
                self.open.remove(element)
        del self.stack[depth:]
        for element in self.open:
            element.has_markup = True

    def handle_comment(self, data) -> None:
        for element in self.open:
            element.has_markup = True

    def handle_data(self, data) -> None:
        for element in self.open:
            element.text.append(data)
